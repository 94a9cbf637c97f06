package io.stratus.btree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.InvalidRequestException;
import io.stratus.RecordTooLargeException;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageKind;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Bottom-up loads: structure, one write per page, fill factor, refusals. */
@ExtendWith(SeedExtension.class)
class BulkLoaderTest {
  private static final int PAGE_SIZE = 512;

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static List<TreeCursor.Entry> entries(NavigableMap<byte[], byte[]> model) {
    List<TreeCursor.Entry> list = new ArrayList<>();
    model.forEach((k, v) -> list.add(new TreeCursor.Entry(k, v)));
    return list;
  }

  private static NavigableMap<byte[], byte[]> randomModel(Random rnd, int n) {
    NavigableMap<byte[], byte[]> model = TreeChecker.newModel();
    while (model.size() < n) {
      model.put(BLinkTreeModelTest.key(rnd), BLinkTreeModelTest.value(rnd, 30));
    }
    return model;
  }

  @ParameterizedTest
  @ValueSource(doubles = {1.0, 0.9, 0.6})
  void loadsTenThousandRecordsWritingEachPageOnce(double fillFactor, @Seed long seed) {
    Random rnd = new Random(seed);
    NavigableMap<byte[], byte[]> model = randomModel(rnd, 10_000);
    MemoryPageStore store = new MemoryPageStore(PAGE_SIZE);
    BLinkTree tree = BLinkTree.create(store, "t");
    int writesBefore = store.writes();
    BulkLoader.Summary s =
        BulkLoader.forTree(tree).withFillFactor(fillFactor).load(store, entries(model));

    assertThat(s.entries()).isEqualTo(10_000);
    assertThat(store.writes() - writesBefore)
        .as("one write per page")
        .isEqualTo(s.pagesWritten())
        .isEqualTo(s.leaves() + s.innerPages());
    assertThat(store.pages).hasSize(s.pagesWritten()); // the root was rewritten, not added
    assertThat(TreeChecker.check(store, tree, model)).isEqualTo(s.levels());
    assertThat(s.levels()).isGreaterThanOrEqualTo(3);

    // Fill factor: no page beyond the budget, even once every entry carries a write stamp; every
    // leaf but the last is full, i.e. the next entry did not fit with a stamp (up to the length of
    // the high key it was judged with, at most 12).
    int budget = (int) Math.floor(fillFactor * PAGE_SIZE);
    List<Page> leaves = leaves(store, tree);
    assertThat(leaves).hasSize(s.leaves());
    int slack = 12;
    for (int i = 0; i < leaves.size(); i++) {
      Page leaf = leaves.get(i);
      int stamped =
          leaf.encodedSizeBound()
              + PageSizing.STAMPS_FIXED
              + leaf.entryCount() * PageSizing.PER_STAMP;
      assertThat(stamped).as("leaf %d with stamps", i).isLessThanOrEqualTo(budget);
      if (i + 1 < leaves.size()) {
        Page next = leaves.get(i + 1);
        int nextEntry = PageSizing.stampedEntryBytes(next.key(0), next.value(0));
        assertThat(stamped + nextEntry + slack).as("leaf %d is full", i).isGreaterThan(budget);
      }
    }
    // About N / entries-per-page leaf writes: the point of bulk loading (000, Table 4).
    long entryBytes =
        model.entrySet().stream()
            .mapToLong(e -> PageSizing.stampedEntryBytes(e.getKey(), e.getValue()))
            .sum();
    // Each leaf but the last wastes at most its header and less than one entry (12 + 30 bytes).
    int waste =
        PageSizing.headerBytes(16, 12, 12, 16)
            + PageSizing.STAMPS_FIXED
            + PageSizing.stampedEntryBytes(new byte[12], new byte[30]);
    assertThat(s.leaves()).isLessThanOrEqualTo((int) (entryBytes / (budget - waste)) + 1);
    assertThat(s.innerPages()).isLessThan(s.leaves() / 5);

    // The loaded tree takes ordinary inserts afterwards.
    for (int i = 0; i < 2000; i++) {
      byte[] k = BLinkTreeModelTest.key(rnd);
      byte[] v = BLinkTreeModelTest.value(rnd, 30);
      tree.put(store, k, v);
      model.put(k, v);
    }
    TreeChecker.check(store, tree, model);
  }

  @Test
  void smallLoadsMakeTheRootALeafAndEmptyLoadsLeaveAnEmptyRoot() {
    MemoryPageStore store = new MemoryPageStore(PAGE_SIZE);
    BLinkTree tree = BLinkTree.open("t");
    BulkLoader.Summary empty = BulkLoader.forTree(tree).load(store, List.of());
    assertThat(empty).isEqualTo(new BulkLoader.Summary(0, 1, 0, 1));
    assertThat(store.pages.get("t").kind()).isEqualTo(PageKind.LEAF);

    NavigableMap<byte[], byte[]> model = TreeChecker.newModel();
    model.put(b("a"), b("1"));
    model.put(b("b"), b("2"));
    BulkLoader.Summary s = BulkLoader.forTree(tree).load(store, entries(model));
    assertThat(s).isEqualTo(new BulkLoader.Summary(2, 1, 0, 1));
    assertThat(store.pages).hasSize(1);
    TreeChecker.check(store, tree, model);
  }

  @Test
  void refusesNonEmptyTrees() {
    MemoryPageStore store = new MemoryPageStore(PAGE_SIZE);
    BLinkTree tree = BLinkTree.create(store, "t");
    tree.put(store, b("x"), b("1"));
    Map<String, Page> before = Map.copyOf(store.pages);
    assertThatThrownBy(
            () ->
                BulkLoader.forTree(tree).load(store, List.of(new TreeCursor.Entry(b("a"), b("1")))))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("not empty");
    assertThat(store.pages).isEqualTo(before);
    // An inner root over leaves that are all empty is still not an empty tree to load into.
    for (int i = 0; i < 200; i++) {
      tree.put(store, b("k" + i), new byte[20]);
    }
    for (int i = 0; i < 200; i++) {
      tree.delete(store, b("k" + i));
    }
    tree.delete(store, b("x"));
    assertThat(tree.count(store)).isZero();
    assertThatThrownBy(() -> BulkLoader.forTree(tree).load(store, List.of()))
        .isInstanceOf(InvalidRequestException.class);
  }

  @Test
  void refusesUnsortedOrDuplicateInputLeavingTheTreeEmpty(@Seed long seed) {
    Random rnd = new Random(seed);
    List<TreeCursor.Entry> sorted = entries(randomModel(rnd, 3000));
    for (boolean duplicate : new boolean[] {false, true}) {
      MemoryPageStore store = new MemoryPageStore(PAGE_SIZE);
      BLinkTree tree = BLinkTree.create(store, "t");
      Page emptyRoot = store.pages.get("t");
      List<TreeCursor.Entry> bad = new ArrayList<>(sorted);
      int at = 2000 + rnd.nextInt(500);
      if (duplicate) {
        bad.add(at, bad.get(at));
      } else {
        bad.add(at, bad.remove(at - 1500));
      }
      assertThatThrownBy(() -> BulkLoader.forTree(tree).load(store, bad))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining(duplicate ? "duplicate" : "not strictly increasing");
      assertThat(store.pages.get("t")).as("root untouched").isEqualTo(emptyRoot);
      assertThat(tree.count(store)).isZero();
    }
  }

  @Test
  void refusesOversizedEntriesAndBadFillFactors() {
    MemoryPageStore store = new MemoryPageStore(PAGE_SIZE);
    BLinkTree tree = BLinkTree.create(store, "t");
    byte[] tooBig = new byte[tree.maxEntryBytes(PAGE_SIZE)];
    assertThatThrownBy(
            () ->
                BulkLoader.forTree(tree).load(store, List.of(new TreeCursor.Entry(b("a"), tooBig))))
        .isInstanceOf(RecordTooLargeException.class);
    assertThatThrownBy(() -> BulkLoader.forTree(tree).withFillFactor(0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> BulkLoader.forTree(tree).withFillFactor(1.5))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void tinyFillFactorStillBuildsAValidTree(@Seed long seed) {
    Random rnd = new Random(seed);
    NavigableMap<byte[], byte[]> model = randomModel(rnd, 500);
    MemoryPageStore store = new MemoryPageStore(PAGE_SIZE);
    BLinkTree tree = BLinkTree.open("t");
    BulkLoader.Summary s =
        BulkLoader.forTree(tree).withFillFactor(0.01).load(store, entries(model));
    assertThat(s.leaves()).isEqualTo(500); // one entry per leaf
    assertThat(TreeChecker.check(store, tree, model)).isEqualTo(s.levels());
  }

  private static List<Page> leaves(MemoryPageStore store, BLinkTree tree) {
    Page p = store.pages.get(tree.rootUri());
    while (p.level() > 0) {
      p = store.pages.get(new String(p.value(0), StandardCharsets.UTF_8));
    }
    List<Page> out = new ArrayList<>();
    out.add(p);
    while (p.rightSibling().isPresent()) {
      p = store.pages.get(p.rightSibling().get());
      out.add(p);
    }
    return out;
  }
}
