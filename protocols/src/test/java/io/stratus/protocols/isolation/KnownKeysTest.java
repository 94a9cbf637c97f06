package io.stratus.protocols.isolation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * What a locking transaction knows of a tree's keys: found by content whatever array carries the
 * key, kept apart from the caller's array, first value kept, and listed in key order for a leaf's
 * range; the keys of consecutive numbers hash apart.
 */
class KnownKeysTest {
  private static byte[] key(int... bytes) {
    byte[] b = new byte[bytes.length];
    for (int i = 0; i < bytes.length; i++) {
      b[i] = (byte) bytes[i];
    }
    return b;
  }

  @Test
  void aKeyIsFoundByItsContentNotItsArray() {
    KnownKeys k = new KnownKeys();
    k.addIfAbsent(key(1, 2), Optional.of(key(9)));

    assertThat(k.contains(key(1, 2))).isTrue();
    assertThat(k.contains(key(1))).isFalse();
    assertThat(k.contains(key(1, 2, 0))).isFalse();
  }

  @Test
  void theCallersArrayMayChangeAfterwards() {
    KnownKeys k = new KnownKeys();
    byte[] mine = key(5);
    k.addIfAbsent(mine, Optional.empty());
    mine[0] = 6;

    assertThat(k.contains(key(5))).isTrue();
    assertThat(k.contains(key(6))).isFalse();
    assertThat(k.between(key(0), Optional.empty()).keySet()).containsExactly(key(5));
  }

  @Test
  void theFirstValueOfAKeyStays() {
    KnownKeys k = new KnownKeys();
    k.addIfAbsent(key(3), Optional.of(key(1)));
    k.addIfAbsent(key(3), Optional.empty());

    Map.Entry<byte[], Optional<byte[]>> only =
        k.between(key(3), Optional.empty()).entrySet().iterator().next();
    assertThat(only.getValue()).contains(key(1));
  }

  @Test
  void betweenListsTheKeysOfALeafRangeInUnsignedOrder() {
    KnownKeys k = new KnownKeys();
    for (int b : new int[] {0x90, 0x10, 0xff, 0x50, 0x20}) {
      k.addIfAbsent(key(b), Optional.empty());
    }

    List<Integer> inRange = new ArrayList<>();
    k.between(key(0x10), Optional.of(key(0x90))).keySet().forEach(x -> inRange.add(x[0] & 0xff));
    List<Integer> tail = new ArrayList<>();
    k.between(key(0x50), Optional.empty()).keySet().forEach(x -> tail.add(x[0] & 0xff));

    assertThat(inRange).containsExactly(0x10, 0x20, 0x50);
    assertThat(tail).containsExactly(0x50, 0x90, 0xff);
  }

  /** The order-preserving eight bytes of a long key: the sign bit flipped, big-endian. */
  private static byte[] longKey(long n) {
    long v = n ^ Long.MIN_VALUE;
    byte[] b = new byte[Long.BYTES];
    for (int i = 0; i < b.length; i++) {
      b[i] = (byte) (v >>> (56 - 8 * i));
    }
    return b;
  }

  @Test
  void theKeysOfConsecutiveNumbersSpreadOverAHashTable() {
    int n = 100_000;
    Set<Integer> distinct = new HashSet<>();
    // The buckets of the table a hash set of n keys has (the next power of two above n / 0.75),
    // indexed as java.util.HashMap indexes them: a bucket of eight or more turns into a tree
    // searched on every probe.
    int buckets = Integer.highestOneBit(n * 4 / 3) << 1;
    Map<Integer, Integer> perBucket = new HashMap<>();
    for (long i = 0; i < n; i++) {
      int h = KnownKeys.hash(longKey(i));
      distinct.add(h);
      perBucket.merge((h ^ (h >>> 16)) & (buckets - 1), 1, Integer::sum);
    }

    assertThat(distinct.size()).isGreaterThan(n - 10);
    assertThat(perBucket.values().stream().mapToInt(Integer::intValue).max().orElseThrow())
        .isLessThan(8);
  }

  @Test
  void equalKeysHashAlikeAndLengthCounts() {
    assertThat(KnownKeys.hash(key(1, 2, 3))).isEqualTo(KnownKeys.hash(key(1, 2, 3)));
    assertThat(KnownKeys.hash(key(0))).isNotEqualTo(KnownKeys.hash(key(0, 0)));
    assertThat(KnownKeys.hash(longKey(7))).isNotEqualTo(KnownKeys.hash(longKey(8)));
  }
}
