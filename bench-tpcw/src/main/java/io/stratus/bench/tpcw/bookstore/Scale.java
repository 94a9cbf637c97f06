package io.stratus.bench.tpcw.bookstore;

/**
 * The size of a TPC-W database (specification clause 4.3): the number of items (the scale factor:
 * 1,000, 10,000, 100,000, ...) and of emulated browsers (EBs), from which every other table's
 * cardinality follows. {@code customersPerEb} is 2,880 in the specification; tests lower it to
 * load a tiny database.
 *
 * <p>The number of lines of each order is a fixed function of the order's position (1 to 5, mean
 * 3), not of the generator's seed, so that {@link #totalRows()} is exact before the load starts.
 *
 * @param items rows of ITEM; at least {@link #MIN_ITEMS}
 * @param ebs emulated browsers; at least 1
 * @param customersPerEb customers per EB; at least 1
 */
public record Scale(long items, int ebs, int customersPerEb) {
  /** The specification's customers per emulated browser. */
  public static final int SPEC_CUSTOMERS_PER_EB = 2_880;

  /** The fewest items accepted: an item has five distinct related items, an author books. */
  public static final long MIN_ITEMS = 20;

  /** Rows of COUNTRY. */
  public static final int COUNTRIES = 92;

  /** Validates the sizes. */
  public Scale {
    if (items < MIN_ITEMS) {
      throw new IllegalArgumentException(
          "a TPC-W database needs at least " + MIN_ITEMS + " items, got " + items);
    }
    if (items > 100_000_000L) {
      throw new IllegalArgumentException("at most 100,000,000 items are supported, got " + items);
    }
    if (ebs < 1) {
      throw new IllegalArgumentException("the number of EBs must be at least 1, got " + ebs);
    }
    if (customersPerEb < 1) {
      throw new IllegalArgumentException(
          "customers per EB must be at least 1, got " + customersPerEb);
    }
    if ((long) ebs * customersPerEb > 1_000_000_000L) {
      throw new IllegalArgumentException(
          "too many customers: "
              + ebs
              + " EBs x "
              + customersPerEb
              + " per EB exceeds 1,000,000,000");
    }
  }

  /** The specification's scale: {@code items} items, {@code ebs} EBs, 2,880 customers per EB. */
  public static Scale of(long items, int ebs) {
    return new Scale(items, ebs, SPEC_CUSTOMERS_PER_EB);
  }

  /** AUTHOR: a quarter of the items. */
  public long authors() {
    return items / 4;
  }

  public long countries() {
    return COUNTRIES;
  }

  /** CUSTOMER: customers per EB times EBs. */
  public long customers() {
    return (long) ebs * customersPerEb;
  }

  /** ADDRESS: two per customer. */
  public long addresses() {
    return 2 * customers();
  }

  /** ORDERS: 0.9 per customer. */
  public long orders() {
    return customers() * 9 / 10;
  }

  /** ORDER_LINE: 1 to 5 per order (exact; see {@link #linesOfOrder}). */
  public long orderLines() {
    long n = 0;
    for (long j = 0; j < orders(); j++) {
      n += linesOfOrder(j);
    }
    return n;
  }

  /** CC_XACTS: one per order. */
  public long ccXacts() {
    return orders();
  }

  /** Rows of all ten tables together (the shopping-cart tables start empty). */
  public long totalRows() {
    return items
        + authors()
        + countries()
        + customers()
        + addresses()
        + orders()
        + orderLines()
        + ccXacts();
  }

  /** The number of lines of the order at position {@code orderIndex} (0-based): 1 to 5. */
  static int linesOfOrder(long orderIndex) {
    long z = orderIndex * 0x9E3779B97F4A7C15L + 0x632BE59BD9B4E019L; // SplitMix64 finaliser
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    z ^= z >>> 31;
    return 1 + (int) Math.floorMod(z, 5L);
  }
}
