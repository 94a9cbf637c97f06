package io.stratus.btree;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.pagemanager.Page;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The write-stamp rule of {@link TreeChange} as {@link BLinkTree#applySorted} applies it: a change
 * older than the entry it would replace is dropped, whatever order the changes arrive in, in one
 * batch or over many, and entries keep their stamps through splits.
 */
@ExtendWith(SeedExtension.class)
class TreeChangeStampsTest {
  private static final int PAGE_SIZE = 512;

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static Optional<String> get(MemoryPageStore store, BLinkTree tree, String key) {
    return tree.get(store, b(key)).map(v -> new String(v, StandardCharsets.UTF_8));
  }

  @Test
  void anOlderChangeArrivingLaterIsDropped() {
    MemoryPageStore store = new MemoryPageStore(PAGE_SIZE);
    BLinkTree tree = BLinkTree.create(store, "t");
    tree.applySorted(store, List.of(TreeChange.put(b("k"), b("new"), 20)));
    tree.applySorted(store, List.of(TreeChange.put(b("k"), b("old"), 10)));
    assertThat(get(store, tree, "k")).hasValue("new");
    tree.applySorted(store, List.of(TreeChange.delete(b("k"), 15)));
    assertThat(get(store, tree, "k")).as("an older delete").hasValue("new");
    tree.applySorted(store, List.of(TreeChange.put(b("k"), b("newer"), 30)));
    assertThat(get(store, tree, "k")).hasValue("newer");
    tree.applySorted(store, List.of(TreeChange.put(b("k"), b("newer"), 30)));
    assertThat(get(store, tree, "k")).as("the same change again").hasValue("newer");
  }

  @Test
  void unstampedChangesApplyAlwaysAndLeaveNoStamp() {
    MemoryPageStore store = new MemoryPageStore(PAGE_SIZE);
    BLinkTree tree = BLinkTree.create(store, "t");
    tree.applySorted(store, List.of(TreeChange.put(b("k"), b("stamped"), 20)));
    tree.applySorted(store, List.of(TreeChange.put(b("k"), b("plain"))));
    assertThat(get(store, tree, "k")).hasValue("plain");
    tree.applySorted(store, List.of(TreeChange.put(b("k"), b("old"), 1)));
    assertThat(get(store, tree, "k")).as("over an unstamped entry").hasValue("old");
    Page root = store.read("t").orElseThrow();
    assertThat(root.stamp(root.indexOf(b("k")))).isEqualTo(1);
  }

  @Test
  void withinOneBatchTheNewestWinsAndADeleteKeepsItsStamp() {
    MemoryPageStore store = new MemoryPageStore(PAGE_SIZE);
    BLinkTree tree = BLinkTree.create(store, "t");
    tree.applySorted(
        store,
        List.of(
            TreeChange.put(b("a"), b("a2"), 2),
            TreeChange.put(b("a"), b("a1"), 1),
            TreeChange.delete(b("d"), 5),
            TreeChange.put(b("d"), b("d-old"), 4),
            TreeChange.put(b("e"), b("e-old"), 4),
            TreeChange.delete(b("e"), 5),
            TreeChange.put(b("e"), b("e-new"), 6)));
    assertThat(get(store, tree, "a")).hasValue("a2");
    assertThat(get(store, tree, "d")).as("an older put after a delete").isEmpty();
    assertThat(get(store, tree, "e")).hasValue("e-new");
  }

  /**
   * Random stamped puts of a few keys, applied in random batches and in random order, with many
   * splits: each key ends with its newest value, and applying everything again changes nothing.
   */
  @Test
  void anyArrivalOrderGivesTheNewestValue(@Seed long seed) {
    Random random = new Random(seed);
    MemoryPageStore store = new MemoryPageStore(PAGE_SIZE);
    BLinkTree tree = BLinkTree.create(store, "t");
    List<TreeChange> changes = new ArrayList<>();
    Map<String, TreeChange> newest = new HashMap<>();
    long stamp = 1;
    for (int i = 0; i < 600; i++) {
      String key = "key-" + random.nextInt(80);
      TreeChange c =
          TreeChange.put(b(key), b("v" + stamp + "-" + "x".repeat(random.nextInt(40))), stamp);
      changes.add(c);
      newest.put(key, c);
      stamp++;
    }
    Collections.shuffle(changes, random);
    int at = 0;
    while (at < changes.size()) {
      int n = 1 + random.nextInt(60);
      tree.applySorted(store, changes.subList(at, Math.min(changes.size(), at + n)));
      at += n;
    }
    for (Map.Entry<String, TreeChange> e : newest.entrySet()) {
      assertThat(tree.get(store, b(e.getKey())))
          .as("key %s", e.getKey())
          .hasValueSatisfying(v -> assertThat(v).isEqualTo(e.getValue().value()));
    }
    // The stamps travelled with their entries through every split.
    TreeCursor cursor = tree.scan(store, KeyRange.all());
    int seen = 0;
    while (cursor.hasNext()) {
      cursor.next();
      seen++;
    }
    assertThat(seen).isEqualTo(newest.size());
    tree.applySorted(store, new ArrayList<>(changes)); // everything again: nothing changes
    for (Map.Entry<String, TreeChange> e : newest.entrySet()) {
      assertThat(tree.get(store, b(e.getKey())))
          .hasValueSatisfying(v -> assertThat(v).isEqualTo(e.getValue().value()));
    }
  }
}
