package io.stratus.btree;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.pagemanager.Keys;
import io.stratus.pagemanager.Page;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Tombstones: a stamped delete leaves its stamp in the leaf, so a put older than the delete that
 * arrives in a later batch is dropped while a newer one creates the key again; tombstones are no
 * entries for reads, scans and counts, move with their keys through splits (small pages split
 * often, and a leaf of tombstones alone splits too), are forgotten below a given stamp, and survive
 * a bulk load of other keys.
 */
@ExtendWith(SeedExtension.class)
class TombstonesTest {
  private static final int PAGE_SIZE = 1024;

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static Optional<String> get(MemoryPageStore store, BLinkTree tree, String key) {
    return tree.get(store, b(key)).map(v -> new String(v, StandardCharsets.UTF_8));
  }

  /** The delete stamp the leaf responsible for {@code key} keeps for it (0: none). */
  private static long tombstone(MemoryPageStore store, BLinkTree tree, String key) {
    return store.read(tree.leafFor(store, b(key))).orElseThrow().tombstoneStamp(b(key));
  }

  @Test
  void aPutOlderThanAnAppliedDeleteIsDroppedAndANewerOneCreatesTheKey() {
    MemoryPageStore store = new MemoryPageStore(PAGE_SIZE);
    BLinkTree tree = BLinkTree.create(store, "t");
    tree.applySorted(store, List.of(TreeChange.put(b("k"), b("b"), 20)));
    tree.applySorted(store, List.of(TreeChange.delete(b("k"), 30)));
    assertThat(tombstone(store, tree, "k")).isEqualTo(30);
    tree.applySorted(store, List.of(TreeChange.put(b("k"), b("a"), 10)));
    assertThat(get(store, tree, "k")).as("a put older than the delete").isEmpty();
    tree.applySorted(store, List.of(TreeChange.delete(b("k"), 25)));
    assertThat(tombstone(store, tree, "k")).as("an older delete").isEqualTo(30);
    tree.applySorted(store, List.of(TreeChange.put(b("k"), b("c"), 40)));
    assertThat(get(store, tree, "k")).as("a put newer than the delete").hasValue("c");
    assertThat(tombstone(store, tree, "k")).as("gone with the new entry").isZero();
  }

  @Test
  void aDeleteArrivingBeforeItsPutStillWins() {
    MemoryPageStore store = new MemoryPageStore(PAGE_SIZE);
    BLinkTree tree = BLinkTree.create(store, "t");
    tree.applySorted(store, List.of(TreeChange.delete(b("k"), 30)));
    assertThat(tombstone(store, tree, "k")).as("a delete of an absent key").isEqualTo(30);
    tree.applySorted(store, List.of(TreeChange.put(b("k"), b("v"), 20)));
    assertThat(get(store, tree, "k")).isEmpty();
  }

  @Test
  void unstampedChangesLeaveNoTombstone() {
    MemoryPageStore store = new MemoryPageStore(PAGE_SIZE);
    BLinkTree tree = BLinkTree.create(store, "t");
    tree.applySorted(store, List.of(TreeChange.put(b("k"), b("v")), TreeChange.delete(b("j"))));
    tree.applySorted(store, List.of(TreeChange.delete(b("k"))));
    Page root = store.read("t").orElseThrow();
    assertThat(root.tombstoneCount()).isZero();
    tree.applySorted(store, List.of(TreeChange.delete(b("k"), 5)));
    tree.applySorted(store, List.of(TreeChange.put(b("k"), b("plain"))));
    assertThat(get(store, tree, "k")).as("unconditional").hasValue("plain");
    assertThat(tombstone(store, tree, "k")).isZero();
  }

  @Test
  void tombstonesBelowTheGivenStampAreForgottenByTheBatchesThatLandOnTheirLeaf() {
    MemoryPageStore store = new MemoryPageStore(PAGE_SIZE);
    BLinkTree tree = BLinkTree.create(store, "t");
    tree.applySorted(store, List.of(TreeChange.delete(b("a"), 10), TreeChange.delete(b("b"), 50)));
    tree.applySorted(store, List.of(TreeChange.put(b("c"), b("v"), 60)), 20);
    assertThat(tombstone(store, tree, "a")).as("below the stamp").isZero();
    assertThat(tombstone(store, tree, "b")).as("above it").isEqualTo(50);
    tree.applySorted(store, List.of(TreeChange.delete(b("d"), 15)), 20);
    assertThat(tombstone(store, tree, "d")).as("a delete below it leaves none").isZero();
    assertThat(get(store, tree, "c")).hasValue("v");
  }

  @Test
  void readsScansAndCountsNeverSeeTombstones() {
    MemoryPageStore store = new MemoryPageStore(PAGE_SIZE);
    BLinkTree tree = BLinkTree.create(store, "t");
    tree.applySorted(
        store,
        List.of(
            TreeChange.put(b("a"), b("1"), 1),
            TreeChange.put(b("b"), b("2"), 1),
            TreeChange.delete(b("c"), 2)));
    tree.applySorted(store, List.of(TreeChange.delete(b("a"), 3)));
    assertThat(tree.count(store)).isEqualTo(1);
    assertThat(tree.get(store, b("a"))).isEmpty();
    TreeCursor c = tree.scan(store, KeyRange.all());
    assertThat(c.hasNext()).isTrue();
    assertThat(c.next().key()).isEqualTo(b("b"));
    assertThat(c.hasNext()).isFalse();
    assertThat(tree.tombstones(store))
        .containsExactly(TreeChange.delete(b("a"), 3), TreeChange.delete(b("c"), 2));
  }

  /**
   * Random stamped puts and deletes of many keys, in random order and batches, on small pages:
   * every key ends as its newest change left it (also a key whose delete arrived first), every
   * tombstone lies in the leaf responsible for its key, and the tree stays well-formed.
   */
  @Test
  void anyArrivalOrderOfPutsAndDeletesGivesTheNewestStateThroughSplits(@Seed long seed) {
    Random random = new Random(seed);
    MemoryPageStore store = new MemoryPageStore(PAGE_SIZE);
    BLinkTree tree = BLinkTree.create(store, "t");
    List<TreeChange> changes = new ArrayList<>();
    Map<String, TreeChange> newest = new HashMap<>();
    long stamp = 1;
    for (int i = 0; i < 1500; i++) {
      String key = "key-" + random.nextInt(300);
      TreeChange c =
          random.nextInt(3) == 0
              ? TreeChange.delete(b(key), stamp)
              : TreeChange.put(b(key), b("v" + stamp + "x".repeat(random.nextInt(30))), stamp);
      changes.add(c);
      newest.put(key, c);
      stamp++;
    }
    Collections.shuffle(changes, random);
    for (int at = 0; at < changes.size(); ) {
      int n = 1 + random.nextInt(40);
      tree.applySorted(store, changes.subList(at, Math.min(changes.size(), at + n)));
      at += n;
    }
    NavigableMap<byte[], byte[]> model = TreeChecker.newModel();
    for (Map.Entry<String, TreeChange> e : newest.entrySet()) {
      TreeChange c = e.getValue();
      if (c.kind() == TreeChange.Kind.PUT) {
        model.put(c.key(), c.value());
        assertThat(tree.get(store, c.key())).as("key %s", e.getKey()).isPresent();
      } else {
        assertThat(tree.get(store, c.key())).as("deleted key %s", e.getKey()).isEmpty();
        assertThat(tombstone(store, tree, e.getKey()))
            .as("the tombstone of %s, in the leaf responsible for it", e.getKey())
            .isEqualTo(c.stamp());
      }
    }
    TreeChecker.check(store, tree, model);
    assertThat(store.read("t").orElseThrow().level()).as("the tree split").isPositive();
    tree.applySorted(store, new ArrayList<>(changes)); // everything again: nothing changes
    TreeChecker.check(store, tree, model);
  }

  /** A leaf that holds nothing but tombstones splits like any over-full leaf. */
  @Test
  void aLeafOfTombstonesAloneSplits() {
    MemoryPageStore store = new MemoryPageStore(PAGE_SIZE);
    BLinkTree tree = BLinkTree.create(store, "t");
    List<TreeChange> deletes = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      deletes.add(TreeChange.delete(b(String.format("deleted-%04d", i)), 100 + i));
    }
    tree.applySorted(store, deletes);
    assertThat(tree.count(store)).isZero();
    assertThat(store.read("t").orElseThrow().level()).as("the root split").isPositive();
    for (TreeChange d : deletes) {
      String key = new String(d.key(), StandardCharsets.UTF_8);
      assertThat(tombstone(store, tree, key)).as(key).isEqualTo(d.stamp());
    }
    TreeChecker.check(store, tree, TreeChecker.newModel());
    tree.applySorted(store, List.of(TreeChange.put(b("deleted-0007"), b("late"), 50)));
    assertThat(tree.get(store, b("deleted-0007"))).isEmpty();
  }

  @Test
  void aBulkLoadKeepsTheTombstonesOfKeysItDoesNotLoad() {
    MemoryPageStore store = new MemoryPageStore(PAGE_SIZE);
    BLinkTree tree = BLinkTree.create(store, "t");
    tree.applySorted(store, List.of(TreeChange.delete(b("a"), 30), TreeChange.delete(b("b"), 30)));
    TreeMap<byte[], byte[]> load = new TreeMap<>(Keys.ORDER);
    for (int i = 0; i < 100; i++) {
      load.put(b(String.format("k%03d", i)), b("value-" + i));
    }
    load.put(b("b"), b("loaded"));
    List<TreeCursor.Entry> entries = new ArrayList<>();
    load.forEach((k, v) -> entries.add(new TreeCursor.Entry(k, v)));
    BulkLoader.forTree(tree).load(store, entries);
    assertThat(tree.count(store)).isEqualTo(101);
    assertThat(tombstone(store, tree, "a")).as("a key not loaded").isEqualTo(30);
    assertThat(tombstone(store, tree, "b")).as("a loaded key").isZero();
    tree.applySorted(store, List.of(TreeChange.put(b("a"), b("late"), 20)));
    assertThat(tree.get(store, b("a"))).isEmpty();
    TreeChecker.check(store, tree, load);
  }
}
