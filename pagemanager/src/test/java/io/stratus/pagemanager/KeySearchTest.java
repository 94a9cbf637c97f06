package io.stratus.pagemanager;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** A page's key search finds what a plain binary search in the key order finds. */
class KeySearchTest {

  @Test
  void findsEveryKeyAndTheInsertionPointOfEveryOther() {
    long seed = 20261129L;
    SplittableRandom random = new SplittableRandom(seed);
    for (int page = 0; page < 2_000; page++) {
      byte[] prefix = bytes(random, random.nextInt(12));
      TreeSet<byte[]> set = new TreeSet<>(Keys.ORDER);
      int n = 1 + random.nextInt(random.nextBoolean() ? 4 : 300);
      while (set.size() < n) {
        set.add(key(random, prefix));
      }
      byte[][] keys = set.toArray(new byte[0][]);
      byte[][] values = valuesFor(keys);
      KeySearch search = new KeySearch(keys, values);
      for (int probe = 0; probe < 200; probe++) {
        byte[] key =
            switch (random.nextInt(4)) {
              case 0 -> keys[random.nextInt(n)].clone();
              case 1 -> key(random, prefix);
              case 2 -> Arrays.copyOf(keys[random.nextInt(n)], random.nextInt(20)); // cut or padded
              default -> bytes(random, random.nextInt(12));
            };
        int expected = Arrays.binarySearch(keys, key, Keys.ORDER);
        assertThat(search.indexOf(key))
            .as("seed %d, page %d, key %s", seed, page, Arrays.toString(key))
            .isEqualTo(expected);
        // The first exact lookups search, the later ones use the page's hash table.
        assertThat(search.exactValue(key))
            .as(
                "exact, probe %d: seed %d, page %d, key %s",
                probe, seed, page, Arrays.toString(key))
            .isSameAs(expected >= 0 ? values[expected] : null);
      }
    }
  }

  @Test
  void pagesOfKeysOfOneLengthAnswerExactLookupsFromTheirWindows() {
    long seed = 20261130L;
    SplittableRandom random = new SplittableRandom(seed);
    for (int page = 0; page < 1_000; page++) {
      // Lengths up to 20, so that some pages' keys end within the window after their shared
      // prefix and others do not.
      int length = random.nextInt(21);
      byte[] prefix = bytes(random, Math.min(length, random.nextInt(8)));
      TreeSet<byte[]> set = new TreeSet<>(Keys.ORDER);
      int n = 1 + random.nextInt(random.nextBoolean() ? 4 : 300);
      for (int tries = 0; set.size() < n && tries < 10 * n; tries++) {
        byte[] k = Arrays.copyOf(prefix, length);
        byte[] tail = bytes(random, length - prefix.length);
        System.arraycopy(tail, 0, k, prefix.length, tail.length);
        set.add(k);
      }
      byte[][] keys = set.toArray(new byte[0][]);
      byte[][] values = valuesFor(keys);
      KeySearch search = new KeySearch(keys, values);
      for (int probe = 0; probe < 2 * KeySearch.EXACT_TABLE_AFTER; probe++) {
        byte[] key =
            switch (random.nextInt(4)) {
              case 0 -> keys[random.nextInt(keys.length)].clone();
              case 1 -> { // one byte changed: same length, same prefix as often as not
                byte[] k = keys[random.nextInt(keys.length)].clone();
                if (k.length > 0) {
                  k[random.nextInt(k.length)] ^= (byte) (1 + random.nextInt(255));
                }
                yield k;
              }
              case 2 -> Arrays.copyOf(keys[random.nextInt(keys.length)], random.nextInt(22));
              default -> bytes(random, length);
            };
        int expected = Arrays.binarySearch(keys, key, Keys.ORDER);
        assertThat(search.exactValue(key))
            .as("probe %d: seed %d, page %d, key %s", probe, seed, page, Arrays.toString(key))
            .isSameAs(expected >= 0 ? values[expected] : null);
      }
    }
  }

  @Test
  void aKeysWindowIsItsEightBytesAfterTheGivenOnePaddedWithZeros() {
    byte[] key = {9, 8, 7, 6, 5, 4, 3, 2, 1, 0, -1};
    for (int from = 0; from <= key.length + 1; from++) {
      long expected = 0;
      for (int i = 0; i < Long.BYTES; i++) {
        int at = from + i;
        expected = (expected << 8) | (at < key.length ? key[at] & 0xFF : 0);
      }
      assertThat(KeySearch.window(key, from)).as("from %d", from).isEqualTo(expected);
      byte[] shortKey = Arrays.copyOf(key, 5);
      long expectedShort = 0;
      for (int i = 0; i < Long.BYTES; i++) {
        int at = from + i;
        expectedShort = (expectedShort << 8) | (at < shortKey.length ? shortKey[at] & 0xFF : 0);
      }
      assertThat(KeySearch.window(shortKey, from))
          .as("short, from %d", from)
          .isEqualTo(expectedShort);
    }
  }

  @Test
  void keysThatDifferOnlyInLengthOrBeyondEightBytesAreTold() {
    byte[][] keys = alike();
    byte[][] values = valuesFor(keys);
    KeySearch search = new KeySearch(keys, values);
    for (int i = 0; i < keys.length; i++) {
      assertThat(search.indexOf(keys[i].clone())).isEqualTo(i);
    }
    assertThat(search.indexOf(new byte[] {1})).isEqualTo(-1);
    assertThat(search.indexOf(new byte[] {1, 2, 0, 0})).isEqualTo(-3);
    assertThat(search.indexOf(new byte[] {1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4})).isEqualTo(-4);
    assertThat(search.indexOf(new byte[] {1, 4})).isEqualTo(-6);
    assertThat(search.indexOf(new byte[0])).isEqualTo(-1);
  }

  @Test
  void exactLookupsAnswerAsTheSearchBeforeAndAfterThePageBuildsItsTable() {
    byte[][] keys = alike();
    byte[][] absent = {{}, {1}, {1, 2, 0, 0}, {1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4}, {1, 4}, {2}};
    byte[][] values = valuesFor(keys);
    KeySearch search = new KeySearch(keys, values);
    for (int round = 0; round <= KeySearch.EXACT_TABLE_AFTER; round++) {
      for (int i = 0; i < keys.length; i++) {
        assertThat(search.exactValue(keys[i].clone())).as("round %d", round).isSameAs(values[i]);
      }
      for (byte[] key : absent) {
        assertThat(search.exactValue(key)).as("round %d, %s", round, Arrays.toString(key)).isNull();
      }
    }
  }

  /** A value of its own for each key (told apart by identity), one of them empty. */
  private static byte[][] valuesFor(byte[][] keys) {
    byte[][] values = new byte[keys.length][];
    for (int i = 0; i < keys.length; i++) {
      values[i] = i == 0 ? new byte[0] : new byte[] {(byte) i};
    }
    return values;
  }

  /** Keys that differ only in their length, or beyond their first eight bytes, or in one byte. */
  private static byte[][] alike() {
    return new byte[][] {
      {1, 2},
      {1, 2, 0},
      {1, 2, 0, 0, 0, 0, 0, 0, 0, 0},
      {1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5},
      {1, 3}
    };
  }

  /** {@code prefix} followed by a few bytes, mostly low ones so that keys share more. */
  private static byte[] key(SplittableRandom random, byte[] prefix) {
    byte[] tail = new byte[random.nextInt(14)];
    for (int i = 0; i < tail.length; i++) {
      tail[i] = (byte) (random.nextBoolean() ? random.nextInt(3) : random.nextInt(256));
    }
    byte[] k = Arrays.copyOf(prefix, prefix.length + tail.length);
    System.arraycopy(tail, 0, k, prefix.length, tail.length);
    return k;
  }

  private static byte[] bytes(SplittableRandom random, int n) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) (random.nextBoolean() ? random.nextInt(3) : random.nextInt(256));
    }
    return b;
  }
}
