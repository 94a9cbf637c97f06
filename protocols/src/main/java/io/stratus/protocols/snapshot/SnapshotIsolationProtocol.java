package io.stratus.protocols.snapshot;

import io.stratus.CommitFailedException;
import io.stratus.CommitStateUnknownException;
import io.stratus.InvalidRequestException;
import io.stratus.TransactionConflictException;
import io.stratus.TransactionTimeoutException;
import io.stratus.btree.BLinkTree;
import io.stratus.btree.KeyRange;
import io.stratus.btree.SecondaryKeys;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.CounterService;
import io.stratus.cloudapi.CrashPoints;
import io.stratus.cloudapi.LockGrant;
import io.stratus.cloudapi.LockService;
import io.stratus.cloudapi.OutcomeUnknownException;
import io.stratus.cloudapi.SupportsConditionalPut;
import io.stratus.pagemanager.PageStore;
import io.stratus.pagemanager.PageTransaction;
import io.stratus.protocols.CheckpointSummary;
import io.stratus.protocols.CheckpointWrites;
import io.stratus.protocols.CommitProtocol;
import io.stratus.protocols.CommitResult;
import io.stratus.protocols.Guarantee;
import io.stratus.protocols.IsolationSettings;
import io.stratus.protocols.LogicalChange;
import io.stratus.protocols.ProtocolContext;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.ProtocolTransaction;
import io.stratus.protocols.RecoverySummary;
import io.stratus.protocols.StorageLayout;
import io.stratus.protocols.TransactionInfo;
import io.stratus.protocols.WriteSet;
import io.stratus.protocols.advanced.AdvancedAtomicity;
import io.stratus.protocols.log.AtomicMessages;
import io.stratus.protocols.log.LogRecord;
import io.stratus.protocols.snapshot.SnapshotArchive.Version;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Generalized snapshot isolation (paper 000, section 5.4, Algorithms 7 to 9) and, on the same
 * machinery, a serializable mode beyond the papers.
 *
 * <p><b>Begin</b> (Algorithm 7): the advanced atomicity recovery check (at most once per atomic
 * timeout / 5), then the highest validated value of the commit counter {@code
 * <databaseUri>/si/commits} as the snapshot id. A handle's snapshot covers its own latest commit
 * (read-your-writes): begin asks again, briefly, while the counter lags behind it. Read-only
 * transactions reuse the handle's snapshot for {@link IsolationSettings#snapshotReuse()}.
 *
 * <p><b>Reads</b> (Algorithm 8): {@link SnapshotView} serves every leaf as of the snapshot from
 * the buffer pool's copy and the tree's archive ({@link SnapshotArchive}). A transaction's reads
 * fail with {@link TransactionTimeoutException} once it is older than the transaction timeout.
 *
 * <p><b>Commit</b> (Algorithm 9): collapse the write set to one record per key with its before
 * image as of the snapshot; take an exclusive lock per primary key (all requests at once, in key
 * order; a refusal aborts at once, so there is no waiting and no deadlock), owned by this
 * transaction alone; take a commit id (in parallel with the recovery check); read the archive of
 * every written tree between snapshot and commit id and abort on a record of a written key (first
 * committer wins) — the serializable mode also waits until every smaller commit id is validated
 * and aborts on a record inside a key range the transaction read (every point read, scan and
 * index probe, as the record manager reports them); commit through advanced
 * atomicity keyed by the commit id (one message when it fits); send the records to the archive;
 * validate the commit id; release the locks. Index entries change only with their record, so the
 * record's lock covers them. Crash points {@code snapshot.after-locks}, {@code
 * .after-commit-record}, {@code .after-archive}, {@code .after-validate}.
 *
 * <p><b>Failures.</b> A commit refused before its commit record was sent leaves nothing: its
 * locks are released and its commit id validated at once (so snapshots do not wait for it). Once
 * the commit record may have arrived, the locks and the commit id are left to lapse: recovery (by
 * any client, after the atomic timeout) sends the records to the archive and validates the
 * commit id, and the lease rule ({@link IsolationSettings}) guarantees that happens before either
 * lapses. Thread-safe: one instance serves every transaction of a handle.
 */
public final class SnapshotIsolationProtocol implements CommitProtocol {
  private static final System.Logger LOG =
      System.getLogger(SnapshotIsolationProtocol.class.getName());
  /** Versions the archive cache keeps per tree. */
  private static final int CACHE_LIMIT = 200_000;
  /** Polls of the counter while a snapshot or a serializable validation waits for it. */
  private static final int COUNTER_POLLS = 2_000;
  private static final int THREADS = 2;

  private final ProtocolKind kind;
  private final ProtocolContext ctx;
  private final Clock clock;
  private final CrashPoints crashPoints;
  private final IsolationSettings settings;
  private final CounterService counters;
  private final LockService locks;
  private final String counterUri;
  private final String lockPrefix;
  private final SnapshotArchive archive;
  private final SnapshotView.Memo memo = new SnapshotView.Memo();
  private final AdvancedAtomicity atomicity;
  private final SnapshotCheckpointer checkpointer;
  private final boolean validatesReads;
  private final Executor executor;
  private final ExecutorService owned;
  private final AtomicLong lastOwnCommit = new AtomicLong();
  private final AtomicLong reusable = new AtomicLong(-1);
  private volatile long reusableAtMillis;
  private final Map<String, Long> lastCheckpoint = new ConcurrentHashMap<>();
  private final Set<String> checkpointQueued = ConcurrentHashMap.newKeySet();
  private final AtomicLong checkpointsRun = new AtomicLong();
  private final AtomicLong checkpointsFailed = new AtomicLong();
  private final AtomicLong transactionIds = new AtomicLong();
  private volatile boolean closed;

  /** Opens the protocol {@code kind} (one of the two snapshot kinds) over {@code ctx}. */
  public static CommitProtocol open(ProtocolContext ctx, ProtocolKind kind) {
    return new SnapshotIsolationProtocol(ctx, kind);
  }

  private SnapshotIsolationProtocol(ProtocolContext ctx, ProtocolKind kind) {
    if (!kind.guarantees(Guarantee.SNAPSHOT_ISOLATION)) {
      throw new IllegalArgumentException(kind + " is not a snapshot protocol");
    }
    if (!ctx.services().hasAdvancedQueues() || !ctx.services().hasLocks()
        || !ctx.services().hasCounters()) {
      throw new InvalidRequestException("the " + kind.name().toLowerCase(java.util.Locale.ROOT)
          + " protocol needs the advanced queue, lock and advanced counter services");
    }
    this.kind = kind;
    this.ctx = ctx;
    this.clock = ctx.clock();
    this.crashPoints = ctx.crashPoints();
    this.settings = ctx.isolation();
    this.validatesReads = kind.guarantees(Guarantee.SERIALIZABLE);
    this.counters = ctx.services().counters();
    this.locks = ctx.services().locks();
    String prefix = ctx.databaseUri() + "/si/";
    this.counterUri = prefix + "commits";
    this.lockPrefix = prefix + "lock/";
    this.archive = new SnapshotArchive(ctx.services().advancedQueues(), ctx.databaseUri(),
        CACHE_LIMIT);
    this.atomicity = new AdvancedAtomicity(ctx, this::recovered);
    CheckpointWrites w = ctx.checkpoints().writes();
    boolean conditional = SupportsConditionalPut.of(ctx.services().storage()) != null;
    if (w == CheckpointWrites.CONDITIONAL && !conditional) {
      throw new InvalidRequestException("checkpoint writes CONDITIONAL need storage with"
          + " conditional puts");
    }
    this.checkpointer = new SnapshotCheckpointer(ctx, archive, this::archivedThrough,
        w == CheckpointWrites.AUTO ? conditional : w == CheckpointWrites.CONDITIONAL);
    CloudFutures.await(counters.setTimeout(counterUri, settings.leaseTimeout()));
    CloudFutures.await(locks.setTimeout(lockPrefix, settings.leaseTimeout()));
    if (ctx.checkpointExecutor() != null) {
      this.executor = ctx.checkpointExecutor();
      this.owned = null;
    } else {
      this.owned = ctx.newDaemonPool("snapshot", THREADS);
      this.executor = owned;
    }
  }

  @Override
  public ProtocolKind kind() {
    return kind;
  }

  // ---- begin ----

  @Override
  public ProtocolTransaction begin(TransactionInfo tx) {
    return new SnapshotTransaction(tx, snapshotFor(tx));
  }

  /** Algorithm 7: the recovery check, then the snapshot id. */
  private long snapshotFor(TransactionInfo tx) {
    atomicity.checkBeforeCommit(tx.transactionId());
    long own = lastOwnCommit.get();
    long reuse = reusable.get();
    if (tx.readOnly() && reuse >= own && reuse >= 0
        && clock.millis() - reusableAtMillis < settings.snapshotReuse().toMillis()) {
      return reuse;
    }
    long s = validated();
    for (int i = 0; s < own; i++) {
      if (i >= COUNTER_POLLS) {
        throw new TransactionTimeoutException("transaction " + tx.transactionId()
            + ": the commit counter has not validated this handle's own latest commit " + own
            + " yet (it is at " + s + "); a snapshot without it would not show your writes");
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
      s = validated();
    }
    long chosen = s;
    reusable.accumulateAndGet(chosen, Math::max);
    reusableAtMillis = clock.millis();
    return Math.max(chosen, 0);
  }

  private long validated() {
    return CloudFutures.await(counters.highestValidated(counterUri));
  }

  /**
   * The validated commit id after the recovery check: every commit up to it is in the archive
   * (what checkpoints may apply).
   */
  private long archivedThrough() {
    atomicity.checkBeforeCommit("checkpoint");
    return validated();
  }

  /** Recovery found committed transactions: archive their records, then validate their ids. */
  private void recovered(List<LogRecord> records) {
    archive.send(records);
    Set<Long> ids = new TreeSet<>();
    for (LogRecord r : records) {
      ids.add(r.commitId());
    }
    for (long id : ids) {
      try {
        CloudFutures.await(counters.validate(counterUri, id));
      } catch (CloudException e) {
        LOG.log(Level.DEBUG, "validating recovered commit id " + id + " failed; it lapses", e);
      }
    }
  }

  // ---- one transaction ----

  /** A transaction's snapshot, deadline and (serializable mode) read set. */
  private final class SnapshotTransaction implements ProtocolTransaction {
    private final TransactionInfo info;
    private final long snapshot;
    private final long beganMillis;
    private final String owner;
    /** Root to the key ranges the transaction read (serializable mode only). */
    private final Map<String, List<KeyRange>> reads = new HashMap<>();
    private PageStore view;

    SnapshotTransaction(TransactionInfo info, long snapshot) {
      this.info = info;
      this.snapshot = snapshot;
      this.beganMillis = clock.millis();
      this.owner = atomicity.owner() + "/" + info.transactionId() + "/"
          + transactionIds.incrementAndGet();
    }

    @Override
    public TransactionInfo info() {
      return info;
    }

    @Override
    public PageStore readView(PageStore pages) {
      view = new SnapshotView(pages, snapshot, archive, this::checkTime, memo);
      return view;
    }

    @Override
    public void readKeys(String treeUri, KeyRange range) {
      if (validatesReads) {
        reads.computeIfAbsent(treeUri, r -> new ArrayList<>()).add(range);
      }
    }

    private void checkTime() {
      long age = clock.millis() - beganMillis;
      if (age > settings.transactionTimeout().toMillis()) {
        throw new TransactionTimeoutException("transaction " + info.transactionId() + " has run "
            + age + " ms, longer than the transaction timeout of "
            + settings.transactionTimeout() + "; run it again");
      }
    }

    @Override
    public CommitResult commit(WriteSet ws) {
      checkTime();
      List<LogicalChange> changes = collapse(ws);
      if (changes.isEmpty()) {
        return CommitResult.empty();
      }
      return commitChanges(this, changes);
    }

    @Override
    public void finish(boolean committed) {
      // Locks are released by the commit itself; a transaction that never committed took none.
    }

    /** The write set as one change per key with its before image as of the snapshot. */
    private List<LogicalChange> collapse(WriteSet ws) {
      Map<String, LogicalChange> last = new LinkedHashMap<>();
      for (LogicalChange c : ws.changes()) {
        byte[] treeKey = c.secondaryIndex() ? SecondaryKeys.compose(c.key(), c.value()) : c.key();
        last.put(c.treeUri() + '\u0000' + HexFormat.of().formatHex(treeKey), c);
      }
      List<LogicalChange> out = new ArrayList<>();
      PageTransaction committed = ctx.bufferPool().begin();
      try {
        PageStore asOfSnapshot = new SnapshotView(committed, snapshot, archive, () -> { }, memo);
        for (LogicalChange c : last.values()) {
          BLinkTree tree = StorageLayout.tree(c.treeUri());
          if (c.secondaryIndex()) {
            boolean before = tree.get(asOfSnapshot,
                SecondaryKeys.compose(c.key(), c.value())).isPresent();
            boolean after = c.kind() != LogicalChange.Kind.DELETE;
            if (before != after) {
              out.add(c.withBefore(before ? Optional.of(new byte[0]) : Optional.empty()));
            }
            continue;
          }
          Optional<byte[]> before = tree.get(asOfSnapshot, c.key());
          boolean after = c.kind() != LogicalChange.Kind.DELETE;
          if (!after && before.isEmpty()
              || after && before.isPresent() && Arrays.equals(before.get(), c.value())) {
            continue; // no change to the snapshot's value
          }
          LogicalChange.Kind k = !after ? LogicalChange.Kind.DELETE
              : before.isEmpty() ? LogicalChange.Kind.INSERT : LogicalChange.Kind.UPDATE;
          out.add(new LogicalChange(k, c.treeUri(), c.key(), c.value(), Optional.empty(), false)
              .withBefore(before));
        }
      } finally {
        committed.abort();
      }
      return out;
    }

    /** Whether a key of {@code root} lies in a key range this transaction read. */
    boolean readKey(String root, byte[] key) {
      for (KeyRange r : reads.getOrDefault(root, List.of())) {
        if (r.contains(key)) {
          return true;
        }
      }
      return false;
    }
  }

  // ---- commit (Algorithm 9) ----

  private CommitResult commitChanges(SnapshotTransaction tx, List<LogicalChange> changes) {
    String id = tx.info.transactionId();
    long start = clock.millis();
    Map<String, Set<String>> writtenKeys = new HashMap<>(); // root -> hex keys (primary)
    TreeSet<String> lockUris = new TreeSet<>();
    for (LogicalChange c : changes) {
      if (!c.secondaryIndex()) {
        String hex = HexFormat.of().formatHex(c.key());
        writtenKeys.computeIfAbsent(c.treeUri(), r -> new HashSet<>()).add(hex);
        lockUris.add(lockUri(c.treeUri(), c.key()));
      }
    }
    List<String> held = lockAll(id, tx.owner, lockUris);
    crashPoints.reach("snapshot.after-locks");
    long commitId;
    try {
      CompletableFuture<Long> next = counters.increment(counterUri);
      try {
        atomicity.checkBeforeCommit(id); // with the increment in flight: one round trip for both
      } catch (RuntimeException e) {
        next.thenAccept(v -> validateQuietly(v));
        throw e;
      }
      commitId = CloudFutures.await(next);
    } catch (CloudException e) {
      releaseQuietly(held, tx.owner);
      throw new CommitFailedException("commit of transaction " + id + ": taking a commit id"
          + " failed; nothing was sent", e.isRetryable() || e instanceof OutcomeUnknownException,
          e);
    } catch (RuntimeException e) {
      releaseQuietly(held, tx.owner);
      throw e;
    }
    try {
      validateWrites(tx, writtenKeys, commitId);
      if (validatesReads) {
        validateReads(tx, commitId, start);
      }
    } catch (RuntimeException e) {
      abandon(commitId, held, tx.owner);
      throw e;
    }
    List<LogRecord> records = new ArrayList<>(changes.size());
    long now = clock.millis();
    for (LogicalChange c : changes) {
      records.add(new LogRecord(c, ctx.clientId(), 0, id, now, commitId));
    }
    boolean twoStep = sendCommitRecord(tx, records, commitId, held, start);
    crashPoints.reach("snapshot.after-commit-record");
    lastOwnCommit.accumulateAndGet(commitId, Math::max);
    try {
      archive.send(records);
    } catch (CloudException e) {
      // Committed: recovery archives the records and validates the id; the locks lapse first.
      LOG.log(Level.DEBUG, "archiving commit " + commitId + " failed; recovery will", e);
      return new CommitResult(Map.of(), 0, 0, records.size());
    }
    crashPoints.reach("snapshot.after-archive");
    try {
      CloudFutures.await(counters.validate(counterUri, commitId));
    } catch (CloudException e) {
      LOG.log(Level.DEBUG, "validating commit id " + commitId + " failed; it lapses", e);
    }
    crashPoints.reach("snapshot.after-validate");
    releaseLater(held, tx.owner); // the commit is done: nobody waits for the release's reply
    cleanUpLater(commitId, twoStep);
    scheduleCheckpoints(writtenTrees(records));
    return new CommitResult(Map.of(), 0, 0, records.size());
  }

  /** The exclusive locks on {@code uris}, all requested at once; all or none are held after. */
  private List<String> lockAll(String tx, String owner, TreeSet<String> uris) {
    List<String> order = new ArrayList<>(uris);
    List<CompletableFuture<LockGrant>> grants = new ArrayList<>(order.size());
    for (String u : order) {
      grants.add(locks.acquireExclusive(u, owner));
    }
    List<String> held = new ArrayList<>();
    String refused = null;
    CloudException failure = null;
    for (int i = 0; i < order.size(); i++) {
      try {
        LockGrant g = CloudFutures.await(grants.get(i));
        if (g.granted()) {
          held.add(order.get(i));
        } else if (refused == null) {
          refused = order.get(i);
        }
      } catch (CloudException e) {
        if (failure == null) {
          failure = e;
        }
        held.add(order.get(i)); // it may have been granted: release it too
      }
    }
    if (refused == null && failure == null) {
      return held;
    }
    releaseQuietly(held, owner);
    if (refused != null) {
      throw new TransactionConflictException("commit of transaction " + tx + ": a concurrent"
          + " transaction holds the lock of a record it writes (" + refused + ")");
    }
    throw new CommitFailedException("commit of transaction " + tx + ": locking its records"
        + " failed; nothing was sent", failure.isRetryable()
        || failure instanceof OutcomeUnknownException, failure);
  }

  /** First committer wins: no transaction after the snapshot changed a key this one writes. */
  private void validateWrites(SnapshotTransaction tx, Map<String, Set<String>> writtenKeys,
      long commitId) {
    Map<String, List<Version>> after = archive.fetchAll(writtenKeys.keySet(), tx.snapshot,
        commitId - 1);
    for (Map.Entry<String, Set<String>> e : writtenKeys.entrySet()) {
      for (Version v : after.get(e.getKey())) {
        if (e.getValue().contains(HexFormat.of().formatHex(v.key()))) {
          throw new TransactionConflictException("commit of transaction "
              + tx.info.transactionId() + ": commit " + v.commitId() + ", after its snapshot "
              + tx.snapshot + ", changed a record it changes (first committer wins)");
        }
      }
    }
  }

  /**
   * The serializable mode: once every smaller commit id is validated (all of them archived), no
   * transaction between the snapshot and this commit changed a key in a range this one read.
   */
  private void validateReads(SnapshotTransaction tx, long commitId, long start) {
    long v = validated();
    for (int i = 0; v < commitId - 1; i++) {
      if (i >= COUNTER_POLLS || clock.millis() - start > settings.transactionTimeout().toMillis()) {
        throw new TransactionTimeoutException("commit of transaction " + tx.info.transactionId()
            + ": earlier commits (below " + commitId + ") are still in flight after "
            + COUNTER_POLLS + " polls; its reads cannot be validated");
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
      v = validated();
    }
    for (String root : tx.reads.keySet()) {
      for (Version ver : archive.versions(root, tx.snapshot, commitId - 1)) {
        if (tx.readKey(root, ver.key())) {
          throw new TransactionConflictException("commit of transaction "
              + tx.info.transactionId() + ": commit " + ver.commitId() + ", after its snapshot "
              + tx.snapshot + ", changed what it read (serializable)");
        }
      }
    }
  }

  /**
   * Sends the complete message, or the log messages and then the commit record, keyed by the
   * commit id; returns whether it took two steps.
   */
  private boolean sendCommitRecord(SnapshotTransaction tx, List<LogRecord> records, long commitId,
      List<String> held, long start) {
    String id = tx.info.transactionId();
    String commitKey = atomicity.owner() + "/" + id;
    long now = clock.millis();
    long deadline = Math.min(atomicity.commitDeadlineMillis(),
        settings.transactionTimeout().toMillis());
    Optional<byte[]> single = AtomicMessages.complete(commitKey, now, records,
        atomicity.maxMessageSize());
    byte[] committing;
    boolean twoStep = single.isEmpty();
    if (single.isPresent()) {
      committing = single.get();
    } else {
      List<byte[]> messages = AtomicMessages.pack(commitKey, now, records,
          atomicity.maxMessageSize());
      AdvancedAtomicity.Sent logs = atomicity.send(atomicity.logQueue(), messages, commitId);
      if (!logs.ok()) {
        abandon(commitId, held, tx.owner);
        throw failed(id, "sending its log messages failed", logs.failure(), true);
      }
      committing = AtomicMessages.commitRecord(commitKey, now, messages.size(), records.size());
    }
    if (clock.millis() - start > deadline) {
      abandon(commitId, held, tx.owner);
      throw new CommitFailedException("commit of transaction " + id + " took longer than "
          + deadline + " ms before its commit record; none of it will be applied", true, null);
    }
    AdvancedAtomicity.Sent s = atomicity.send(atomicity.commitQueue(), List.of(committing),
        commitId);
    if (s.ok()) {
      return twoStep;
    }
    if (s.maybe()) {
      // The locks and the commit id lapse; if the record arrived, recovery applies it first.
      throw new CommitStateUnknownException("commit of transaction " + id + ": the commit record"
          + " may or may not have arrived; recovery applies it if it did", s.failure());
    }
    abandon(commitId, held, tx.owner);
    throw failed(id, "sending its commit record failed", s.failure(), false);
  }

  private static CommitFailedException failed(String tx, String what, Throwable cause,
      boolean unknownIsHarmless) {
    boolean retryable = cause instanceof CloudException c
        && (c.isRetryable() || (unknownIsHarmless && c instanceof OutcomeUnknownException));
    return new CommitFailedException("commit of transaction " + tx + ": " + what
        + "; no commit record was sent, so none of it will be applied", retryable, cause);
  }

  /** A commit that ends before its commit record: validate its id, release its locks. */
  private void abandon(long commitId, List<String> held, String owner) {
    validateQuietly(commitId);
    releaseQuietly(held, owner);
  }

  private void validateQuietly(long commitId) {
    try {
      CloudFutures.await(counters.validate(counterUri, commitId));
    } catch (CloudException e) {
      LOG.log(Level.DEBUG, "validating commit id " + commitId + " failed; it lapses", e);
    }
  }

  private void releaseQuietly(List<String> held, String owner) {
    List<CompletableFuture<Boolean>> releases = new ArrayList<>(held.size());
    for (String u : held) {
      releases.add(locks.release(u, owner));
    }
    for (CompletableFuture<Boolean> r : releases) {
      try {
        CloudFutures.await(r);
      } catch (CloudException e) {
        LOG.log(Level.DEBUG, "releasing a record lock failed; it lapses", e);
      }
    }
  }

  /** Releases {@code held} without waiting for the replies (a failed release lapses). */
  private void releaseLater(List<String> held, String owner) {
    for (String u : held) {
      locks.release(u, owner).whenComplete((released, failure) -> {
        if (failure != null) {
          LOG.log(Level.DEBUG, "releasing a record lock failed; it lapses", failure);
        }
      });
    }
  }

  /** The lock of a record: its tree and a digest of its key (keys may be long). */
  private String lockUri(String root, byte[] key) {
    try {
      MessageDigest d = MessageDigest.getInstance("SHA-256");
      d.update(root.getBytes(StandardCharsets.UTF_8));
      d.update((byte) 0);
      d.update(key);
      return lockPrefix + HexFormat.of().formatHex(d.digest(), 0, 20);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing", e);
    }
  }

  private void cleanUpLater(long commitId, boolean twoStep) {
    submit(() -> {
      try {
        atomicity.cleanUp(List.of(commitId), twoStep ? Set.of(commitId) : Set.of());
      } catch (CloudException e) {
        LOG.log(Level.DEBUG, "cleaning up commit " + commitId + " failed; recovery will", e);
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
      submit(() -> {
        checkpointQueued.remove(root);
        try {
          checkpointsRun.incrementAndGet();
          checkpointer.run(root);
        } catch (RuntimeException e) {
          checkpointsFailed.incrementAndGet();
          LOG.log(Level.DEBUG, "background checkpoint of " + root + " failed", e);
        }
      });
    }
  }

  private void submit(Runnable task) {
    if (closed) {
      return;
    }
    try {
      executor.execute(() -> {
        if (!closed) {
          task.run();
        }
      });
    } catch (java.util.concurrent.RejectedExecutionException e) {
      LOG.log(Level.DEBUG, "background work refused: the handle is closing");
    }
  }

  /**
   * {@inheritDoc} Recovers the stale commit records first (commits in flight finish by
   * themselves; their ids are not validated yet, so no checkpoint applies them), then checkpoints
   * every tree with an archive up to the validated commit id.
   */
  @Override
  public CheckpointSummary checkpointAll() {
    AdvancedAtomicity.Recovery recovery = atomicity.recoverStale(false);
    long target = archivedThrough();
    int trees = 0;
    int runs = 0;
    int busy = 0;
    long applied = 0;
    long pages = 0;
    for (String queue : archive.queues()) {
      String root = archive.rootOf(queue);
      trees++;
      for (int attempt = 0; attempt < 3; attempt++) {
        SnapshotCheckpointer.Outcome o = checkpointer.run(root);
        if (o.busy()) {
          busy++;
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
    return new CheckpointSummary(trees, runs, applied, pages, 0, busy, 0,
        recovery == AdvancedAtomicity.Recovery.BUSY ? 1 : 0);
  }

  @Override
  public RecoverySummary recoverAbandonedClients() {
    return atomicity.recoverAbandonedClients();
  }

  @Override
  public long backgroundCheckpointsRun() {
    return checkpointsRun.get();
  }

  @Override
  public long backgroundCheckpointsFailed() {
    return checkpointsFailed.get();
  }

  @Override
  public CommitResult commit(WriteSet ws) {
    throw new IllegalStateException("snapshot isolation commits through its transactions"
        + " (begin)");
  }

  @Override
  public void close() {
    closed = true;
    if (owned != null) {
      owned.shutdown();
      try {
        if (!owned.awaitTermination(ctx.checkpoints().lockTimeout().toMillis() + 5_000,
            TimeUnit.MILLISECONDS)) {
          owned.shutdownNow();
        }
      } catch (InterruptedException e) {
        owned.shutdownNow();
        Thread.currentThread().interrupt();
      }
    }
  }
}
