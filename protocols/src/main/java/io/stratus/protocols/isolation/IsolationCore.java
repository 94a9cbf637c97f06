package io.stratus.protocols.isolation;

import io.stratus.CheckpointSummary;
import io.stratus.CommitFailedException;
import io.stratus.CommitStateUnknownException;
import io.stratus.InvalidRequestException;
import io.stratus.RecoverySummary;
import io.stratus.TransactionTimeoutException;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.CounterService;
import io.stratus.cloudapi.CrashPoints;
import io.stratus.cloudapi.LockService;
import io.stratus.cloudapi.OutcomeUnknownException;
import io.stratus.cloudapi.SupportsConditionalPut;
import io.stratus.protocols.BackgroundFailures;
import io.stratus.protocols.CheckpointWrites;
import io.stratus.protocols.CommitResult;
import io.stratus.protocols.CrashPoint;
import io.stratus.protocols.IsolationSettings;
import io.stratus.protocols.LogicalChange;
import io.stratus.protocols.ProtocolContext;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.ProtocolStats;
import io.stratus.protocols.TransactionInfo;
import io.stratus.protocols.advanced.KeyedAtomicQueues;
import io.stratus.protocols.log.AtomicMessages;
import io.stratus.protocols.log.LogRecord;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the isolating protocols share (paper 000, sections 5.3 to 5.5): the commit-id counter
 * {@code <databaseUri>/si/commits}, record locks under {@code <databaseUri>/si/lock/}, the per-tree
 * archive of committed log records, advanced atomicity and the checkpoints that apply the archive.
 * The protocols differ only in how a transaction reads and what it checks before it commits;
 * snapshots ({@link #snapshotFor}) and the durable half of a commit ({@link #takeCommitId}, {@link
 * #complete}) are the same for all of them.
 *
 * <p><b>The durable half of a commit</b>, once the transaction holds an exclusive lock on every
 * record it writes: take a commit id (with the recovery check in flight: one round trip for
 * both; see {@link #takeCommitId} for a lost reply); send the records through advanced atomicity keyed by the commit id (one message when they
 * fit, else log messages first, {@code isolation.after-log}; crash point {@code
 * isolation.after-commit-record}); send them to the archive ({@code
 * .after-archive}); validate the commit id ({@code .after-validate}); release the locks without
 * waiting. A commit ended before its commit record leaves nothing: its commit id is validated at
 * once and its locks released. Once the commit record may have arrived, the locks and the commit
 * id are left to lapse: recovery (by any client, after the atomic timeout) archives the records
 * and validates the id first — the lease rule of {@link IsolationSettings} sees to it.
 *
 * <p>Thread-safe: one instance serves every transaction of a handle.
 */
final class IsolationCore implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(IsolationCore.class.getName());

  /** Versions the archive cache keeps per tree. */
  private static final int CACHE_LIMIT = 200_000;

  private static final int THREADS = 2;

  /** The longest handle-specific part of a commit's request id (the rest is a sequence). */
  private static final int REQUEST_ID_PREFIX_LENGTH = 40;

  private final ProtocolKind kind;
  private final ProtocolContext ctx;
  private final Clock clock;
  private final BackgroundFailures failures;
  private final BackgroundFailures checkpointFailures;
  private final CrashPoints crashPoints;
  private final IsolationSettings settings;

  /** The commit-id counter: ids taken, validated (until they are), waited for. */
  private final CommitCounter counter;

  private final LockService locks;
  private final String counterUri;
  private final String lockPrefix;
  private final SnapshotArchive archive;
  private final SnapshotView.Memo memo = new SnapshotView.Memo();
  private final KeyedAtomicQueues atomicity;
  private final SnapshotCheckpointer checkpointer;
  private final Executor executor;
  private final ExecutorService owned;

  /** Commit ids this handle's snapshots must include: its own commits and what it read. */
  private final AtomicLong mustSee = new AtomicLong();

  private final AtomicLong reusable = new AtomicLong(-1);
  private volatile long reusableAtMillis;
  private final Map<String, Long> lastCheckpoint = new ConcurrentHashMap<>();
  private final Set<String> checkpointQueued = ConcurrentHashMap.newKeySet();
  private final AtomicLong checkpointsRun = new AtomicLong();
  private final AtomicLong checkpointsFailed = new AtomicLong();
  private final AtomicLong owners = new AtomicLong();

  /** Committed transactions whose archive send failed, sent again until they arrive. */
  private final PendingArchives pendingArchives;

  /** Lock releases sent without waiting and not yet answered; {@link #close} waits for them. */
  private final Set<CompletableFuture<?>> releases = ConcurrentHashMap.newKeySet();

  private volatile boolean closed;

  IsolationCore(ProtocolContext ctx, ProtocolKind kind) {
    kind.checkServices(ctx.services());
    this.kind = kind;
    this.ctx = ctx;
    this.clock = ctx.clock();
    this.failures = new BackgroundFailures(LOG, ctx.clock());
    this.checkpointFailures = new BackgroundFailures(LOG, ctx.clock());
    this.crashPoints = ctx.crashPoints();
    this.settings = ctx.isolation();
    CounterService counters = ctx.services().counters();
    this.locks = ctx.services().locks();
    this.counterUri = ctx.layout().commitCounter();
    this.lockPrefix = ctx.layout().recordLockPrefix();
    this.archive =
        new SnapshotArchive(
            ctx.services().advancedQueues(), ctx.databaseUri(), CACHE_LIMIT, ctx.damage());
    this.atomicity = new KeyedAtomicQueues(ctx, this::recovered);
    this.pendingArchives = new PendingArchives(archive, clock, failures, this::archivedLate);
    String owner = atomicity.owner();
    this.counter =
        new CommitCounter(
            counters,
            counterUri,
            clock,
            ctx.pause(),
            settings.leaseTimeout(),
            new CounterStall(
                clock,
                settings.leaseTimeout(),
                ctx.checkpoints().atomicTimeout(),
                ctx.databaseUri()),
            owner.length() <= REQUEST_ID_PREFIX_LENGTH
                ? owner
                : digest(owner, (byte) 3, new byte[0]).substring(0, REQUEST_ID_PREFIX_LENGTH),
            this::submit,
            System::nanoTime);
    CheckpointWrites w = ctx.checkpoints().writes();
    boolean conditional = SupportsConditionalPut.of(ctx.services().storage()) != null;
    if (w == CheckpointWrites.CONDITIONAL && !conditional) {
      throw new InvalidRequestException(
          "checkpoint writes CONDITIONAL need storage with" + " conditional puts");
    }
    this.checkpointer =
        new SnapshotCheckpointer(
            ctx,
            archive,
            this::archivedThrough,
            w == CheckpointWrites.AUTO ? conditional : w == CheckpointWrites.CONDITIONAL);
    CloudFutures.await(counters.setTimeout(counterUri, settings.leaseTimeout()));
    CloudFutures.await(locks.setTimeout(lockPrefix, settings.leaseTimeout()));
    if (ctx.checkpointExecutor() != null) {
      this.executor = ctx.checkpointExecutor();
      this.owned = null;
    } else {
      this.owned = ctx.newDaemonPool("isolation", THREADS);
      this.executor = owned;
    }
  }

  ProtocolKind kind() {
    return kind;
  }

  ProtocolContext ctx() {
    return ctx;
  }

  Clock clock() {
    return clock;
  }

  IsolationSettings settings() {
    return settings;
  }

  SnapshotArchive archive() {
    return archive;
  }

  SnapshotView.Memo memo() {
    return memo;
  }

  // ---- begin ----

  /**
   * Algorithm 7: the recovery check, then the snapshot id — the highest validated commit id,
   * waiting briefly while it lags behind what this handle must see (its own latest commit, and
   * any commit it read). Read-only transactions reuse a recent snapshot.
   */
  long snapshotFor(TransactionInfo tx) {
    settleOwedWork();
    atomicity.checkBeforeCommit(tx.transactionId());
    long must = mustSee.get();
    long reuse = reusable.get();
    if (tx.readOnly()
        && reuse >= must
        && reuse >= 0
        && clock.millis() - reusableAtMillis < settings.snapshotReuse().toMillis()) {
      return reuse;
    }
    long s =
        counter.awaitAtLeast(
            must,
            Long.MAX_VALUE,
            (v, polls, cause) ->
                new TransactionTimeoutException(
                    "transaction "
                        + tx.transactionId()
                        + ": the commit counter has not validated commit "
                        + must
                        + " yet (it is at "
                        + v
                        + "), which this handle wrote or read; a snapshot without it would go"
                        + " back in time. "
                        + cause));
    reusable.accumulateAndGet(s, Math::max);
    reusableAtMillis = clock.millis();
    return Math.max(s, 0);
  }

  /**
   * The base of a transaction that reads the latest committed state (two-phase locking): the
   * recovery check, then the highest validated commit id, without waiting for anything.
   */
  long latestBase(TransactionInfo tx) {
    settleOwedWork();
    atomicity.checkBeforeCommit(tx.transactionId());
    return Math.max(counter.highestValidated(), 0);
  }

  /**
   * Sends the archives that failed again, then the validations that failed: commits whose id
   * stays unvalidated hold back this handle's next snapshot (and every client's newer ones).
   */
  private void settleOwedWork() {
    if (pendingArchives.size() > 0) {
      pendingArchives.retry();
    }
    counter.retryOwed();
  }

  /** Later snapshots of this handle must include commit {@code commitId} (it was read). */
  void mustSee(long commitId) {
    mustSee.accumulateAndGet(commitId, Math::max);
  }

  /**
   * Waits until every commit id below {@code commitId} is validated (so the archive holds all of
   * them), for at most {@link CommitCounter#WAIT_BUDGET} and until {@code deadlineMillis};
   * a poll that fails transiently is polled again within that bound.
   */
  void awaitValidatedBelow(String txId, long commitId, long deadlineMillis) {
    counter.awaitAtLeast(
        commitId - 1,
        deadlineMillis,
        (v, polls, cause) ->
            new TransactionTimeoutException(
                "commit of transaction "
                    + txId
                    + ": earlier commits (below "
                    + commitId
                    + ") are still in flight after "
                    + polls
                    + " polls. "
                    + cause));
  }

  /** The validated commit id after the recovery check: what checkpoints may apply. */
  private long archivedThrough() {
    atomicity.checkBeforeCommit("checkpoint");
    return counter.highestValidated();
  }

  /** Recovery found committed transactions: archive their records, then validate their ids. */
  private void recovered(List<LogRecord> records) {
    archive.send(records);
    Set<Long> ids = new TreeSet<>();
    for (LogRecord r : records) {
      ids.add(r.commitId());
    }
    for (long id : ids) {
      counter.validate(id);
    }
  }

  // ---- locks ----

  /** The locks of a new transaction, under an owner of its own. */
  LockSet newLocks(TransactionInfo tx) {
    String owner = atomicity.owner() + "/" + tx.transactionId() + "/" + owners.incrementAndGet();
    return new LockSet(locks, clock, owner, tx.transactionId(), this::inFlight);
  }

  // Futures are tracked by identity, which is what their (inherited) equals compares.
  @SuppressWarnings("CollectionUndefinedEquality")
  private void inFlight(CompletableFuture<?> release) {
    releases.add(release);
    release.whenComplete((r, e) -> releases.remove(release));
  }

  /** The lock of a record: its tree and a digest of its key (keys may be long). */
  String lockUri(String root, byte[] key) {
    return lockPrefix + digest(root, (byte) 0, key);
  }

  /** The lock past the last key of a tree (next-key locking's end of the key space). */
  String endLockUri(String root) {
    return lockPrefix + digest(root, (byte) 1, new byte[0]);
  }

  /**
   * The writers' lock of a tree (two-phase locking): every commit that writes the tree holds it
   * shared; a transaction that read so much of the tree that it locks the whole tree instead of
   * its keys holds it exclusively.
   */
  String treeLockUri(String root) {
    return lockPrefix + digest(root, (byte) 2, new byte[0]);
  }

  private static String digest(String root, byte separator, byte[] key) {
    try {
      MessageDigest d = MessageDigest.getInstance("SHA-256");
      d.update(root.getBytes(StandardCharsets.UTF_8));
      d.update(separator);
      d.update(key);
      return HexFormat.of().formatHex(d.digest(), 0, 20);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing", e);
    }
  }

  // ---- the durable half of a commit ----

  /**
   * A commit id for a transaction holding its exclusive locks, with the recovery check in
   * flight. On failure the locks are released and nothing was sent.
   *
   * <p>When the counters have idempotent increments, the increment names this commit attempt (a
   * request id unique to the handle and the attempt) and a lost reply is asked again under the
   * same id ({@link CommitCounter#await}): the answer is the id the lost request was issued, which
   * the commit then uses and validates like any other. Without the ability a lost reply fails the
   * commit, and the id it may have been issued holds newer snapshots back until its lease ends.
   */
  long takeCommitId(String txId, LockSet held) {
    try {
      CommitCounter.Increment next = counter.increment();
      try {
        atomicity.checkBeforeCommit(txId);
      } catch (RuntimeException e) {
        counter.validateWhenKnown(next);
        throw e;
      }
      return counter.await(next);
    } catch (CloudException e) {
      held.releaseNow();
      throw new CommitFailedException(
          "commit of transaction " + txId + ": taking a commit id" + " failed; nothing was sent",
          e.isRetryable() || e instanceof OutcomeUnknownException,
          e);
    } catch (RuntimeException e) {
      held.releaseNow();
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
  CommitResult complete(
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
      mustSee(commitId);
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
        submit(pendingArchives::retry);
        return new CommitResult(Map.of(), 0, 0, records.size());
      }
      crashPoints.reach(CrashPoint.ISOLATION_AFTER_ARCHIVE.id());
      counter.validate(commitId); // archived whole: asked again until it is validated
      crashPoints.reach(CrashPoint.ISOLATION_AFTER_VALIDATE.id());
    } catch (RuntimeException e) {
      held.leaveToLapse(); // committed: recovery archives and validates it before they lapse
      throw e;
    }
    held.releaseLater(); // the commit is done: nobody waits for the release's reply
    cleanUpLater(commitId, twoStep);
    scheduleCheckpoints(writtenTrees(records));
    return new CommitResult(Map.of(), 0, 0, records.size());
  }

  /** A commit archived on a later attempt: validate it, release its locks, clean up. */
  private void archivedLate(PendingArchives.Pending p) {
    LOG.log(Level.DEBUG, () -> "commit " + p.commitId() + " archived on a later attempt");
    counter.validate(p.commitId());
    p.locks().releaseLater();
    cleanUpLater(p.commitId(), p.twoStep());
    scheduleCheckpoints(writtenTrees(p.records()));
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
    KeyedAtomicQueues.Sent logs = atomicity.send(atomicity.logQueue(), messages, commitId);
    if (!logs.ok()) {
      throw failed(id, "sending its log messages failed", logs.failure(), true);
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
    if (s.ok()) {
      return;
    }
    if (s.maybe()) {
      held.leaveToLapse(); // if the record arrived, recovery applies it before they lapse
      throw new CommitStateUnknownException(
          "commit of transaction "
              + id
              + ": the commit record"
              + " may or may not have arrived; recovery applies it if it did",
          s.failure());
    }
    abandon(commitId, held);
    throw failed(id, "sending its commit record failed", s.failure(), false);
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
      String tx, String what, Throwable cause, boolean unknownIsHarmless) {
    boolean retryable =
        cause instanceof CloudException c
            && (c.isRetryable() || (unknownIsHarmless && c instanceof OutcomeUnknownException));
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
  void abandon(long commitId, LockSet held) {
    counter.validate(commitId);
    held.releaseNow();
  }

  private void cleanUpLater(long commitId, boolean twoStep) {
    submit(
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

  // ---- checkpoints ----

  /** Writer side: a tree whose last checkpoint by this handle is older than the interval. */
  private void scheduleCheckpoints(Set<String> roots) {
    long now = clock.millis();
    long interval = ctx.checkpointInterval().toMillis();
    for (String root : roots) {
      Long last = lastCheckpoint.putIfAbsent(root, now);
      if (last == null || now - last < interval || !checkpointQueued.add(root)) {
        continue;
      }
      lastCheckpoint.put(root, now);
      submit(
          () -> {
            checkpointQueued.remove(root);
            try {
              checkpointsRun.incrementAndGet();
              checkpointer.run(root);
            } catch (RuntimeException e) {
              checkpointsFailed.incrementAndGet();
              checkpointFailures.report(
                  "checkpoint",
                  "background checkpoint of "
                      + root
                      + " failed; its records stay queued until a later checkpoint",
                  e);
            }
          });
    }
  }

  private void submit(Runnable task) {
    if (closed) {
      return;
    }
    try {
      executor.execute(
          () -> {
            if (!closed) {
              task.run();
            }
          });
    } catch (RejectedExecutionException e) {
      LOG.log(Level.DEBUG, "background work refused: the handle is closing");
    }
  }

  /**
   * Recovers the stale commit records first (commits in flight finish by themselves; their ids
   * are not validated yet, so no checkpoint applies them), then checkpoints every tree with an
   * archive up to the validated commit id. A tree with a corrupt page is counted as a failure and
   * left as it was; the others are checkpointed all the same.
   */
  CheckpointSummary checkpointAll() {
    settleOwedWork();
    KeyedAtomicQueues.Recovery recovery = atomicity.recoverStale(false);
    long target = archivedThrough();
    int trees = 0;
    int runs = 0;
    int busy = 0;
    int damaged = 0;
    long applied = 0;
    long pages = 0;
    List<String> reasons = new ArrayList<>();
    for (String queue : archive.queues()) {
      String root = archive.rootOf(queue);
      trees++;
      for (int attempt = 0; attempt < 3; attempt++) {
        SnapshotCheckpointer.Outcome o = checkpointer.run(root);
        if (o.busy()) {
          busy++;
          break;
        }
        if (o.damaged()) {
          damaged++; // reported once by the checkpointer; the other trees go on
          reasons.add(root + ": a page of the tree is corrupt (see the warning logged for it)");
          break;
        }
        runs++;
        applied += o.applied();
        pages += o.pagesWritten();
        if (!o.ran() || o.through() >= target) {
          break;
        }
      }
    }
    return new CheckpointSummary(
        trees,
        runs,
        applied,
        pages,
        damaged,
        busy,
        0,
        recovery == KeyedAtomicQueues.Recovery.BUSY ? 1 : 0,
        reasons);
  }

  RecoverySummary recoverAbandonedClients() {
    return atomicity.recoverAbandonedClients();
  }

  /** The handle's counters: background checkpoints and other background failures. */
  ProtocolStats stats() {
    return new ProtocolStats(
        checkpointsRun.get(), checkpointsFailed.get(), failures.count(), 0, 0, 0, 0);
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
    closed = true;
    long deadline = clock.millis() + ctx.checkpoints().closeTimeout().toMillis();
    settleOwedWork(); // a last attempt; what still fails is left to recovery or the lease
    int unarchived = pendingArchives.size();
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
    try {
      CompletableFuture.allOf(releases.toArray(new CompletableFuture<?>[0]))
          .get(Math.max(0, deadline - clock.millis()), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      LOG.log(Level.DEBUG, "lock releases still unanswered at close; they lapse", e);
    }
    if (owned != null) {
      owned.shutdown();
      try {
        if (!owned.awaitTermination(
            Math.max(0, deadline - clock.millis()), TimeUnit.MILLISECONDS)) {
          owned.shutdownNow();
        }
      } catch (InterruptedException e) {
        owned.shutdownNow();
        Thread.currentThread().interrupt();
      }
    }
  }
}
