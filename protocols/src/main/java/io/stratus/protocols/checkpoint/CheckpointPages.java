package io.stratus.protocols.checkpoint;

import io.stratus.btree.BLinkTree;
import io.stratus.btree.TreeChange;
import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageKind;
import io.stratus.protocols.LogicalChange;
import io.stratus.protocols.log.LogRecord;
import io.stratus.protocols.log.PuQueues.Target;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * How a checkpoint finds its way through a tree and shapes the pages it writes: the leaf now
 * responsible for a routed record, the header budget of a page, a header written without ever
 * failing the checkpoint. Kept apart from {@link Checkpointer}, whose concern is the run (locks,
 * receives, chains, deletes), because none of this depends on a run's state.
 */
final class CheckpointPages {
  private static final System.Logger LOG = System.getLogger(Checkpointer.class.getName());

  private CheckpointPages() {}

  /**
   * The tree handle of a root URI, naming new pages like the record manager does; a split's new
   * pages keep the split page's last checkpoint time ({@link CheckpointTimes#PIECES}).
   */
  static BLinkTree treeOf(String rootUri) {
    return BLinkTree.open(rootUri, rootUri.substring(0, rootUri.lastIndexOf('/') + 1))
        .withPieceState(CheckpointTimes.PIECES);
  }

  /**
   * {@code page} with each writer's recorded counter moved up to just before the smallest counter
   * of that writer's {@code records}, where that leaves a gap (see {@link Checkpointer#closeGaps}).
   */
  static Page withGapsClosed(Page page, List<LogRecord> records, Target target) {
    Map<String, Long> smallest = new HashMap<>();
    for (LogRecord r : records) {
      if (r.clientCounter() > 0) {
        smallest.merge(r.clientId(), r.clientCounter(), Math::min);
      }
    }
    ChainState state = ChainState.of(page);
    Map<String, Long> counters = new LinkedHashMap<>(state.counters());
    for (Map.Entry<String, Long> w : smallest.entrySet()) {
      String key = WriteChains.key(w.getKey(), target.isTree());
      long recorded = counters.getOrDefault(key, 0L);
      if (w.getValue() > recorded + 1) {
        LOG.log(
            System.Logger.Level.WARNING,
            "closing the gap of chain "
                + key
                + " on "
                + target.uri()
                + ": counters "
                + (recorded + 1)
                + ".."
                + (w.getValue() - 1)
                + " are taken as gone (operator repair)");
        counters.put(key, w.getValue() - 1);
      }
    }
    return page.toBuilder().protocolState(state.withCounters(counters).encode()).build();
  }

  /**
   * The most a page's chain entries and retired chains may take. A tree's root ({@code rootUri},
   * whether its tree queue or, while it is the tree's one leaf, its data-page queue feeds it):
   * half the page and never more than leaves room for three separators of the largest key the
   * tree allows, so a root split always makes progress (its children do not carry the header) and
   * a root leaf's header, data-page chains included, fits the inner root it becomes. Another data
   * page ({@code rootUri} empty): half the page (its header only lowers the leaf's fan-out; its
   * keys name the page, so they are longer, and every live lane that updates the page needs one).
   */
  static int headerBudget(int pageSize, Optional<String> root) {
    if (root.isEmpty()) {
      return pageSize / 2;
    }
    String rootUri = root.get();
    String prefix = rootUri.substring(0, rootUri.lastIndexOf('/') + 1);
    int uriBytes =
        Math.max(
            rootUri.getBytes(StandardCharsets.UTF_8).length,
            prefix.getBytes(StandardCharsets.UTF_8).length + BLinkTree.NEW_URI_SUFFIX_RESERVE);
    int rootFixed =
        Page.builder(rootUri, PageKind.INNER).level(1).build().encodedSizeBound()
            + Page.PROTOCOL_STATE_OVERHEAD
            + CheckpointTimes.MAX_BYTES;
    int perEntry =
        Page.builder("", PageKind.LEAF)
                .entries(new byte[][] {new byte[0]}, new byte[][] {new byte[0]})
                .build()
                .encodedSizeBound()
            - Page.builder("", PageKind.LEAF).build().encodedSizeBound();
    int room =
        pageSize - rootFixed - 3 * (treeOf(rootUri).maxKeyBytes(pageSize) + uriBytes + perEntry);
    return Math.max(0, Math.min(pageSize / 2, room));
  }

  /**
   * Confirms every leaf the changes landed on that the tree did not write: each was left as read
   * because the changes were no-ops there (a delete of an absent key, a change older than the
   * entry), which is right only if the read was not stale ({@link DirectPageStore#confirm}).
   */
  static void confirmLeaves(BLinkTree tree, DirectPageStore store, List<TreeChange> changes) {
    Set<String> written = store.writes().keySet();
    for (TreeChange c : changes) {
      String leaf = tree.leafFor(store, c.key());
      if (!written.contains(leaf)) {
        store.confirm(leaf);
      }
    }
  }

  /**
   * Warns (once per run) when a stamped insert older than {@code forgetBefore} is applied: the
   * tombstone rule assumes none arrives (docs/protocols.md "Tombstones"), so a delete of its key
   * may have been forgotten and the insert may bring the key back.
   */
  static void warnIfOlderThan(long forgetBefore, List<LogRecord> records, String queue) {
    long oldest = Long.MAX_VALUE;
    for (LogRecord r : records) {
      if (r.kind() == LogicalChange.Kind.INSERT && r.writeStamp() > 0) {
        oldest = Math.min(oldest, r.writeStamp());
      }
    }
    if (oldest < forgetBefore) {
      LOG.log(
          System.Logger.Level.WARNING,
          "queue "
              + queue
              + " delivered an insert stamped "
              + oldest
              + ", older than the tombstones checkpoints keep (stamp "
              + forgetBefore
              + "): a delete of its key may have been forgotten, and the insert may bring the"
              + " key back");
    }
  }

  static Page readRoot(DirectPageStore store, String rootUri) {
    return store
        .read(rootUri)
        .orElseThrow(() -> new DirectPageStore.Abandoned("tree " + rootUri + " has no root"));
  }

  /**
   * The leaf responsible for {@code r}'s key: the data page it was routed to, unless a split
   * moved the key right (then by right links) or the page is a root leaf that split and became an
   * inner page (then down the tree).
   */
  static String responsibleLeaf(DirectPageStore store, Page page, LogRecord r) {
    byte[] key = r.change().key();
    if (page.kind() != PageKind.LEAF) {
      return treeOf(r.treeUri()).leafFor(store, key);
    }
    return page.isBeyondHighKey(key) ? responsibleFor(store, page, key) : page.uri();
  }

  /**
   * Writes a page whose header changed. Monotonic-write counters make a header grow (within the
   * budget {@link WriteChains} keeps); when the page no longer fits, the B-link tree splits it —
   * a leaf like any over-full leaf, a root (leaf or inner) by moving its entries into new
   * children, which do not carry the header — so the header never makes a checkpoint fail.
   */
  static void writeHeader(DirectPageStore store, Page page, String rootUri) {
    if (page.encodedSizeBound() <= store.pageSize()
        || page.entryCount() + page.tombstoneCount() == 0) {
      store.write(page);
      return;
    }
    treeOf(rootUri).rewrite(store, page);
  }

  /** The page right of {@code page} that is responsible for {@code key}, by right links. */
  static String responsibleFor(DirectPageStore store, Page page, byte[] key) {
    Page p = page;
    while (p.isBeyondHighKey(key) && p.rightSibling().isPresent()) {
      String next = p.rightSibling().get();
      p =
          store
              .read(next)
              .orElseThrow(
                  () -> new DirectPageStore.Abandoned("right sibling " + next + " is missing"));
    }
    return p.uri();
  }
}
