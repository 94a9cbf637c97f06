package io.stratus.cloudapi.inprocess;

import java.time.Duration;
import java.util.Objects;

/**
 * How the in-process index service behaves. The default ({@link #strong()}) answers every query
 * from the latest state and never throttles. The weak knobs reproduce what SimpleDB did and what
 * DynamoDB's global secondary indexes do, and what the protocols must survive:
 *
 * @param queryLag how long a write stays invisible to queries (gets see it at once): a query at
 *     time t sees exactly the writes completed by t - lag, in order, as a lagging index replica
 *     would; zero means strongly consistent queries
 * @param writesPerSecond the most items a domain accepts per second of the clock (puts, deletes,
 *     batch entries), beyond which writes are refused with a retry-after as a throttled service
 *     refuses them; zero means no throttling
 */
public record IndexBehavior(Duration queryLag, int writesPerSecond) {
  private static final IndexBehavior STRONG = new IndexBehavior(Duration.ZERO, 0);

  public IndexBehavior {
    Objects.requireNonNull(queryLag, "queryLag");
    if (queryLag.isNegative()) {
      throw new IllegalArgumentException("queryLag must not be negative: " + queryLag);
    }
    if (writesPerSecond < 0) {
      throw new IllegalArgumentException(
          "writesPerSecond must be zero (no throttling) or positive: " + writesPerSecond);
    }
  }

  /** Strongly consistent queries, no throttling (the default). */
  public static IndexBehavior strong() {
    return STRONG;
  }

  /** Queries that miss the writes of the last {@code lag}. */
  public static IndexBehavior eventual(Duration lag) {
    return new IndexBehavior(lag, 0);
  }

  /** This behaviour with at most {@code writesPerSecond} written items per domain and second. */
  public IndexBehavior throttled(int writesPerSecond) {
    return new IndexBehavior(queryLag, writesPerSecond);
  }

  public boolean isStronglyConsistent() {
    return queryLag.isZero();
  }
}
