package io.stratus.bench.tpcw.harness;

/**
 * How fresh a session's reads of what it wrote itself were (its cart, its latest order): a read
 * that shows an older version than the session committed, or misses it, is stale. Whole run,
 * warm-up included.
 *
 * @param checked own reads whose freshness was judged
 * @param stale of those, the stale ones
 * @param maxStalenessMillis the longest a stale own read lagged behind the session's commit
 */
public record OwnReads(long checked, long stale, long maxStalenessMillis) {
  /** Nothing judged. */
  public static final OwnReads NONE = new OwnReads(0, 0, 0);
}
