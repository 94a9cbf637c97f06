package io.stratus.btree;

import io.stratus.RecordTooLargeException;
import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageKind;
import io.stratus.pagemanager.PageStore;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Writes a changed node, splitting it first when it no longer fits a page, and posts the new
 * separators into the parents (Lehman-Yao splits, Lomet's root handling for a fixed root URI).
 *
 * <p><b>How a node is cut.</b> Recursively at the byte median of its items — entries and, on a
 * leaf, tombstones, in key order: both take room, and a leaf may hold few entries and many
 * tombstones — until every piece fits; each piece gets the entries and tombstones of its key range. Usually that is two pieces; a very large entry landing between others can need three, and
 * a checkpoint applying many changes to one leaf can need many. The leftmost piece keeps the
 * node's URI and low key; every other piece is a new page whose low key is its first key; each
 * piece's high key is the next piece's low key, the last piece inherits the node's high key and
 * right sibling, and the pieces are chained by right links. All pieces are built and checked
 * against the page size before anything is written.
 *
 * <p><b>Write order.</b> Pages go to the store in the order that keeps every intermediate state
 * readable: the new pieces first (rightmost first; nothing refers to them yet), then the split
 * node (now pointing at them), then the parent's new separator. Between the last two steps
 * readers reach the moved keys through right links. A root split writes the new pieces first and
 * the rewritten root last.
 *
 * <p><b>Headers of the pieces.</b> The piece that keeps the node's URI keeps its header; every new
 * page gets of the protocol state what the tree's {@link PieceState} says: by default nothing
 * ({@link PieceState#DROPPED}), since the protocols key a data page's state by its URI and keep a
 * tree's on the root, so copies on other pages would only take room there, and a root's header
 * copied into every child would make each root split multiply it. A root split keeps the root's
 * whole header on the rewritten root. Snapshot isolation copies the state into every piece ({@link
 * PieceState#COPIED}: each page is stamped with the commit id it reflects, which holds for all
 * pieces of the page); the queue protocols keep the page's last checkpoint time only.
 *
 * <p><b>Parents.</b> The parent is found by descending again from the root to the parent's level
 * (moving right as needed) rather than by remembering the path, which may be stale after other
 * splits. If the store's root is below that level (only possible when the unit of work sees an
 * inconsistent mix of page versions), the separator is not posted: the tree stays correct, as a
 * B-link tree is with a half-finished split, because the new node is reachable from its left
 * sibling; only the extra sibling hop costs.
 */
final class Splitter {
  private final Navigator nav;
  private final String rootUri;
  private final String pagePrefix;
  private final int uriBytes;
  private final PieceState pieceState;

  Splitter(Navigator nav, String pagePrefix, int uriBytes, PieceState pieceState) {
    this.nav = nav;
    this.rootUri = nav.rootUri();
    this.pagePrefix = pagePrefix;
    this.uriBytes = uriBytes;
    this.pieceState = pieceState;
  }

  /** Writes {@code node}, splitting it if it does not fit a page of {@code store}. */
  void writeOrSplit(PageStore store, Page node) {
    if (node.encodedSizeBound() <= store.pageSize()) {
      store.write(node);
    } else {
      split(store, node);
    }
  }

  private void split(PageStore store, Page node) {
    Items items = new Items(node);
    int n = items.size();
    if (n == 0) {
      throw new IllegalStateException("the header of " + node.uri() + " alone exceeds the page");
    }
    byte[][] keys = items.keys;
    boolean isRoot = node.uri().equals(rootUri);
    List<Integer> cuts = new ArrayList<>();
    new Cutter(node, items, store.pageSize()).divide(0, n, cuts);
    int pieces = cuts.size();
    if (pieces < 2 && !isRoot) {
      // Cannot happen for an over-full node with at least two entries; divide() throws for one.
      throw new IllegalStateException("split of " + node.uri() + " produced one piece");
    }

    String[] uris = new String[pieces];
    for (int j = 0; j < pieces; j++) {
      uris[j] = (j == 0 && !isRoot) ? node.uri() : store.newPageUri(pagePrefix);
    }
    byte[] nodeLow = node.lowKey();
    byte[] nodeHigh = node.highKey().orElse(null);
    String nodeSibling = node.rightSibling().orElse(null);
    Page[] built = new Page[pieces];
    for (int j = 0; j < pieces; j++) {
      int from = cuts.get(j);
      int to = j + 1 < pieces ? cuts.get(j + 1) : n;
      boolean last = j == pieces - 1;
      built[j] =
          items
              .fill(pieceOf(node, uris[j], j == 0 && !isRoot), from, to)
              .uri(uris[j])
              .lowKey(j == 0 ? nodeLow : keys[from])
              .highKey(last ? nodeHigh : keys[to])
              .rightSibling(last ? nodeSibling : uris[j + 1])
              .build();
      if (built[j].encodedSizeBound() > store.pageSize()) {
        throw new IllegalStateException(
            "split piece "
                + uris[j]
                + " needs "
                + built[j].encodedSizeBound()
                + " bytes of a "
                + store.pageSize()
                + "-byte page: page URIs are longer than the "
                + uriBytes
                + " bytes reserved");
      }
    }
    // New pages first, rightmost first: unreachable until the page to their left is written.
    for (int j = pieces - 1; j >= 1; j--) {
      store.write(built[j]);
    }
    if (isRoot) {
      store.write(built[0]);
      writeOrSplit(store, newRoot(node, built));
    } else {
      store.write(built[0]);
      for (int j = 1; j < pieces; j++) {
        postSeparator(store, node.level() + 1, keys[cuts.get(j)], uris[j]);
      }
    }
  }

  /**
   * A builder for a piece of {@code node}: its whole header when the piece keeps the node's URI,
   * else the header without what belongs to the node's URI (see the class comment).
   */
  private Page.Builder pieceOf(Page node, String uri, boolean keepsUri) {
    Page.Builder b = node.toBuilder();
    if (!keepsUri) {
      b.protocolState(pieceState.ofNewPiece(node.protocolState()));
    }
    return b;
  }

  /** The root rewritten one level up, over the pieces its entries moved to. */
  private Page newRoot(Page oldRoot, Page[] pieces) {
    byte[][] seps = new byte[pieces.length][];
    byte[][] children = new byte[pieces.length][];
    for (int j = 0; j < pieces.length; j++) {
      seps[j] = pieces[j].lowKey();
      children[j] = pieces[j].uri().getBytes(StandardCharsets.UTF_8);
    }
    return Page.builder(rootUri, PageKind.INNER)
        .level(oldRoot.level() + 1)
        .protocolState(oldRoot.protocolState())
        .entries(seps, children)
        .build();
  }

  /**
   * Adds (separator, child) to the node at {@code level} responsible for the separator unless that
   * node has an entry at the separator already.
   */
  void postIfAbsent(PageStore store, int level, byte[] separator, String childUri) {
    Page parent = nav.descendToLevel(store, separator, level);
    if (parent == null || parent.indexOf(separator) >= 0) {
      return;
    }
    writeOrSplit(store, parent.withPut(separator, childUri.getBytes(StandardCharsets.UTF_8)));
  }

  /** Adds (separator, child) to the node at {@code level} responsible for the separator. */
  private void postSeparator(PageStore store, int level, byte[] separator, String childUri) {
    Page parent = nav.descendToLevel(store, separator, level);
    if (parent == null) {
      return; // inconsistent view of the root: leave a half split (see the class comment)
    }
    writeOrSplit(store, parent.withPut(separator, childUri.getBytes(StandardCharsets.UTF_8)));
  }

  /**
   * A node's entries and tombstones as one sequence in key order (entries move with their write
   * stamps, tombstones with their delete stamps), from which pieces take index ranges.
   */
  private static final class Items {
    final byte[][] keys;

    /** Per item: its index among the entries, or -1 - its index among the tombstones. */
    private final int[] source;

    private final Page node;
    private final long[] stamps;

    Items(Page node) {
      this.node = node;
      this.stamps = node.stamps();
      int n = node.entryCount();
      int t = node.tombstoneCount();
      keys = new byte[n + t][];
      source = new int[n + t];
      int e = 0;
      int d = 0;
      for (int i = 0; i < keys.length; i++) {
        boolean entry = d == t || (e < n && node.compareKeyAt(e, node.tombstoneKey(d)) < 0);
        keys[i] = entry ? node.key(e) : node.tombstoneKey(d);
        source[i] = entry ? e++ : -1 - d++;
      }
    }

    int size() {
      return keys.length;
    }

    /** Bytes item {@code i} adds to a page, for finding the median. */
    long bytes(int i) {
      return source[i] >= 0
          ? PageSizing.entryBytes(keys[i], node.value(source[i]))
          : Page.tombstoneBytes(keys[i]);
    }

    /** {@code b} with the entries and tombstones of items [from, to). */
    Page.Builder fill(Page.Builder b, int from, int to) {
      List<byte[]> k = new ArrayList<>();
      List<byte[]> v = new ArrayList<>();
      List<Long> s = new ArrayList<>();
      List<byte[]> tk = new ArrayList<>();
      List<Long> ts = new ArrayList<>();
      for (int i = from; i < to; i++) {
        if (source[i] >= 0) {
          k.add(keys[i]);
          v.add(node.value(source[i]));
          s.add(stamps[source[i]]);
        } else {
          tk.add(keys[i]);
          ts.add(node.tombstoneStamp(-1 - source[i]));
        }
      }
      return b.entries(k.toArray(new byte[0][]), v.toArray(new byte[0][]), longs(s))
          .tombstones(tk.toArray(new byte[0][]), longs(ts));
    }

    private static long[] longs(List<Long> list) {
      long[] out = new long[list.size()];
      for (int i = 0; i < out.length; i++) {
        out[i] = list.get(i);
      }
      return out;
    }
  }

  /**
   * Chooses the cut points of one node, judging each candidate piece by building it with
   * placeholder URIs of the reserved length (the real URIs are not allocated until the cuts are
   * known).
   */
  private final class Cutter {
    private final Page node;
    private final Items items;
    private final byte[][] keys;
    private final int pageSize;
    private final long[] prefixBytes;
    private final String placeholderUri;
    private final byte[] nodeLow;
    private final byte @Nullable [] nodeHigh;
    private final @Nullable String nodeSibling;
    private final boolean isRoot;

    Cutter(Page node, Items items, int pageSize) {
      this.node = node;
      this.items = items;
      this.keys = items.keys;
      this.pageSize = pageSize;
      this.prefixBytes = new long[keys.length + 1];
      for (int i = 0; i < keys.length; i++) {
        prefixBytes[i + 1] = prefixBytes[i] + items.bytes(i);
      }
      this.placeholderUri = "u".repeat(Math.max(uriBytes, node.uri().length()));
      this.nodeLow = node.lowKey();
      Optional<byte[]> high = node.highKey();
      this.nodeHigh = high.orElse(null);
      this.nodeSibling = node.rightSibling().orElse(null);
      this.isRoot = node.uri().equals(rootUri);
    }

    /** Appends the start indices of the pieces of [from, to) to {@code cuts}. */
    void divide(int from, int to, List<Integer> cuts) {
      if (to - from <= 1 || fits(from, to)) {
        if (to - from == 1 && !fits(from, to)) {
          int bytes = (int) items.bytes(from) - PageSizing.entryBytes(new byte[0], new byte[0]);
          throw new RecordTooLargeException(bytes, PageSizing.maxEntryBytes(pageSize, uriBytes));
        }
        cuts.add(from);
        return;
      }
      int cut = medianCut(from, to);
      divide(from, cut, cuts);
      divide(cut, to, cuts);
    }

    /** The cut in (from, to) closest to the byte median of [from, to). */
    private int medianCut(int from, int to) {
      long target = (prefixBytes[from] + prefixBytes[to]) / 2;
      int k = from + 1;
      while (k < to - 1 && prefixBytes[k] < target) {
        k++;
      }
      if (k > from + 1 && target - prefixBytes[k - 1] < prefixBytes[k] - target) {
        k--;
      }
      return k;
    }

    private boolean fits(int from, int to) {
      boolean last = to == keys.length;
      // A root split moves everything into new pages; otherwise only piece 0 keeps the low key.
      byte[] low = from == 0 ? nodeLow : keys[from];
      Page trial =
          items
              .fill(pieceOf(node, placeholderUri, from == 0 && !isRoot), from, to)
              .uri(placeholderUri)
              .lowKey(low)
              .highKey(last ? nodeHigh : keys[to])
              .rightSibling(last ? (isRoot ? null : nodeSibling) : placeholderUri)
              .build();
      return trial.encodedSizeBound() <= pageSize;
    }
  }
}
