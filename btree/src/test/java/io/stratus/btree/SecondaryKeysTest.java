package io.stratus.btree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.pagemanager.Keys;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The composite encoding of secondary-index keys: order, round trip, edge bytes, ranges. */
@ExtendWith(SeedExtension.class)
class SecondaryKeysTest {
  private static final byte[][] EDGE_KEYS = {
    {},
    {0x00},
    {0x00, 0x00},
    {0x00, 0x01},
    {0x00, (byte) 0xFF},
    {0x01},
    {(byte) 0xFF},
    {(byte) 0xFF, 0x00},
    {(byte) 0xFF, (byte) 0xFF},
    {0x41},
    {0x41, 0x00},
    {0x41, 0x00, 0x01},
    {0x41, 0x01},
    {0x41, (byte) 0xFF}
  };

  private static final Comparator<byte[][]> PAIR_ORDER =
      Comparator.<byte[][], byte[]>comparing(p -> p[0], Keys.ORDER)
          .thenComparing(p -> p[1], Keys.ORDER);

  @Test
  void compositesSortBySearchKeyThenRecordKeyAndRoundTrip(@Seed long seed) {
    Random rnd = new Random(seed);
    List<byte[][]> pairs = new ArrayList<>();
    for (byte[] s : EDGE_KEYS) {
      for (byte[] r : EDGE_KEYS) {
        pairs.add(new byte[][] {s, r});
      }
    }
    for (int i = 0; i < 2000; i++) {
      pairs.add(new byte[][] {BLinkTreeModelTest.key(rnd), BLinkTreeModelTest.key(rnd)});
    }
    for (byte[][] p : pairs) {
      byte[] c = SecondaryKeys.compose(p[0], p[1]);
      assertThat(SecondaryKeys.searchKey(c)).isEqualTo(p[0]);
      assertThat(SecondaryKeys.recordKey(c)).isEqualTo(p[1]);
    }
    for (int i = 0; i < 20000; i++) {
      byte[][] a = pairs.get(rnd.nextInt(pairs.size()));
      byte[][] b = pairs.get(rnd.nextInt(pairs.size()));
      int expected = Integer.signum(PAIR_ORDER.compare(a, b));
      int actual =
          Integer.signum(
              Keys.compare(SecondaryKeys.compose(a[0], a[1]), SecondaryKeys.compose(b[0], b[1])));
      assertThat(actual)
          .as("%s vs %s", Arrays.deepToString(a), Arrays.deepToString(b))
          .isEqualTo(expected);
    }
  }

  @Test
  void duplicateSearchKeysLiveSideBySideAndRangesSelectExactlyTheirEntries(@Seed long seed) {
    Random rnd = new Random(seed);
    MemoryPageStore store = new MemoryPageStore(512);
    BLinkTree index = BLinkTree.create(store, "idx");
    List<byte[][]> entries = new ArrayList<>();
    for (int i = 0; i < 1500; i++) {
      // Few distinct search keys (many duplicates), edge bytes included.
      byte[] search =
          rnd.nextInt(3) == 0
              ? EDGE_KEYS[rnd.nextInt(EDGE_KEYS.length)]
              : new byte[] {(byte) rnd.nextInt(4), (byte) (rnd.nextBoolean() ? 0 : 0xFF)};
      byte[] record = new byte[] {(byte) rnd.nextInt(), (byte) rnd.nextInt()};
      if (index.insert(store, SecondaryKeys.compose(search, record), new byte[0])) {
        entries.add(new byte[][] {search, record});
      }
    }
    entries.sort(PAIR_ORDER);
    for (int i = 0; i < 300; i++) {
      byte[] lo = entries.get(rnd.nextInt(entries.size()))[0];
      byte[] hi = rnd.nextInt(4) == 0 ? lo : EDGE_KEYS[rnd.nextInt(EDGE_KEYS.length)];
      boolean loIn = rnd.nextBoolean();
      boolean hiIn = rnd.nextBoolean();
      KeyRange searchRange =
          switch (rnd.nextInt(4)) {
            case 0 -> KeyRange.singleton(lo);
            case 1 -> KeyRange.of(lo, loIn, null, false);
            case 2 -> KeyRange.of(null, false, hi, hiIn);
            default -> KeyRange.of(lo, loIn, hi, hiIn);
          };
      KeyRange treeRange =
          i % 2 == 0 && searchRange.equals(KeyRange.singleton(lo))
              ? SecondaryKeys.forSearchKey(lo)
              : SecondaryKeys.forSearchRange(searchRange);
      List<byte[][]> expected = new ArrayList<>();
      for (byte[][] e : entries) {
        if (searchRange.contains(e[0])) {
          expected.add(e);
        }
      }
      boolean descending = rnd.nextBoolean();
      List<byte[][]> actual = new ArrayList<>();
      index
          .scan(store, treeRange, descending)
          .forEachRemaining(
              e ->
                  actual.add(
                      new byte[][] {
                        SecondaryKeys.searchKey(e.key()), SecondaryKeys.recordKey(e.key())
                      }));
      if (descending) {
        Collections.reverse(actual);
      }
      assertThat(actual).as("search range %s", searchRange).hasSameSizeAs(expected);
      for (int j = 0; j < expected.size(); j++) {
        assertThat(actual.get(j)).isDeepEqualTo(expected.get(j));
      }
    }
    byte[] closedLo = {0x01};
    byte[] closedHi = {0x02};
    long closed =
        entries.stream()
            .filter(e -> Keys.compare(e[0], closedLo) >= 0 && Keys.compare(e[0], closedHi) <= 0)
            .count();
    List<TreeCursor.Entry> got = new ArrayList<>();
    index.scan(store, SecondaryKeys.forSearchRange(closedLo, closedHi)).forEachRemaining(got::add);
    assertThat(got).hasSize((int) closed);
  }

  @Test
  void malformedCompositesAreRejected() {
    assertThatThrownBy(() -> SecondaryKeys.searchKey(new byte[] {0x41, 0x00}))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> SecondaryKeys.recordKey(new byte[] {0x41}))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> SecondaryKeys.searchKey(new byte[] {0x00, 0x05, 0x00, 0x01}))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void encodingIsAsDocumented() {
    assertThat(SecondaryKeys.compose(new byte[] {0x41, 0x00, 0x42}, new byte[] {0x07}))
        .containsExactly(0x41, 0x00, 0xFF, 0x42, 0x00, 0x01, 0x07);
    assertThat(SecondaryKeys.compose(new byte[0], new byte[0])).containsExactly(0x00, 0x01);
  }
}
