package io.stratus.protocols.isolation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * What a locking transaction knows of a tree's keys: found by content whatever array carries the
 * key, kept apart from the caller's array, first value kept, and listed in key order for a leaf's
 * range.
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
}
