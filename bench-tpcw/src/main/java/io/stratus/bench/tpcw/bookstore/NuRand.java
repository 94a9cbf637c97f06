package io.stratus.bench.tpcw.bookstore;

import java.util.SplittableRandom;

/**
 * TPC-W's non-uniform random numbers (specification clause 2.1.13): {@code NURand(A, x, y) =
 * ((random(0, A) | random(x, y)) % (y - x + 1)) + x}. OR-ing a uniform number with a second one
 * sets bits more often than it clears them, so some values of the range are drawn many times
 * more often than others; the browser emulator uses it where real shoppers concentrate on a few
 * customers' accounts and popular search terms.
 *
 * <p>The constant A grows with the range it skews. For customer ids it depends on the number of
 * customers (clause 2.3.2, {@link #customerA}); for the item-based search strings on the number of
 * items (clause 2.10.5.1, {@link #itemA}).
 *
 * <p>Stateless and thread-safe; the caller's random source is used.
 */
final class NuRand {
  private NuRand() {}

  /** Upper bounds of the customer-count ranges of clause 2.3.2 and their A, in order. */
  private static final long[][] CUSTOMER_A = {
    {9_999L, 1_023L},
    {39_999L, 4_095L},
    {159_999L, 16_383L},
    {639_999L, 65_535L},
    {2_559_999L, 262_143L},
    {10_239_999L, 1_048_575L},
    {40_959_999L, 4_194_303L},
    {163_839_999L, 16_777_215L},
    {655_359_999L, 67_108_863L}
  };

  /** The item scales of clause 2.10.5.1 and their A, ascending. */
  private static final long[][] ITEM_A = {
    {1_000L, 63L},
    {10_000L, 511L},
    {100_000L, 4_095L},
    {1_000_000L, 32_767L},
    {10_000_000L, 524_287L}
  };

  /** NURand(A, x, y): a number in {@code [x, y]}, skewed by {@code a}. */
  static long draw(SplittableRandom random, long a, long x, long y) {
    if (a < 0 || y < x) {
      throw new IllegalArgumentException(
          "NURand needs A >= 0 and x <= y, got A=" + a + ", [" + x + ", " + y + "]");
    }
    long uniformA = random.nextLong(a + 1);
    long uniformRange = random.nextLong(x, y + 1);
    return ((uniformA | uniformRange) % (y - x + 1)) + x;
  }

  /**
   * A for customer ids among {@code customers} customers (clause 2.3.2); the largest row's A
   * beyond its range.
   */
  static long customerA(long customers) {
    for (long[] row : CUSTOMER_A) {
      if (customers <= row[0]) {
        return row[1];
      }
    }
    return CUSTOMER_A[CUSTOMER_A.length - 1][1];
  }

  /**
   * A for the item-based search strings at {@code items} items (clause 2.10.5.1). The table
   * names the five standard scales; other scales take the A of the largest standard scale not
   * above them (the smallest one's below 1,000 items).
   */
  static long itemA(long items) {
    long a = ITEM_A[0][1];
    for (long[] row : ITEM_A) {
      if (items >= row[0]) {
        a = row[1];
      }
    }
    return a;
  }

  /** A customer id of a population of {@code customers}, NURand-skewed as the emulator draws. */
  static long customerId(SplittableRandom random, long customers) {
    return draw(random, customerA(customers), 1, customers);
  }
}
