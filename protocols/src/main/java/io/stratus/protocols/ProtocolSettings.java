package io.stratus.protocols;

import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.Operation.Service;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The settings of one commit protocol, and nothing else: what the database hands the protocol it
 * runs. Each record checks its own rules when made (the same rules the configuration builder
 * checks first, so that its message names what the user set) and declares the Cloud API services
 * its protocol needs.
 */
public sealed interface ProtocolSettings
    permits ProtocolSettings.Naive, ProtocolSettings.Checkpointed {

  /** The protocol. */
  ProtocolKind kind();

  /** The Cloud API services the protocol uses ({@link ProtocolKind#services()}). */
  default Set<Service> services() {
    return kind().services();
  }

  /**
   * Refuses {@code cloud} when it lacks a service the protocol uses, naming every missing one.
   *
   * @throws io.stratus.InvalidConfigurationException a service is missing
   */
  default void checkServices(CloudServices cloud) {
    kind().checkServices(cloud);
  }

  /**
   * The rules between settings that the protocol {@code kind} relies on.
   *
   * @return the rules, for {@link Setting.Rule#check}
   */
  static List<Setting.Rule> rules(ProtocolKind kind) {
    List<Setting.Rule> rules = new ArrayList<>();
    if (kind.accepts(ProtocolOption.CHECKPOINTS)) {
      rules.addAll(CheckpointSettings.RULES);
    }
    if (kind == ProtocolKind.ATOMIC) {
      rules.add(Atomic.LOCK_TIMEOUT_RULE);
    }
    if (kind.accepts(ProtocolOption.ISOLATION)) {
      rules.add(Isolating.LEASE_RULE);
    }
    return List.copyOf(rules);
  }

  /**
   * The settings of protocol {@code kind} among {@code values}.
   *
   * @throws io.stratus.InvalidConfigurationException a rule is broken (the message names the
   *     settings the user set)
   */
  static ProtocolSettings of(ProtocolKind kind, Setting.Values values) {
    Setting.Rule.check(rules(kind), values);
    return switch (kind) {
      case NAIVE -> new Naive();
      case BASIC -> new Basic(CheckpointSettings.of(values));
      case MONOTONIC ->
          new Monotonic(CheckpointSettings.of(values), values.get(Settings.WRITER_LANES));
      case ATOMIC, ADVANCED_ATOMIC ->
          new Atomic(kind, CheckpointSettings.of(values), values.get(Settings.WRITER_LANES));
      case SNAPSHOT_ISOLATION, SERIALIZABLE_SNAPSHOT, TWO_PHASE_LOCKING ->
          new Isolating(kind, CheckpointSettings.of(values), IsolationSettings.of(values));
    };
  }

  /** The settings of {@code kind} with every default. */
  static ProtocolSettings defaults(ProtocolKind kind) {
    return of(kind, Setting.given(Map.of()));
  }

  /** The settings of the protocols that apply their log records by checkpoints: all but naive. */
  sealed interface Checkpointed extends ProtocolSettings
      permits ProtocolSettings.Basic,
          ProtocolSettings.Monotonic,
          ProtocolSettings.Atomic,
          ProtocolSettings.Isolating {
    /** The checkpoint settings. */
    CheckpointSettings checkpoints();
  }

  /** The naive protocol: it has no settings of its own. */
  record Naive() implements ProtocolSettings {
    @Override
    public ProtocolKind kind() {
      return ProtocolKind.NAIVE;
    }
  }

  /**
   * The basic protocol.
   *
   * @param checkpoints its checkpoints
   */
  record Basic(CheckpointSettings checkpoints) implements Checkpointed {
    /** Checked values. */
    public Basic {
      java.util.Objects.requireNonNull(checkpoints, "checkpoints");
    }

    @Override
    public ProtocolKind kind() {
      return ProtocolKind.BASIC;
    }
  }

  /**
   * The monotonic protocol.
   *
   * @param checkpoints its checkpoints
   * @param writerLanes how many commits of the handle are numbered and sent at once
   */
  record Monotonic(CheckpointSettings checkpoints, int writerLanes) implements Checkpointed {
    /** Checked values. */
    public Monotonic {
      java.util.Objects.requireNonNull(checkpoints, "checkpoints");
      Settings.WRITER_LANES.check(writerLanes);
    }

    @Override
    public ProtocolKind kind() {
      return ProtocolKind.MONOTONIC;
    }
  }

  /**
   * The atomic and advanced atomic protocols; the atomic timeout is among the checkpoints'.
   *
   * @param kind {@link ProtocolKind#ATOMIC} or {@link ProtocolKind#ADVANCED_ATOMIC}
   * @param checkpoints its checkpoints and recovery's atomic timeout
   * @param writerLanes how many commits of the handle are numbered and sent at once
   */
  record Atomic(ProtocolKind kind, CheckpointSettings checkpoints, int writerLanes)
      implements Checkpointed {
    /**
     * The shortest checkpoint lock timeout the atomic protocol accepts: 5 s. Its recovery passes
     * receive with a visibility timeout that ends a second before the lock's lease and is at
     * least a second long; with a lease of 2 s or less they would receive nothing at all.
     */
    public static final Duration MIN_LOCK_TIMEOUT = Duration.ofSeconds(5);

    static final Setting.Rule LOCK_TIMEOUT_RULE =
        new Setting.Rule(
            List.of(Settings.CHECKPOINT_LOCK_TIMEOUT),
            v -> v.get(Settings.CHECKPOINT_LOCK_TIMEOUT).compareTo(MIN_LOCK_TIMEOUT) >= 0,
            v ->
                v.describe(Settings.CHECKPOINT_LOCK_TIMEOUT)
                    + " must be at least "
                    + MIN_LOCK_TIMEOUT
                    + " under the atomic protocol: its recovery receives with a visibility"
                    + " timeout that ends a second before the lease");

    /** Checked values. */
    public Atomic {
      if (kind != ProtocolKind.ATOMIC && kind != ProtocolKind.ADVANCED_ATOMIC) {
        throw new IllegalArgumentException("not an atomic protocol: " + kind);
      }
      java.util.Objects.requireNonNull(checkpoints, "checkpoints");
      Settings.WRITER_LANES.check(writerLanes);
      if (kind == ProtocolKind.ATOMIC) {
        Setting.Rule.check(
            List.of(LOCK_TIMEOUT_RULE),
            Setting.given(Map.of(Settings.CHECKPOINT_LOCK_TIMEOUT, checkpoints.lockTimeout())));
      }
    }
  }

  /**
   * The isolating protocols: snapshot isolation, serializable snapshot isolation, two-phase
   * locking.
   *
   * @param kind one of them
   * @param checkpoints their checkpoints and recovery's atomic timeout
   * @param isolation their transaction timeout, lease and snapshot reuse
   */
  record Isolating(ProtocolKind kind, CheckpointSettings checkpoints, IsolationSettings isolation)
      implements Checkpointed {

    /** The lease rule of {@link IsolationSettings}. */
    static final Setting.Rule LEASE_RULE =
        new Setting.Rule(
            List.of(
                Settings.ISOLATION_LEASE_TIMEOUT,
                Settings.TRANSACTION_TIMEOUT,
                Settings.ATOMIC_TIMEOUT),
            v -> v.get(Settings.ISOLATION_LEASE_TIMEOUT).compareTo(minimum(v)) > 0,
            Isolating::leaseTooShort);

    /** Checked values. */
    public Isolating {
      if (!kind.accepts(ProtocolOption.ISOLATION)) {
        throw new IllegalArgumentException("not an isolating protocol: " + kind);
      }
      java.util.Objects.requireNonNull(checkpoints, "checkpoints");
      java.util.Objects.requireNonNull(isolation, "isolation");
      Setting.Rule.check(
          List.of(LEASE_RULE),
          Setting.given(
              Map.of(
                  Settings.ISOLATION_LEASE_TIMEOUT, isolation.leaseTimeout(),
                  Settings.TRANSACTION_TIMEOUT, isolation.transactionTimeout(),
                  Settings.ATOMIC_TIMEOUT, checkpoints.atomicTimeout())));
    }

    private static Duration minimum(Setting.Values v) {
      return IsolationSettings.minimumLease(
          v.get(Settings.TRANSACTION_TIMEOUT), v.get(Settings.ATOMIC_TIMEOUT));
    }

    private static String leaseTooShort(Setting.Values v) {
      String rule =
          " must exceed 2 x transaction timeout + atomic timeout + atomic timeout / 5 + "
              + IsolationSettings.NETWORK_MARGIN
              + " = "
              + minimum(v)
              + " (paper 000, section 5.4), with "
              + v.describe(Settings.TRANSACTION_TIMEOUT)
              + " and "
              + v.describe(Settings.ATOMIC_TIMEOUT);
      if (v.isSet(Settings.ISOLATION_LEASE_TIMEOUT)) {
        return v.describe(Settings.ISOLATION_LEASE_TIMEOUT) + rule + ": choose a longer lease";
      }
      List<String> set = new ArrayList<>();
      for (Setting<?> s :
          List.of(
              Settings.TRANSACTION_TIMEOUT,
              Settings.ATOMIC_TIMEOUT,
              Settings.CHECKPOINT_LOCK_TIMEOUT)) {
        if (v.isSet(s)) {
          set.add(v.describe(s));
        }
      }
      return (set.isEmpty() ? "the settings" : String.join(" and ", set))
          + " leave the isolation lease timeout too short: "
          + v.describe(Settings.ISOLATION_LEASE_TIMEOUT)
          + rule
          + ": set isolationLeaseTimeout longer, or shorten what you set";
    }
  }
}
