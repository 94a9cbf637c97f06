package io.stratus.bench.tpcw.bookstore;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Results of a page per key (a subject), each reused until it is {@code maxAge} old. The
 * specification lets the Best Sellers and New Products pages show results up to 30 seconds old
 * (its web page consistency rules), as a web application server would cache them; the results
 * are the heavy part of those pages (Best Sellers ranks the lines of the last 3,333 orders), so
 * recomputing them for every request would make the harness's own work dominate what is measured.
 *
 * <p>Age is measured on the bookstore's clock, from the start of the interaction that computed a
 * result to the start of one that reuses it. Thread-safe: when two interactions compute the same
 * key at once, the result computed later in their clock's time is kept.
 *
 * @param <T> the result
 */
final class ResultCache<T> {
  private record Entry<T>(long computedAtMillis, T value) {}

  private final long maxAgeMillis;
  private final ConcurrentHashMap<String, Entry<T>> entries = new ConcurrentHashMap<>();

  /** A cache whose results are reused while they are younger than {@code maxAge}. */
  ResultCache(Duration maxAge) {
    if (maxAge.isNegative() || maxAge.isZero()) {
      throw new IllegalArgumentException("maxAge must be positive, not " + maxAge);
    }
    this.maxAgeMillis = maxAge.toMillis();
  }

  /**
   * The result for {@code key} computed less than the maximum age before {@code nowMillis}, or
   * null when there is none (never computed, too old, or computed after {@code nowMillis}).
   */
  T fresh(String key, long nowMillis) {
    Entry<T> e = entries.get(key);
    if (e == null) {
      return null;
    }
    long age = nowMillis - e.computedAtMillis();
    return age >= 0 && age < maxAgeMillis ? e.value() : null;
  }

  /** Keeps {@code value} for {@code key}, computed at {@code computedAtMillis}. */
  void put(String key, long computedAtMillis, T value) {
    entries.merge(
        key,
        new Entry<>(computedAtMillis, value),
        (old, neu) -> neu.computedAtMillis() >= old.computedAtMillis() ? neu : old);
  }
}
