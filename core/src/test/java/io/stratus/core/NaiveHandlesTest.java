package io.stratus.core;

import static io.stratus.core.Fixture.PAGE_SIZE;
import static io.stratus.core.Fixture.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.core.Finding.Kind;
import io.stratus.pagemanager.Page;
import io.stratus.protocols.StorageLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two naive handles writing one B-link tree: one handle puts a leaf back from its cached copy after
 * the other handle split that leaf.
 *
 * <p>The schedule, over a tree with an inner root and several leaves:
 *
 * <ol>
 *   <li>Handle B scans the collection: its pool now caches the root and every leaf.
 *   <li>Handle A creates records on leaf L until L splits: L now ends at the new leaf M (high key
 *       and right link), and the root names M.
 *   <li>Handle B creates records on L. Its copy of L is still the one from before the split (the
 *       TTL has not passed), so B's write set is that old L with B's records: the old high key and
 *       the old right link, past M.
 * </ol>
 *
 * Had B's L been put as it is, M would be named by the root but left out of the leaf chain:
 * point reads (through the root) would find A's records on M and scans (along the chain) would
 * not, and the verifier would report M as unreachable. B's records changing only L's records
 * (fitting) and B's records splitting L again (the schedule the fault soak found most often) are
 * both checked. Afterwards a fresh handle finds every record of both handles by point read and by
 * scan, and the verifier finds no unreachable node.
 */
@ExtendWith(SeedExtension.class)
class NaiveHandlesTest {
  private static final String ROOT = new StorageLayout(Fixture.DB).collectionRoot("items");

  @Test
  void aStaleCopyOfASplitLeafWithRecordsThatFitKeepsTheOtherHandlesSplit(@Seed long seed) {
    staleLeafAfterAnotherHandlesSplit(seed, 1);
  }

  @Test
  void aStaleCopyOfASplitLeafThatSplitsAgainKeepsTheOtherHandlesSplit(@Seed long seed) {
    staleLeafAfterAnotherHandlesSplit(seed, 12);
  }

  private static void staleLeafAfterAnotherHandlesSplit(long seed, int bCount) {
    try (Fixture f = new Fixture(seed)) {
      Database a = f.open();
      a.createCollection("items");
      Map<Long, String> expected = new TreeMap<>();
      for (long k = 0; k < 2400; k += 100) { // appends: leaves split at their byte median
        createAll(a, Map.of(k, text("loaded-" + k, 100)), expected);
      }
      Database b = f.open();
      assertThat(Fixture.itemsByKey(b)).hasSameSizeAs(expected); // B caches root and leaves
      List<String> children = NaiveGroupsTest.children(NaiveGroupsTest.stored(f, ROOT));
      assertThat(children).as("an inner root over leaves").hasSizeGreaterThanOrEqualTo(4);
      String l = children.get(1);
      Page before = NaiveGroupsTest.stored(f, l);
      long low = NaiveGroupsTest.firstKey(before);

      // A: records on L until the last one does not fit: one split of L, one new separator.
      Map<Long, String> aRecords = new TreeMap<>();
      Page grown = before;
      for (long k = low + 1; grown.encodedSizeBound() <= PAGE_SIZE; k++) {
        String t = text("a" + k, 120);
        aRecords.put(k, t);
        grown = grown.withPut(Key.of(k).toBytes(), bytes(t));
      }
      createAll(a, aRecords, expected);
      Page split = NaiveGroupsTest.stored(f, l);
      assertThat(split.rightSibling()).as("A split L").isNotEqualTo(before.rightSibling());
      String m = split.rightSibling().orElseThrow();
      assertThat(NaiveGroupsTest.children(NaiveGroupsTest.stored(f, ROOT)))
          .as("the root names A's new leaf")
          .contains(m);

      // B: records on L, written against B's copy of L from before A's split.
      Map<Long, String> bRecords = new TreeMap<>();
      for (int i = 0; i < bCount; i++) {
        bRecords.put(low + 50 + i, text("b" + i, 120));
      }
      createAll(b, bRecords, expected);

      Database fresh = f.open();
      assertThat(fresh.admin().verify().count(Kind.UNREACHABLE_NODE))
          .as("leaves the root names but the chain does not reach")
          .isZero();
      assertChain(f);
      assertWhole(fresh, expected);
    }
  }

  /** Every expected record by point read and by scan, and nothing else. */
  private static void assertWhole(Database db, Map<Long, String> expected) {
    Map<String, String> byText = new TreeMap<>();
    for (Map.Entry<Long, String> e : expected.entrySet()) {
      byText.put(Long.toString(e.getKey()), e.getValue());
      String read =
          db.read(tx -> tx.read("items", Key.of(e.getKey())).map(Fixture::string).orElse(null));
      assertThat(read).as("point read of %d", e.getKey()).isEqualTo(e.getValue());
    }
    assertThat(new TreeMap<>(Fixture.itemsByKey(db))).as("scan").isEqualTo(byText);
  }

  /** Every leaf the root names is on the leaf chain. */
  private static void assertChain(Fixture f) {
    List<String> children = NaiveGroupsTest.children(NaiveGroupsTest.stored(f, ROOT));
    List<String> chain = new ArrayList<>();
    for (String uri = children.get(0); uri != null; ) {
      chain.add(uri);
      uri = NaiveGroupsTest.stored(f, uri).rightSibling().orElse(null);
    }
    assertThat(chain).as("the leaf chain").containsAll(children);
  }

  /** One transaction creating the records, which are then expected. */
  private static void createAll(Database db, Map<Long, String> records, Map<Long, String> into) {
    db.run(
        tx -> {
          records.forEach((k, t) -> tx.create("items", Key.of(k), bytes(t)));
          return null;
        });
    into.putAll(records);
  }

  /** {@code prefix}, padded to {@code length} bytes. */
  private static String text(String prefix, int length) {
    StringBuilder s = new StringBuilder(prefix).append('-');
    while (s.length() < length) {
      s.append((char) ('a' + s.length() % 26));
    }
    return s.toString();
  }
}
