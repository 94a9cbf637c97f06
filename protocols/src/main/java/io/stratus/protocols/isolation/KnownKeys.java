package io.stratus.protocols.isolation;

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

  /** A key compared by content, as a hash set needs it. */
  private static final class Exact {
    private final byte[] bytes;
    private final int hash;

    Exact(byte[] bytes) {
      this.bytes = bytes;
      this.hash = Arrays.hashCode(bytes);
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
