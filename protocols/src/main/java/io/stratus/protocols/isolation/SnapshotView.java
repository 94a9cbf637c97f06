package io.stratus.protocols.isolation;

import io.stratus.btree.BLinkTree;
import io.stratus.btree.TreeChange;
import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageKind;
import io.stratus.pagemanager.PageStore;
import io.stratus.pagemanager.PageTransaction;
import io.stratus.pagemanager.ReadInterposer;
import io.stratus.pagemanager.UriKeyed;
import io.stratus.protocols.StorageLayout;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The pages of one transaction as of its snapshot (paper 000, Algorithm 8): a leaf that reflects
 * an older commit id than the snapshot is rolled forward with the archived records of its key range
 * up to the snapshot; one that reflects a newer commit id is rolled back with the before images of
 * the records above the snapshot. Inner pages are used as they are: any version of an inner page
 * leads to the leaf responsible for a key (B-link right links), and each leaf is brought to the
 * snapshot by itself.
 *
 * <p>The transaction's own changes (its private pages) are returned as they are: they were made on
 * snapshot pages. A reconstructed leaf is kept for the transaction, so reading it again is stable
 * and free. Not thread-safe: one transaction.
 */
final class SnapshotView extends ReadInterposer {
  private final long snapshot;
  private final SnapshotArchive archive;
  private final TransactionDeadline deadline;
  private final Memo memo;
  private final Map<String, Seen> seen = new HashMap<>();

  /** Reads answered from a leaf shown before ({@link TransactionDeadline#REPEATS_PER_CHECK}). */
  private int repeats;

  /**
   * The leaf last read at a URI (the string object it is kept under: {@link UriKeyed}) and what
   * the view showed of it, kept as returned.
   */
  private record Seen(String uri, Page source, Optional<Page> shown) {}

  /**
   * @param deadline checked on every leaf read that shows something new, and on every {@link
   *     TransactionDeadline#REPEATS_PER_CHECK}-th read of a leaf shown before; throws when the
   *     transaction ran out of time. Every operation reads at least one leaf, and inner pages are
   *     used as they are, so checking at the leaves alone fails a late transaction at the same
   *     operation for a fraction of the clock reads (a point read's descent reads several inner
   *     pages and one leaf).
   */
  SnapshotView(
      PageStore pages,
      long snapshot,
      SnapshotArchive archive,
      TransactionDeadline deadline,
      Memo memo) {
    super(pages);
    this.memo = memo;
    this.snapshot = snapshot;
    this.archive = archive;
    this.deadline = deadline;
  }

  @Override
  public Optional<Page> read(String uri) {
    Optional<Page> p = beneath.read(uri);
    if (p.isEmpty() || p.get().kind() != PageKind.LEAF) {
      return p;
    }
    if (beneath instanceof PageTransaction t && t.wrote(uri)) {
      deadline.check();
      return p; // a private copy, made from the snapshot page
    }
    Page source = p.get();
    Seen known = seen.get(uri);
    if (known != null && known.source() == source) {
      if (++repeats % TransactionDeadline.REPEATS_PER_CHECK == 0) {
        deadline.check(); // brought to the snapshot before: safe, checked now and then as well
      }
      if (known.uri() != uri) {
        UriKeyed.keepUnder(seen, uri, new Seen(uri, source, known.shown()));
      }
      return known.shown(); // read again: stable, and nothing allocated
    }
    deadline.check();
    String root = StorageLayout.rootOf(uri);
    Page result = memo.asOf(archive, root, source, snapshot);
    Optional<Page> shown = result == source ? p : Optional.of(result);
    UriKeyed.keepUnder(seen, uri, new Seen(uri, source, shown));
    return shown;
  }

  /** {@code leaf} (of the tree rooted at {@code root}) as of commit id {@code snapshot}. */
  static Page asOf(SnapshotArchive archive, String root, Page leaf, long snapshot) {
    long reflects = SnapshotState.of(leaf).commitId();
    List<TreeChange> changes =
        archive.changesBetween(root, leaf.lowKey(), leaf.highKey(), reflects, snapshot);
    return changes.isEmpty() ? leaf : BLinkTree.overlay(leaf, changes);
  }

  /**
   * Leaves already brought to a snapshot, shared by the transactions of a handle (read-only ones
   * share snapshots): valid while the pool's copy is the same object. Bounded; thread-safe.
   */
  static final class Memo {
    private static final int MAX = 4096;

    private record Entry(Page source, long snapshot, Page result) {}

    private final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();

    Page asOf(SnapshotArchive archive, String root, Page leaf, long snapshot) {
      Entry e = entries.get(leaf.uri());
      if (e != null && e.source() == leaf && e.snapshot() == snapshot) {
        return e.result();
      }
      Page result = SnapshotView.asOf(archive, root, leaf, snapshot);
      if (entries.size() >= MAX) {
        entries.clear(); // crude but bounded; hot leaves come back at once
      }
      entries.put(leaf.uri(), new Entry(leaf, snapshot, result));
      return result;
    }
  }
}
