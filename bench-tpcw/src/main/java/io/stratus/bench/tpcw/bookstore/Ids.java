package io.stratus.bench.tpcw.bookstore;

/**
 * Ids of rows created while the benchmark runs (customers, addresses, carts, orders): unique
 * across sessions and processes without coordination, and ordered by creation time.
 *
 * <p>Layout: the creation time in epoch milliseconds shifted left by {@link #RANDOM_BITS}, then a
 * per-session random tag and a per-session counter in the low bits. Two ids can only collide when
 * two sessions create a row in the same millisecond with the same tag and counter byte (about one
 * in sixteen thousand pairs of such sessions); a create then fails with a duplicate key and the
 * interaction runs again with fresh ids. Positive until September 2039 (2^41 ms).
 *
 * <p>The loaded population uses small ids (1..N) for every table but ORDERS, whose ids follow the
 * same time layout as new orders (see {@link DataGenerator}), so that "the most recent orders" is
 * always the tail of the order key space.
 */
final class Ids {
  static final int RANDOM_BITS = 22;
  private static final int COUNTER_BITS = 8;
  private static final long TAG_MASK = (1L << (RANDOM_BITS - COUNTER_BITS)) - 1;
  private static final long COUNTER_MASK = (1L << COUNTER_BITS) - 1;

  private final long tag;
  private long counter;
  private long last;

  /** A generator for one session; {@code tag} supplies its random component. */
  Ids(long tag) {
    this.tag = tag & TAG_MASK;
  }

  /** The next id of this session at {@code nowMillis}: larger than every id it gave before. */
  long next(long nowMillis) {
    long id =
        (Math.max(0, nowMillis) << RANDOM_BITS)
            | (tag << COUNTER_BITS)
            | (counter++ & COUNTER_MASK);
    if (id <= last) {
      id = last + 1;
    }
    last = id;
    return id;
  }

  /** The smallest id created at or after {@code millis}. */
  static long floorOf(long millis) {
    return Math.max(0, millis) << RANDOM_BITS;
  }

  /** When the row with a time-ordered id was created, in epoch milliseconds. */
  static long millisOf(long id) {
    return id >>> RANDOM_BITS;
  }
}
