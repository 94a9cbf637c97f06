package io.stratus.protocols.isolation;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The latest committed value of every key of one tree that a transaction read under a lock
 * ({@link LockedReads}): sorted, for laying the keys of a leaf's range over it, and hashed, for the
 * exact-key question a point read asks on every read (a hash probe instead of a descent through
 * the sorted map's byte-array comparisons). Keys are copied when added. Not thread-safe: one
 * transaction's.
 */
final class KnownKeys {
  private final TreeMap<byte[], Optional<byte[]>> sorted = new TreeMap<>(Arrays::compareUnsigned);
  private final Set<Exact> exact = new HashSet<>();

  /** Whether {@code key} is known. */
  boolean contains(byte[] key) {
    return exact.contains(new Exact(key));
  }

  /** Records {@code value} (empty: no record) for {@code key} unless the key is known already. */
  void addIfAbsent(byte[] key, Optional<byte[]> value) {
    byte[] copy = key.clone();
    if (exact.add(new Exact(copy))) {
      sorted.put(copy, value);
    }
  }

  /** The known keys in [{@code low}, {@code high}) ({@code high} empty: unbounded), in order. */
  Map<byte[], Optional<byte[]>> between(byte[] low, Optional<byte[]> high) {
    return high.isPresent()
        ? sorted.subMap(low, true, high.get(), false)
        : sorted.tailMap(low, true);
  }

  /** Eight bytes of an array as one long. */
  private static final VarHandle EIGHT_BYTES =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  /**
   * A hash of {@code key} whose every bit depends on every byte. {@code Arrays.hashCode} suits
   * keys badly: the encodings of numbers differ in their last few bytes only, and its sum of those
   * bytes times small powers of 31 gives 100,000 consecutive long keys some 9,000 distinct values,
   * so a hash set of them degrades into long collision chains and every probe into a search of
   * one.
   */
  static int hash(byte[] key) {
    long h = key.length;
    int i = 0;
    for (; i + Long.BYTES <= key.length; i += Long.BYTES) {
      h = mix(h ^ (long) EIGHT_BYTES.get(key, i));
    }
    long tail = 0;
    for (; i < key.length; i++) {
      tail = (tail << 8) | (key[i] & 0xff);
    }
    h = mix(h ^ tail);
    return (int) (h ^ (h >>> 32));
  }

  /** A 64-bit finalizer (MurmurHash3's): each input bit flips about half of the output bits. */
  private static long mix(long x) {
    x = (x ^ (x >>> 33)) * 0xff51afd7ed558ccdL;
    x = (x ^ (x >>> 33)) * 0xc4ceb9fe1a85ec53L;
    return x ^ (x >>> 33);
  }

  /**
   * A key compared by content, as a hash set needs it, hashed by {@link #hash}. It holds the array
   * it is given, not a copy.
   */
  static final class Exact {
    private final byte[] bytes;
    private final int hash;

    Exact(byte[] bytes) {
      this(bytes, hash(bytes));
    }

    private Exact(byte[] bytes, int hash) {
      this.bytes = bytes;
      this.hash = hash;
    }

    /** The same key in an array of its own, for keeping after the caller's array changes. */
    Exact copy() {
      return new Exact(bytes.clone(), hash);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Exact e && hash == e.hash && Arrays.equals(bytes, e.bytes);
    }

    @Override
    public int hashCode() {
      return hash;
    }
  }
}
