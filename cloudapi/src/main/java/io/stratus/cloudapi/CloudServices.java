package io.stratus.cloudapi;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The services of the Cloud API as one bundle, which is what the layers above take: the six of the
 * papers and the index service. Services may come from different providers (S3 and SQS for storage
 * and queues, ZooKeeper for locks, counters and advanced queues, DynamoDB for the index service); a
 * deployment may leave out services it does not use (the index service and machines are needed
 * only by the features that use them), and asking for a missing one fails with {@link
 * IllegalStateException} naming it.
 *
 * <p>Immutable and thread-safe. {@link #close()} closes each distinct service once, in reverse order
 * of registration.
 */
public final class CloudServices implements AutoCloseable {
  private final @Nullable StorageService storage;
  private final @Nullable SimpleQueueService simpleQueues;
  private final @Nullable AdvancedQueueService advancedQueues;
  private final @Nullable LockService locks;
  private final @Nullable CounterService counters;
  private final @Nullable MachineReservationService machines;
  private final @Nullable IndexService index;
  private final List<AutoCloseable> extraResources;

  private CloudServices(Builder b) {
    this.storage = b.storage;
    this.simpleQueues = b.simpleQueues;
    this.advancedQueues = b.advancedQueues;
    this.locks = b.locks;
    this.counters = b.counters;
    this.machines = b.machines;
    this.index = b.index;
    this.extraResources = List.copyOf(b.extraResources);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder that starts with this bundle's services, e.g. to replace one of them. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.storage = storage;
    b.simpleQueues = simpleQueues;
    b.advancedQueues = advancedQueues;
    b.locks = locks;
    b.counters = counters;
    b.machines = machines;
    b.index = index;
    b.extraResources.addAll(extraResources);
    return b;
  }

  public StorageService storage() {
    return require(storage, "storage");
  }

  public SimpleQueueService simpleQueues() {
    return require(simpleQueues, "simple queue");
  }

  public AdvancedQueueService advancedQueues() {
    return require(advancedQueues, "advanced queue");
  }

  public LockService locks() {
    return require(locks, "lock");
  }

  public CounterService counters() {
    return require(counters, "counter");
  }

  public MachineReservationService machines() {
    return require(machines, "machine reservation");
  }

  public IndexService index() {
    return require(index, "index");
  }

  /** Whether the bundle holds {@code service}. */
  public boolean has(Operation.Service service) {
    return switch (service) {
      case STORAGE -> storage != null;
      case SIMPLE_QUEUE -> simpleQueues != null;
      case ADVANCED_QUEUE -> advancedQueues != null;
      case LOCK -> locks != null;
      case COUNTER -> counters != null;
      case MACHINE -> machines != null;
      case INDEX -> index != null;
    };
  }

  /** How messages name {@code service}: "storage", "simple queue", "advanced counter", ... */
  public static String describe(Operation.Service service) {
    return switch (service) {
      case STORAGE -> "storage";
      case SIMPLE_QUEUE -> "simple queue";
      case ADVANCED_QUEUE -> "advanced queue";
      case LOCK -> "lock";
      case COUNTER -> "advanced counter";
      case MACHINE -> "machine reservation";
      case INDEX -> "index";
    };
  }

  public boolean hasStorage() {
    return storage != null;
  }

  public boolean hasSimpleQueues() {
    return simpleQueues != null;
  }

  public boolean hasAdvancedQueues() {
    return advancedQueues != null;
  }

  public boolean hasLocks() {
    return locks != null;
  }

  public boolean hasCounters() {
    return counters != null;
  }

  public boolean hasMachines() {
    return machines != null;
  }

  public boolean hasIndex() {
    return index != null;
  }

  private static <T> T require(@Nullable T service, String name) {
    if (service == null) {
      throw new IllegalStateException("this deployment has no " + name + " service configured");
    }
    return service;
  }

  /** Closes every distinct service and extra resource once; the first failure is rethrown. */
  @Override
  public void close() {
    IdentityHashMap<Object, Boolean> seen = new IdentityHashMap<>();
    List<AutoCloseable> all = new ArrayList<>();
    for (AutoCloseable c :
        new AutoCloseable[] {
          storage, simpleQueues, advancedQueues, locks, counters, machines, index
        }) {
      if (c != null && seen.put(c, Boolean.TRUE) == null) {
        all.add(c);
      }
    }
    for (AutoCloseable c : extraResources) {
      if (seen.put(c, Boolean.TRUE) == null) {
        all.add(c);
      }
    }
    RuntimeException first = null;
    for (int i = all.size() - 1; i >= 0; i--) {
      try {
        all.get(i).close();
      } catch (Exception e) {
        if (first == null) {
          first =
              e instanceof RuntimeException ? (RuntimeException) e : new IllegalStateException(e);
        } else {
          first.addSuppressed(e);
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }

  /** Collects the services; any may be left out. */
  public static final class Builder {
    private @Nullable StorageService storage;
    private @Nullable SimpleQueueService simpleQueues;
    private @Nullable AdvancedQueueService advancedQueues;
    private @Nullable LockService locks;
    private @Nullable CounterService counters;
    private @Nullable MachineReservationService machines;
    private @Nullable IndexService index;
    private final List<AutoCloseable> extraResources = new ArrayList<>();

    private Builder() {}

    public Builder storage(StorageService storage) {
      this.storage = Objects.requireNonNull(storage, "storage");
      return this;
    }

    public Builder simpleQueues(SimpleQueueService simpleQueues) {
      this.simpleQueues = Objects.requireNonNull(simpleQueues, "simpleQueues");
      return this;
    }

    public Builder advancedQueues(AdvancedQueueService advancedQueues) {
      this.advancedQueues = Objects.requireNonNull(advancedQueues, "advancedQueues");
      return this;
    }

    public Builder locks(LockService locks) {
      this.locks = Objects.requireNonNull(locks, "locks");
      return this;
    }

    public Builder counters(CounterService counters) {
      this.counters = Objects.requireNonNull(counters, "counters");
      return this;
    }

    public Builder machines(MachineReservationService machines) {
      this.machines = Objects.requireNonNull(machines, "machines");
      return this;
    }

    public Builder index(IndexService index) {
      this.index = Objects.requireNonNull(index, "index");
      return this;
    }

    /** A resource to close with the bundle (a shared client, a scheduler thread). */
    public Builder closeWith(AutoCloseable resource) {
      this.extraResources.add(Objects.requireNonNull(resource, "resource"));
      return this;
    }

    public CloudServices build() {
      return new CloudServices(this);
    }
  }
}
