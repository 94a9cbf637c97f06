package io.stratus.protocols.isolation;

import io.stratus.CommitFailedException;
import io.stratus.TransactionConflictException;
import io.stratus.TransactionTimeoutException;
import io.stratus.btree.KeyRange;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.LockMode;
import io.stratus.cloudapi.OutcomeUnknownException;
import io.stratus.pagemanager.PageStore;
import io.stratus.pagemanager.PageTransaction;
import io.stratus.protocols.CommitProtocol;
import io.stratus.protocols.CommitResult;
import io.stratus.protocols.CrashPoint;
import io.stratus.protocols.Guarantee;
import io.stratus.protocols.IsolationSettings;
import io.stratus.protocols.LogicalChange;
import io.stratus.protocols.ProtocolContext;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.ProtocolTransaction;
import io.stratus.protocols.TransactionInfo;
import io.stratus.protocols.WriteSet;
import io.stratus.protocols.isolation.SnapshotArchive.Version;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

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
 * record's lock covers them. Crash points {@code isolation.after-locks}, {@code
 * .after-commit-record}, {@code .after-archive}, {@code .after-validate}.
 *
 * <p>The durable half of the commit and its failures are {@link IsolationCore}'s. Thread-safe:
 * one instance serves every transaction of a handle.
 */
public final class SnapshotIsolationProtocol extends IsolatingProtocol {
  private final boolean validatesReads;

  /** Opens the protocol {@code kind} (one of the two snapshot kinds) over {@code ctx}. */
  public static CommitProtocol open(ProtocolContext ctx, ProtocolKind kind) {
    return new SnapshotIsolationProtocol(ctx, kind);
  }

  private SnapshotIsolationProtocol(ProtocolContext ctx, ProtocolKind kind) {
    super(new IsolationCore(ctx, snapshotKind(kind)));
    this.validatesReads = kind.guarantees(Guarantee.SERIALIZABLE);
  }

  private static ProtocolKind snapshotKind(ProtocolKind kind) {
    if (!kind.guarantees(Guarantee.SNAPSHOT_ISOLATION)) {
      throw new IllegalArgumentException(kind + " is not a snapshot protocol");
    }
    return kind;
  }

  @Override
  public ProtocolTransaction begin(TransactionInfo tx) {
    return new SnapshotTransaction(tx, core.snapshotFor(tx));
  }

  // ---- one transaction ----

  /** A transaction's snapshot, deadline and (serializable mode) read set. */
  private final class SnapshotTransaction implements ProtocolTransaction {
    private final TransactionInfo info;
    private final long snapshot;
    private final long beganMillis;

    /** Root to the key ranges the transaction read (serializable mode only). */
    private final Map<String, List<KeyRange>> reads = new HashMap<>();

    SnapshotTransaction(TransactionInfo info, long snapshot) {
      this.info = info;
      this.snapshot = snapshot;
      this.beganMillis = core.clock().millis();
    }

    @Override
    public TransactionInfo info() {
      return info;
    }

    @Override
    public PageStore readView(PageStore pages) {
      return new SnapshotView(pages, snapshot, core.archive(), this::checkTime, core.memo());
    }

    @Override
    public void readKeys(String treeUri, KeyRange range) {
      if (validatesReads) {
        reads.computeIfAbsent(treeUri, r -> new ArrayList<>()).add(range);
      }
    }

    private void checkTime() {
      long age = core.clock().millis() - beganMillis;
      if (age > core.settings().transactionTimeout().toMillis()) {
        throw new TransactionTimeoutException(
            "transaction "
                + info.transactionId()
                + " has run "
                + age
                + " ms, longer than the transaction timeout of "
                + core.settings().transactionTimeout()
                + "; run it again");
      }
    }

    @Override
    public CommitResult commit(WriteSet ws) {
      checkTime();
      List<LogicalChange> changes;
      try {
        changes = collapse(ws);
      } catch (CloudException e) {
        throw IsolationCore.readFailed(info.transactionId(), "reading its before images", e);
      }
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
      PageTransaction committed = core.ctx().bufferPool().begin();
      try {
        PageStore asOfSnapshot =
            new SnapshotView(committed, snapshot, core.archive(), () -> {}, core.memo());
        return ChangeSets.collapse(ws, asOfSnapshot);
      } finally {
        committed.abort();
      }
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
    long start = core.clock().millis();
    Map<String, Set<String>> writtenKeys = new HashMap<>(); // root -> hex keys (primary)
    TreeSet<String> lockUris = new TreeSet<>();
    for (LogicalChange c : changes) {
      if (!c.secondaryIndex()) {
        writtenKeys
            .computeIfAbsent(c.treeUri(), r -> new HashSet<>())
            .add(HexFormat.of().formatHex(c.key()));
        lockUris.add(core.lockUri(c.treeUri(), c.key()));
      }
    }
    LockSet held = core.newLocks(tx.info);
    try {
      held.acquire(lockUris, LockMode.EXCLUSIVE, "a record it writes");
    } catch (TransactionConflictException e) {
      held.releaseNow();
      throw e;
    } catch (CloudException e) {
      held.releaseNow();
      throw new CommitFailedException(
          "commit of transaction " + id + ": locking its records" + " failed; nothing was sent",
          e.isRetryable() || e instanceof OutcomeUnknownException,
          e);
    }
    core.ctx().crashPoints().reach(CrashPoint.ISOLATION_AFTER_LOCKS.id());
    long commitId = core.takeCommitId(id, held);
    try {
      validateWrites(tx, writtenKeys, commitId);
      if (validatesReads) {
        core.awaitValidatedBelow(
            id, commitId, start + core.settings().transactionTimeout().toMillis());
        validateReads(tx, commitId);
      }
    } catch (CloudException e) {
      core.abandon(commitId, held);
      throw IsolationCore.readFailed(id, "checking the commits since its snapshot", e);
    } catch (RuntimeException e) {
      core.abandon(commitId, held);
      throw e;
    }
    long sendBy =
        Math.min(
            core.commitDeadlineFrom(start),
            start + core.settings().transactionTimeout().toMillis());
    return core.complete(id, changes, commitId, held, sendBy);
  }

  /** First committer wins: no transaction after the snapshot changed a key this one writes. */
  private void validateWrites(
      SnapshotTransaction tx, Map<String, Set<String>> writtenKeys, long commitId) {
    Map<String, List<Version>> after =
        core.archive().fetchAll(writtenKeys.keySet(), tx.snapshot, commitId - 1);
    for (Map.Entry<String, Set<String>> e : writtenKeys.entrySet()) {
      for (Version v : after.get(e.getKey())) {
        if (e.getValue().contains(HexFormat.of().formatHex(v.key()))) {
          throw new TransactionConflictException(
              "commit of transaction "
                  + tx.info.transactionId()
                  + ": commit "
                  + v.commitId()
                  + ", after its snapshot "
                  + tx.snapshot
                  + ", changed a record it changes (first committer wins)");
        }
      }
    }
  }

  /**
   * The serializable mode, once every smaller commit id is validated (all of them archived): no
   * transaction between the snapshot and this commit changed a key in a range this one read.
   */
  private void validateReads(SnapshotTransaction tx, long commitId) {
    for (String root : tx.reads.keySet()) {
      for (Version ver : core.archive().versions(root, tx.snapshot, commitId - 1)) {
        if (tx.readKey(root, ver.key())) {
          throw new TransactionConflictException(
              "commit of transaction "
                  + tx.info.transactionId()
                  + ": commit "
                  + ver.commitId()
                  + ", after its snapshot "
                  + tx.snapshot
                  + ", changed what it read (serializable)");
        }
      }
    }
  }
}
