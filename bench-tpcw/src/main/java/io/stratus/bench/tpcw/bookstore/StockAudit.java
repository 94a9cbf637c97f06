package io.stratus.bench.tpcw.bookstore;

/**
 * The stock audit of a run ({@link StratusBookstore#auditStock()}): whether every item's stock
 * equals its loaded stock plus the stock changes of the Buy Confirms that committed. A stock
 * that does not add up means a committed change was overwritten by a transaction that had read
 * the stock before it: a lost update, found by accounting rather than by version numbers.
 *
 * <p>A Buy Confirm whose commit outcome was unknown (the commit may or may not have taken
 * effect) is not held against the protocol: an item it changed adds up if its stock matches with
 * any subset of such changes applied.
 *
 * @param itemsChecked items whose stock was read and compared
 * @param itemsOff items whose stock does not add up
 * @param unitsOff the sum over those items of |stock read - stock expected| (expected from the
 *     committed changes only)
 * @param itemsUncertain items changed by a Buy Confirm whose commit outcome was unknown (judged
 *     leniently as above; counted whether they add up or not)
 * @param uncertainBuys Buy Confirms whose commit outcome was unknown
 */
public record StockAudit(
    long itemsChecked, long itemsOff, long unitsOff, long itemsUncertain, long uncertainBuys) {
  /** Checks the counts. */
  public StockAudit {
    if (itemsChecked < 0
        || itemsOff < 0
        || unitsOff < 0
        || itemsUncertain < 0
        || uncertainBuys < 0
        || itemsOff > itemsChecked) {
      throw new IllegalArgumentException(
          "inconsistent stock audit: "
              + itemsChecked
              + " checked, "
              + itemsOff
              + " off, "
              + unitsOff
              + " units, "
              + itemsUncertain
              + " uncertain, "
              + uncertainBuys
              + " uncertain buys");
    }
  }

  /** Whether every item's stock added up. */
  public boolean clean() {
    return itemsOff == 0;
  }
}
