package io.stratus.core;

import io.stratus.InvalidConfigurationException;
import java.time.Duration;
import java.util.SplittableRandom;

/**
 * How {@link Database#run} and {@link Database#read} retry a transaction function after a failure
 * that is safe to retry: how many attempts at most, and how long to back off between them.
 *
 * <p>Back-off is exponential with full jitter: before attempt n+1 the runner waits a uniformly
 * random time in [0, min(maxBackoff, initialBackoff × 2^(n−1))]. Jitter keeps the clients that
 * failed together (a throttled service, a contended page) from retrying together. The waiting is
 * done by a {@link Sleeper}, which tests replace so that no test waits for real time. A handle
 * configured with a policy ({@link DatabaseConfig.Builder#retryPolicy}) also waits on its sleeper
 * between polls of other clients' progress (a commit counter that has not caught up, a close
 * whose queues another client's checkpoint holds).
 *
 * <p>Immutable and thread-safe; the random source of the jitter is split per run.
 */
public final class RetryPolicy {
  /** Default attempts at most, the first one included. */
  public static final int DEFAULT_MAX_ATTEMPTS = 8;

  /** Default upper bound of the first back-off. */
  public static final Duration DEFAULT_INITIAL_BACKOFF = Duration.ofMillis(20);

  /** Default upper bound of any back-off. */
  public static final Duration DEFAULT_MAX_BACKOFF = Duration.ofSeconds(2);

  /** Waits between attempts. */
  @FunctionalInterface
  public interface Sleeper {
    /** Waits {@code d}; interruption ends the run with the last failure. */
    void sleep(Duration d) throws InterruptedException;

    /** Waits on the calling thread. */
    Sleeper THREAD = d -> Thread.sleep(d.toMillis(), d.toNanosPart() % 1_000_000);
  }

  private static final RetryPolicy DEFAULTS = builder().build();

  private final int maxAttempts;
  private final Duration initialBackoff;
  private final Duration maxBackoff;
  private final Sleeper sleeper;
  private final long seed;

  private RetryPolicy(Builder b) {
    this.maxAttempts = b.maxAttempts;
    this.initialBackoff = b.initialBackoff;
    this.maxBackoff = b.maxBackoff;
    this.sleeper = b.sleeper;
    this.seed = b.seed;
  }

  /** The defaults: {@link #DEFAULT_MAX_ATTEMPTS}, {@link #DEFAULT_INITIAL_BACKOFF}, {@link
   * #DEFAULT_MAX_BACKOFF}, waiting on the calling thread. */
  public static RetryPolicy defaults() {
    return DEFAULTS;
  }

  /** A builder starting from the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** Attempts at most, the first one included. */
  public int maxAttempts() {
    return maxAttempts;
  }

  /** Upper bound of the first back-off. */
  public Duration initialBackoff() {
    return initialBackoff;
  }

  /** Upper bound of any back-off. */
  public Duration maxBackoff() {
    return maxBackoff;
  }

  Sleeper sleeper() {
    return sleeper;
  }

  /** A jitter source for one run, independent of other runs' but reproducible from the seed. */
  SplittableRandom jitter(long salt) {
    return new SplittableRandom(seed ^ (salt * 0x9E3779B97F4A7C15L));
  }

  /** The back-off before attempt {@code next} (2 or more), drawn from {@code random}. */
  Duration backoffBefore(int next, SplittableRandom random) {
    long cap = initialBackoff.toNanos();
    for (int i = 2; i < next && cap < maxBackoff.toNanos(); i++) {
      cap = Math.min(maxBackoff.toNanos(), cap * 2);
    }
    cap = Math.min(cap, maxBackoff.toNanos());
    return Duration.ofNanos(cap <= 0 ? 0 : random.nextLong(cap + 1));
  }

  /** Builds a {@link RetryPolicy}; each setting is checked when it is set. */
  public static final class Builder {
    private int maxAttempts = DEFAULT_MAX_ATTEMPTS;
    private Duration initialBackoff = DEFAULT_INITIAL_BACKOFF;
    private Duration maxBackoff = DEFAULT_MAX_BACKOFF;
    private Sleeper sleeper = Sleeper.THREAD;
    private long seed = System.nanoTime();

    private Builder() {}

    /** Attempts at most, the first included: 1 (no retry) to 1,000. */
    public Builder maxAttempts(int attempts) {
      if (attempts < 1 || attempts > 1_000) {
        throw new InvalidConfigurationException("maxAttempts must be 1 to 1000, got " + attempts);
      }
      this.maxAttempts = attempts;
      return this;
    }

    /** Upper bound of the first back-off: zero or positive, at most an hour. */
    public Builder initialBackoff(Duration d) {
      this.initialBackoff = checkBackoff("initialBackoff", d);
      return this;
    }

    /** Upper bound of any back-off: zero or positive, at most an hour. */
    public Builder maxBackoff(Duration d) {
      this.maxBackoff = checkBackoff("maxBackoff", d);
      return this;
    }

    /** What waits between attempts (tests pass one that records instead of waiting). */
    public Builder sleeper(Sleeper sleeper) {
      this.sleeper = Args.notNull(sleeper, "sleeper");
      return this;
    }

    /** The seed of the jitter (default: the time the builder was made). */
    public Builder seed(long seed) {
      this.seed = seed;
      return this;
    }

    /** The policy; {@code initialBackoff} must not exceed {@code maxBackoff}. */
    public RetryPolicy build() {
      if (initialBackoff.compareTo(maxBackoff) > 0) {
        throw new InvalidConfigurationException(
            "initialBackoff " + initialBackoff + " exceeds maxBackoff " + maxBackoff);
      }
      return new RetryPolicy(this);
    }

    private static Duration checkBackoff(String name, Duration d) {
      Args.notNull(d, name);
      if (d.isNegative() || d.compareTo(Duration.ofHours(1)) > 0) {
        throw new InvalidConfigurationException(name + " must be 0 to 1 hour, got " + d);
      }
      return d;
    }
  }
}
