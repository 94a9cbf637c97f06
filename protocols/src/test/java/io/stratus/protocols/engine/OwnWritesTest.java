package io.stratus.protocols.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageKind;
import io.stratus.pagemanager.PageStore;
import io.stratus.protocols.LogicalChange;
import io.stratus.protocols.LogicalChange.Kind;
import io.stratus.protocols.checkpoint.ChainState;
import io.stratus.protocols.checkpoint.WriteChains;
import io.stratus.protocols.log.LogRecord;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The read-your-writes overlay forgets a pending record only when the page the read used shows
 * it: a fresher tree root proving the record applied says nothing about an older cached leaf.
 */
class OwnWritesTest {
  private static final String ROOT = "db/c/items/root";
  private static final String LEAF = "db/c/items/leaf-2";
  private static final String WRITER = "a#n.0";

  private static PageStore rootOnly(Page root) {
    return new PageStore() {
      @Override
      public Optional<Page> read(String uri) {
        return uri.equals(ROOT) ? Optional.of(root) : Optional.empty();
      }

      @Override
      public void write(Page page) {
        throw new UnsupportedOperationException();
      }

      @Override
      public String newPageUri(String prefix) {
        throw new UnsupportedOperationException();
      }

      @Override
      public int pageSize() {
        return 4096;
      }
    };
  }

  /** {@code leaf} as one transaction, reading only it, sees it. */
  private static Page readOnce(OwnWrites own, PageStore pages, Page leaf) {
    try (ReadYourWrites.Reads reads = own.reads()) {
      return reads.overlay(pages, leaf);
    }
  }

  private static Page leafWith(byte[]... keys) {
    byte[][] values = new byte[keys.length][];
    for (int i = 0; i < keys.length; i++) {
      values[i] = new byte[] {7};
    }
    return Page.builder(LEAF, PageKind.LEAF).level(0).entries(keys, values).build();
  }

  @Test
  void aDeleteStaysOverlaidOnALeafOlderThanTheCheckpointThatAppliedIt() {
    OwnWrites own = new OwnWrites();
    LogRecord delete =
        new LogRecord(
            new LogicalChange(Kind.DELETE, ROOT, new byte[] {40}, new byte[0], Optional.empty()),
            WRITER,
            1,
            "a-1",
            1000,
            0);
    own.remember(Map.of("q", List.of(delete)));
    Page coveringRoot =
        new ChainState(Map.of(WriteChains.key(WRITER, true), 1L), Map.of(), List.of())
            .writeTo(Page.builder(ROOT, PageKind.INNER).level(1).build());
    Page staleLeaf = leafWith(new byte[] {39}, new byte[] {40}); // cached before the checkpoint

    Page seen = readOnce(own, rootOnly(coveringRoot), staleLeaf);

    assertThat(seen.indexOf(new byte[] {40})).as("the deleted key stays hidden").isNegative();
    assertThat(own.pending()).isEqualTo(1);

    Page freshLeaf = leafWith(new byte[] {39}); // read after the checkpoint
    assertThat(readOnce(own, rootOnly(coveringRoot), freshLeaf).indexOf(new byte[] {40}))
        .isNegative();
    assertThat(own.pending()).as("forgotten once the leaf read shows it").isZero();
  }

  private static LogRecord insert(int key, long counter) {
    return new LogRecord(
        new LogicalChange(
            Kind.INSERT, ROOT, new byte[] {(byte) key}, new byte[] {9}, Optional.empty()),
        WRITER,
        counter,
        "a-" + counter,
        1000 + counter,
        0);
  }

  /**
   * An overlaid leaf is merged once: records added to another part of the tree leave it as it
   * was (the same copy is served), and a record in its own range makes a new one.
   */
  @Test
  void anOverlaidLeafIsMadeAgainOnlyWhenItsOwnRangeChanges() {
    OwnWrites own = new OwnWrites();
    Page root = Page.builder(ROOT, PageKind.INNER).level(1).build(); // shows nothing applied
    Page leaf =
        Page.builder(LEAF, PageKind.LEAF)
            .level(0)
            .highKey(new byte[] {50})
            .entries(new byte[][] {{10}}, new byte[][] {{7}})
            .build();
    own.remember(Map.of("q", List.of(insert(20, 1))));
    Page first = readOnce(own, rootOnly(root), leaf);
    assertThat(first.indexOf(new byte[] {20})).isNotNegative();

    own.remember(Map.of("q", List.of(insert(60, 2)))); // beyond the leaf's high key
    assertThat(readOnce(own, rootOnly(root), leaf)).isSameAs(first);

    own.remember(Map.of("q", List.of(insert(30, 3))));
    Page second = readOnce(own, rootOnly(root), leaf);
    assertThat(second).isNotSameAs(first);
    assertThat(second.indexOf(new byte[] {30})).isNotNegative();
    assertThat(second.indexOf(new byte[] {60})).isNegative();
  }

  /**
   * A record another transaction found applied stays for a transaction that read an older copy
   * of the leaf before that (it keeps reading that copy), through reads and prunes, until it ends.
   */
  @Test
  void aRecordFoundAppliedStaysWhileAnOlderTransactionIsOpen() {
    OwnWrites own = new OwnWrites();
    Page root = Page.builder(ROOT, PageKind.INNER).level(1).build(); // shows nothing applied
    own.remember(Map.of("q", List.of(insert(40, 1))));
    Page coveringRoot =
        new ChainState(Map.of(WriteChains.key(WRITER, true), 1L), Map.of(), List.of())
            .writeTo(Page.builder(ROOT, PageKind.INNER).level(1).build());
    Page staleLeaf = leafWith(new byte[] {39}); // read before the checkpoint
    Page freshLeaf =
        Page.builder(LEAF, PageKind.LEAF)
            .level(0)
            .entries(new byte[][] {{39}, {40}}, new byte[][] {{7}, {9}})
            .build();

    try (ReadYourWrites.Reads older = own.reads()) {
      assertThat(older.overlay(rootOnly(root), staleLeaf).indexOf(new byte[] {40})).isNotNegative();
      assertThat(readOnce(own, rootOnly(coveringRoot), freshLeaf).indexOf(new byte[] {40}))
          .isNotNegative();
      for (long now = 1_000; now <= 100_000; now += 50_000) {
        own.prune(uri -> Optional.of(coveringRoot), now, 10_000);
      }
      assertThat(own.pending()).as("kept for the older transaction").isEqualTo(1);
      assertThat(older.overlay(rootOnly(root), staleLeaf).indexOf(new byte[] {40}))
          .as("the older transaction's copy still lacks it")
          .isNotNegative();
    }
    assertThat(readOnce(own, rootOnly(coveringRoot), freshLeaf).indexOf(new byte[] {40}))
        .isNotNegative();
    assertThat(own.pending()).as("forgotten once the older transaction ended").isZero();
  }
}
