package io.stratus.protocols;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageKind;
import io.stratus.protocols.log.PuQueues;
import java.util.List;
import org.junit.jupiter.api.Test;

class StorageLayoutTest {
  private final StorageLayout layout = new StorageLayout("db/shop");

  @Test
  void namesTreesAndQueuesUnderTheDatabase() {
    assertThat(layout.catalog()).isEqualTo("db/shop/catalog");
    assertThat(layout.collectionRoot("items")).isEqualTo("db/shop/c/items/root");
    assertThat(layout.indexRoot("items", "byTitle")).isEqualTo("db/shop/i/items/byTitle/root");
    assertThat(layout.pendingUpdatePrefix()).isEqualTo("db/shop/pu/");
    assertThat(layout.atomicPrefix()).isEqualTo("db/shop/atomic/");
    assertThat(layout.advancedAtomicLog()).isEqualTo("db/shop/aatomic/log");
    assertThat(layout.advancedAtomicCommits()).isEqualTo("db/shop/aatomic/commit");
    assertThat(layout.commitCounter()).isEqualTo("db/shop/si/commits");
    assertThat(layout.archivePrefix()).isEqualTo("db/shop/si/log/");
    assertThat(layout.recordLockPrefix()).isEqualTo("db/shop/si/lock/");
    assertThat(layout.snapshotCheckpointLockPrefix()).isEqualTo("db/shop/si/ckpt/");
    assertThat(layout.writerLeasePrefix()).isEqualTo("db/shop/writers/");
  }

  /**
   * Each area's names start with a prefix of its own: the verifier lists queues and the lock
   * service sets timeouts by prefix, so one area's prefix must not select another's names.
   */
  @Test
  void noAreaPrefixSelectsAnotherArea() {
    List<String> prefixes =
        List.of(
            layout.collectionsPrefix(),
            layout.indexesPrefix(),
            layout.pendingUpdatePrefix(),
            layout.atomicPrefix(),
            layout.advancedAtomicPrefix(),
            layout.archivePrefix(),
            layout.recordLockPrefix(),
            layout.snapshotCheckpointLockPrefix(),
            layout.writerLeasePrefix(),
            layout.sequencesPrefix(),
            layout.deadLetterPrefix());
    for (String a : prefixes) {
      assertThat(a).startsWith(layout.databaseUri() + "/");
      for (String b : prefixes) {
        if (!a.equals(b)) {
          assertThat(b).as("%s under %s", b, a).doesNotStartWith(a);
        }
      }
    }
    assertThat(layout.commitCounter()).doesNotStartWith(layout.archivePrefix());
  }

  @Test
  void aTreesPagesLiveBesideItsRoot() {
    String root = layout.collectionRoot("items");
    assertThat(StorageLayout.treeDirectory(root)).isEqualTo("db/shop/c/items/");
    assertThat(StorageLayout.rootOf("db/shop/c/items/p-17")).isEqualTo(root);
    assertThat(StorageLayout.tree(root).rootUri()).isEqualTo(root);
  }

  @Test
  void recognisesDataPagesAndRoots() {
    Page leaf = Page.builder("db/shop/c/items/p-3", PageKind.LEAF).level(0).build();
    Page indexLeaf = Page.builder("db/shop/i/items/byTitle/p-3", PageKind.LEAF).level(0).build();
    Page root = Page.builder(layout.collectionRoot("items"), PageKind.LEAF).level(0).build();
    Page indexRoot =
        Page.builder(layout.indexRoot("items", "byTitle"), PageKind.INNER).level(1).build();
    Page catalog = Page.builder(layout.catalog(), PageKind.META).build();

    assertThat(layout.isDataPage(leaf)).isTrue();
    assertThat(layout.isDataPage(indexLeaf)).isFalse();
    assertThat(layout.rootKind(root)).contains(StorageLayout.TreeKind.PRIMARY);
    assertThat(layout.rootKind(indexRoot)).contains(StorageLayout.TreeKind.INDEX);
    assertThat(layout.rootKind(leaf)).isEmpty();
    assertThat(layout.rootKind(catalog)).isEmpty();
  }

  @Test
  void tellsTheCollectionOfPagesAndOfTheQueuesThatFeedThem() {
    PuQueues pu = new PuQueues(layout);
    String page = "db/shop/c/items/p-3";
    String indexRoot = layout.indexRoot("items", "byTitle");
    assertThat(layout.collectionOf(page)).contains("items");
    assertThat(layout.collectionOf(layout.collectionRoot("orders"))).contains("orders");
    assertThat(layout.collectionOf(indexRoot)).contains("items");
    assertThat(layout.collectionOf(pu.pageQueue(page))).contains("items");
    assertThat(layout.collectionOf(pu.treeQueue(layout.collectionRoot("orders"), false)))
        .contains("orders");
    assertThat(layout.collectionOf(pu.treeQueue(indexRoot, true))).contains("items");
    assertThat(layout.collectionOf(layout.archivePrefix() + layout.collectionRoot("orders")))
        .contains("orders");

    assertThat(layout.collectionOf(layout.catalog())).isEmpty();
    assertThat(layout.collectionOf(layout.atomicPrefix() + "client-1")).isEmpty();
    assertThat(layout.collectionOf(layout.sequence("ids"))).isEmpty();
    assertThat(layout.collectionOf("db/other/c/items/root")).isEmpty();
    assertThat(layout.collectionOf("db/shop/c/items")).isEmpty();
  }
}
