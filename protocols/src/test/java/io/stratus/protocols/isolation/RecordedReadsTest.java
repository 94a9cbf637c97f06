package io.stratus.protocols.isolation;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.btree.KeyRange;
import org.junit.jupiter.api.Test;

/**
 * The recording read set answers as a list of every range read would, while a tree read whole
 * keeps nothing more and a key read again does not grow the set.
 */
class RecordedReadsTest {
  private static byte[] key(int... bytes) {
    byte[] out = new byte[bytes.length];
    for (int i = 0; i < bytes.length; i++) {
      out[i] = (byte) bytes[i];
    }
    return out;
  }

  @Test
  void aKeyReadAgainIsKeptOnce() {
    RecordedReads reads = new RecordedReads();
    for (int again = 0; again < 100; again++) {
      reads.addKey("tree", key(1, 2)); // a new array every time
      reads.add("tree", KeyRange.singleton(key(1, 2)));
    }
    reads.addKey("tree", key(1, 3));
    assertThat(reads.size()).isEqualTo(2);
    assertThat(reads.contains("tree", key(1, 2))).isTrue();
    assertThat(reads.contains("tree", key(1, 3))).isTrue();
    assertThat(reads.contains("tree", key(1, 4))).isFalse();
    assertThat(reads.contains("tree", key(1))).isFalse();
    assertThat(reads.contains("other", key(1, 2))).isFalse();
    assertThat(reads.roots()).containsExactly("tree");
  }

  @Test
  void treesNamedByEqualStringsOfTheirOwnAreOneTree() {
    RecordedReads reads = new RecordedReads();
    String tree = "db/c/items/root";
    reads.addKey(tree, key(1));
    reads.addKey(new String(tree), key(2)); // equal, not the same object: the memo misses
    reads.addKey("db/c/other/root", key(3));
    reads.addKey(new String(tree), key(4));
    reads.add(new String(tree), KeyRange.all());
    reads.addKey(tree, key(5)); // read whole: nothing more is kept
    assertThat(reads.roots()).containsExactlyInAnyOrder(tree, "db/c/other/root");
    assertThat(reads.contains(tree, key(9))).isTrue();
    assertThat(reads.contains("db/c/other/root", key(3))).isTrue();
    assertThat(reads.contains("db/c/other/root", key(1))).isFalse();
    assertThat(reads.size()).isEqualTo(1);
  }

  @Test
  void aKeyIsCopiedWhenKept() {
    RecordedReads reads = new RecordedReads();
    byte[] k = key(7);
    reads.addKey("tree", k);
    k[0] = 8;
    assertThat(reads.contains("tree", key(7))).isTrue();
    assertThat(reads.contains("tree", key(8))).isFalse();
  }

  @Test
  void rangesContainTheirKeysOnly() {
    RecordedReads reads = new RecordedReads();
    reads.add("tree", KeyRange.closedOpen(key(10), key(20)));
    reads.add("tree", KeyRange.atLeast(key(50)));
    assertThat(reads.contains("tree", key(10))).isTrue();
    assertThat(reads.contains("tree", key(19, 255))).isTrue();
    assertThat(reads.contains("tree", key(20))).isFalse();
    assertThat(reads.contains("tree", key(49))).isFalse();
    assertThat(reads.contains("tree", key(200))).isTrue();
  }

  @Test
  void aTreeReadWholeContainsEveryKeyAndKeepsNothingMore() {
    RecordedReads reads = new RecordedReads();
    reads.addKey("tree", key(1));
    reads.add("tree", KeyRange.closed(key(2), key(3)));
    reads.addKey("other", key(1));
    reads.add("tree", KeyRange.all());
    assertThat(reads.size()).as("only the other tree's key").isEqualTo(1);
    for (int again = 0; again < 10; again++) {
      reads.addKey("tree", key(again));
      reads.add("tree", KeyRange.atMost(key(again)));
    }
    assertThat(reads.size()).isEqualTo(1);
    assertThat(reads.contains("tree", key())).isTrue();
    assertThat(reads.contains("tree", key(255, 255))).isTrue();
    assertThat(reads.contains("other", key(1))).isTrue();
    assertThat(reads.contains("other", key(2))).isFalse();
    assertThat(reads.roots()).containsExactlyInAnyOrder("tree", "other");
  }

  @Test
  void anEmptyRangeContainsNothingButNamesItsTree() {
    RecordedReads reads = new RecordedReads();
    reads.add("tree", KeyRange.open(key(1), key(1)));
    assertThat(reads.roots()).containsExactly("tree");
    assertThat(reads.contains("tree", key(1))).isFalse();
    assertThat(reads.size()).isZero();
  }
}
