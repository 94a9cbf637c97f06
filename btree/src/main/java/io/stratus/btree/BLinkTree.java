package io.stratus.btree;

import io.stratus.RecordTooLargeException;
import io.stratus.pagemanager.Keys;
import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageKind;
import io.stratus.pagemanager.PageStore;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * A client-side B-link tree over the page manager (paper 000, section 3.4; Lehman and Yao, with
 * Lomet's adaptation to a distributed setting): the primary index of an index-organized
 * collection, or a secondary index.
 *
 * <p><b>Identity and handles.</b> A tree is identified by the URI of its root page, which never
 * changes. A {@code BLinkTree} is only a handle (root URI, prefix for new pages, size limits): it
 * holds no pages and no locks, is immutable and thread-safe, and every operation takes the {@link
 * PageStore} of the calling unit of work, so one handle serves all transactions of all threads.
 *
 * <p><b>Pages.</b>
 *
 * <ul>
 *   <li>Leaves ({@link PageKind#LEAF}, level 0) hold (key, value) entries: the records of a
 *       collection (value = payload), or the entries of a secondary index (key = {@link
 *       SecondaryKeys#compose composite} of search key and record key, value empty).
 *   <li>Inner nodes ({@link PageKind#INNER}, level >= 1) hold (separator, child URI in UTF-8):
 *       entry i's key is child i's low key, so the first entry's key is the node's low key, and a
 *       key is routed to the child of the greatest separator at or below it.
 *   <li>Every node is responsible for [lowKey, highKey) and links to its right sibling on the same
 *       level; the nodes of a level partition the key space from left to right.
 *   <li>The root has lowKey = empty (minus infinity), no highKey and no sibling. It is never
 *       deleted, even when the tree is empty. A root split moves the root's entries into new pages
 *       and rewrites the root one level up over them, so the root keeps its URI.
 * </ul>
 *
 * <p><b>Readers never block.</b> Splits only move keys to the right and never change a node's low
 * key; a reader that arrives at a node whose high key is at or below its key follows the right
 * link. Hence stale cached inner pages, other clients' concurrent splits and splits whose
 * separator has not yet been posted to the parent are all harmless to readers (see {@code
 * Navigator} and {@link TreeCursor}).
 *
 * <p><b>Write order: what a commit protocol must honour.</b> Within one operation the tree writes
 * pages to the store in an order in which every prefix leaves a readable tree: the new pages a
 * split creates first (nothing refers to them yet), then the split node (whose right link now
 * leads to them), then the parent that gets the separator, level by level upwards; a root split
 * writes the new children first and the root last. A protocol that persists a whole write set at
 * once keeps that property if it puts <em>all new pages first, then the modified pages in
 * ascending level</em> (leaves, then level 1, ..., the root last), which is what the naive
 * protocol does. Writing a parent before its new child, or a split node before its new right
 * sibling, would let a concurrent reader follow a reference to a page that does not exist yet.
 *
 * <p><b>Deletes are lazy.</b> A delete only removes the entry; leaves may become empty and stay in
 * the chain, inner separators are never removed, nothing is merged. That keeps deletes to one page
 * write and keeps the "keys only move right" invariant readers rely on. The costs: space for empty
 * pages, and scans that walk over runs of empty leaves. {@code onLeafEmptied} is the seam where a
 * later compaction (e.g. a checkpoint unlinking empty leaves with Lomet's deletion protocol) plugs
 * in.
 *
 * <p><b>Sizes.</b> Every entry must fit alone in a page: keys are limited to {@link
 * #maxKeyBytes(int)} (a fifth of what an inner page has room for, at most 1 KB) and key + value
 * to {@link #maxEntryBytes(int)} (what a leaf holds besides a worst-case header with two maximal
 * keys and two URIs); larger entries fail with
 * {@link RecordTooLargeException} before anything changes. The limits reserve {@link
 * #NEW_URI_SUFFIX_RESERVE} characters for what {@link PageStore#newPageUri} appends to the page
 * prefix.
 *
 * <p><b>Checkpoints</b> apply a batch of changes leaf by leaf with {@link #applySorted}; a bulk
 * load builds a whole tree bottom-up with {@link BulkLoader}.
 */
public final class BLinkTree {
  /**
   * Characters {@link PageStore#newPageUri} may append to the page prefix; the size limits reserve
   * room for URIs of at most prefix + this many characters.
   */
  public static final int NEW_URI_SUFFIX_RESERVE = 64;

  private final String rootUri;
  private final String pagePrefix;
  private final int uriBytes;
  private final Navigator nav;
  private final Splitter splitter;
  private final PieceState pieceState;

  private BLinkTree(String rootUri, String pagePrefix) {
    this(rootUri, pagePrefix, PieceState.DROPPED);
  }

  private BLinkTree(String rootUri, String pagePrefix, PieceState pieceState) {
    this.rootUri = Objects.requireNonNull(rootUri, "rootUri");
    this.pagePrefix = Objects.requireNonNull(pagePrefix, "pagePrefix");
    this.uriBytes =
        Math.max(
            PageSizing.utf8Length(rootUri),
            PageSizing.utf8Length(pagePrefix) + NEW_URI_SUFFIX_RESERVE);
    this.nav = new Navigator(rootUri);
    this.pieceState = Objects.requireNonNull(pieceState, "pieceState");
    this.splitter = new Splitter(nav, pagePrefix, uriBytes, pieceState);
  }

  /**
   * This tree with splits that treat protocol state as {@code state} says (by default {@link
   * PieceState#DROPPED}).
   */
  public BLinkTree withPieceState(PieceState state) {
    return state == pieceState ? this : new BLinkTree(rootUri, pagePrefix, state);
  }

  /**
   * A handle on the tree rooted at {@code rootUri} whose new pages are named under {@code rootUri
   * + "/"} (so all pages of a collection share its URI as prefix, paper 000 section 3.2).
   */
  public static BLinkTree open(String rootUri) {
    return new BLinkTree(rootUri, rootUri + "/");
  }

  /** A handle on the tree rooted at {@code rootUri} whose new pages are named under a prefix. */
  public static BLinkTree open(String rootUri, String pagePrefix) {
    return new BLinkTree(rootUri, pagePrefix);
  }

  /** Creates the tree at {@code rootUri} if absent (see {@link #createIfAbsent}) and opens it. */
  public static BLinkTree create(PageStore store, String rootUri) {
    BLinkTree tree = open(rootUri);
    tree.createIfAbsent(store);
    return tree;
  }

  /** Writes an empty root leaf unless a root page exists; idempotent. */
  public void createIfAbsent(PageStore store) {
    if (store.read(rootUri).isEmpty()) {
      store.write(Page.builder(rootUri, PageKind.LEAF).level(0).build());
    }
  }

  public String rootUri() {
    return rootUri;
  }

  /** The prefix new pages of this tree are named under ({@link PageStore#newPageUri}). */
  public String pagePrefix() {
    return pagePrefix;
  }

  /** The longest key (for a secondary index: composite key) this tree accepts at a page size. */
  public int maxKeyBytes(int pageSize) {
    return PageSizing.maxKeyBytes(pageSize, uriBytes);
  }

  /** The largest key + value this tree accepts at a page size. */
  public int maxEntryBytes(int pageSize) {
    return PageSizing.maxEntryBytes(pageSize, uriBytes);
  }

  /**
   * Throws {@link RecordTooLargeException} unless (key, value) fits the limits at {@code
   * pageSize}; callers can check before logging a change.
   */
  public void checkEntry(int pageSize, byte[] key, byte[] value) {
    PageSizing.checkEntry(
        Objects.requireNonNull(key, "key"),
        Objects.requireNonNull(value, "value"),
        pageSize,
        uriBytes);
  }

  // ---- reads ----

  /** The value stored under {@code key}. */
  public Optional<byte[]> get(PageStore store, byte[] key) {
    return nav.findLeaf(store, Objects.requireNonNull(key, "key")).get(key);
  }

  /**
   * The URI of the leaf (for a primary index: the data page) responsible for {@code key} in this
   * store's view, whether or not the key is present.
   */
  public String leafFor(PageStore store, byte[] key) {
    return nav.findLeaf(store, Objects.requireNonNull(key, "key")).uri();
  }

  /** The entries in {@code range}, ascending or descending (see {@link TreeCursor}). */
  public TreeCursor scan(PageStore store, KeyRange range, boolean descending) {
    return new TreeCursor(nav, store, Objects.requireNonNull(range, "range"), descending);
  }

  /** The entries in {@code range}, ascending. */
  public TreeCursor scan(PageStore store, KeyRange range) {
    return scan(store, range, false);
  }

  /** The number of entries, by walking the leaf chain (reads every leaf). */
  public long count(PageStore store) {
    Page leaf = nav.findLeaf(store, new byte[0]);
    long n = leaf.entryCount();
    while (leaf.rightSibling().isPresent()) {
      leaf = nav.sibling(store, leaf);
      n += leaf.entryCount();
    }
    return n;
  }

  /**
   * The tree's tombstones (keys a stamped delete removed, kept against older records of them)
   * as the stamped deletes that leave them, in key order, by walking the leaf chain (reads every
   * leaf): what a rebuild of the tree must keep.
   */
  public List<TreeChange> tombstones(PageStore store) {
    List<TreeChange> out = new ArrayList<>();
    Page leaf = nav.findLeaf(store, new byte[0]);
    while (true) {
      for (int i = 0; i < leaf.tombstoneCount(); i++) {
        out.add(TreeChange.delete(leaf.tombstoneKey(i), leaf.tombstoneStamp(i)));
      }
      if (leaf.rightSibling().isEmpty()) {
        return out;
      }
      leaf = nav.sibling(store, leaf);
    }
  }

  // ---- single-entry writes ----

  /** Inserts (key, value); false, and nothing changes, if the key exists. */
  public boolean insert(PageStore store, byte[] key, byte[] value) {
    checkEntry(store.pageSize(), key, value);
    Page leaf = nav.findLeaf(store, key);
    if (leaf.indexOf(key) >= 0) {
      return false;
    }
    splitter.writeOrSplit(store, leaf.withPut(key, value));
    return true;
  }

  /** Replaces the value of an existing key; false, and nothing changes, if the key is absent. */
  public boolean update(PageStore store, byte[] key, byte[] value) {
    checkEntry(store.pageSize(), key, value);
    Page leaf = nav.findLeaf(store, key);
    if (leaf.indexOf(key) < 0) {
      return false;
    }
    splitter.writeOrSplit(store, leaf.withPut(key, value));
    return true;
  }

  /** Inserts (key, value) or replaces the key's value. */
  public void put(PageStore store, byte[] key, byte[] value) {
    checkEntry(store.pageSize(), key, value);
    Page leaf = nav.findLeaf(store, key);
    splitter.writeOrSplit(store, leaf.withPut(key, value));
  }

  /**
   * Removes {@code key}; false if it was absent. The leaf stays even if it becomes empty. A leaf
   * that does not fit a page even without the key is split: a store's view may lay changes not yet
   * in the stored page over it (a client's own commits waiting for their checkpoint), and those
   * can fill it beyond a page.
   */
  public boolean delete(PageStore store, byte[] key) {
    Objects.requireNonNull(key, "key");
    Page leaf = nav.findLeaf(store, key);
    Page changed = leaf.withRemoved(key);
    if (changed == leaf) {
      return false;
    }
    splitter.writeOrSplit(store, changed);
    if (changed.entryCount() == 0) {
      onLeafEmptied(store, changed);
    }
    return true;
  }

  /**
   * Called after a delete left {@code leaf} empty. Deliberately does nothing (lazy underflow
   * handling, see the class comment); the seam for a later compaction.
   */
  void onLeafEmptied(PageStore store, Page leaf) {
    // no merging: empty leaves stay in the chain
  }

  /**
   * Writes {@code node}, a page of this tree whose header changed, splitting it (at any level,
   * the root included) when it no longer fits a page of {@code store}.
   */
  public void rewrite(PageStore store, Page node) {
    splitter.writeOrSplit(store, node);
  }

  /**
   * Names {@code childUri}, a node of level {@code level - 1} whose low key is {@code separator},
   * in the node of {@code level} responsible for the separator (splitting that node when it is
   * full), unless that node has an entry at the separator already: how a writer finishes a split
   * whose posting to the parent another writer's page overtook. The child must already be on its
   * level's sibling chain (its left neighbour written with the link to it), as after any split's
   * first two steps; nothing is posted when the store's root is below {@code level}.
   */
  public void postSeparator(PageStore store, int level, byte[] separator, String childUri) {
    if (level < 1) {
      throw new IllegalArgumentException("separators go to inner levels, not level " + level);
    }
    splitter.postIfAbsent(
        store,
        level,
        Objects.requireNonNull(separator, "separator"),
        Objects.requireNonNull(childUri, "childUri"));
  }

  // ---- batches ----

  /**
   * Applies a batch of changes the way a checkpoint does (paper 000, section 4.4): sorts them by
   * key (stably: of several changes to one key the last in the list wins, unless write stamps
   * decide, see {@link TreeChange}), then descends once per
   * affected leaf, applies all changes that belong to it, and writes it once, splitting it as often
   * as needed. Leaves the changes do not alter are not written. Idempotent: applying the same batch
   * again changes nothing and writes nothing. Every PUT is size-checked before anything is written.
   * Tombstones are kept as long as the leaves keep them ({@link #applySorted(PageStore, List,
   * long)} lets them go).
   */
  public void applySorted(PageStore store, List<TreeChange> changes) {
    apply(store, changes, 0, UnaryOperator.identity());
  }

  /**
   * {@link #applySorted(PageStore, List)}, passing every leaf the batch lands on through {@code
   * landedLeaf} before it is written (and split), and writing a leaf when the changes or {@code
   * landedLeaf} alter it: how a checkpoint stamps each leaf whose key range it applied with what
   * the leaf now reflects, sized with the stamp — also a leaf whose entries the changes leave as
   * they were (a delete of a key it lacks, an insert the batch deletes again), whose old stamp
   * would otherwise send readers to records the checkpoint has consumed.
   */
  public void applySorted(
      PageStore store, List<TreeChange> changes, UnaryOperator<Page> landedLeaf) {
    apply(store, changes, 0, landedLeaf);
  }

  /**
   * {@link #applySorted(PageStore, List)}, forgetting the tombstones whose delete stamp is below
   * {@code forgetTombstonesBefore} on every leaf the batch lands on (and leaving none for a delete
   * stamped below it): once no change older than that can arrive any more, they only take room.
   * Which stamp that is, is the caller's rule ({@link TreeChange}).
   */
  public void applySorted(PageStore store, List<TreeChange> changes, long forgetTombstonesBefore) {
    apply(store, changes, forgetTombstonesBefore, UnaryOperator.identity());
  }

  private void apply(
      PageStore store, List<TreeChange> changes, long forgetBefore, UnaryOperator<Page> landed) {
    int pageSize = store.pageSize();
    for (TreeChange c : changes) {
      if (c.kind() == TreeChange.Kind.PUT) {
        checkEntry(pageSize, c.keyRaw(), c.valueRaw());
      }
    }
    List<TreeChange> sorted = new ArrayList<>(changes);
    sorted.sort(Comparator.comparing(TreeChange::keyRaw, Keys.ORDER)); // List.sort is stable
    int i = 0;
    while (i < sorted.size()) {
      Page leaf = nav.findLeaf(store, sorted.get(i).keyRaw());
      int j = i + 1;
      while (j < sorted.size() && !leaf.isBeyondHighKey(sorted.get(j).keyRaw())) {
        j++;
      }
      Page merged = LeafMerge.merge(leaf, sorted, i, j, forgetBefore);
      Page out = landed.apply(merged != null ? merged : leaf);
      if (merged != null || !out.equals(leaf)) {
        splitter.writeOrSplit(store, out);
      }
      i = j;
    }
  }

  /**
   * {@code leaf} with {@code sorted} (by key; of one key the last wins) applied in one pass, in
   * memory and without splitting: the page may exceed the page size. Itself when nothing changes.
   * For views of a leaf (a client's own pending writes laid over it), not for stored pages.
   */
  public static Page overlay(Page leaf, List<TreeChange> sorted) {
    Page merged = LeafMerge.merge(leaf, sorted, 0, sorted.size(), 0);
    return merged == null ? leaf : merged;
  }

  // ---- for the bulk loader ----

  /** The root page if the tree exists, for the emptiness check of a bulk load. */
  Optional<Page> readRoot(PageStore store) {
    return store.read(rootUri);
  }

  int uriBytes() {
    return uriBytes;
  }

  @Override
  public String toString() {
    return "BLinkTree{" + rootUri + "}";
  }
}
