package io.stratus.pagemanager;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * The binary search over a page's sorted keys, made through one {@code long} per key: the eight
 * bytes that follow the prefix every key of the page shares, read big-endian, zero past a key's
 * end. Where two such longs differ, their keys compare as the longs do (unsigned), so a search
 * reads one contiguous array rather than a separate array per key at every step, and compares
 * whole keys only where the longs are equal (the key itself, or keys that differ only further on).
 *
 * <p><b>Exact lookups</b> ({@link #exactValue}: is this key on the page, and what is its value)
 * are what a point read asks of a leaf. A binary search answers them in about log2(n) dependent
 * loads — ten for a 100 KB leaf of small records, each a likely cache miss on a page read once in
 * a while — where a hash table over the keys answers in one or two. Building that table costs a
 * hash of every key, about as much as a hundred searches, which a page read a few times and then
 * replaced (a write makes a new page) would never earn back; so a page's exact lookups use the
 * binary search until they have made {@link #EXACT_TABLE_AFTER} of them, and the table from then
 * on.
 *
 * <p>The table is laid out for the memory, not the instructions: a lookup's time is its cache
 * misses, each one waited for before the next address is known. A slot holds the key's window in
 * one array and references to the key and its value side by side in another, both at the slot's
 * position, so the processor fetches the window and the value's reference at once; the value
 * itself is the only other miss. Whole keys are compared only where the windows are equal, and
 * not at all on a page whose keys all have one length that ends within the window (keys of up to
 * eight bytes past the shared prefix, as every {@code long} or timestamp key is): there equal
 * windows mean equal keys. The price is memory: 16 bytes a slot, at most half of the slots used,
 * so 32 KB for a leaf of 880 keys (100 KB of small records), on pages read often enough to build
 * it.
 *
 * <p>Made once per page, on its first search, and shared by every thread that reads the page. Its
 * keys and windows never change; the count of exact lookups is a heuristic, read and written
 * without synchronization (a lost increment only delays the table), and the table, once built, is
 * published through a volatile field and never changes either.
 */
final class KeySearch {
  private static final VarHandle EIGHT_BYTES =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  private final byte[][] keys;

  /** The values, in the order of {@link #keys}. */
  private final byte[][] values;

  /** How many leading bytes every key has in common (those of {@code keys[0]}). */
  private final int shared;

  /** Per key, its eight bytes after the shared prefix ({@link #window}). */
  private final long[] windows;

  /**
   * The length of every key when all have the same one and it ends within the window (so that a
   * key's window and length tell it from every other key of the page); -1 otherwise.
   */
  private final int windowedLength;

  /** Exact lookups a page makes by binary search before it builds its hash table. */
  static final int EXACT_TABLE_AFTER = 64;

  /** Exact lookups made so far by binary search; approximate (see the class comment). */
  private int exactSearches;

  /** The hash table of exact lookups ({@link #buildTable}), once built. */
  private volatile @Nullable ExactTable exactTable;

  /**
   * The table of exact lookups: open addressing with linear probing, at most half full so that a
   * probe of an absent key ends soon. Slot {@code s} holds a key's window at {@code windows[s]},
   * the key at {@code entries[2 s]} and its value at {@code entries[2 s + 1]}; an empty slot has
   * a null key and value.
   */
  private record ExactTable(long[] windows, byte[][] entries) {}

  /**
   * The search over {@code keys}, which must be sorted by {@link Keys#compare} and not empty, and
   * their {@code values} in the same order.
   */
  KeySearch(byte[][] keys, byte[][] values) {
    this.keys = keys;
    this.values = values;
    byte[] first = keys[0];
    // Sorted keys all share the prefix the first and the last share.
    int m = Arrays.mismatch(first, keys[keys.length - 1]);
    this.shared = m < 0 ? first.length : m;
    this.windows = new long[keys.length];
    int length = first.length;
    for (int i = 0; i < keys.length; i++) {
      windows[i] = window(keys[i], shared);
      if (keys[i].length != length) {
        length = -1;
      }
    }
    this.windowedLength = length >= 0 && length - shared <= Long.BYTES ? length : -1;
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

  /** The value stored under {@code key} (the page's own array), or null when it is not a key. */
  byte @Nullable [] exactValue(byte[] key) {
    ExactTable table = exactTable;
    if (table == null) {
      if (++exactSearches >= EXACT_TABLE_AFTER) {
        exactTable = buildTable();
      }
      int i = indexOf(key);
      return i >= 0 ? values[i] : null;
    }
    if (key.length < shared || !Arrays.equals(key, 0, shared, keys[0], 0, shared)) {
      return null; // not of the shared prefix: none of these keys
    }
    // With one length for every key, equal windows mean equal keys, and a key of another length
    // is none of them.
    boolean windowTells = key.length == windowedLength;
    if (windowedLength >= 0 && !windowTells) {
      return null;
    }
    long w = window(key, shared);
    long[] windowsAt = table.windows();
    byte[][] entries = table.entries();
    int mask = windowsAt.length - 1;
    for (int at = hash(key, shared, w) & mask; ; at = (at + 1) & mask) {
      byte[] value = entries[2 * at + 1];
      if (value == null) {
        return null;
      }
      if (windowsAt[at] == w && (windowTells || Arrays.equals(entries[2 * at], key))) {
        return value;
      }
    }
  }

  private ExactTable buildTable() {
    int capacity = Integer.highestOneBit(Math.max(2, keys.length) * 2 - 1) << 1;
    long[] windowsAt = new long[capacity];
    byte[][] entries = new byte[2 * capacity][];
    int mask = capacity - 1;
    for (int i = 0; i < keys.length; i++) {
      int at = hash(keys[i], shared, windows[i]) & mask;
      while (entries[2 * at + 1] != null) {
        at = (at + 1) & mask;
      }
      windowsAt[at] = windows[i];
      entries[2 * at] = keys[i];
      entries[2 * at + 1] = values[i];
    }
    return new ExactTable(windowsAt, entries);
  }

  /**
   * A hash of {@code key}'s bytes from {@code from} on (those past the shared prefix, which tell
   * the keys of a page apart), each bit depending on every one of them; {@code window} is the
   * key's {@link #window} at {@code from}, which is all of those bytes for a key that ends within
   * it.
   */
  static int hash(byte[] key, int from, long window) {
    long h;
    if (key.length - from <= Long.BYTES) {
      h = mix(key.length ^ window);
    } else {
      h = key.length;
      int i = from;
      for (; i + Long.BYTES <= key.length; i += Long.BYTES) {
        h = mix(h ^ (long) EIGHT_BYTES.get(key, i));
      }
      if (i < key.length) {
        h = mix(h ^ window(key, i));
      }
    }
    return (int) (h ^ (h >>> 32));
  }

  /** A 64-bit finalizer (MurmurHash3's): each input bit flips about half of the output bits. */
  private static long mix(long x) {
    x = (x ^ (x >>> 33)) * 0xff51afd7ed558ccdL;
    x = (x ^ (x >>> 33)) * 0xc4ceb9fe1a85ec53L;
    return x ^ (x >>> 33);
  }

  /** The eight bytes of {@code key} from {@code from} on, big-endian, zero past its end. */
  static long window(byte[] key, int from) {
    int left = key.length - from;
    if (left >= Long.BYTES) {
      return (long) EIGHT_BYTES.get(key, from);
    }
    if (left <= 0) {
      return 0;
    }
    if (key.length >= Long.BYTES) {
      // The key's last eight bytes end with the ones wanted: shift them to the top.
      return (long) EIGHT_BYTES.get(key, key.length - Long.BYTES) << ((Long.BYTES - left) * 8);
    }
    long w = 0;
    for (int i = 0; i < left; i++) {
      w = (w << 8) | (key[from + i] & 0xFF);
    }
    return w << ((Long.BYTES - left) * 8);
  }
}
