package io.stratus.btree;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.pagemanager.Keys;
import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageKind;
import io.stratus.pagemanager.PageStore;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Verifies the structure of a whole tree: per level, the right-link chain equals the parents'
 * children in order; low and high keys chain up; keys lie in their node's range; separators equal
 * the children's low keys; pages fit; the leaves hold exactly the model's entries.
 */
final class TreeChecker {
  private TreeChecker() {}

  static NavigableMap<byte[], byte[]> newModel() {
    return new TreeMap<>(Keys.ORDER);
  }

  /** Checks structure and contents; returns the height. */
  static int check(PageStore store, BLinkTree tree, Map<byte[], byte[]> model) {
    Page root = store.read(tree.rootUri()).orElseThrow();
    assertThat(root.lowKey()).as("root low key").isEmpty();
    assertThat(root.highKey()).as("root high key").isEmpty();
    assertThat(root.rightSibling()).as("root sibling").isEmpty();
    List<Page> levelPages = List.of(root);
    List<byte[]> keys = new ArrayList<>();
    List<byte[]> values = new ArrayList<>();
    for (int level = root.level(); level >= 0; level--) {
      checkChain(store, levelPages, level);
      List<Page> next = new ArrayList<>();
      for (Page p : levelPages) {
        assertThat(p.encodedSizeBound())
            .as("size of %s", p.uri())
            .isLessThanOrEqualTo(store.pageSize());
        assertThat(p.level()).isEqualTo(level);
        assertThat(p.kind()).isEqualTo(level == 0 ? PageKind.LEAF : PageKind.INNER);
        for (int i = 0; i < p.entryCount(); i++) {
          assertThat(p.isBelowLowKey(p.key(i)) || p.isBeyondHighKey(p.key(i)))
              .as("key %d of %s outside its range", i, p.uri())
              .isFalse();
        }
        for (int i = 0; i < p.tombstoneCount(); i++) {
          assertThat(p.isBelowLowKey(p.tombstoneKey(i)) || p.isBeyondHighKey(p.tombstoneKey(i)))
              .as("tombstone %d of %s outside its range", i, p.uri())
              .isFalse();
        }
        if (level == 0) {
          for (int i = 0; i < p.entryCount(); i++) {
            keys.add(p.key(i));
            values.add(p.value(i));
          }
          continue;
        }
        assertThat(p.entryCount()).as("children of %s", p.uri()).isPositive();
        assertThat(p.key(0)).as("first separator of %s", p.uri()).isEqualTo(p.lowKey());
        for (int i = 0; i < p.entryCount(); i++) {
          String childUri = new String(p.value(i), StandardCharsets.UTF_8);
          Page child = store.read(childUri).orElseThrow(() -> new AssertionError(childUri));
          assertThat(child.lowKey()).as("low key of %s vs separator", childUri).isEqualTo(p.key(i));
          Optional<byte[]> expectedHigh =
              i + 1 < p.entryCount() ? Optional.of(p.key(i + 1)) : p.highKey();
          assertThat(child.highKey().map(Arrays::toString))
              .as("high key of %s", childUri)
              .isEqualTo(expectedHigh.map(Arrays::toString));
          next.add(child);
        }
      }
      levelPages = next;
    }
    assertThat(keys.size()).as("entries in leaves").isEqualTo(model.size());
    int i = 0;
    for (Map.Entry<byte[], byte[]> e : model.entrySet()) {
      assertThat(keys.get(i)).as("key %d", i).isEqualTo(e.getKey());
      assertThat(values.get(i)).as("value of key %d", i).isEqualTo(e.getValue());
      i++;
    }
    for (byte[] k : model.keySet()) {
      assertThat(tree.get(store, k))
          .as("get %s", Arrays.toString(k))
          .hasValueSatisfying(v -> assertThat(v).isEqualTo(model.get(k)));
    }
    return root.level() + 1;
  }

  /** The level's nodes, as found from the parents, must be exactly its right-link chain. */
  private static void checkChain(PageStore store, List<Page> fromParents, int level) {
    Page first = fromParents.get(0);
    assertThat(first.lowKey()).as("low key of the first node on level %d", level).isEmpty();
    Page p = first;
    for (int j = 0; j < fromParents.size(); j++) {
      assertThat(p.uri()).as("node %d of level %d", j, level).isEqualTo(fromParents.get(j).uri());
      if (j + 1 == fromParents.size()) {
        assertThat(p.rightSibling()).as("sibling of the last node on level %d", level).isEmpty();
        assertThat(p.highKey()).as("high key of the last node on level %d", level).isEmpty();
        break;
      }
      Page next = store.read(p.rightSibling().orElseThrow()).orElseThrow();
      assertThat(p.highKey())
          .as("high key of %s", p.uri())
          .hasValueSatisfying(h -> assertThat(h).isEqualTo(next.lowKey()));
      p = next;
    }
  }
}
