package io.stratus.protocols.isolation;

import io.stratus.btree.BLinkTree;
import io.stratus.btree.KeyRange;
import io.stratus.btree.TreeChange;
import io.stratus.btree.TreeCursor;
import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageKind;
import io.stratus.pagemanager.PageStore;
import io.stratus.pagemanager.PageTransaction;
import io.stratus.protocols.StorageLayout;
import io.stratus.protocols.isolation.SnapshotArchive.Version;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The latest committed state of the trees one transaction reads under locks (two-phase locking):
 * every leaf rolled to the transaction's base commit id (a validated one, so the archive below it
 * is complete and cacheable) and then forward with every archived record above it, as a {@link
 * #refresh} found them — records above the validated id are committed too (a commit archives only
 * after its commit record), just not yet validated.
 *
 * <p><b>Why a refresh after the lock suffices.</b> A writer archives its records before it
 * validates and releases its locks; so once a lock is granted, every commit that changed the
 * locked key is in the archive, and a refresh issued after the grant finds it.
 *
 * <p>Reads committed pages only (the transaction's own changes are not here). Not thread-safe: one
 * transaction.
 */
final class LatestCommitted implements PageStore {
  /** What a refresh read: the records above the base, per tree. */
  private final Map<String, List<Version>> fresh = new HashMap<>();

  private final Map<String, Page[]> seen = new HashMap<>(); // uri -> {source, result}
  private final SnapshotArchive archive;
  private final SnapshotView.Memo memo;
  private final PageTransaction committed;
  private final long base;
  private final TransactionDeadline deadline;

  /**
   * @param committed a page transaction over the buffer pool, aborted by {@link #close}
   * @param base a validated commit id
   * @param deadline checked before every page read; throws when the transaction ran out of time
   */
  LatestCommitted(
      SnapshotArchive archive,
      SnapshotView.Memo memo,
      PageTransaction committed,
      long base,
      TransactionDeadline deadline) {
    this.archive = archive;
    this.memo = memo;
    this.committed = committed;
    this.base = base;
    this.deadline = deadline;
  }

  /** Reads the archive of the trees rooted at {@code roots} above the base again (in parallel). */
  void refresh(Collection<String> roots) {
    fresh.putAll(archive.fetchAll(roots, base, Long.MAX_VALUE));
    for (String root : roots) {
      seen.keySet().removeIf(uri -> StorageLayout.rootOf(uri).equals(root));
    }
  }

  /**
   * The newest commit id above the base that changed a key of {@code root} in {@code range}, as
   * the last refresh found; the base when none did.
   */
  long newestCommit(String root, KeyRange range) {
    long newest = base;
    for (Version v : fresh.getOrDefault(root, List.of())) {
      if (range.contains(v.key())) {
        newest = Math.max(newest, v.commitId());
      }
    }
    return newest;
  }

  /** The value of {@code key} in the tree rooted at {@code root}. */
  Optional<byte[]> get(String root, byte[] key) {
    return StorageLayout.tree(root).get(this, key);
  }

  /** The keys and values of {@code range} in key order. */
  TreeMap<byte[], byte[]> scan(String root, KeyRange range) {
    TreeMap<byte[], byte[]> out = new TreeMap<>(Arrays::compareUnsigned);
    if (range.isEmpty()) {
      return out;
    }
    TreeCursor c = StorageLayout.tree(root).scan(this, range);
    while (c.hasNext()) {
      TreeCursor.Entry e = c.next();
      out.put(e.key(), e.value());
    }
    return out;
  }

  /**
   * The first key after {@code range} (next-key locking's fence), or empty at the end of the tree
   * (or when the range has no upper bound).
   */
  Optional<byte[]> keyAfter(String root, KeyRange range) {
    Optional<byte[]> upper = range.upperBound();
    if (upper.isEmpty()) {
      return Optional.empty();
    }
    return firstIn(
        root,
        range.isUpperInclusive()
            ? KeyRange.greaterThan(upper.get())
            : KeyRange.atLeast(upper.get()));
  }

  /** The first key after {@code key}, or empty at the end of the tree. */
  Optional<byte[]> keyAfter(String root, byte[] key) {
    return firstIn(root, KeyRange.greaterThan(key));
  }

  private Optional<byte[]> firstIn(String root, KeyRange range) {
    TreeCursor c = StorageLayout.tree(root).scan(this, range);
    return c.hasNext() ? Optional.of(c.next().key()) : Optional.empty();
  }

  @Override
  public Optional<Page> read(String uri) {
    deadline.check();
    Optional<Page> p = committed.read(uri);
    if (p.isEmpty() || p.get().kind() != PageKind.LEAF) {
      return p;
    }
    Page source = p.get();
    Page[] known = seen.get(uri);
    if (known != null && known[0] == source) {
      return Optional.of(known[1]);
    }
    String root = StorageLayout.rootOf(uri);
    Page atBase = memo.asOf(archive, root, source, base);
    TreeMap<byte[], TreeChange> newest = new TreeMap<>(Arrays::compareUnsigned);
    byte[] low = atBase.lowKey();
    Optional<byte[]> high = atBase.highKey();
    for (Version v : fresh.getOrDefault(root, List.of())) { // in commit-id order: last wins
      byte[] k = v.key();
      if (Arrays.compareUnsigned(k, low) >= 0
          && (high.isEmpty() || Arrays.compareUnsigned(k, high.get()) < 0)) {
        newest.put(k, v.redo());
      }
    }
    Page result =
        newest.isEmpty() ? atBase : BLinkTree.overlay(atBase, List.copyOf(newest.values()));
    seen.put(uri, new Page[] {source, result});
    return Optional.of(result);
  }

  @Override
  public void write(Page page) {
    throw new UnsupportedOperationException("the latest committed state is read-only");
  }

  @Override
  public String newPageUri(String prefix) {
    throw new UnsupportedOperationException("the latest committed state is read-only");
  }

  @Override
  public int pageSize() {
    return committed.pageSize();
  }

  @Override
  public boolean readsMayLag() {
    return committed.readsMayLag();
  }

  /** Ends the page transaction it reads through. */
  void close() {
    committed.abort();
  }
}
