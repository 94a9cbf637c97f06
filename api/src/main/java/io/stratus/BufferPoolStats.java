package io.stratus;

/**
 * What a database handle's buffer pool (its page cache) has done since it was created, at one moment.
 *
 * <p>Every fetch counts exactly once, as a hit, a miss, a refresh or a coalesced fetch, so {@code
 * hits + misses + refreshes + coalesced} is the number of fetches (transactions' first reads of a
 * page included), and {@code misses + refreshes} is the number of storage reads the pool made. The
 * counters are read one after another while fetches go on, so a snapshot taken under load may be
 * off by the fetches in flight; one taken while the pool is idle is exact.
 *
 * @param hits fetches answered from the pool without a cloud call (cached and within the TTL)
 * @param misses fetches of pages not in the pool: one storage get each
 * @param refreshes fetches of pages whose TTL had expired: one conditional get (by version) each
 * @param notModified refreshes that storage answered with "not modified" (no transfer)
 * @param coalesced fetches that found another thread's storage read of the same page in flight
 *     and shared its answer instead of making their own
 * @param evictions pages the pool dropped to stay within its byte bound
 * @param bytesCached the sum of the cached pages' encoded sizes (an upper bound of each)
 * @param pagesCached pages in the pool now
 */
public record BufferPoolStats(
    long hits,
    long misses,
    long refreshes,
    long notModified,
    long coalesced,
    long evictions,
    long bytesCached,
    long pagesCached) {

  /** The fetches counted: hits, misses, refreshes and coalesced fetches. */
  public long fetches() {
    return hits + misses + refreshes + coalesced;
  }

  /** The share of fetches answered without a cloud call; 0 before the first fetch. */
  public double hitRate() {
    long f = fetches();
    return f == 0 ? 0.0 : (double) hits / f;
  }
}
