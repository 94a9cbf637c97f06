package io.stratus.btree;

import io.stratus.InvalidRequestException;
import io.stratus.pagemanager.Keys;
import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageKind;
import io.stratus.pagemanager.PageStore;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Builds a B-link tree bottom-up from entries sorted by key, writing each page exactly once: the
 * point of paper 000, section 7.7 (Table 4): loading N entries costs about N / entries-per-page
 * page writes plus the (few) inner pages, instead of N single inserts.
 *
 * <p><b>How.</b> One pass over the input. Each level keeps one page under construction; an entry
 * goes into it while the page stays within {@code fillFactor * pageSize} (one entry of look-ahead
 * gives the exact high key), otherwise the page is finished: it gets the next page's first key as
 * high key and the next page's URI as right sibling, is written once, and its (low key, URI) goes
 * to the level above as an entry. A page's own and its successor's URI are taken from {@link
 * PageStore#newPageUri} when the page starts, so sizes are exact; per level up to two names end
 * up unused (a URI is only a name until a page is written under it). At the end the last page of each level is
 * written with no high key and no sibling; the first level that has a single page is the top, and
 * that page is written at the root URI (the root's URI never changes), after everything below it.
 * A page that is alone on its level is only ever written at the end, so whether it becomes the
 * root is known by then.
 *
 * <p><b>Fill factor.</b> 1.0 (default) packs pages full, good for read-mostly data; a lower
 * factor leaves room so later inserts do not split at once. Leaves are packed as if every entry
 * carried a write stamp already, so updates (which add one) fit where the loaded entry was. Every page holds at least one entry,
 * inner pages at least two (so the levels shrink), even if that exceeds the fill factor (never
 * the page size).
 *
 * <p><b>Preconditions and failures.</b> The tree must be absent or an empty root leaf; otherwise
 * {@link InvalidRequestException} (loading is not merging). Keys must be strictly increasing in
 * {@link Keys#ORDER}; otherwise {@link IllegalArgumentException}. Oversized entries fail with
 * {@link io.stratus.RecordTooLargeException}. On a failure the root has not been written, so the
 * tree is still empty; pages already written are unreachable garbage.
 *
 * <p><b>Tombstones.</b> An empty tree may still keep tombstones (keys deleted by stamped deletes,
 * kept so that older records of them arriving late are dropped). A load keeps those of the keys it
 * does not load: after the pages are built, it applies them as the stamped deletes they are, which
 * writes the leaves they land on once more. A loaded key's tombstone goes (the loaded entry has no
 * stamp, as before).
 *
 * <p>Writes go through the given {@link PageStore}: a store that writes straight to storage makes
 * a bulk load cost exactly {@link Summary#pagesWritten()} puts, plus the writes that keep
 * tombstones. Immutable and thread-safe.
 */
public final class BulkLoader {
  private final BLinkTree tree;
  private final double fillFactor;

  private BulkLoader(BLinkTree tree, double fillFactor) {
    this.tree = Objects.requireNonNull(tree, "tree");
    if (!(fillFactor > 0.0 && fillFactor <= 1.0)) {
      throw new IllegalArgumentException("fill factor must be in (0, 1]: " + fillFactor);
    }
    this.fillFactor = fillFactor;
  }

  /** A loader for {@code tree} with fill factor 1.0. */
  public static BulkLoader forTree(BLinkTree tree) {
    return new BulkLoader(tree, 1.0);
  }

  /** The same loader with another fill factor in (0, 1]. */
  public BulkLoader withFillFactor(double fillFactor) {
    return new BulkLoader(tree, fillFactor);
  }

  public double fillFactor() {
    return fillFactor;
  }

  /**
   * What a load built.
   *
   * @param entries entries loaded
   * @param leaves leaf pages written (including the root if the tree has one level)
   * @param innerPages inner pages written (including the root if the tree has several levels)
   * @param levels height of the tree (1 = the root is a leaf)
   */
  public record Summary(long entries, int leaves, int innerPages, int levels) {
    /** Pages written: each page exactly once. */
    public int pagesWritten() {
      return leaves + innerPages;
    }
  }

  /** Loads {@code sorted} into the (empty) tree; see the class comment. */
  public Summary load(PageStore store, Iterable<TreeCursor.Entry> sorted) {
    return load(store, sorted.iterator());
  }

  /**
   * Loads the entries of {@code sorted} into the (empty) tree, keeping the tombstones its root
   * leaf has; see the class comment.
   */
  public Summary load(PageStore store, Iterator<TreeCursor.Entry> sorted) {
    Optional<Page> root = tree.readRoot(store);
    if (root.isPresent() && (root.get().level() > 0 || root.get().entryCount() > 0)) {
      throw new InvalidRequestException(
          "bulk load into " + tree.rootUri() + " refused: the tree is not empty");
    }
    List<TreeChange> kept = root.isPresent() ? tree.tombstones(store) : List.of();
    return load(store, sorted, kept);
  }

  /**
   * Loads the entries of {@code sorted} into a tree built from nothing in {@code store} (the tree
   * must be absent or empty there), keeping {@code tombstones} (stamped deletes, as {@link
   * BLinkTree#tombstones} lists them: those of the tree the load replaces) of the keys it does not
   * load; see the class comment.
   */
  public Summary load(
      PageStore store, Iterator<TreeCursor.Entry> sorted, List<TreeChange> tombstones) {
    Optional<Page> root = tree.readRoot(store);
    if (root.isPresent() && (root.get().level() > 0 || root.get().entryCount() > 0)) {
      throw new InvalidRequestException(
          "bulk load into " + tree.rootUri() + " refused: the tree is not empty");
    }
    TreeMap<byte[], TreeChange> kept = new TreeMap<>(Keys.ORDER);
    for (TreeChange t : tombstones) {
      if (t.kind() != TreeChange.Kind.DELETE || t.stamp() == 0) {
        throw new IllegalArgumentException("a tombstone is a stamped delete, not " + t);
      }
      kept.put(t.keyRaw(), t);
    }
    int pageSize = store.pageSize();
    int budget = Math.max(1, (int) Math.floor(fillFactor * pageSize));
    List<LevelBuilder> levels = new ArrayList<>();
    levels.add(new LevelBuilder(store, 0, budget, levels));
    long entries = 0;
    byte[] previous = null;
    while (sorted.hasNext()) {
      TreeCursor.Entry e = sorted.next();
      byte[] key = e.keyUnsafe();
      if (previous != null && Keys.compare(previous, key) >= 0) {
        throw new IllegalArgumentException(
            "bulk load input is not strictly increasing at entry "
                + entries
                + (Keys.compare(previous, key) == 0 ? " (duplicate key)" : ""));
      }
      tree.checkEntry(pageSize, key, e.valueUnsafe());
      levels.get(0).offer(key, e.valueUnsafe());
      kept.remove(key);
      previous = key;
      entries++;
    }
    // Finish bottom-up; the first level left with a single page is the top and becomes the root.
    int level = 0;
    while (!levels.get(level).finish()) {
      level++;
    }
    int leaves = levels.get(0).pagesWritten;
    int inner = 0;
    for (int l = 1; l <= level; l++) {
      inner += levels.get(l).pagesWritten;
    }
    if (!kept.isEmpty()) {
      tree.applySorted(store, List.copyOf(kept.values()));
    }
    return new Summary(entries, leaves, inner, level + 1);
  }

  /** The page under construction on one level, with one entry of look-ahead. */
  private final class LevelBuilder {
    private final PageStore store;
    private final int level;
    private final int budget;
    private final List<LevelBuilder> levels;
    private final List<byte[]> keys = new ArrayList<>();
    private final List<byte[]> values = new ArrayList<>();
    private long entryBytes;
    private byte[] lowKey = new byte[0];
    // Both URIs are allocated when the page starts, so its size is known exactly; the last page's
    // nextUri (and the first page's uri, if it becomes the root) are names never used.
    private String uri;
    private String nextUri;
    private byte @Nullable [] heldKey; // look-ahead: offered, not yet placed
    private byte @Nullable [] heldValue;
    int pagesWritten;

    LevelBuilder(PageStore store, int level, int budget, List<LevelBuilder> levels) {
      this.store = store;
      this.level = level;
      this.budget = budget;
      this.levels = levels;
      this.uri = store.newPageUri(tree.pagePrefix());
      this.nextUri = store.newPageUri(tree.pagePrefix());
    }

    void offer(byte[] key, byte[] value) {
      // Held together: both set or both null.
      if (heldKey != null && heldValue != null) {
        place(heldKey, heldValue, key);
      }
      heldKey = key;
      heldValue = value;
    }

    /** Puts (key, value) into the current page or, if it does not fit, into a new one. */
    private void place(byte[] key, byte[] value, byte @Nullable [] nextKey) {
      if (!keys.isEmpty() && !fits(key, value, nextKey)) {
        finishPage(key);
      }
      keys.add(key);
      values.add(value);
      entryBytes += bytesOf(key, value);
    }

    /**
     * What (key, value) will take in this level's pages: a leaf's entries count with a write
     * stamp, which the first checkpoint that updates them adds, so that a full leaf does not split
     * at its first update (which would double a loaded table's pages).
     */
    private long bytesOf(byte[] key, byte[] value) {
      return level == 0
          ? PageSizing.stampedEntryBytes(key, value)
          : PageSizing.entryBytes(key, value);
    }

    /**
     * Whether the current page plus (key, value) stays within the budget; if (key, value) is its
     * last entry, {@code nextKey} (if any) is its high key.
     */
    private boolean fits(byte[] key, byte[] value, byte @Nullable [] nextKey) {
      int uriBytes = PageSizing.utf8Length(uri);
      if (pagesWritten == 0) { // the level's first page may turn out to be the root
        uriBytes = Math.max(uriBytes, PageSizing.utf8Length(tree.rootUri()));
      }
      long size =
          PageSizing.headerBytes(
                  uriBytes,
                  lowKey.length,
                  nextKey == null ? -1 : nextKey.length,
                  nextKey == null ? -1 : PageSizing.utf8Length(nextUri))
              + (level == 0 ? PageSizing.STAMPS_FIXED : 0)
              + entryBytes
              + bytesOf(key, value);
      boolean needsSecond = level > 0 && keys.size() < 2;
      return size <= (needsSecond ? store.pageSize() : budget);
    }

    /** Writes the current page, which ends where {@code nextLow} begins, and starts the next. */
    private void finishPage(byte[] nextLow) {
      writePage(uri, nextLow, nextUri);
      parent().offer(lowKey, uri.getBytes(StandardCharsets.UTF_8));
      keys.clear();
      values.clear();
      entryBytes = 0;
      lowKey = nextLow;
      uri = nextUri;
      nextUri = store.newPageUri(tree.pagePrefix());
    }

    /**
     * Places the held entry and writes the last page of the level. Returns true if it is the only
     * page of the level and was therefore written as the root.
     */
    boolean finish() {
      if (heldKey != null && heldValue != null) {
        place(heldKey, heldValue, null);
        heldKey = null;
      }
      if (pagesWritten == 0) {
        writePage(tree.rootUri(), null, null);
        return true;
      }
      writePage(uri, null, null);
      parent().offer(lowKey, uri.getBytes(StandardCharsets.UTF_8));
      return false;
    }

    private LevelBuilder parent() {
      if (levels.size() == level + 1) {
        levels.add(new LevelBuilder(store, level + 1, budget, levels));
      }
      return levels.get(level + 1);
    }

    private void writePage(String pageUri, byte @Nullable [] highKey, @Nullable String sibling) {
      Page page =
          Page.builder(pageUri, level == 0 ? PageKind.LEAF : PageKind.INNER)
              .level(level)
              .lowKey(lowKey)
              .highKey(highKey)
              .rightSibling(sibling)
              .entries(keys.toArray(new byte[0][]), values.toArray(new byte[0][]))
              .build();
      if (page.encodedSizeBound() > store.pageSize()) {
        // Only if the page format's size bound is not additive in its fields, as estimated.
        throw new IllegalStateException(
            "bulk-loaded page "
                + pageUri
                + " needs "
                + page.encodedSizeBound()
                + " bytes of a "
                + store.pageSize()
                + "-byte page");
      }
      store.write(page);
      pagesWritten++;
    }
  }
}
