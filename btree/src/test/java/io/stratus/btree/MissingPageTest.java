package io.stratus.btree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.CorruptPageException;
import io.stratus.InvalidRequestException;
import io.stratus.StalePageException;
import io.stratus.StratusException;
import io.stratus.pagemanager.Page;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A page that another page refers to but that reads as absent: damage on strongly consistent
 * storage, a read lagging behind a write (retryable) where the store says reads may lag.
 */
class MissingPageTest {
  private static final int PAGE_SIZE = 512;

  private MemoryPageStore store;
  private BLinkTree tree;
  private String leafOfK42;
  private Page hidden;

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @BeforeEach
  void aTreeWithALeafNotVisible() {
    store = new MemoryPageStore(PAGE_SIZE);
    tree = BLinkTree.create(store, "t");
    for (int i = 0; i < 200; i++) {
      tree.insert(store, b(String.format("k%03d", i)), b("value-" + i));
    }
    assertThat(store.pages.get("t").level()).as("the root split").isPositive();
    leafOfK42 = tree.leafFor(store, b("k042"));
    assertThat(leafOfK42).isNotEqualTo("t");
    hidden = store.pages.remove(leafOfK42); // written, not visible to this read
  }

  @Test
  void onStronglyConsistentStorageItIsDamage() {
    assertThatThrownBy(() -> tree.get(store, b("k042")))
        .isInstanceOf(CorruptPageException.class)
        .hasMessageContaining(leafOfK42)
        .satisfies(e -> assertThat(((StratusException) e).isRetryable()).isFalse());
  }

  @Test
  void whereReadsMayLagItIsAStaleReadThatALaterReadGetsPast() {
    store.readsMayLag = true;
    assertThatThrownBy(() -> tree.get(store, b("k042")))
        .isInstanceOf(StalePageException.class)
        .hasMessageContaining(leafOfK42)
        .hasMessageContaining("retry later")
        .satisfies(e -> assertThat(((StratusException) e).isRetryable()).isTrue())
        .satisfies(e -> assertThat(((StalePageException) e).uri()).isEqualTo(leafOfK42));
    assertThatThrownBy(() -> tree.scan(store, KeyRange.all()).forEachRemaining(x -> {}))
        .isInstanceOf(StalePageException.class);

    store.pages.put(leafOfK42, hidden); // the write becomes visible
    assertThat(tree.get(store, b("k042")))
        .hasValueSatisfying(v -> assertThat(v).isEqualTo(b("value-42")));
  }

  /**
   * A root that reads as absent: a tree that does not exist on strongly consistent storage (a
   * caller error, not retryable), one created moments ago where reads may lag (retryable).
   */
  @Test
  void aMissingRootIsNoTreeOnlyWhereReadsCannotLag() {
    BLinkTree absent = BLinkTree.open("fresh/root");
    assertThatThrownBy(() -> absent.get(store, b("k")))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("there is no B-link tree at fresh/root")
        .satisfies(e -> assertThat(((StratusException) e).isRetryable()).isFalse());

    store.readsMayLag = true;
    assertThatThrownBy(() -> absent.get(store, b("k")))
        .isInstanceOf(StalePageException.class)
        .hasMessageContaining("there is no B-link tree at fresh/root")
        .hasMessageContaining("created moments ago")
        .satisfies(e -> assertThat(((StratusException) e).isRetryable()).isTrue())
        .satisfies(e -> assertThat(((StalePageException) e).uri()).isEqualTo("fresh/root"));
  }
}
