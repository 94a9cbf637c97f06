package io.stratus.protocols.isolation;

import io.stratus.CheckpointSummary;
import io.stratus.RecoverySummary;
import io.stratus.protocols.BackgroundFailures;
import io.stratus.protocols.CommitProtocol;
import io.stratus.protocols.ProtocolContext;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.ProtocolStats;
import io.stratus.protocols.ProtocolTransaction;
import io.stratus.protocols.TransactionInfo;
import io.stratus.protocols.advanced.KeyedAtomicQueues;
import io.stratus.protocols.checkpoint.BackgroundWork;
import io.stratus.protocols.log.LogRecord;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.function.Function;

/**
 * The isolating engine: one implementation of {@link CommitProtocol} for the protocols of paper
 * 000, sections 5.3 to 5.5, assembled from two strategies ({@link Assembly}):
 *
 * <ul>
 *   <li>{@link ReadStrategy}: how a transaction reads — a snapshot through the archive ({@link
 *       SnapshotReads}), or the latest committed state under locks ({@link LockedReads});
 *   <li>{@link Validation}: what its commit checks once it holds a commit id — the keys it writes
 *       (first committer wins), those and the ranges it read (serializable), or nothing (its locks
 *       did).
 * </ul>
 *
 * <p>The engine owns what every isolating protocol shares: the commit-id counter {@code
 * <databaseUri>/si/commits} ({@link CommitIds}), the record locks under {@code
 * <databaseUri>/si/lock/} ({@link RecordLocks}), the per-tree archive of committed log records
 * ({@link SnapshotArchive}), advanced atomicity keyed by commit id ({@link KeyedAtomicQueues}) with
 * its recovery, the durable half of a commit ({@link DurableCommit}), the checkpoints that apply
 * the archive ({@link ArchiveCheckpoints}) and the background executor ({@link BackgroundWork},
 * the queue engine's part).
 *
 * <p><b>Lifecycle</b>: the engine makes the archive, advanced atomicity, the commit ids, the
 * record locks, the checkpoints and the durable half, then the read strategy. Needs advanced
 * queues, counters and locks; sets the leases of the counter and the record locks to the
 * isolation lease when it opens. Thread-safe: one instance serves every transaction of a handle.
 */
final class IsolationEngine implements CommitProtocol {
  private static final System.Logger LOG = System.getLogger(IsolationEngine.class.getName());

  /**
   * A protocol as an assembly of the engine's strategies.
   *
   * @param kind which protocol the assembly is
   * @param reads makes the read strategy from the engine's parts
   * @param validation what commits check once they hold their commit id
   */
  record Assembly(
      ProtocolKind kind, Function<IsolationParts, ReadStrategy> reads, Validation validation) {}

  /** Versions the archive cache keeps per tree. */
  private static final int CACHE_LIMIT = 200_000;

  /** Threads of the owned executor: the isolating protocols' background work is light. */
  private static final int THREADS = 2;

  private final ProtocolKind kind;
  private final ProtocolContext ctx;
  private final BackgroundWork background;
  private final BackgroundFailures failures;
  private final SnapshotArchive archive;
  private final KeyedAtomicQueues atomicity;
  private final CommitIds ids;
  private final RecordLocks locks;
  private final ArchiveCheckpoints checkpoints;
  private final DurableCommit commits;
  private final ReadStrategy reads;

  /** Opens the protocol {@code assembly} over {@code ctx}. */
  IsolationEngine(ProtocolContext ctx, Assembly assembly) {
    this.kind = assembly.kind();
    this.ctx = ctx;
    kind.checkServices(ctx.services());
    this.failures = new BackgroundFailures(LOG, ctx.clock());
    this.archive =
        new SnapshotArchive(
            ctx.services().advancedQueues(), ctx.databaseUri(), CACHE_LIMIT, ctx.damage());
    this.atomicity = new KeyedAtomicQueues(ctx, this::recovered);
    this.background = new BackgroundWork(ctx, "isolation", THREADS);
    try {
      this.checkpoints = new ArchiveCheckpoints(ctx, archive, this::archivedThrough, background);
      this.ids =
          new CommitIds(
              ctx,
              atomicity.owner(),
              background::execute,
              this::settleOwedWork,
              atomicity::checkBeforeCommit);
      this.locks = new RecordLocks(ctx, atomicity.owner());
      this.commits =
          new DurableCommit(
              ctx,
              archive,
              atomicity,
              ids,
              failures,
              background::execute,
              checkpoints::afterCommit);
      this.reads =
          assembly
              .reads()
              .apply(
                  new IsolationParts(
                      ctx,
                      archive,
                      new SnapshotView.Memo(),
                      ids,
                      locks,
                      commits,
                      assembly.validation()));
    } catch (RuntimeException | Error e) {
      background.stop(ctx.clock().millis());
      throw e;
    }
  }

  @Override
  public ProtocolKind kind() {
    return kind;
  }

  @Override
  public ProtocolTransaction begin(TransactionInfo tx) {
    return reads.begin(tx);
  }

  /** Recovery found committed transactions: the durable half finishes them. */
  private void recovered(List<LogRecord> records) {
    commits.recovered(records);
  }

  /** Sends again what failed: archives, then validations. */
  private void settleOwedWork() {
    commits.settleOwedWork();
  }

  /** The validated commit id after the recovery check: what checkpoints may apply. */
  private long archivedThrough() {
    atomicity.checkBeforeCommit("checkpoint");
    return ids.highestValidated();
  }

  /**
   * {@inheritDoc} Recovers the stale commit records first (commits in flight finish by
   * themselves; their ids are not validated yet, so no checkpoint applies them), then checkpoints
   * every tree with an archive up to the validated commit id.
   */
  @Override
  public CheckpointSummary checkpointAll() {
    settleOwedWork();
    KeyedAtomicQueues.Recovery recovery = atomicity.recoverStale(false);
    long target = archivedThrough();
    return checkpoints.runAll(target, recovery == KeyedAtomicQueues.Recovery.BUSY ? 1 : 0);
  }

  @Override
  public RecoverySummary recoverAbandonedClients() {
    return atomicity.recoverAbandonedClients();
  }

  /** The handle's counters: background checkpoints and other background failures. */
  @Override
  public ProtocolStats stats() {
    return new ProtocolStats(
        checkpoints.checkpointsRun(),
        checkpoints.checkpointsFailed(),
        failures.count(),
        0,
        0,
        0,
        0);
  }

  /**
   * Stops background work and settles what it can within the close timeout ({@link
   * io.stratus.protocols.CheckpointSettings#closeTimeout()}): sends the records of commits whose
   * archive send failed once more (what still fails is warned about and left to recovery) and asks
   * once more to validate the commit ids it owes (what still fails lapses with its lease), waits
   * for the lock releases in flight — a handle closed right after a commit must not leave its
   * locks to lapse, blocking every other client's writers of those records for the lease — and
   * lets running background checkpoints finish. A handle opened next needs no checkpoint to see
   * this one's commits: snapshots read the archive.
   */
  @Override
  public void close() {
    background.stopTaking();
    long deadline = ctx.clock().millis() + ctx.checkpoints().closeTimeout().toMillis();
    settleOwedWork(); // a last attempt; what still fails is left to recovery or the lease
    int unarchived = commits.unarchived();
    if (unarchived > 0) {
      LOG.log(
          Level.WARNING,
          "closing the handle left "
              + unarchived
              + " committed transactions unarchived (the archive refused them): their records"
              + " and the locks on them wait for recovery by any client, after the atomic"
              + " timeout ("
              + ctx.checkpoints().atomicTimeout().toSeconds()
              + " s)");
    }
    locks.awaitReleases(deadline);
    background.stop(deadline); // running work still running at the deadline is interrupted
  }
}
