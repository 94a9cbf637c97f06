package io.stratus.protocols;

import io.stratus.InvalidConfigurationException;
import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.Operation.Service;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The commit protocols a database can run (paper 000, sections 4, 5 and 7.1); chosen once per
 * database in its configuration, and every client of one database must use the same, or one it
 * {@linkplain #sharesDatabasesWith shares databases with}. The database's catalog records the
 * protocol it runs; a database moves to another protocol only by a {@linkplain #switchableTo
 * switch}.
 *
 * <p>Each kind declares what it promises ({@link #guarantees()}); the protocol contract suite
 * derives its expectations from that declaration. Opening a database with a kind a build lacks
 * fails with a clear "not available" error.
 */
public enum ProtocolKind {
  /**
   * The baseline: commit writes every modified and new page straight to storage. Subject to lost
   * updates when two clients change the same page; not even eventually consistent.
   */
  NAIVE(true, EnumSet.noneOf(Guarantee.class), EnumSet.noneOf(ProtocolOption.class), Family.PAGES),
  /**
   * Log records through pending-update queues, applied by checkpoints: eventual consistency.
   * Every acknowledged record is applied, but records carry no counters, so on a queue that
   * duplicates or reorders a later delivery of an older record (an insert after the key's delete
   * included) can re-apply its after image (paper 000, section 4.3); {@link #MONOTONIC} removes
   * that.
   */
  BASIC(
      true,
      EnumSet.of(Guarantee.DURABLE, Guarantee.CONVERGES),
      EnumSet.of(ProtocolOption.CHECKPOINTS),
      Family.PENDING_UPDATES),
  /**
   * Basic plus monotonic writes (paper 001, section 5.2: per-writer, per-queue counters applied
   * in order and exactly once), read-your-writes and monotonic reads (the buffer pool never
   * accepts a page version older than one it has seen).
   */
  MONOTONIC(
      true,
      EnumSet.of(
          Guarantee.DURABLE,
          Guarantee.CONVERGES,
          Guarantee.MONOTONIC_WRITES,
          Guarantee.READ_YOUR_WRITES,
          Guarantee.MONOTONIC_READS),
      EnumSet.of(ProtocolOption.CHECKPOINTS, ProtocolOption.WRITER_LANES),
      Family.PENDING_UPDATES),
  /**
   * Atomicity through per-client ATOMIC queues (section 5.1), including the monotonic
   * guarantees as in the papers' experiments (counters taken at commit and carried in the ATOMIC
   * log, read-your-writes, monotonic reads); a transaction that fits into one queue message is
   * committed with one send.
   */
  ATOMIC(true, Sets.ATOMIC, Sets.QUEUE_OPTIONS, Family.ATOMIC_QUEUES),
  /**
   * Advanced atomicity (paper 000, section 5.3): the atomic protocol's guarantees through two
   * advanced queues shared by all clients, keyed per transaction, so that any client recovers a
   * crashed client's committed transaction once it is older than the atomic timeout. Needs the
   * advanced queue service.
   */
  ADVANCED_ATOMIC(true, Sets.ATOMIC, Sets.QUEUE_OPTIONS, Family.ADVANCED_ATOMIC_QUEUES),
  /**
   * Generalized snapshot isolation (paper 000, section 5.4, Algorithms 7 to 9): each transaction
   * reads the snapshot of the highest validated commit id, pages rolled forward or back with the
   * archived log records of their range; a commit locks its records, takes a commit id, aborts
   * when a transaction committed after its snapshot changed one of its records, and commits
   * through advanced atomicity. Needs advanced queues, locks and advanced counters.
   */
  SNAPSHOT_ISOLATION(
      true,
      Sets.with(Sets.ATOMIC, Guarantee.SNAPSHOT_ISOLATION),
      Sets.ISOLATING_OPTIONS,
      Family.SNAPSHOT_ISOLATION),
  /**
   * Serializable snapshot isolation, beyond the papers: snapshot isolation whose commits also
   * validate what the transaction read (the key ranges of the leaves it read) against the
   * transactions committed after its snapshot, so write skew and phantoms abort.
   */
  SERIALIZABLE_SNAPSHOT(
      true,
      Sets.with(Sets.ATOMIC, Guarantee.SNAPSHOT_ISOLATION, Guarantee.SERIALIZABLE),
      Sets.ISOLATING_OPTIONS,
      Family.SERIALIZABLE_SNAPSHOT),
  /**
   * Strict two-phase locking (paper 000, section 5.5): reads take shared locks (records, and the
   * keys of a scanned range plus the key after it, so no phantom appears) and read the latest
   * committed state; commits take exclusive locks and commit like snapshot isolation; a lock that
   * cannot be granted aborts the transaction at once. Read-only transactions read a snapshot
   * without locks. Needs advanced queues, locks and advanced counters.
   */
  TWO_PHASE_LOCKING(
      true,
      Sets.with(Sets.ATOMIC, Guarantee.SERIALIZABLE),
      Sets.ISOLATING_OPTIONS,
      Family.TWO_PHASE_LOCKING);

  /** The guarantee and option sets several kinds share. */
  private static final class Sets {
    static final EnumSet<Guarantee> ATOMIC =
        EnumSet.of(
            Guarantee.DURABLE,
            Guarantee.CONVERGES,
            Guarantee.MONOTONIC_WRITES,
            Guarantee.READ_YOUR_WRITES,
            Guarantee.MONOTONIC_READS,
            Guarantee.ATOMIC);
    static final EnumSet<ProtocolOption> QUEUE_OPTIONS =
        EnumSet.of(
            ProtocolOption.CHECKPOINTS, ProtocolOption.WRITER_LANES, ProtocolOption.ATOMIC_TIMEOUT);
    static final Service[] ISOLATING_SERVICES = {
      Service.STORAGE, Service.ADVANCED_QUEUE, Service.LOCK, Service.COUNTER
    };
    static final EnumSet<ProtocolOption> ISOLATING_OPTIONS =
        EnumSet.of(
            ProtocolOption.CHECKPOINTS, ProtocolOption.ATOMIC_TIMEOUT, ProtocolOption.ISOLATION);

    static EnumSet<Guarantee> with(EnumSet<Guarantee> base, Guarantee... more) {
      EnumSet<Guarantee> s = EnumSet.copyOf(base);
      s.addAll(java.util.List.of(more));
      return s;
    }
  }

  /**
   * The protocols whose handles can share a database: what they keep besides the trees' entries
   * (queues, counters, locks) and how their handles work together. {@link #pages} is what they keep
   * in a page's protocol state; a database moves between families only when it stays the same.
   */
  private enum Family {
    /** Commits write pages themselves; nothing else. */
    PAGES(PageState.CHAINS, Service.STORAGE),
    /**
     * Records through the pending-update queues, applied by checkpoints that keep each writer's
     * chain in the pages (with or without counters): basic and monotonic handles write records
     * every checkpoint applies, each handle with its own guarantees.
     */
    PENDING_UPDATES(PageState.CHAINS, Service.STORAGE, Service.SIMPLE_QUEUE, Service.LOCK),
    /** Pending updates reached through each client's ATOMIC queue, recovered by atomic handles. */
    ATOMIC_QUEUES(PageState.CHAINS, Service.STORAGE, Service.SIMPLE_QUEUE, Service.LOCK),
    /** Pending updates reached through the shared advanced atomicity queues. */
    ADVANCED_ATOMIC_QUEUES(
        PageState.CHAINS,
        Service.STORAGE,
        Service.SIMPLE_QUEUE,
        Service.ADVANCED_QUEUE,
        Service.LOCK),
    /** The commit counter, record locks and snapshot archive, checked first committer wins. */
    SNAPSHOT_ISOLATION(PageState.SNAPSHOTS, Sets.ISOLATING_SERVICES),
    /** The same, and every commit checks what it read: one other handle's skew breaks that. */
    SERIALIZABLE_SNAPSHOT(PageState.SNAPSHOTS, Sets.ISOLATING_SERVICES),
    /** The same, and every transaction locks what it reads: handles that do not lose updates. */
    TWO_PHASE_LOCKING(PageState.SNAPSHOTS, Sets.ISOLATING_SERVICES);

    final PageState pages;
    final Set<Service> services;

    Family(PageState pages, Service... services) {
      this.pages = pages;
      this.services = Collections.unmodifiableSet(EnumSet.copyOf(List.of(services)));
    }
  }

  /** What a protocol keeps in a page's protocol state. */
  private enum PageState {
    /** The writers' chains of the queue protocols (none, for pages only naive commits wrote). */
    CHAINS,
    /** The commit id a page reflects, of the isolating protocols. */
    SNAPSHOTS
  }

  private final boolean available;
  private final EnumSet<Guarantee> guarantees;
  private final EnumSet<ProtocolOption> options;
  private final Family family;

  ProtocolKind(
      boolean available,
      EnumSet<Guarantee> guarantees,
      EnumSet<ProtocolOption> options,
      Family family) {
    this.available = available;
    this.guarantees = guarantees;
    this.options = options;
    this.family = family;
  }

  /**
   * Whether handles of this protocol and of {@code other} may use one database at the same time,
   * each keeping the guarantees of its own protocol: a protocol with itself, and {@link #BASIC}
   * with {@link #MONOTONIC} (the same pending-update queues, records and pages; only the writers'
   * counters differ, and every checkpoint applies records with and without them). Every other pair
   * loses data or a promise when mixed: a naive commit overwrites what checkpoints applied; the
   * queue protocols leave an atomic protocol's queues to its own handles, which alone recover a
   * dead client's transactions; the isolating protocols each rely on every commit making the same
   * checks (a serializable commit checks what it read against serializable commits only, and a
   * snapshot commit takes none of the locks two-phase locking relies on) — and they keep other
   * state in the pages than the queue protocols.
   */
  public boolean sharesDatabasesWith(ProtocolKind other) {
    return family == other.family;
  }

  /**
   * Whether a database run with this protocol can move to {@code next} once every handle of this
   * protocol is closed and its work is done (recovered and checkpointed): the pages then hold
   * nothing {@code next} cannot read, and no queue holds work only this protocol would finish.
   * True between the queue protocols (naive, basic, monotonic, atomic, advanced atomic) and
   * between the isolating protocols (snapshot isolation, serializable snapshot, two-phase
   * locking); false between the two groups, whose pages keep different protocol state (writers'
   * chains, commit ids): such a database is copied into a new one instead.
   */
  public boolean switchableTo(ProtocolKind next) {
    return family.pages == next.family.pages;
  }

  /**
   * The Cloud API services the protocol uses (a fresh copy): naive storage alone; basic,
   * monotonic and atomic also simple queues and locks; advanced atomic also advanced queues; the
   * isolating protocols storage, advanced queues, locks and advanced counters. A database
   * configuration is built only on {@link CloudServices} that hold every one of them ({@link
   * #checkServices}).
   */
  public EnumSet<Service> services() {
    return EnumSet.copyOf(family.services);
  }

  /**
   * Refuses {@code services} that lack one the protocol uses, naming every missing one: checked
   * when a database configuration is built, before any of them is touched.
   *
   * @throws InvalidConfigurationException a service is missing
   */
  public void checkServices(CloudServices services) {
    List<String> missing = new ArrayList<>();
    for (Service s : family.services) {
      if (!services.has(s)) {
        missing.add(CloudServices.describe(s));
      }
    }
    if (!missing.isEmpty()) {
      throw new InvalidConfigurationException(
          "the "
              + name()
              + " protocol uses the "
              + String.join(", ", family.services.stream().map(CloudServices::describe).toList())
              + " services, and the cloud services given lack the "
              + String.join(", ", missing)
              + ": add "
              + (missing.size() == 1 ? "it" : "them")
              + " (ZooKeeper brings locks, counters and advanced queues: docs/operations.md), or"
              + " choose a protocol that uses only what the cloud has");
    }
  }

  /**
   * Whether the protocol has the settings of {@code option}: naive none; basic {@link
   * ProtocolOption#CHECKPOINTS}; monotonic also {@link ProtocolOption#WRITER_LANES}; atomic and advanced atomic
   * also {@link ProtocolOption#ATOMIC_TIMEOUT}; the snapshot protocols and two-phase locking
   * checkpoints, the atomic timeout and {@link ProtocolOption#ISOLATION}.
   */
  public boolean accepts(ProtocolOption option) {
    return options.contains(option);
  }

  /**
   * What the protocol promises (docs/protocols.md, the guarantees table): every execution MUST
   * satisfy each {@link Guarantee} in the set. A fresh copy each call.
   *
   * <ul>
   *   <li>NAIVE: none. Clients lose each other's updates on shared pages. Within one handle
   *       (whatever its request threads) commits that returned are not lost and trees stay
   *       well-formed, which is less than {@link Guarantee#DURABLE}.
   *   <li>BASIC: {@link Guarantee#DURABLE}, {@link Guarantee#CONVERGES}.
   *   <li>MONOTONIC: basic's, plus {@link Guarantee#MONOTONIC_WRITES}, {@link
   *       Guarantee#READ_YOUR_WRITES}, {@link Guarantee#MONOTONIC_READS}.
   *   <li>ATOMIC and ADVANCED_ATOMIC: monotonic's, plus {@link Guarantee#ATOMIC}.
   *   <li>SNAPSHOT_ISOLATION: atomic's, plus {@link Guarantee#SNAPSHOT_ISOLATION}.
   *   <li>SERIALIZABLE_SNAPSHOT: snapshot isolation's, plus {@link Guarantee#SERIALIZABLE}.
   *   <li>TWO_PHASE_LOCKING: atomic's, plus {@link Guarantee#SERIALIZABLE}.
   * </ul>
   */
  public EnumSet<Guarantee> guarantees() {
    return EnumSet.copyOf(guarantees);
  }

  /** Whether the protocol makes {@code guarantee}. */
  public boolean guarantees(Guarantee guarantee) {
    return guarantees.contains(guarantee);
  }

  /** Whether this build implements the protocol. */
  public boolean isAvailable() {
    return available;
  }
}
