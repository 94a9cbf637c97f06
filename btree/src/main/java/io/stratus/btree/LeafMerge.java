package io.stratus.btree;

import io.stratus.pagemanager.Keys;
import io.stratus.pagemanager.Page;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * One leaf with a sorted run of changes applied under the write-stamp rule ({@link
 * TreeChange#supersedes}), tombstones included: what a checkpoint writes and what an overlay shows.
 *
 * <p>Per key, the state the changes meet is the entry (present, with its stamp) or, for an absent
 * key, the leaf's tombstone of it (absent, with the delete's stamp; 0 when none). The changes of
 * the key are folded over it in list order, each applied only when it supersedes the state so far,
 * so with stamps the newest wins whatever the order, without stamps the last. A key that ends
 * present is an entry without a tombstone; one that ends absent by a stamped delete keeps that
 * stamp as its tombstone, so that a put older than the delete, arriving in a later batch, is
 * dropped too; an unstamped delete leaves none.
 */
final class LeafMerge {
  private LeafMerge() {}

  /**
   * {@code leaf} with sorted changes [from, to) applied, or null if they change nothing, neither
   * an entry nor a tombstone. Tombstones stamped below {@code forgetBefore} are dropped (and none
   * is left for a delete stamped below it).
   */
  static @Nullable Page merge(
      Page leaf, List<TreeChange> sorted, int from, int to, long forgetBefore) {
    int n = leaf.entryCount();
    List<byte[]> keys = new ArrayList<>(n + to - from);
    List<byte[]> values = new ArrayList<>(n + to - from);
    List<Long> stamps = new ArrayList<>(n + to - from);
    TreeMap<byte[], Long> tombstones = tombstonesOf(leaf);
    boolean changed = false;
    int i = 0;
    int j = from;
    while (j < to) {
      byte[] key = sorted.get(j).keyRaw();
      while (i < n && leaf.compareKeyAt(i, key) < 0) {
        keys.add(leaf.key(i));
        values.add(leaf.value(i));
        stamps.add(leaf.stamp(i));
        i++;
      }
      boolean wasPresent = i < n && leaf.compareKeyAt(i, key) == 0;
      boolean present = wasPresent;
      byte[] value = wasPresent ? leaf.value(i) : null;
      long stamp = wasPresent ? leaf.stamp(i) : tombstones.getOrDefault(key, 0L);
      for (; j < to && Arrays.equals(sorted.get(j).keyRaw(), key); j++) {
        TreeChange c = sorted.get(j);
        if (!c.supersedes(stamp)) {
          continue; // older than what the key holds: the Thomas write rule drops it
        }
        present = c.kind() == TreeChange.Kind.PUT;
        value = present ? c.valueRaw() : null;
        stamp = c.stamp();
      }
      if (present) {
        changed |= !wasPresent || !Arrays.equals(leaf.value(i), value) || leaf.stamp(i) != stamp;
        keys.add(key);
        values.add(value);
        stamps.add(stamp);
        tombstones.remove(key);
      } else {
        changed |= wasPresent;
        if (stamp > 0) {
          tombstones.put(key, stamp);
        } else {
          tombstones.remove(key);
        }
      }
      if (wasPresent) {
        i++;
      }
    }
    tombstones.values().removeIf(t -> t < forgetBefore);
    changed |= !sameTombstones(leaf, tombstones);
    if (!changed) {
      return null;
    }
    for (; i < n; i++) {
      keys.add(leaf.key(i));
      values.add(leaf.value(i));
      stamps.add(leaf.stamp(i));
    }
    long[] s = new long[stamps.size()];
    for (int k = 0; k < s.length; k++) {
      s[k] = stamps.get(k);
    }
    long[] t = new long[tombstones.size()];
    int k = 0;
    for (long stamp : tombstones.values()) {
      t[k++] = stamp;
    }
    return leaf.toBuilder()
        .entries(keys.toArray(new byte[0][]), values.toArray(new byte[0][]), s)
        .tombstones(tombstones.keySet().toArray(new byte[0][]), t)
        .build();
  }

  private static TreeMap<byte[], Long> tombstonesOf(Page leaf) {
    TreeMap<byte[], Long> out = new TreeMap<>(Keys.ORDER);
    for (int i = 0; i < leaf.tombstoneCount(); i++) {
      out.put(leaf.tombstoneKey(i), leaf.tombstoneStamp(i));
    }
    return out;
  }

  private static boolean sameTombstones(Page leaf, TreeMap<byte[], Long> tombstones) {
    if (tombstones.size() != leaf.tombstoneCount()) {
      return false;
    }
    int i = 0;
    for (Map.Entry<byte[], Long> e : tombstones.entrySet()) {
      if (Keys.compare(e.getKey(), leaf.tombstoneKey(i)) != 0
          || e.getValue() != leaf.tombstoneStamp(i)) {
        return false;
      }
      i++;
    }
    return true;
  }
}
