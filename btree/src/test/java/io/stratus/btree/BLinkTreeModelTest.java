package io.stratus.btree;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Random operation sequences against a sorted map with the same (unsigned) order; the structure
 * is verified after every batch. Small pages force splits on every level, including root splits.
 */
@ExtendWith(SeedExtension.class)
class BLinkTreeModelTest {
  private static final int PAGE_SIZE = 512;

  @Test
  void randomOperationsMatchModel(@Seed long seed) {
    run(new Random(seed), 6000, 800, 24);
  }

  @Test
  void largeKeySpaceGrowsSeveralLevels(@Seed long seed) {
    Random rnd = new Random(seed);
    int height = run(rnd, 12000, 20000, 12);
    assertThat(height).isGreaterThanOrEqualTo(3);
  }

  @Test
  void fewKeysManyDeletesLeaveEmptyLeavesThatScansSkip(@Seed long seed) {
    Random rnd = new Random(seed);
    MemoryPageStore store = new MemoryPageStore(PAGE_SIZE);
    BLinkTree tree = BLinkTree.create(store, "t");
    NavigableMap<byte[], byte[]> model = TreeChecker.newModel();
    List<byte[]> pool = pool(rnd, 3000);
    for (byte[] k : pool) {
      byte[] v = value(rnd, 30);
      tree.put(store, k, v);
      model.put(k, v);
    }
    // Delete all but a few keys: most leaves end up empty and stay in the chain.
    for (byte[] k : pool) {
      if (rnd.nextInt(50) != 0) {
        assertThat(tree.delete(store, k)).isEqualTo(model.remove(k) != null);
      }
    }
    TreeChecker.check(store, tree, model);
    assertThat(tree.count(store)).isEqualTo(model.size());
    for (int i = 0; i < 50; i++) {
      checkScan(rnd, store, tree, model, pool);
    }
    // Deleting everything leaves an empty tree whose root still exists.
    for (byte[] k : new ArrayList<>(model.keySet())) {
      tree.delete(store, k);
    }
    model.clear();
    TreeChecker.check(store, tree, model);
    assertThat(tree.scan(store, KeyRange.all()).hasNext()).isFalse();
    assertThat(tree.scan(store, KeyRange.all(), true).hasNext()).isFalse();
  }

  /** Runs {@code ops} random operations over a pool of keys; returns the final height. */
  private static int run(Random rnd, int ops, int poolSize, int maxValue) {
    MemoryPageStore store = new MemoryPageStore(PAGE_SIZE);
    BLinkTree tree = BLinkTree.create(store, "t");
    NavigableMap<byte[], byte[]> model = TreeChecker.newModel();
    List<byte[]> pool = pool(rnd, poolSize);
    for (int op = 1; op <= ops; op++) {
      byte[] key = pool.get(rnd.nextInt(pool.size()));
      int kind = rnd.nextInt(100);
      if (kind < 35) {
        byte[] v = value(rnd, maxValue);
        boolean absent = !model.containsKey(key);
        assertThat(tree.insert(store, key, v)).isEqualTo(absent);
        if (absent) {
          model.put(key, v);
        }
      } else if (kind < 50) {
        byte[] v = value(rnd, maxValue);
        tree.put(store, key, v);
        model.put(key, v);
      } else if (kind < 60) {
        byte[] v = value(rnd, maxValue);
        boolean present = model.containsKey(key);
        assertThat(tree.update(store, key, v)).isEqualTo(present);
        if (present) {
          model.put(key, v);
        }
      } else if (kind < 75) {
        assertThat(tree.delete(store, key)).isEqualTo(model.remove(key) != null);
      } else if (kind < 92) {
        Optional<byte[]> got = tree.get(store, key);
        assertThat(got.orElse(null)).isEqualTo(model.get(key));
        assertThat(tree.leafFor(store, key)).isNotNull();
      } else {
        checkScan(rnd, store, tree, model, pool);
      }
      if (op % 500 == 0) {
        TreeChecker.check(store, tree, model);
      }
    }
    assertThat(tree.count(store)).isEqualTo(model.size());
    assertThat(store.pages).containsKey("t");
    return TreeChecker.check(store, tree, model);
  }

  static void checkScan(
      Random rnd,
      MemoryPageStore store,
      BLinkTree tree,
      NavigableMap<byte[], byte[]> model,
      List<byte[]> pool) {
    KeyRange range = randomRange(rnd, pool);
    boolean descending = rnd.nextBoolean();
    List<Map.Entry<byte[], byte[]>> expected = new ArrayList<>(expected(model, range, descending));
    List<TreeCursor.Entry> actual = new ArrayList<>();
    tree.scan(store, range, descending).forEachRemaining(actual::add);
    assertThat(actual).as("scan %s descending=%s", range, descending).hasSize(expected.size());
    for (int i = 0; i < expected.size(); i++) {
      assertThat(actual.get(i).key()).isEqualTo(expected.get(i).getKey());
      assertThat(actual.get(i).value()).isEqualTo(expected.get(i).getValue());
    }
  }

  static List<Map.Entry<byte[], byte[]>> expected(
      NavigableMap<byte[], byte[]> model, KeyRange range, boolean descending) {
    if (range.isEmpty()) {
      return List.of();
    }
    NavigableMap<byte[], byte[]> view = model;
    Optional<byte[]> lo = range.lowerBound();
    if (lo.isPresent()) {
      view = view.tailMap(lo.get(), range.isLowerInclusive());
    }
    Optional<byte[]> hi = range.upperBound();
    if (hi.isPresent()) {
      view = view.headMap(hi.get(), range.isUpperInclusive());
    }
    return new ArrayList<>((descending ? view.descendingMap() : view).entrySet());
  }

  static KeyRange randomRange(Random rnd, List<byte[]> pool) {
    switch (rnd.nextInt(6)) {
      case 0:
        return KeyRange.all();
      case 1:
        return KeyRange.prefix(Arrays.copyOf(pick(rnd, pool), rnd.nextInt(3)));
      default:
        byte[] a = rnd.nextInt(4) == 0 ? null : bound(rnd, pool);
        byte[] b = rnd.nextInt(4) == 0 ? null : bound(rnd, pool);
        if (a != null && b != null && Arrays.compareUnsigned(a, b) > 0 && rnd.nextInt(5) != 0) {
          byte[] t = a;
          a = b;
          b = t;
        }
        return KeyRange.of(a, rnd.nextBoolean(), b, rnd.nextBoolean());
    }
  }

  private static byte[] bound(Random rnd, List<byte[]> pool) {
    return rnd.nextBoolean() ? pick(rnd, pool) : key(rnd);
  }

  private static byte[] pick(Random rnd, List<byte[]> pool) {
    return pool.get(rnd.nextInt(pool.size()));
  }

  /** Keys of 0 to 12 bytes over an alphabet with the edge bytes 0x00 and 0xFF. */
  static List<byte[]> pool(Random rnd, int size) {
    List<byte[]> pool = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      pool.add(key(rnd));
    }
    return pool;
  }

  static byte[] key(Random rnd) {
    byte[] alphabet = {0x00, 0x01, 0x41, 0x42, 0x7F, (byte) 0x80, (byte) 0xFE, (byte) 0xFF};
    byte[] k = new byte[rnd.nextInt(13)];
    for (int i = 0; i < k.length; i++) {
      k[i] = rnd.nextInt(3) == 0 ? alphabet[rnd.nextInt(alphabet.length)] : (byte) rnd.nextInt();
    }
    return k;
  }

  static byte[] value(Random rnd, int max) {
    byte[] v = new byte[rnd.nextInt(max + 1)];
    rnd.nextBytes(v);
    return v;
  }
}
