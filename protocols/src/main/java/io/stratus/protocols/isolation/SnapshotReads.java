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
import io.stratus.protocols.CommitResult;
import io.stratus.protocols.IsolationSettings;
import io.stratus.protocols.LogicalChange;
import io.stratus.protocols.ProtocolTransaction;
import io.stratus.protocols.TransactionInfo;
import io.stratus.protocols.WriteSet;
import java.util.List;
import java.util.TreeSet;

/**
 * Snapshot reads (paper 000, section 5.4, Algorithms 7 to 9): a transaction reads the database as
 * of a snapshot and locks only what it writes, at commit.
 *
 * <p><b>Begin</b> (Algorithm 7, {@link CommitIds#snapshotFor}): the advanced atomicity recovery
 * check (at most once per atomic timeout / 5), then the highest validated value of the commit
 * counter as the snapshot id. A handle's snapshot covers its own latest commit (read-your-writes):
 * begin asks again, briefly, while the counter lags behind it. Read-only transactions reuse the
 * handle's snapshot for {@link IsolationSettings#snapshotReuse()}.
 *
 * <p><b>Reads</b> (Algorithm 8): {@link SnapshotView} serves every leaf as of the snapshot from
 * the buffer pool's copy and the tree's archive ({@link SnapshotArchive}). The key ranges read go
 * to the read set the validation keeps. A transaction's reads fail with {@link
 * TransactionTimeoutException} once it is older than the transaction timeout.
 *
 * <p><b>Commit</b> (Algorithm 9): collapse the write set to one record per key with its before
 * image as of the snapshot; take an exclusive lock per primary key (all requests at once, in key
 * order; a refusal aborts at once, so there is no waiting and no deadlock), owned by this
 * transaction alone; then the durable half ({@link DurableCommit#commitLocked}) with the
 * assembly's {@link Validation} as its check. Index entries change only with their record, so the
 * record's lock covers them.
 *
 * <p>Thread-safe: one instance serves every transaction of a handle.
 */
final class SnapshotReads implements ReadStrategy {
  private final IsolationParts parts;

  SnapshotReads(IsolationParts parts) {
    this.parts = parts;
  }

  @Override
  public ProtocolTransaction begin(TransactionInfo tx) {
    return new SnapshotTransaction(tx, parts.ids().snapshotFor(tx));
  }

  /** A transaction's snapshot, deadline and read set. */
  private final class SnapshotTransaction implements ProtocolTransaction {
    private final TransactionInfo info;
    private final long snapshot;
    private final TransactionDeadline deadline;
    private final ReadSet reads = parts.validation().newReadSet();

    SnapshotTransaction(TransactionInfo info, long snapshot) {
      this.info = info;
      this.snapshot = snapshot;
      this.deadline = parts.deadlineOf(info);
    }

    @Override
    public TransactionInfo info() {
      return info;
    }

    @Override
    public PageStore readView(PageStore pages) {
      return new SnapshotView(pages, snapshot, parts.archive(), deadline, parts.memo());
    }

    @Override
    public void readKeys(String treeUri, KeyRange range) {
      reads.add(treeUri, range);
    }

    @Override
    public void readKey(String treeUri, byte[] key) {
      reads.addKey(treeUri, key);
    }

    @Override
    public CommitResult commit(WriteSet ws) {
      deadline.check();
      List<LogicalChange> changes;
      try {
        changes = collapse(ws);
      } catch (CloudException e) {
        throw DurableCommit.readFailed(info.transactionId(), "reading its before images", e);
      }
      if (changes.isEmpty()) {
        return CommitResult.empty();
      }
      return commitChanges(changes);
    }

    @Override
    public void finish(boolean committed) {
      // Locks are released by the commit itself; a transaction that never committed took none.
    }

    /** The write set as one change per key with its before image as of the snapshot. */
    private List<LogicalChange> collapse(WriteSet ws) {
      PageTransaction committed = parts.context().bufferPool().begin();
      try {
        PageStore asOfSnapshot =
            new SnapshotView(
                committed, snapshot, parts.archive(), TransactionDeadline.NONE, parts.memo());
        return ChangeSets.collapse(ws, asOfSnapshot);
      } finally {
        committed.abort();
      }
    }

    /** Locks every primary key written, then the durable half with the validation as check. */
    private CommitResult commitChanges(List<LogicalChange> changes) {
      String id = info.transactionId();
      long start = parts.context().clock().millis();
      TreeSet<String> lockUris = new TreeSet<>();
      for (LogicalChange c : changes) {
        if (!c.secondaryIndex()) {
          lockUris.add(parts.locks().lockUri(c.treeUri(), c.key()));
        }
      }
      LockSet held = parts.locks().newLocks(info);
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
      long timeoutAt = start + parts.settings().transactionTimeout().toMillis();
      Validation.Candidate candidate = new Validation.Candidate(id, snapshot, changes, reads);
      return parts
          .commits()
          .commitLocked(
              id,
              changes,
              held,
              commitId -> parts.validation().check(parts, candidate, commitId, timeoutAt),
              "checking the commits since its snapshot",
              Math.min(parts.commits().commitDeadlineFrom(start), timeoutAt));
    }
  }
}
