package io.stratus.protocols;

import io.stratus.btree.KeyRange;
import io.stratus.pagemanager.PageStore;

/**
 * One transaction as its commit protocol sees it: the protocol's own state for that transaction
 * (a snapshot id, the locks it holds, what it read) behind the hooks the record manager calls.
 * {@link CommitProtocol#begin} makes one per transaction; the record manager calls {@link
 * #readView} once, then {@link #commit} at most once, then {@link #finish} exactly once.
 *
 * <p>Used by one thread at a time, like the transaction it belongs to; two transactions of one
 * handle have two of these, so nothing one holds (a lock, a snapshot) is the other's.
 */
public interface ProtocolTransaction {

  /** Who the transaction is. */
  TransactionInfo info();

  /**
   * The page store the transaction's B-link trees use: {@code pages} (its page transaction) itself,
   * or a view over it through which the protocol interposes on reads (an overlay of the handle's
   * pending writes, pages as of a snapshot).
   */
  PageStore readView(PageStore pages);

  /**
   * Reports that the transaction read the keys of the tree rooted at {@code treeUri} that lie in
   * {@code range}, whatever it found there (a point read is a singleton range; a scan or an index
   * probe its whole range, however far the cursor got). The record manager reports every read;
   * a serializable protocol validates them at commit. The default ignores them.
   */
  default void readKeys(String treeUri, KeyRange range) {}

  /**
   * Reports that the transaction read {@code key} of the tree rooted at {@code treeUri}, whatever
   * it found there: {@link #readKeys} for the singleton range. The record manager reports every
   * point read through it; a protocol that ignores reads overrides it with nothing, so that a
   * point read costs no range (and no copy of the key). {@code key} stays the caller's: a
   * protocol that keeps it copies it.
   */
  default void readKey(String treeUri, byte[] key) {
    readKeys(treeUri, KeyRange.singleton(key));
  }

  /**
   * Reports that the transaction depends on every key of the tree rooted at {@code treeUri}: it
   * read through an index held outside the pages (by an index service), whose entries the protocol
   * cannot see, so the keys that would change its result cannot be named. A serializable protocol
   * guards the whole tree; the default reports its whole range to {@link #readKeys}.
   */
  default void readsAll(String treeUri) {
    readKeys(treeUri, KeyRange.all());
  }

  /**
   * Reports a change the transaction just made to its pages (a record, or an index entry), in the
   * order made. A protocol that lays the latest committed state of the keys it locked over the
   * pages it reads keeps the transaction's own changes apart with it. The default ignores them.
   */
  default void wrote(LogicalChange change) {}

  /**
   * Commits the write set.
   *
   * @return the committed page versions (for installing into the buffer pool) and counts
   * @throws io.stratus.CommitFailedException the commit had no visible effect; retry the
   *     transaction if {@link io.stratus.CommitFailedException#isRetryable()}
   * @throws io.stratus.CommitStateUnknownException the commit may have taken effect, wholly or
   *     partly
   */
  CommitResult commit(WriteSet ws);

  /**
   * Called once when the transaction ends: after its commit returned or failed ({@code committed}
   * tells which), or when it aborted. Releases what the protocol holds for it.
   */
  void finish(boolean committed);
}
