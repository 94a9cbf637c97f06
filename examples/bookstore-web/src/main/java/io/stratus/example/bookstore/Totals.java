package io.stratus.example.bookstore;

/**
 * What an order costs, by TPC-W's rules: the books, 8.25% tax on them, and shipping of $3.00 plus
 * $1.00 a copy.
 */
public record Totals(int copies, long subtotalCents, long taxCents, long shipCents) {
  /** Tax in basis points (1/100 of a per cent). */
  static final long TAX_BASIS_POINTS = 825;

  /** The totals of {@code copies} copies costing {@code subtotalCents} together. */
  static Totals of(int copies, long subtotalCents) {
    long tax = (subtotalCents * TAX_BASIS_POINTS + 5_000) / 10_000; // rounded half up
    long ship = copies == 0 ? 0 : 300 + 100L * copies;
    return new Totals(copies, subtotalCents, tax, ship);
  }

  /** Books, tax and shipping. */
  public long totalCents() {
    return subtotalCents + taxCents + shipCents;
  }
}
