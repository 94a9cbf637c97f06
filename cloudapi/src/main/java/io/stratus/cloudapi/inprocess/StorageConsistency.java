package io.stratus.cloudapi.inprocess;

import java.time.Duration;
import java.util.Objects;

/**
 * How consistent the in-process storage is: strong (read-after-write, as S3 is today; the default)
 * or eventual, as S3 was in 2008: for a bounded window after a put or delete, a read may be served
 * from a stale replica and return the previous version (or miss a new item, or still see a deleted
 * one). After the window every read reflects the write.
 *
 * @param staleWindow how long after a write a read may still miss it; zero means strong
 * @param staleReadProbability for a read that may be stale, the chance that it is (0 to 1)
 */
public record StorageConsistency(Duration staleWindow, double staleReadProbability) {
  private static final StorageConsistency STRONG = new StorageConsistency(Duration.ZERO, 0);

  public StorageConsistency {
    Objects.requireNonNull(staleWindow, "staleWindow");
    if (staleWindow.isNegative()) {
      throw new IllegalArgumentException("staleWindow must not be negative: " + staleWindow);
    }
    if (!(staleReadProbability >= 0 && staleReadProbability <= 1)) {
      throw new IllegalArgumentException("staleReadProbability must be in [0, 1]");
    }
  }

  /** Read-after-write consistency (the default). */
  public static StorageConsistency strong() {
    return STRONG;
  }

  /** Eventual consistency with the given window; a read in the window is stale with chance 1/2. */
  public static StorageConsistency eventual(Duration staleWindow) {
    return new StorageConsistency(staleWindow, 0.5);
  }

  public boolean isStrong() {
    return staleWindow.isZero() || staleReadProbability == 0;
  }
}
