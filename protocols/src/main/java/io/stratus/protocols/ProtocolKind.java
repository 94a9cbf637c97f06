package io.stratus.protocols;

import java.util.EnumSet;

/**
 * The commit protocols a database can run (paper 000, sections 4, 5 and 7.1); chosen once per
 * database in its configuration, and every client of one database must use the same.
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
  NAIVE(true, EnumSet.noneOf(Guarantee.class), EnumSet.noneOf(ProtocolOption.class)),
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
      EnumSet.of(ProtocolOption.CHECKPOINTS)),
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
      EnumSet.of(ProtocolOption.CHECKPOINTS, ProtocolOption.WRITER_LANES)),
  /**
   * Atomicity through per-client ATOMIC queues (section 5.1), including the monotonic
   * guarantees as in the papers' experiments (counters taken at commit and carried in the ATOMIC
   * log, read-your-writes, monotonic reads); a transaction that fits into one queue message is
   * committed with one send.
   */
  ATOMIC(true, Sets.ATOMIC, Sets.QUEUE_OPTIONS),
  /**
   * Advanced atomicity (paper 000, section 5.3): the atomic protocol's guarantees through two
   * advanced queues shared by all clients, keyed per transaction, so that any client recovers a
   * crashed client's committed transaction once it is older than the atomic timeout. Needs the
   * advanced queue service.
   */
  ADVANCED_ATOMIC(true, Sets.ATOMIC, Sets.QUEUE_OPTIONS),
  /**
   * Generalized snapshot isolation (paper 000, section 5.4, Algorithms 7 to 9): each transaction
   * reads the snapshot of the highest validated commit id, pages rolled forward or back with the
   * archived log records of their range; a commit locks its records, takes a commit id, aborts
   * when a transaction committed after its snapshot changed one of its records, and commits
   * through advanced atomicity. Needs advanced queues, locks and advanced counters.
   */
  SNAPSHOT_ISOLATION(
      true, Sets.with(Sets.ATOMIC, Guarantee.SNAPSHOT_ISOLATION), Sets.ISOLATING_OPTIONS),
  /**
   * Serializable snapshot isolation, beyond the papers: snapshot isolation whose commits also
   * validate what the transaction read (the key ranges of the leaves it read) against the
   * transactions committed after its snapshot, so write skew and phantoms abort.
   */
  SERIALIZABLE_SNAPSHOT(
      true,
      Sets.with(Sets.ATOMIC, Guarantee.SNAPSHOT_ISOLATION, Guarantee.SERIALIZABLE),
      Sets.ISOLATING_OPTIONS),
  /**
   * Strict two-phase locking (paper 000, section 5.5): reads take shared locks (records, and the
   * keys of a scanned range plus the key after it, so no phantom appears) and read the latest
   * committed state; commits take exclusive locks and commit like snapshot isolation; a lock that
   * cannot be granted aborts the transaction at once. Read-only transactions read a snapshot
   * without locks. Needs advanced queues, locks and advanced counters.
   */
  TWO_PHASE_LOCKING(true, Sets.with(Sets.ATOMIC, Guarantee.SERIALIZABLE), Sets.ISOLATING_OPTIONS);

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
    static final EnumSet<ProtocolOption> ISOLATING_OPTIONS =
        EnumSet.of(
            ProtocolOption.CHECKPOINTS, ProtocolOption.ATOMIC_TIMEOUT, ProtocolOption.ISOLATION);

    static EnumSet<Guarantee> with(EnumSet<Guarantee> base, Guarantee... more) {
      EnumSet<Guarantee> s = EnumSet.copyOf(base);
      s.addAll(java.util.List.of(more));
      return s;
    }
  }

  private final boolean available;
  private final EnumSet<Guarantee> guarantees;
  private final EnumSet<ProtocolOption> options;

  ProtocolKind(boolean available, EnumSet<Guarantee> guarantees, EnumSet<ProtocolOption> options) {
    this.available = available;
    this.guarantees = guarantees;
    this.options = options;
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
