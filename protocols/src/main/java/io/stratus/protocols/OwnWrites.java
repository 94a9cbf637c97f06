package io.stratus.protocols;

import io.stratus.btree.TreeChange;
import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageKind;
import io.stratus.pagemanager.PageStore;
import io.stratus.protocols.log.LogRecord;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * Read-your-writes for the monotonic protocol (paper 001, section 5.2): this client's committed
 * records that no checkpoint has applied yet, overlaid on the leaves its transactions read.
 *
 * <p>Why it is exact: a record leaves the overlay once a page header says its chain covers it —
 * the data page's {@code p:<writer>@<page>} counter for an update, the tree root's {@code
 * t:<writer>} counter for an insert or delete ({@link WriteChains}) — as read through the
 * transaction's store (the buffer pool, so after at most a TTL). Until then the overlay shows the
 * client's own latest write of each key, which is what read-your-writes asks. Routing of later
 * commits reads the pool directly, never this overlay, so queued records still go where the
 * stored pages say.
 *
 * <p><b>Moved keys.</b> When the data page an update was routed to has split since and the key
 * moved right, the checkpoint of that page applies the update to the leaf now responsible and
 * counts it in its chain. The chain then proves the update applied, but this client's cached copy
 * of the other leaf may be older: the record stays until that leaf shows its value (limit: if
 * another client overwrites the key before this client sees its own value, this client keeps
 * showing its own until it writes the key again or the handle closes). While it stays, later
 * updates of the key follow it to the same page ({@link #pendingDataPage}).
 *
 * <p>Only the latest own record per key is kept (an earlier one is superseded). Thread-safe:
 * concurrent skip-list maps per tree; a record is removed only if it is still the one checked.
 */
final class OwnWrites {
  /** A pending record and where its chain is recorded. */
  private record Pending(TreeChange change, long counter, String chainKey, String chainPage) {}

  private final Map<String, ConcurrentSkipListMap<byte[], Pending>> byTree =
      new ConcurrentHashMap<>();

  OwnWrites() {}

  /** Remembers the records of a commit that was sent (numbered, per queue). */
  void add(Map<String, List<LogRecord>> byQueue) {
    for (List<LogRecord> records : byQueue.values()) {
      for (LogRecord r : records) {
        boolean secondary = r.change().secondaryIndex();
        boolean pageChain = !secondary && r.kind() == LogicalChange.Kind.UPDATE
            && r.dataPageUri().isPresent();
        String chainPage = pageChain ? r.dataPageUri().get() : r.treeUri();
        Pending p = new Pending(r.toTreeChange(secondary), r.clientCounter(),
            WriteChains.key(r.clientId(), !pageChain, chainPage), chainPage);
        byTree.computeIfAbsent(r.treeUri(),
                t -> new ConcurrentSkipListMap<>(Arrays::compareUnsigned))
            .put(p.change().key(), p);
      }
    }
  }

  /**
   * The data page this client's pending update of {@code key} in {@code treeUri} was routed to,
   * if the latest own record of the key is such an update not yet seen applied.
   */
  Optional<String> pendingDataPage(String treeUri, byte[] key) {
    ConcurrentSkipListMap<byte[], Pending> tree = byTree.get(treeUri);
    Pending p = tree == null ? null : tree.get(key);
    return p != null && p.chainKey().startsWith("p:") ? Optional.of(p.chainPage())
        : Optional.empty();
  }

  /** Records not yet seen applied (for tests). */
  int size() {
    return byTree.values().stream().mapToInt(Map::size).sum();
  }

  /** Whether {@code leaf} shows {@code change} (its value, or the key's absence). */
  private static boolean shows(Page leaf, TreeChange change) {
    int i = leaf.indexOf(change.key());
    if (change.kind() == TreeChange.Kind.DELETE) {
      return i < 0;
    }
    return i >= 0 && Arrays.equals(leaf.value(i), change.value());
  }

  /** {@code leaf} with this client's unapplied writes in its key range applied. */
  Page overlay(PageStore pages, Page leaf) {
    if (leaf.kind() != PageKind.LEAF || byTree.isEmpty()) {
      return leaf;
    }
    for (Map.Entry<String, ConcurrentSkipListMap<byte[], Pending>> t : byTree.entrySet()) {
      String root = t.getKey();
      if (!leaf.uri().startsWith(root.substring(0, root.lastIndexOf('/') + 1))) {
        continue;
      }
      ConcurrentNavigableMap<byte[], Pending> range = t.getValue().tailMap(leaf.lowKey(), true);
      Optional<byte[]> high = leaf.highKey();
      if (high.isPresent()) {
        range = range.headMap(high.get(), false);
      }
      Page out = leaf;
      for (Map.Entry<byte[], Pending> e : range.entrySet()) {
        Pending p = e.getValue();
        Page chain = p.chainPage().equals(leaf.uri()) ? leaf
            : pages.read(p.chainPage()).orElse(null);
        if (chain != null && chain.clientCommitCounters().getOrDefault(p.chainKey(), 0L)
            >= p.counter() && (chain == leaf || !chain.isBeyondHighKey(p.change().key())
                || shows(leaf, p.change()))) {
          t.getValue().remove(e.getKey(), p); // applied and seen: the page has it now
          continue;
        }
        out = p.change().kind() == TreeChange.Kind.DELETE
            ? out.withRemoved(p.change().key())
            : out.withPut(p.change().key(), p.change().value());
      }
      return out;
    }
    return leaf;
  }
}
