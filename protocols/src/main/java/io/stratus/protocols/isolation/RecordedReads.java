package io.stratus.protocols.isolation;

import io.stratus.btree.KeyRange;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The recording {@link ReadSet}: per tree, whether it was read whole, the single keys read, and
 * the other ranges read.
 *
 * <p>Why three parts: a long transaction reads many keys, often the same ones again, and often a
 * whole collection first. Once a tree was read whole (a range with neither bound, as a scan of a
 * whole collection reports), every key of it is in the set, so further reads of it add nothing
 * and the tree keeps no keys or ranges; single keys are kept once each, in a hash set (copied when
 * kept), so that a key read again does not grow the set and the validation's question for a key
 * is one probe rather than a look at every range; only the other ranges are kept as a list. The
 * answers are those of a list of every range read. Not thread-safe: one transaction's.
 */
final class RecordedReads implements ReadSet {
  /** What was read in one tree. */
  private static final class Tree {
    boolean whole;
    final Set<KnownKeys.Exact> keys = new HashSet<>();
    final List<KeyRange> ranges = new ArrayList<>();
  }

  private final Map<String, Tree> trees = new HashMap<>();

  /**
   * The tree of the last read and the URI object it was named by (an {@code Object}: only its
   * identity counts). A transaction's reads come in runs in one tree, each naming it by the same
   * string object, so the next read usually finds its tree by an identity check: no hashing, and
   * no string comparison compiled into every point read.
   */
  private @Nullable Object lastRoot;

  private @Nullable Tree lastTree;

  @Override
  public void add(String root, KeyRange range) {
    Tree t = treeOf(root);
    if (t.whole || range.isEmpty()) {
      return;
    }
    Optional<byte[]> lower = range.lowerBound();
    if (lower.isEmpty() && range.upperBound().isEmpty()) {
      t.whole = true; // every key: what was kept says nothing more
      t.keys.clear();
      t.ranges.clear();
    } else if (lower.isPresent() && range.equals(KeyRange.singleton(lower.get()))) {
      addKey(t, lower.get());
    } else {
      t.ranges.add(range);
    }
  }

  @Override
  public void addKey(String root, byte[] key) {
    Tree t = treeOf(root);
    if (!t.whole) {
      addKey(t, key);
    }
  }

  private static void addKey(Tree t, byte[] key) {
    KnownKeys.Exact probe = new KnownKeys.Exact(key);
    if (!t.keys.contains(probe)) {
      t.keys.add(probe.copy());
    }
  }

  private Tree treeOf(String root) {
    Tree t = lastTree;
    if (t != null && lastRoot == (Object) root) {
      return t;
    }
    t = trees.computeIfAbsent(root, r -> new Tree());
    lastRoot = root;
    lastTree = t;
    return t;
  }

  @Override
  public Set<String> roots() {
    return trees.keySet();
  }

  @Override
  public boolean contains(String root, byte[] key) {
    Tree t = trees.get(root);
    if (t == null) {
      return false;
    }
    if (t.whole || t.keys.contains(new KnownKeys.Exact(key))) {
      return true;
    }
    for (KeyRange r : t.ranges) {
      if (r.contains(key)) {
        return true;
      }
    }
    return false;
  }

  /** How many single keys and ranges it keeps (a tree read whole keeps none). */
  int size() {
    int n = 0;
    for (Tree t : trees.values()) {
      n += t.keys.size() + t.ranges.size();
    }
    return n;
  }
}
