package io.stratus.btree;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.pagemanager.Keys;
import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageKind;
import io.stratus.pagemanager.PageStore;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Readers with views the B-link protocol must tolerate: stale inner pages (TTL cache), every
 * intermediate state of a split as the pages reach storage one by one, and scans whose leaves
 * split between two steps. Readers must never miss a key that existed before and never return a
 * key twice.
 */
@ExtendWith(SeedExtension.class)
class BLinkTreeConcurrencyTest {
  private static final int PAGE_SIZE = 512;

  @Test
  void readerWithStaleInnerPagesFindsEveryKey(@Seed long seed) {
    Random rnd = new Random(seed);
    MemoryPageStore store = new MemoryPageStore(PAGE_SIZE);
    BLinkTree tree = BLinkTree.create(store, "t");
    NavigableMap<byte[], byte[]> model = TreeChecker.newModel();
    insertRandom(rnd, store, tree, model, 600);
    Map<String, Page> snapshot = Map.copyOf(store.pages);
    int heightBefore = store.pages.get("t").level();
    insertRandom(rnd, store, tree, model, 6000);
    assertThat(store.pages.get("t").level())
        .as("root split since the snapshot")
        .isGreaterThan(heightBefore);

    // Inner pages (the root included) as of the snapshot, leaves current.
    PageStore stale =
        new ViewStore(
            uri -> {
              Page old = snapshot.get(uri);
              return old != null && old.kind() == PageKind.INNER
                  ? Optional.of(old)
                  : Optional.ofNullable(store.pages.get(uri));
            });
    for (Map.Entry<byte[], byte[]> e : model.entrySet()) {
      assertThat(tree.get(stale, e.getKey()))
          .hasValueSatisfying(v -> assertThat(v).isEqualTo(e.getValue()));
      assertThat(tree.leafFor(stale, e.getKey())).isEqualTo(tree.leafFor(store, e.getKey()));
    }
    assertScanEquals(tree, stale, model.keySet());
  }

  @Test
  void everyPrefixOfTheTreesWriteOrderIsReadable(@Seed long seed) {
    Random rnd = new Random(seed);
    for (int round = 0; round < 24; round++) {
      MemoryPageStore storage = new MemoryPageStore(PAGE_SIZE);
      BLinkTree tree = BLinkTree.create(storage, "t");
      NavigableMap<byte[], byte[]> model = TreeChecker.newModel();
      // A base tree whose root (a leaf, or an inner node on level 1 or 2) is nearly full.
      int targetLevel = round % 3;
      Page root = storage.pages.get("t");
      while (root.level() < targetLevel || root.encodedSizeBound() < PAGE_SIZE - 60) {
        insertRandom(rnd, storage, tree, model, 1);
        root = storage.pages.get("t");
      }
      TreeSet<byte[]> before = new TreeSet<>(Keys.ORDER);
      before.addAll(model.keySet());
      // One unit of work whose inserts split; in odd rounds until the root splits.
      MemoryPageStore txn = storage.copy();
      int pagesBefore = txn.pages.size();
      boolean untilRootSplits = round % 2 == 1;
      for (int i = 0;
          i < 400
              && (txn.pages.size() == pagesBefore
                  || (untilRootSplits && txn.pages.get("t").level() == root.level()));
          i++) {
        insertRandom(rnd, txn, tree, model, 1);
      }
      assertThat(txn.pages.size()).as("the unit of work split a node").isGreaterThan(pagesBefore);
      // Apply its writes to storage one at a time, in the order the tree issued them.
      MemoryPageStore replay = storage.copy();
      for (Page p : txn.writeLog) {
        Page previous = replay.pages.put(p.uri(), p);
        boolean structural =
            previous == null || p.level() > 0 || !previous.rightSibling().equals(p.rightSibling());
        if (structural) { // plain leaf updates cannot break readability; checking is costly
          assertReadable(rnd, tree, replay, before, model);
        }
      }
      TreeChecker.check(replay, tree, model);
    }
  }

  @Test
  void naiveCommitOrderNewPagesThenAscendingLevelsIsReadable(@Seed long seed) {
    Random rnd = new Random(seed);
    for (int round = 0; round < 12; round++) {
      MemoryPageStore storage = new MemoryPageStore(PAGE_SIZE);
      BLinkTree tree = BLinkTree.create(storage, "t");
      NavigableMap<byte[], byte[]> model = TreeChecker.newModel();
      insertRandom(rnd, storage, tree, model, rnd.nextInt(2000));
      TreeSet<byte[]> before = new TreeSet<>(Keys.ORDER);
      before.addAll(model.keySet());
      MemoryPageStore txn = storage.copy();
      insertRandom(rnd, txn, tree, model, 1 + rnd.nextInt(300));
      // The write set: final versions; new pages in any order, then modified by level.
      Map<String, Page> writeSet = new LinkedHashMap<>();
      for (Page p : txn.writeLog) {
        writeSet.put(p.uri(), p);
      }
      List<Page> fresh = new ArrayList<>();
      List<Page> modified = new ArrayList<>();
      for (Page p : writeSet.values()) {
        (storage.pages.containsKey(p.uri()) ? modified : fresh).add(p);
      }
      Collections.shuffle(fresh, rnd);
      Collections.shuffle(modified, rnd);
      modified.sort(Comparator.comparingInt(Page::level));
      MemoryPageStore replay = storage.copy();
      for (Page p : concat(fresh, modified)) {
        replay.pages.put(p.uri(), p);
        assertReadable(rnd, tree, replay, before, model);
      }
      TreeChecker.check(replay, tree, model);
    }
  }

  @Test
  void scanInterleavedWithSplitsNeverMissesOrRepeats(@Seed long seed) {
    Random rnd = new Random(seed);
    for (int round = 0; round < 40; round++) {
      MemoryPageStore store = new MemoryPageStore(PAGE_SIZE);
      BLinkTree tree = BLinkTree.create(store, "t");
      NavigableMap<byte[], byte[]> model = TreeChecker.newModel();
      insertRandom(rnd, store, tree, model, 200 + rnd.nextInt(1500));
      TreeSet<byte[]> before = new TreeSet<>(Keys.ORDER);
      before.addAll(model.keySet());
      boolean descending = rnd.nextBoolean();
      TreeCursor cursor = tree.scan(store, KeyRange.all(), descending);
      List<byte[]> seen = new ArrayList<>();
      while (cursor.hasNext()) {
        byte[] k = cursor.next().key();
        seen.add(k);
        if (rnd.nextInt(4) == 0) {
          // Inserts next to the cursor's position split its current leaf and its neighbours.
          for (int i = rnd.nextInt(30); i > 0; i--) {
            byte[] near = near(rnd, k);
            byte[] v = BLinkTreeModelTest.value(rnd, 24);
            tree.put(store, near, v);
            model.put(near, v);
          }
          insertRandom(rnd, store, tree, model, rnd.nextInt(10));
        }
      }
      assertStrictlyOrdered(seen, descending);
      TreeSet<byte[]> seenSet = new TreeSet<>(Keys.ORDER);
      seenSet.addAll(seen);
      assertThat(seenSet).as("keys present before the scan").containsAll(before);
      TreeChecker.check(store, tree, model);
    }
  }

  // ---- helpers ----

  /** A key next to {@code k}: k with a byte appended or its last byte nudged. */
  private static byte[] near(Random rnd, byte[] k) {
    byte[] n = Arrays.copyOf(k, Math.min(12, k.length + 1));
    if (n.length > 0) {
      n[n.length - 1] = (byte) rnd.nextInt();
    }
    return n;
  }

  private static void insertRandom(
      Random rnd, PageStore store, BLinkTree tree, NavigableMap<byte[], byte[]> model, int n) {
    for (int i = 0; i < n; i++) {
      byte[] k = BLinkTreeModelTest.key(rnd);
      byte[] v = BLinkTreeModelTest.value(rnd, 24);
      tree.put(store, k, v);
      model.put(k, v);
    }
  }

  /**
   * Scans return every key of {@code before} exactly once and in order; point reads find a
   * sample of them (all of them when few).
   */
  private static void assertReadable(
      Random rnd,
      BLinkTree tree,
      PageStore view,
      TreeSet<byte[]> before,
      NavigableMap<byte[], byte[]> finalModel) {
    int sample = 200;
    for (byte[] k : before) {
      if (rnd.nextInt(before.size()) < sample) {
        assertThat(tree.get(view, k)).as("get of an existing key").isPresent();
      }
    }
    for (boolean descending : new boolean[] {false, true}) {
      List<byte[]> seen = new ArrayList<>();
      tree.scan(view, KeyRange.all(), descending).forEachRemaining(e -> seen.add(e.key()));
      assertStrictlyOrdered(seen, descending);
      if (descending) {
        Collections.reverse(seen);
      }
      // Merge the (now ascending) keys seen with the keys that existed before: none missing.
      int i = 0;
      for (byte[] k : before) {
        while (i < seen.size() && Keys.compare(seen.get(i), k) < 0) {
          assertThat(finalModel).containsKey(seen.get(i));
          i++;
        }
        assertThat(i < seen.size() && Keys.compare(seen.get(i), k) == 0)
            .as("existing key found by the scan")
            .isTrue();
        i++;
      }
    }
  }

  private static void assertScanEquals(BLinkTree tree, PageStore view, Set<byte[]> keys) {
    for (boolean descending : new boolean[] {false, true}) {
      List<byte[]> seen = new ArrayList<>();
      tree.scan(view, KeyRange.all(), descending).forEachRemaining(e -> seen.add(e.key()));
      List<byte[]> expected = new ArrayList<>(keys);
      if (descending) {
        Collections.reverse(expected);
      }
      assertThat(seen).containsExactlyElementsOf(expected);
    }
  }

  private static void assertStrictlyOrdered(List<byte[]> keys, boolean descending) {
    for (int i = 1; i < keys.size(); i++) {
      int c = Keys.compare(keys.get(i - 1), keys.get(i));
      assertThat(descending ? c > 0 : c < 0)
          .as("order at %d (duplicate or out of order)", i)
          .isTrue();
    }
  }

  private static List<Page> concat(List<Page> a, List<Page> b) {
    List<Page> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }

  /** A read-only store over a lookup function. */
  private static final class ViewStore implements PageStore {
    private final Function<String, Optional<Page>> lookup;

    ViewStore(Function<String, Optional<Page>> lookup) {
      this.lookup = lookup;
    }

    @Override
    public Optional<Page> read(String uri) {
      return lookup.apply(uri);
    }

    @Override
    public void write(Page page) {
      throw new UnsupportedOperationException("read-only view");
    }

    @Override
    public String newPageUri(String prefix) {
      throw new UnsupportedOperationException("read-only view");
    }

    @Override
    public int pageSize() {
      return PAGE_SIZE;
    }
  }
}
