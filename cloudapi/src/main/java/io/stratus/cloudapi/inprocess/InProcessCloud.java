package io.stratus.cloudapi.inprocess;

import io.stratus.cloudapi.CloudLimits;
import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.IndexLimits;
import io.stratus.cloudapi.SimpleQueueService;
import io.stratus.cloudapi.StorageService;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A whole cloud in this JVM: the Cloud API services (the six of the papers and the index service) with their state held by this instance
 * (never static), the embedded default of the TPC-W harness and the base of every protocol test.
 *
 * <p>Why it has knobs: the protocols of the papers were designed for 2008's weak guarantees, and a
 * test can only show they survive them if the cloud can reproduce them on demand. Each weakness is
 * one setting, off by default: eventually consistent storage ({@link StorageConsistency}), simple
 * queues that reorder, return short receives and redeliver ({@link QueueBehavior}), storage without
 * conditional writes (as before 2024), simple queues that cannot hand a received message back
 * (without {@link io.stratus.cloudapi.SupportsVisibilityChange}, as the papers' SQS), and restarts
 * of the lock and counter services ({@link #restartLockService()}, {@link
 * #restartCounterService()}), and an index service whose queries lag behind its writes or which
 * throttles writes ({@link IndexBehavior}).
 *
 * <p>Time comes from the injected {@link Clock} (lock leases, counter validation, visibility
 * timeouts, stale windows, message retention, index query lag and throttling); randomness from {@link #seed()}, so a failing test
 * that prints the seed can be replayed. Every call completes its future before returning, on the
 * caller's thread; wrap the services with the latency decorator to model network delay.
 *
 * <p>Thread-safe: every service may be called from any number of threads.
 */
public final class InProcessCloud implements AutoCloseable {
  /** Default lock timeout for URIs without a configured prefix: 60 seconds. */
  public static final Duration DEFAULT_LOCK_TIMEOUT = Duration.ofSeconds(60);

  /** Default counter validation timeout for URIs without a configured prefix: 60 seconds. */
  public static final Duration DEFAULT_COUNTER_TIMEOUT = Duration.ofSeconds(60);

  private final long seed;
  private final Clock clock;
  private final InProcessStorage storage;
  private final InProcessSimpleQueues simpleQueues;
  private final InProcessAdvancedQueues advancedQueues;
  private final InProcessLocks locks;
  private final InProcessCounters counters;
  private final InProcessMachines machines;
  private final InProcessIndex index;
  private final CloudServices services;

  private InProcessCloud(Builder b) {
    this.seed = b.seed;
    this.clock = b.clock;
    // Each service draws from its own stream, so that one service's calls do not shift another's.
    this.storage = new InProcessStorage(clock, b.limits, b.storageConsistency, seed * 31 + 1);
    this.simpleQueues = new InProcessSimpleQueues(clock, b.limits, b.queueBehavior, seed * 31 + 2);
    this.advancedQueues = new InProcessAdvancedQueues(clock, b.limits);
    this.locks = new InProcessLocks(clock, b.limits, b.defaultLockTimeout);
    this.counters = new InProcessCounters(clock, b.limits, b.defaultCounterTimeout);
    this.machines = new InProcessMachines(clock);
    this.index = new InProcessIndex(clock, b.indexLimits, b.indexBehavior);
    StorageService visibleStorage =
        b.conditionalPut ? storage : new UnconditionalStorageView(storage);
    SimpleQueueService visibleQueues =
        b.visibilityChange ? simpleQueues : new FixedVisibilityQueuesView(simpleQueues);
    this.services =
        CloudServices.builder()
            .storage(visibleStorage)
            .simpleQueues(visibleQueues)
            .advancedQueues(advancedQueues)
            .locks(locks)
            .counters(counters)
            .machines(machines)
            .index(index)
            .build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** An in-process cloud with every default: strong storage, reliable queues, the system clock. */
  public static InProcessCloud create() {
    return builder().build();
  }

  /** The services. Closing the bundle does not discard this cloud's state. */
  public CloudServices services() {
    return services;
  }

  /** The seed of every random choice this cloud makes; print it when a test fails. */
  public long seed() {
    return seed;
  }

  public Clock clock() {
    return clock;
  }

  /**
   * Simulates a failure and restart of the lock service: every lock is lost, and every acquire is
   * refused for the longest configured lock timeout (paper 000, section 2.3.5).
   */
  public void restartLockService() {
    locks.restart();
  }

  /**
   * Simulates a failure and restart of the counter service: every counter is lost, requests are
   * refused for the longest configured timeout, and later values carry a higher epoch (paper 000,
   * sections 2.3.6 and 6.6).
   */
  public void restartCounterService() {
    counters.restart();
  }

  /** Storage items held now (all versions' current heads), for tests and diagnostics. */
  public int storedItemCount() {
    return storage.itemCount();
  }

  /** Nothing to release: the state lives on the heap and goes with this object. */
  @Override
  public void close() {}

  /** Settings of an in-process cloud, each validated as it is given. */
  public static final class Builder {
    private long seed = ThreadLocalRandom.current().nextLong();
    private Clock clock = Clock.systemUTC();
    private CloudLimits limits = CloudLimits.aws();
    private StorageConsistency storageConsistency = StorageConsistency.strong();
    private QueueBehavior queueBehavior = QueueBehavior.reliable();
    private boolean conditionalPut = true;
    private boolean visibilityChange = true;
    private Duration defaultLockTimeout = DEFAULT_LOCK_TIMEOUT;
    private Duration defaultCounterTimeout = DEFAULT_COUNTER_TIMEOUT;
    private IndexLimits indexLimits = IndexLimits.defaults();
    private IndexBehavior indexBehavior = IndexBehavior.strong();

    private Builder() {}

    /** The seed of every random choice; a random one when not given. */
    public Builder seed(long seed) {
      this.seed = seed;
      return this;
    }

    /** The clock for leases, timeouts, windows and timestamps; the system clock by default. */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** The limits every service enforces; today's AWS limits by default. */
    public Builder limits(CloudLimits limits) {
      this.limits = Objects.requireNonNull(limits, "limits");
      return this;
    }

    public Builder storageConsistency(StorageConsistency consistency) {
      this.storageConsistency = Objects.requireNonNull(consistency, "consistency");
      return this;
    }

    public Builder queueBehavior(QueueBehavior behavior) {
      this.queueBehavior = Objects.requireNonNull(behavior, "behavior");
      return this;
    }

    /**
     * Whether storage offers conditional puts ({@link io.stratus.cloudapi.SupportsConditionalPut});
     * true by default, false to reproduce S3 before 2024.
     */
    public Builder conditionalPut(boolean enabled) {
      this.conditionalPut = enabled;
      return this;
    }

    /**
     * Whether simple queues can change a received message's visibility ({@link
     * io.stratus.cloudapi.SupportsVisibilityChange}); true by default, false to reproduce SQS as
     * the papers had it, where a received message stays hidden until its timeout ends.
     */
    public Builder visibilityChange(boolean enabled) {
      this.visibilityChange = enabled;
      return this;
    }

    /** The limits of the index service; {@link IndexLimits#defaults()} by default. */
    public Builder indexLimits(IndexLimits limits) {
      this.indexLimits = Objects.requireNonNull(limits, "limits");
      return this;
    }

    /** Query lag and throttling of the index service; {@link IndexBehavior#strong()} by default. */
    public Builder indexBehavior(IndexBehavior behavior) {
      this.indexBehavior = Objects.requireNonNull(behavior, "behavior");
      return this;
    }

    public Builder defaultLockTimeout(Duration timeout) {
      this.defaultLockTimeout = positive("defaultLockTimeout", timeout);
      return this;
    }

    public Builder defaultCounterTimeout(Duration timeout) {
      this.defaultCounterTimeout = positive("defaultCounterTimeout", timeout);
      return this;
    }

    public InProcessCloud build() {
      return new InProcessCloud(this);
    }

    private static Duration positive(String name, Duration d) {
      Objects.requireNonNull(d, name);
      if (d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException(name + " must be positive, got " + d);
      }
      return d;
    }
  }
}
