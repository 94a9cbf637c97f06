package io.stratus.protocols;

import java.time.Duration;
import java.util.Objects;

/**
 * The checkpoint parameters of the queue-based protocols (paper 000, sections 4.3 to 4.5).
 *
 * @param lockTimeout how long a checkpoint holds the exclusive lock on a queue (the lock service's
 *     timeout for the prefix {@code <databaseUri>/pu/}; also the visibility timeout of the messages
 *     it receives); the paper used 30 s
 * @param propagationPeriod how much of the lease must be left for a checkpoint to still put a page
 *     (time for storage to make the put visible everywhere); the paper used 5 s
 * @param maxRecordsPerCheckpoint X, the most log records one checkpoint applies; the paper used 256
 * @param writes how checkpoints put pages
 * @param seed the seed of the reader-side checkpoint decisions (random with probability
 *     interval / age)
 * @param atomicTimeout the atomic protocol's grace period: a transaction in an ATOMIC queue
 *     without a commit record (a loser), or a commit record without log records (an orphan), is
 *     deleted only once its commit time is this much older than the recoverer's clock, so a live
 *     client's in-flight commit is never destroyed; longer than the lock timeout
 * @param closeTimeout the most a graceful close spends settling what the handle owes: letting
 *     running background work finish, propagating its pending commits and checkpointing every
 *     queue it owes, so that a handle opened next sees everything this one committed; zero or
 *     positive (zero: it waits for nothing and leaves the records to other clients)
 */
public record CheckpointSettings(
    Duration lockTimeout,
    Duration propagationPeriod,
    int maxRecordsPerCheckpoint,
    CheckpointWrites writes,
    long seed,
    Duration atomicTimeout,
    Duration closeTimeout) {
  /** 60 s: far longer than any commit's sends take. */
  public static final Duration DEFAULT_ATOMIC_TIMEOUT = Duration.ofSeconds(60);

  /** 30 s (paper 000, section 4.3). */
  public static final Duration DEFAULT_LOCK_TIMEOUT = Duration.ofSeconds(30);

  /** 5 s (paper 000, section 4.3: Amazon's safe value for S3). */
  public static final Duration DEFAULT_PROPAGATION_PERIOD = Duration.ofSeconds(5);

  /** 256 (paper 000, section 4.3). */
  public static final int DEFAULT_MAX_RECORDS = 256;

  /**
   * 20 s: room for the checkpoints of many queues, inside the 30 s Kubernetes grants a process by
   * default between its stop signal and killing it.
   */
  public static final Duration DEFAULT_CLOSE_TIMEOUT = Duration.ofSeconds(20);

  /** Settings with the default atomic and close timeouts. */
  public CheckpointSettings(
      Duration lockTimeout,
      Duration propagationPeriod,
      int maxRecordsPerCheckpoint,
      CheckpointWrites writes,
      long seed) {
    this(
        lockTimeout,
        propagationPeriod,
        maxRecordsPerCheckpoint,
        writes,
        seed,
        DEFAULT_ATOMIC_TIMEOUT,
        DEFAULT_CLOSE_TIMEOUT);
  }

  public CheckpointSettings {
    Objects.requireNonNull(closeTimeout, "closeTimeout");
    if (closeTimeout.isNegative()) {
      throw new IllegalArgumentException(
          "the close timeout must not be negative, got " + closeTimeout);
    }
    Objects.requireNonNull(lockTimeout, "lockTimeout");
    Objects.requireNonNull(atomicTimeout, "atomicTimeout");
    if (atomicTimeout.compareTo(lockTimeout) <= 0) {
      throw new IllegalArgumentException(
          "the atomic timeout must be longer than the lock"
              + " timeout, got "
              + atomicTimeout
              + " for "
              + lockTimeout);
    }
    Objects.requireNonNull(propagationPeriod, "propagationPeriod");
    Objects.requireNonNull(writes, "writes");
    if (lockTimeout.isNegative() || lockTimeout.isZero()) {
      throw new IllegalArgumentException("the lock timeout must be positive, got " + lockTimeout);
    }
    if (propagationPeriod.isNegative() || propagationPeriod.compareTo(lockTimeout) >= 0) {
      throw new IllegalArgumentException(
          "the propagation period must be at least 0 and shorter"
              + " than the lock timeout, got "
              + propagationPeriod
              + " for "
              + lockTimeout);
    }
    if (maxRecordsPerCheckpoint < 1) {
      throw new IllegalArgumentException(
          "a checkpoint must apply at least one record, got " + maxRecordsPerCheckpoint);
    }
  }

  /** The paper's values, {@link CheckpointWrites#AUTO}, seed 0. */
  public static CheckpointSettings defaults() {
    return new CheckpointSettings(
        DEFAULT_LOCK_TIMEOUT,
        DEFAULT_PROPAGATION_PERIOD,
        DEFAULT_MAX_RECORDS,
        CheckpointWrites.AUTO,
        0L);
  }
}
