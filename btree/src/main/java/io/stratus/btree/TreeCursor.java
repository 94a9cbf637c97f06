package io.stratus.btree;

import io.stratus.pagemanager.Keys;
import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageStore;
import java.util.Arrays;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Iterates the entries of a key range in key order, ascending or descending, one leaf at a time.
 *
 * <p><b>Ascending</b> scans walk the leaf chain through right links. <b>Descending</b> scans have
 * no left links to follow: when a leaf is exhausted the cursor descends again from the root to the
 * leaf holding the keys just below the exhausted leaf's low key. That costs one root-to-leaf
 * descent per leaf instead of one page read, i.e. (height - 1) extra reads of inner pages that are
 * almost always in the buffer pool; cheap enough not to maintain left links, which would double
 * the pages a split rewrites.
 *
 * <p><b>Concurrent changes.</b> The cursor holds one immutable leaf at a time and remembers the
 * last key it returned; after moving to another leaf it resumes strictly after that key. Since
 * splits only move keys to the right and never change a node's low key, a cursor never returns a
 * key twice, returns keys in strict order, and never misses a key that existed before the scan
 * began and was not deleted, even when the unit of work (or, through a refreshed buffer pool,
 * another client) splits leaves between its steps. Keys inserted during the scan may or may not
 * appear. Empty leaves (left by deletes; see {@link BLinkTree}) are skipped.
 *
 * <p>Not thread-safe: a cursor belongs to the unit of work whose {@link PageStore} it reads.
 */
public final class TreeCursor implements Iterator<TreeCursor.Entry> {
  private final Navigator nav;
  private final PageStore store;
  private final KeyRange range;
  private final boolean descending;
  private @Nullable Page leaf; // null when done
  private int index;
  private byte @Nullable [] lastKey;
  private @Nullable Entry next;

  TreeCursor(Navigator nav, PageStore store, KeyRange range, boolean descending) {
    this.nav = nav;
    this.store = store;
    this.range = range;
    this.descending = descending;
    if (range.isEmpty()) {
      return;
    }
    byte[] lower = range.lowerRaw();
    byte[] upper = range.upperRaw();
    if (!descending) {
      leaf = nav.findLeaf(store, lower == null ? new byte[0] : lower);
      index = firstAscending(leaf);
    } else if (upper == null) {
      leaf = nav.lastLeaf(store);
      index = leaf.entryCount() - 1;
    } else {
      leaf = nav.findLeaf(store, upper);
      index = range.isUpperInclusive() ? leaf.floorIndex(upper) : below(leaf, upper);
    }
  }

  @Override
  public boolean hasNext() {
    Page current = leaf;
    if (next == null && current != null) {
      next = descending ? advanceDescending(current) : advanceAscending(current);
    }
    return next != null;
  }

  @Override
  public Entry next() {
    Entry e = hasNext() ? next : null;
    if (e == null) {
      throw new NoSuchElementException();
    }
    next = null;
    return e;
  }

  private @Nullable Entry advanceAscending(Page from) {
    Page p = from;
    while (true) {
      if (index < p.entryCount()) {
        if (range.isAboveUpperAt(p, index)) {
          leaf = null;
          return null;
        }
        return emit(p, index++);
      }
      byte[] high = p.highKey().orElse(null);
      if (high == null || range.endsBefore(high)) {
        leaf = null;
        return null;
      }
      p = nav.sibling(store, p);
      leaf = p;
      index = firstAscending(p);
    }
  }

  private @Nullable Entry advanceDescending(Page from) {
    Page p = from;
    while (true) {
      if (index >= 0) {
        if (range.isBelowLowerAt(p, index)) {
          leaf = null;
          return null;
        }
        return emit(p, index--);
      }
      byte[] low = p.lowKey();
      if (range.startsAtOrAfter(low)) {
        leaf = null;
        return null;
      }
      p = nav.leafBefore(store, low);
      leaf = p;
      byte[] bound = lastKey != null && Keys.compare(lastKey, low) < 0 ? lastKey : low;
      index = below(p, bound);
    }
  }

  /** Where an ascending scan starts in {@code p}: after the last key returned, in the range. */
  private int firstAscending(Page p) {
    if (lastKey != null) {
      return above(p, lastKey);
    }
    byte[] lower = range.lowerRaw();
    if (lower == null) {
      return 0;
    }
    return range.isLowerInclusive() ? atOrAbove(p, lower) : above(p, lower);
  }

  private Entry emit(Page p, int i) {
    Entry e = new Entry(p.key(i), p.value(i));
    lastKey = e.key;
    return e;
  }

  private static int atOrAbove(Page p, byte[] key) {
    int i = p.indexOf(key);
    return i >= 0 ? i : -i - 1;
  }

  private static int above(Page p, byte[] key) {
    int i = p.indexOf(key);
    return i >= 0 ? i + 1 : -i - 1;
  }

  private static int below(Page p, byte[] key) {
    int i = p.indexOf(key);
    return i >= 0 ? i - 1 : -i - 2;
  }

  /**
   * One (key, value) entry. The constructor takes the arrays it is given as they are (a scan hands
   * over fresh copies, so a record read costs one copy, not two); the accessors copy out, so an
   * entry can be kept and shared. Whoever constructs one must not change the arrays afterwards.
   *
   * @param key the entry's key
   * @param value the entry's value (record payload, or empty in a secondary index)
   */
  public record Entry(byte[] key, byte[] value) {
    public Entry {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(value, "value");
    }

    @Override
    public byte[] key() {
      return key.clone();
    }

    @Override
    public byte[] value() {
      return value.clone();
    }

    /**
     * The key without a copy, for a caller that hands it on to something that never changes it
     * (the record manager's keys); the caller must not change it either.
     */
    public byte[] keyUnsafe() {
      return key;
    }

    /** The value without a copy, on the terms of {@link #keyUnsafe()}. */
    public byte[] valueUnsafe() {
      return value;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Entry e && Arrays.equals(key, e.key) && Arrays.equals(value, e.value);
    }

    @Override
    public int hashCode() {
      return 31 * Arrays.hashCode(key) + Arrays.hashCode(value);
    }

    @Override
    public String toString() {
      return "Entry[" + Arrays.toString(key) + " = " + value.length + " bytes]";
    }
  }
}
