package io.stratus.protocols;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageKind;
import io.stratus.protocols.log.PuQueues;
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
