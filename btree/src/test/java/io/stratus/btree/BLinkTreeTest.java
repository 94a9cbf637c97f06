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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Single operations, limits, batches and cursors of one tree on a small-page in-memory store. */
@ExtendWith(SeedExtension.class)
class BLinkTreeTest {
  private static final int PAGE_SIZE = 512;

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void createIsIdempotentAndTheEmptyRootIsALeaf() {
    MemoryPageStore store = new MemoryPageStore(PAGE_SIZE);
    BLinkTree tree = BLinkTree.create(store, "db/orders");
    assertThat(store.writes()).isEqualTo(1);
    tree.put(store, b("k"), b("v"));
    tree.createIfAbsent(store);
    BLinkTree.create(store, "db/orders");
    assertThat(store.writes()).isEqualTo(2);
    assertThat(tree.get(store, b("k"))).hasValueSatisfying(v -> assertThat(v).isEqualTo(b("v")));
    Page root = store.pages.get("db/orders");
    assertThat(root.kind()).isEqualTo(PageKind.LEAF);
    assertThat(tree.pagePrefix()).isEqualTo("db/orders/");
    assertThat(tree.count(store)).isEqualTo(1);
  }

  @Test
  void postSeparatorNamesAChildItsParentLostOnceAndThenChangesNothing() {
    MemoryPageStore store = new MemoryPageStore(PAGE_SIZE);
    BLinkTree tree = BLinkTree.create(store, "db/orders");
    for (int i = 0; i < 40; i++) {
      tree.put(store, b(String.format("k%03d", i)), b("value-" + i));
    }
    Page root = store.pages.get("db/orders");
    assertThat(root.level()).as("an inner root over leaves").isEqualTo(1);
    assertThat(root.entryCount()).isGreaterThanOrEqualTo(3);
    byte[] separator = root.key(1);
    String child = root.valueText(1);
    // A parent put back without the separator (a split posted by a write another one overtook).
    store.write(root.withRemoved(separator));
    assertThat(store.pages.get("db/orders").indexOf(separator)).isNegative();

    tree.postSeparator(store, 1, separator, child);
    Page posted = store.pages.get("db/orders");
    assertThat(posted.indexOf(separator)).isNotNegative();
    assertThat(posted.valueText(posted.indexOf(separator))).isEqualTo(child);
    int writes = store.writes();
    tree.postSeparator(store, 1, separator, child);
    assertThat(store.writes()).as("already named: nothing written").isEqualTo(writes);
    assertThatThrownBy(() -> tree.postSeparator(store, 0, separator, child))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void operationsOnATreeThatWasNeverCreatedAreRefused() {
    MemoryPageStore store = new MemoryPageStore(PAGE_SIZE);
    BLinkTree tree = BLinkTree.open("nothing");
    assertThatThrownBy(() -> tree.get(store, b("k")))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("nothing");
    assertThatThrownBy(() -> tree.put(store, b("k"), b("v")))
        .isInstanceOf(InvalidRequestException.class);
  }

  @Test
  void insertUpdatePutDeleteReportWhatHappened() {
    MemoryPageStore store = new MemoryPageStore(PAGE_SIZE);
    BLinkTree tree = BLinkTree.create(store, "t");
    assertThat(tree.update(store, b("a"), b("1"))).isFalse();
    assertThat(tree.insert(store, b("a"), b("1"))).isTrue();
    int writes = store.writes();
    assertThat(tree.insert(store, b("a"), b("2"))).isFalse();
    assertThat(store.writes()).as("a refused insert writes nothing").isEqualTo(writes);
    assertThat(tree.get(store, b("a"))).hasValueSatisfying(v -> assertThat(v).isEqualTo(b("1")));
    assertThat(tree.update(store, b("a"), b("3"))).isTrue();
    tree.put(store, b("b"), b("4"));
    assertThat(tree.get(store, b("a"))).hasValueSatisfying(v -> assertThat(v).isEqualTo(b("3")));
    assertThat(tree.delete(store, b("a"))).isTrue();
    assertThat(tree.delete(store, b("a"))).isFalse();
    assertThat(tree.get(store, b("a"))).isEmpty();
    assertThat(tree.count(store)).isEqualTo(1);
  }

  /**
   * A view may show a leaf fuller than a page (changes laid over the stored page); a delete from
   * it splits what is left instead of failing, and the tree keeps every other entry.
   */
  @Test
  void aDeleteFromALeafFullerThanAPageSplitsIt() {
    MemoryPageStore roomy = new MemoryPageStore(8 * PAGE_SIZE);
    BLinkTree tree = BLinkTree.create(roomy, "db/carts");
    NavigableMap<byte[], byte[]> model = TreeChecker.newModel();
    for (int i = 0; i < 60; i++) {
      byte[] k = b(String.format("line%03d", i));
      tree.put(roomy, k, b("quantity " + i));
      model.put(k, b("quantity " + i));
    }
    assertThat(roomy.pages.get("db/carts").kind()).isEqualTo(PageKind.LEAF);
    MemoryPageStore store = new MemoryPageStore(PAGE_SIZE);
    store.pages.putAll(roomy.pages);

    assertThat(tree.delete(store, b("line007"))).isTrue();
    model.remove(b("line007"));

    assertThat(store.pages.values())
        .allSatisfy(p -> assertThat(p.encodedSizeBound()).isLessThanOrEqualTo(PAGE_SIZE));
    assertThat(TreeChecker.check(store, tree, model)).isGreaterThanOrEqualTo(2);
  }

  @Test
  void rootSplitsKeepTheRootUriAndNewPagesUseThePrefix() {
    MemoryPageStore store = new MemoryPageStore(PAGE_SIZE);
    BLinkTree tree = BLinkTree.create(store, "db/items");
    NavigableMap<byte[], byte[]> model = TreeChecker.newModel();
    for (int i = 0; i < 3000; i++) {
      byte[] k = b(String.format("key%05d", i * 7919 % 3000));
      tree.put(store, k, b("value" + i));
      model.put(k, b("value" + i));
    }
    assertThat(TreeChecker.check(store, tree, model)).isGreaterThanOrEqualTo(3);
    assertThat(store.pages.get("db/items").kind()).isEqualTo(PageKind.INNER);
    assertThat(store.pages.keySet())
        .allSatisfy(
            uri -> assertThat(uri.equals("db/items") || uri.startsWith("db/items/")).isTrue());
    byte[] k = b("key01234");
    String leaf = tree.leafFor(store, k);
    assertThat(store.pages.get(leaf).kind()).isEqualTo(PageKind.LEAF);
    assertThat(store.pages.get(leaf).indexOf(k)).isNotNegative();
  }

  @Test
  void oversizedEntriesAreRefusedBeforeAnythingChanges() {
    MemoryPageStore store = new MemoryPageStore(PAGE_SIZE);
    BLinkTree tree = BLinkTree.create(store, "t");
    for (int i = 0; i < 200; i++) {
      tree.put(store, b("k" + i), new byte[20]);
    }
    Map<String, Page> before = new HashMap<>(store.pages);
    int writes = store.writes();
    int maxEntry = tree.maxEntryBytes(PAGE_SIZE);
    int maxKey = tree.maxKeyBytes(PAGE_SIZE);
    assertThat(maxKey).isPositive();
    assertThat(maxEntry).isGreaterThan(maxKey).isLessThan(PAGE_SIZE);
    byte[] key = b("k5");
    byte[] tooBig = new byte[maxEntry - key.length + 1];
    assertThatThrownBy(() -> tree.insert(store, b("new"), tooBig))
        .isInstanceOf(RecordTooLargeException.class);
    assertThatThrownBy(() -> tree.update(store, key, tooBig))
        .isInstanceOf(RecordTooLargeException.class);
    assertThatThrownBy(() -> tree.put(store, key, tooBig))
        .isInstanceOf(RecordTooLargeException.class);
    assertThatThrownBy(() -> tree.put(store, new byte[maxKey + 1], new byte[0]))
        .isInstanceOf(RecordTooLargeException.class);
    assertThatThrownBy(
            () ->
                tree.applySorted(
                    store,
                    List.of(TreeChange.put(b("a"), b("x")), TreeChange.put(b("bb"), tooBig))))
        .isInstanceOf(RecordTooLargeException.class);
    assertThatThrownBy(() -> tree.checkEntry(PAGE_SIZE, key, tooBig))
        .isInstanceOf(RecordTooLargeException.class);
    assertThat(store.writes()).isEqualTo(writes);
    assertThat(store.pages).isEqualTo(before);
  }

  @Test
  void entriesUpToTheLimitFitEvenWhenHugeOnesLandBetweenSmallOnes(@Seed long seed) {
    Random rnd = new Random(seed);
    MemoryPageStore store = new MemoryPageStore(PAGE_SIZE);
    BLinkTree tree = BLinkTree.create(store, "t");
    NavigableMap<byte[], byte[]> model = TreeChecker.newModel();
    int maxKey = tree.maxKeyBytes(PAGE_SIZE);
    int maxEntry = tree.maxEntryBytes(PAGE_SIZE);
    for (int i = 0; i < 1500; i++) {
      byte[] k = new byte[1 + rnd.nextInt(maxKey)];
      rnd.nextBytes(k);
      // Mostly tiny values, sometimes the largest allowed: splits must cut into three pieces.
      int valueLength = rnd.nextInt(5) == 0 ? maxEntry - k.length : rnd.nextInt(8);
      byte[] v = new byte[valueLength];
      tree.put(store, k, v);
      model.put(k, v);
      if (i % 300 == 0) {
        TreeChecker.check(store, tree, model);
      }
    }
    TreeChecker.check(store, tree, model);
  }

  @Test
  void aMaximalEntryBetweenSmallOnesSplitsTheNodeIntoThree() {
    MemoryPageStore store = new MemoryPageStore(PAGE_SIZE);
    BLinkTree tree = BLinkTree.create(store, "t");
    NavigableMap<byte[], byte[]> model = TreeChecker.newModel();
    for (int i = 1; i <= 8; i++) {
      tree.put(store, b("a" + i), new byte[20]);
      model.put(b("a" + i), new byte[20]);
    }
    assertThat(store.pages).hasSize(1);
    byte[] huge = new byte[tree.maxEntryBytes(PAGE_SIZE) - 3];
    tree.put(store, b("a45"), huge);
    model.put(b("a45"), huge);
    TreeChecker.check(store, tree, model);
    Page root = store.pages.get("t");
    assertThat(root.level()).isEqualTo(1);
    assertThat(root.entryCount()).as("small keys | the huge entry | small keys").isEqualTo(3);
  }

  @Test
  void applySortedGroupsByLeafAndIsIdempotent(@Seed long seed) {
    Random rnd = new Random(seed);
    MemoryPageStore store = new MemoryPageStore(PAGE_SIZE);
    BLinkTree tree = BLinkTree.create(store, "t");
    NavigableMap<byte[], byte[]> model = TreeChecker.newModel();
    List<byte[]> pool = BLinkTreeModelTest.pool(rnd, 1500);
    for (int batch = 0; batch < 8; batch++) {
      List<TreeChange> changes = new ArrayList<>();
      for (int i = rnd.nextInt(600); i > 0; i--) {
        byte[] k = pool.get(rnd.nextInt(pool.size()));
        if (rnd.nextInt(4) == 0) {
          changes.add(TreeChange.delete(k));
          model.remove(k);
        } else {
          byte[] v = BLinkTreeModelTest.value(rnd, 24);
          changes.add(TreeChange.put(k, v));
          model.put(k, v);
        }
      }
      // Changes arrive unsorted (as from a queue); for equal keys the later one wins.
      tree.applySorted(store, changes);
      TreeChecker.check(store, tree, model);
      Map<String, Page> after = new HashMap<>(store.pages);
      int writes = store.writes();
      tree.applySorted(store, changes);
      assertThat(store.writes()).as("applying again writes nothing").isEqualTo(writes);
      assertThat(store.pages).isEqualTo(after);
    }
  }

  @Test
  void applySortedIntoOneLeafSplitsItIntoManyPieces() {
    MemoryPageStore store = new MemoryPageStore(PAGE_SIZE);
    BLinkTree tree = BLinkTree.create(store, "t");
    NavigableMap<byte[], byte[]> model = TreeChecker.newModel();
    List<TreeChange> changes = new ArrayList<>();
    for (int i = 999; i >= 0; i--) {
      byte[] k = b(String.format("%04d", i));
      changes.add(TreeChange.put(k, b("v" + i)));
      model.put(k, b("v" + i));
    }
    tree.applySorted(store, changes);
    assertThat(TreeChecker.check(store, tree, model)).isGreaterThanOrEqualTo(2);
  }

  @Test
  void applySortedLetsTheLastChangeToAKeyWin() {
    MemoryPageStore store = new MemoryPageStore(PAGE_SIZE);
    BLinkTree tree = BLinkTree.create(store, "t");
    tree.applySorted(
        store,
        List.of(
            TreeChange.put(b("a"), b("1")), TreeChange.delete(b("a")),
            TreeChange.delete(b("b")), TreeChange.put(b("b"), b("2")),
            TreeChange.put(b("c"), b("3")), TreeChange.put(b("c"), b("4"))));
    assertThat(tree.get(store, b("a"))).isEmpty();
    assertThat(tree.get(store, b("b"))).hasValueSatisfying(v -> assertThat(v).isEqualTo(b("2")));
    assertThat(tree.get(store, b("c"))).hasValueSatisfying(v -> assertThat(v).isEqualTo(b("4")));
  }

  @Test
  void cursorEntriesAreDefensiveCopies() {
    MemoryPageStore store = new MemoryPageStore(PAGE_SIZE);
    BLinkTree tree = BLinkTree.create(store, "t");
    byte[] value = b("v");
    tree.put(store, b("k"), value);
    value[0] = 'x';
    TreeCursor.Entry e = tree.scan(store, KeyRange.all()).next();
    e.key()[0] = 'z';
    e.value()[0] = 'z';
    assertThat(e.key()).isEqualTo(b("k"));
    assertThat(tree.get(store, b("k"))).hasValueSatisfying(v -> assertThat(v).isEqualTo(b("v")));
    assertThat(e).isEqualTo(new TreeCursor.Entry(b("k"), b("v")));
  }

  @Test
  void scansHonourBoundsInBothDirections() {
    MemoryPageStore store = new MemoryPageStore(PAGE_SIZE);
    BLinkTree tree = BLinkTree.create(store, "t");
    for (int i = 0; i < 500; i++) {
      tree.put(store, b(String.format("%03d", i)), new byte[i % 17]);
    }
    assertThat(keys(tree.scan(store, KeyRange.closed(b("100"), b("103")))))
        .containsExactly("100", "101", "102", "103");
    assertThat(keys(tree.scan(store, KeyRange.open(b("100"), b("103")), true)))
        .containsExactly("102", "101");
    assertThat(keys(tree.scan(store, KeyRange.lessThan(b("002")), true)))
        .containsExactly("001", "000");
    assertThat(keys(tree.scan(store, KeyRange.greaterThan(b("497")))))
        .containsExactly("498", "499");
    assertThat(keys(tree.scan(store, KeyRange.prefix(b("49")), true)))
        .hasSize(10)
        .startsWith("499")
        .endsWith("490");
    assertThat(keys(tree.scan(store, KeyRange.closed(b("2"), b("1"))))).isEmpty();
  }

  private static List<String> keys(TreeCursor c) {
    List<String> out = new ArrayList<>();
    c.forEachRemaining(e -> out.add(new String(e.key(), StandardCharsets.UTF_8)));
    return out;
  }
}
