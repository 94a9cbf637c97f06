package io.stratus.protocols.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageKind;
import io.stratus.protocols.log.PuQueues;
import io.stratus.protocols.log.PuQueues.Target;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The reader-side scheduler's memo of tree roots: point reads, which ask about a root and then a
 * leaf, look the root up once while it stays the same page; every answer is the lookup's.
 */
class RootMemoTest {
  private final List<Page> looked = new ArrayList<>();
  private final RootMemo memo =
      new RootMemo(
          page -> {
            looked.add(page);
            return page.uri().endsWith("/root")
                ? Optional.of(new Target(PuQueues.Kind.PRIMARY_TREE, page.uri()))
                : Optional.empty();
          });

  private static Page page(String uri, PageKind kind) {
    return Page.builder(uri, kind).level(kind == PageKind.LEAF ? 0 : 1).build();
  }

  @Test
  void descentsThroughOneRootLookItUpOnce() {
    Page root = page("db/c/items/root", PageKind.INNER);
    Page leafA = page("db/c/items/p-1", PageKind.LEAF);
    Page leafB = page("db/c/items/p-2", PageKind.LEAF);

    for (int read = 0; read < 10; read++) {
      assertThat(memo.treeOf(root))
          .contains(new Target(PuQueues.Kind.PRIMARY_TREE, "db/c/items/root"));
      assertThat(memo.treeOf(read % 2 == 0 ? leafA : leafB)).isEmpty();
    }

    assertThat(looked.stream().filter(p -> p == root).count()).isEqualTo(1);
  }

  @Test
  void aNewCopyOfTheRootIsLookedUpAgain() {
    Page root = page("db/c/items/root", PageKind.INNER);
    Page newer = page("db/c/items/root", PageKind.INNER);
    Page other = page("db/c/orders/root", PageKind.INNER);

    memo.treeOf(root);
    memo.treeOf(newer);
    assertThat(memo.treeOf(other))
        .contains(new Target(PuQueues.Kind.PRIMARY_TREE, "db/c/orders/root"));
    memo.treeOf(other);

    assertThat(looked).containsExactly(root, newer, other);
  }
}
