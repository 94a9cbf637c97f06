package io.stratus.pagemanager;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The binary search over a page's sorted keys, made through one {@code long} per key: the eight
 * bytes that follow the prefix every key of the page shares, read big-endian, zero past a key's
 * end. Where two such longs differ, their keys compare as the longs do (unsigned), so a search
 * reads one contiguous array rather than a separate array per key at every step, and compares
 * whole keys only where the longs are equal (the key itself, or keys that differ only further on).
 *
 * <p>Immutable; made once per page, on its first search, and shared by every thread that reads
 * the page.
 */
final class KeySearch {
  private static final VarHandle EIGHT_BYTES =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  private final byte[][] keys;

  /** How many leading bytes every key has in common (those of {@code keys[0]}). */
  private final int shared;

  /** Per key, its eight bytes after the shared prefix ({@link #window}). */
  private final long[] windows;

  /** The search over {@code keys}, which must be sorted by {@link Keys#compare} and not empty. */
  KeySearch(byte[][] keys) {
    this.keys = keys;
    byte[] first = keys[0];
    // Sorted keys all share the prefix the first and the last share.
    int m = Arrays.mismatch(first, keys[keys.length - 1]);
    this.shared = m < 0 ? first.length : m;
    this.windows = new long[keys.length];
    for (int i = 0; i < keys.length; i++) {
      windows[i] = window(keys[i], shared);
    }
  }

  /** As {@link Page#indexOf}. */
  int indexOf(byte[] key) {
    int prefix = Arrays.compareUnsigned(key, 0, Math.min(shared, key.length), keys[0], 0, shared);
    if (prefix != 0) {
      // The key lacks the shared prefix, so it lies below or above every key.
      return prefix < 0 ? -1 : -(keys.length + 1);
    }
    long w = window(key, shared);
    int lo = 0;
    int hi = keys.length - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      long x = windows[mid];
      int c = x == w ? Keys.compare(keys[mid], key) : Long.compareUnsigned(x, w);
      if (c < 0) {
        lo = mid + 1;
      } else if (c > 0) {
        hi = mid - 1;
      } else {
        return mid;
      }
    }
    return -(lo + 1);
  }

  /** The eight bytes of {@code key} from {@code from} on, big-endian, zero past its end. */
  static long window(byte[] key, int from) {
    if (key.length - from >= Long.BYTES) {
      return (long) EIGHT_BYTES.get(key, from);
    }
    long w = 0;
    for (int i = 0; i < Long.BYTES; i++) {
      int at = from + i;
      w = (w << 8) | (at < key.length ? key[at] & 0xFF : 0);
    }
    return w;
  }
}
