package io.stratus.protocols.isolation;

import io.stratus.CommitFailedException;
import io.stratus.CommitStateUnknownException;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.CrashPoints;
import io.stratus.cloudapi.OutcomeUnknownException;
import io.stratus.protocols.BackgroundFailures;
import io.stratus.protocols.CommitResult;
import io.stratus.protocols.CrashPoint;
import io.stratus.protocols.IsolationSettings;
import io.stratus.protocols.LogicalChange;
import io.stratus.protocols.ProtocolContext;
import io.stratus.protocols.advanced.KeyedAtomicQueues;
import io.stratus.protocols.log.AtomicMessages;
import io.stratus.protocols.log.LogRecord;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * The durable half of an isolating commit, the same whatever the transaction read and checked
 * (paper 000, Algorithm 9 from the commit id on), and its recovery.
 *
 * <p>Why a part of its own: this is where a commit becomes durable, and where every failure must
 * leave the locks and the commit id settled — a commit id never validated holds every newer
 * snapshot back, and a lock released while a commit record may still be applied lets a writer in
 * under it. Keeping it in one place keeps those rules in one place.
 *
 * <p><b>The commit</b> ({@link #commitLocked}), once the transaction holds an exclusive lock on
 * every record it writes: take a commit id (with the recovery check in flight: one round trip for
 * both; see {@link CommitIds#take} for a lost reply); run the strategy's checks; send the records
 * through advanced atomicity keyed by the commit id (one message when they fit, else log messages
 * first, {@code isolation.after-log}; crash point {@code isolation.after-commit-record}); send them
 * to the archive ({@code .after-archive}); validate the commit id ({@code .after-validate});
 * release the locks without waiting, the exclusive ones stamped with the commit id ({@link
 * LockSet#releaseCommittedLater}). A commit ended before its commit record leaves nothing: its
 * commit id is validated at once and its locks released. Once the commit record may have arrived,
 * the locks and the commit id are left to lapse: recovery (by any client, after the atomic
 * timeout) archives the records and validates the id first ({@link #recovered}) — the lease rule
 * of {@link IsolationSettings} sees to it. An archive send that fails is sent again ({@link
 * PendingArchives}) while the locks stay held.
 *
 * <p>Thread-safe: one instance serves every transaction of a handle.
 */
final class DurableCommit {
  private static final System.Logger LOG = System.getLogger(DurableCommit.class.getName());

  /** What a strategy checks once its commit holds a commit id; nothing was sent yet. */
  @FunctionalInterface
  interface Check {
    /**
     * Checks the commit that holds {@code commitId}.
     *
     * @throws io.stratus.TransactionConflictException the commit must abort
     * @throws CloudException a read the check made failed
     */
    void check(long commitId);
  }

  private final ProtocolContext ctx;
  private final Clock clock;
  private final CrashPoints crashPoints;
  private final SnapshotArchive archive;
  private final KeyedAtomicQueues atomicity;
  private final CommitIds ids;
  private final Consumer<Runnable> background;
  private final Consumer<Set<String>> committedTrees;
  private final BackgroundFailures failures;

  /** Committed transactions whose archive send failed, sent again until they arrive. */
  private final PendingArchives pendingArchives;

  /**
   * @param background runs work that need not hold up the commit
   * @param committedTrees told of the trees each archived commit wrote (checkpoints follow)
   */
  DurableCommit(
      ProtocolContext ctx,
      SnapshotArchive archive,
      KeyedAtomicQueues atomicity,
      CommitIds ids,
      BackgroundFailures failures,
      Consumer<Runnable> background,
      Consumer<Set<String>> committedTrees) {
    this.ctx = ctx;
    this.clock = ctx.clock();
    this.crashPoints = ctx.crashPoints();
    this.archive = archive;
    this.atomicity = atomicity;
    this.ids = ids;
    this.failures = failures;
    this.background = background;
    this.committedTrees = committedTrees;
    this.pendingArchives = new PendingArchives(archive, clock, failures, this::archivedLate);
  }

  /**
   * Sends the archives that failed again, then the validations that failed: commits whose id
   * stays unvalidated hold back this handle's next snapshot (and every client's newer ones).
   */
  void settleOwedWork() {
    if (pendingArchives.size() > 0) {
      pendingArchives.retry();
    }
    ids.retryOwed();
  }

  /** Committed transactions of this handle not archived yet. */
  int unarchived() {
    return pendingArchives.size();
  }

  /** Recovery found committed transactions: archive their records, then validate their ids. */
  void recovered(List<LogRecord> records) {
    archive.send(records);
    Set<Long> committed = new TreeSet<>();
    for (LogRecord r : records) {
      committed.add(r.commitId());
    }
    for (long id : committed) {
      ids.validate(id);
    }
  }

  /**
   * The commit of a transaction holding the locks of what it writes ({@code held}): crash point
   * {@code isolation.after-locks}, a commit id, {@code check}, then {@link #complete}. A check that
   * fails validates the id and releases the locks; a failure of a read it made fails the commit,
   * named by {@code checking}. Whatever it throws, {@code held} is settled (released, or left to
   * lapse once the commit record may be out, or by a process dying inside it).
   *
   * @param sendByMillis the latest time the commit record may be sent
   */
  CommitResult commitLocked(
      String txId,
      List<LogicalChange> changes,
      LockSet held,
      Check check,
      String checking,
      long sendByMillis) {
    crashPoints.reach(CrashPoint.ISOLATION_AFTER_LOCKS.id());
    long commitId = ids.take(txId, held);
    try {
      check.check(commitId);
    } catch (CloudException e) {
      abandon(commitId, held);
      throw readFailed(txId, checking, e);
    } catch (RuntimeException e) {
      abandon(commitId, held);
      throw e;
    }
    try {
      return complete(txId, changes, commitId, held, sendByMillis);
    } catch (RuntimeException e) {
      // What complete did not settle (released when nothing was sent, left to lapse once the
      // commit record may be out) is a process dying inside it: its locks lapse as well.
      held.leaveToLapse();
      throw e;
    }
  }

  /**
   * Makes {@code changes} durable under {@code commitId} and releases {@code held}: commit record,
   * archive, validation. The commit record is sent only before {@code sendByMillis} and while
   * every lock stays valid until recovery could have applied it. Whatever it throws, {@code held}
   * is settled: a failure before the commit record was sent validates the id and releases the
   * locks; once the record may have arrived, the locks are left to lapse (recovery applies it
   * first).
   *
   * @throws CommitFailedException nothing was committed (the id is validated, the locks released)
   * @throws CommitStateUnknownException the commit record may have arrived (the locks lapse)
   * @throws io.stratus.RecordTooLargeException a record does not fit into one queue message;
   *     nothing was sent (the id is validated, the locks released)
   */
  private CommitResult complete(
      String txId, List<LogicalChange> changes, long commitId, LockSet held, long sendByMillis) {
    List<LogRecord> records = new ArrayList<>(changes.size());
    String commitKey = atomicity.owner() + "/" + txId;
    long now = clock.millis();
    boolean twoStep;
    byte[] committing;
    try {
      for (LogicalChange c : changes) {
        records.add(new LogRecord(c, ctx.clientId(), 0, txId, now, commitId));
      }
      Optional<byte[]> single =
          AtomicMessages.complete(commitKey, now, records, atomicity.maxMessageSize());
      twoStep = single.isEmpty();
      committing =
          twoStep ? sendLogMessages(txId, commitKey, now, records, commitId) : single.get();
    } catch (RuntimeException e) {
      abandon(commitId, held); // no commit record was sent: none of it will be applied
      throw e;
    }
    if (twoStep) {
      crashPoints.reach(CrashPoint.ISOLATION_AFTER_LOG.id());
    }
    sendCommitRecord(txId, committing, commitId, held, sendByMillis);
    try {
      crashPoints.reach(CrashPoint.ISOLATION_AFTER_COMMIT_RECORD.id());
      ids.mustSee(commitId);
      try {
        archive.send(records);
      } catch (CloudException e) {
        // Committed, but invisible to newer snapshots until archived: keep the locks and try
        // again.
        pendingArchives.add(commitId, records, held.handOver(), twoStep, e);
        LOG.log(
            Level.DEBUG,
            () -> "archiving commit " + commitId + " failed; the handle sends it again",
            e);
        background.accept(pendingArchives::retry);
        return new CommitResult(Map.of(), 0, 0, records.size());
      }
      crashPoints.reach(CrashPoint.ISOLATION_AFTER_ARCHIVE.id());
      ids.validate(commitId); // archived whole: asked again until it is validated
      crashPoints.reach(CrashPoint.ISOLATION_AFTER_VALIDATE.id());
    } catch (RuntimeException e) {
      held.leaveToLapse(); // committed: recovery archives and validates it before they lapse
      throw e;
    }
    // The commit is done: nobody waits for the release's reply. Archived and validated, it may
    // leave its commit id as the stamp of what it wrote.
    held.releaseCommittedLater(commitId);
    cleanUpLater(commitId, twoStep);
    committedTrees.accept(writtenTrees(records));
    return new CommitResult(Map.of(), 0, 0, records.size());
  }

  /** A commit archived on a later attempt: validate it, release its locks, clean up. */
  private void archivedLate(PendingArchives.Pending p) {
    LOG.log(Level.DEBUG, () -> "commit " + p.commitId() + " archived on a later attempt");
    ids.validate(p.commitId());
    p.locks().releaseCommittedLater(p.commitId());
    cleanUpLater(p.commitId(), p.twoStep());
    committedTrees.accept(writtenTrees(p.records()));
  }

  /**
   * Packs the records of a commit too large for one message into log messages and sends them,
   * keyed by the commit id; returns the commit record that commits them.
   *
   * @throws CommitFailedException a log message was not sent (no commit record will be)
   * @throws io.stratus.RecordTooLargeException a record does not fit into one message
   */
  private byte[] sendLogMessages(
      String id, String commitKey, long now, List<LogRecord> records, long commitId) {
    List<byte[]> messages =
        AtomicMessages.pack(commitKey, now, records, atomicity.maxMessageSize());
    if (atomicity.send(atomicity.logQueue(), messages, commitId)
        instanceof KeyedAtomicQueues.Sent.Failed f) {
      throw failed(id, "sending its log messages failed", f.failure(), true);
    }
    return AtomicMessages.commitRecord(commitKey, now, messages.size(), records.size());
  }

  /**
   * Sends {@code committing} (the complete message or the commit record) keyed by the commit id,
   * in time: before {@code sendByMillis} and while every lock of {@code held} stays valid until
   * recovery could have applied it. Settles {@code held} when it throws.
   */
  private void sendCommitRecord(
      String id, byte[] committing, long commitId, LockSet held, long sendByMillis) {
    long lockBound = held.validUntilMillis() - recoveryWindowMillis();
    if (clock.millis() > Math.min(sendByMillis, lockBound)) {
      abandon(commitId, held);
      throw new CommitFailedException(
          "commit of transaction "
              + id
              + " ran out of time before"
              + " its commit record (transaction timeout or lock leases); none of it will be"
              + " applied",
          true,
          null);
    }
    KeyedAtomicQueues.Sent s;
    try {
      s = atomicity.send(atomicity.commitQueue(), List.of(committing), commitId);
    } catch (RuntimeException e) {
      held.leaveToLapse(); // not a cloud failure: the record may have arrived
      throw e;
    }
    if (!(s instanceof KeyedAtomicQueues.Sent.Failed f)) {
      return;
    }
    if (f.maybe()) {
      held.leaveToLapse(); // if the record arrived, recovery applies it before they lapse
      throw new CommitStateUnknownException(
          "commit of transaction "
              + id
              + ": the commit record"
              + " may or may not have arrived; recovery applies it if it did",
          f.failure());
    }
    abandon(commitId, held);
    throw failed(id, "sending its commit record failed", f.failure(), false);
  }

  /** How long after its commit record a commit may wait for recovery, at most. */
  private long recoveryWindowMillis() {
    long atomic = ctx.checkpoints().atomicTimeout().toMillis();
    return atomic + atomic / 5 + IsolationSettings.NETWORK_MARGIN.toMillis();
  }

  /** The deadline of a commit's record when the commit starts now: the atomic deadline. */
  long commitDeadlineFrom(long startMillis) {
    return startMillis + atomicity.commitDeadlineMillis();
  }

  private static CommitFailedException failed(
      String tx, String what, CloudException cause, boolean unknownIsHarmless) {
    boolean retryable =
        cause.isRetryable() || (unknownIsHarmless && cause instanceof OutcomeUnknownException);
    return new CommitFailedException(
        "commit of transaction "
            + tx
            + ": "
            + what
            + "; no commit record was sent, so none of it will be applied",
        retryable,
        cause);
  }

  /**
   * A read a commit makes before its commit record (before images, its checks) failed: nothing
   * was sent, so the commit failed, retryably when the read may be tried again. The caller has
   * validated the commit id and released the locks, or took neither.
   */
  static CommitFailedException readFailed(String tx, String what, CloudException cause) {
    return new CommitFailedException(
        "commit of transaction " + tx + ": " + what + " failed; nothing was sent",
        cause.isRetryable() || cause instanceof OutcomeUnknownException,
        cause);
  }

  /**
   * A commit that ends before its commit record: validate its id (nothing of it will ever be
   * archived, so no snapshot can include part of it), release its locks.
   */
  private void abandon(long commitId, LockSet held) {
    ids.validate(commitId);
    held.releaseNow();
  }

  private void cleanUpLater(long commitId, boolean twoStep) {
    background.accept(
        () -> {
          try {
            atomicity.cleanUp(List.of(commitId), twoStep ? Set.of(commitId) : Set.of());
          } catch (CloudException e) {
            failures.report(
                "clean-up", "cleaning up commit " + commitId + " failed; recovery will", e);
          }
        });
  }

  private static Set<String> writtenTrees(List<LogRecord> records) {
    Set<String> roots = new HashSet<>();
    for (LogRecord r : records) {
      roots.add(r.treeUri());
    }
    return roots;
  }
}
