package io.stratus.core;

import static io.stratus.core.Fixture.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.CheckpointSummary;
import io.stratus.CorruptPageException;
import io.stratus.StalePageException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.ItemSummary;
import io.stratus.cloudapi.StorageService;
import io.stratus.cloudapi.StoredItem;
import io.stratus.cloudapi.inprocess.QueueBehavior;
import io.stratus.cloudapi.inprocess.StorageConsistency;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.protocols.ProtocolKind;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Damaged page bytes in storage are reported, never used, and do not poison the buffer pool. */
@ExtendWith(SeedExtension.class)
class CorruptPageTest {
  private static final String ROOT = Fixture.DB + "/c/items/root";

  @Test
  void aCorruptPageIsReportedAndReadableAgainOnceRepaired(@Seed long seed) throws Exception {
    try (Fixture f = new Fixture(seed)) {
      Database writer = f.open();
      writer.createCollection("items");
      TwoHandlesTest.commitCreate(writer, "items", 1, "one");
      StorageService storage = f.services().storage();
      StoredItem good = CloudFutures.await(storage.get(ROOT)).orElseThrow();

      byte[] garbage = good.payload();
      new Random(seed).nextBytes(garbage);
      CloudFutures.await(storage.put(ROOT, garbage, Map.of()));

      Database reader = f.open(); // an empty pool: it must read the damaged item
      try (Transaction tx = reader.begin()) {
        assertThatThrownBy(() -> tx.read("items", Key.of(1L)))
            .isInstanceOfSatisfying(
                CorruptPageException.class, e -> assertThat(e.uri()).isEqualTo(ROOT));
        // Asking again reads storage again (nothing of the bad page was cached) and fails again.
        assertThatThrownBy(() -> tx.read("items", Key.of(1L)))
            .isInstanceOf(CorruptPageException.class);
        assertThat(tx.isOpen()).isTrue();
      }
      // A handle that had the good page cached meets the damage once its TTL expires.
      f.clock.advance(Fixture.TTL.plus(Duration.ofMillis(1)));
      try (Transaction tx = writer.begin()) {
        assertThatThrownBy(() -> tx.read("items", Key.of(1L)))
            .isInstanceOf(CorruptPageException.class);
      }

      CloudFutures.await(storage.put(ROOT, good.payload(), Map.of())); // the repair
      try (Transaction tx = reader.begin()) {
        assertThat(tx.read("items", Key.of(1L)).map(Fixture::string)).contains("one");
      }
      try (Transaction tx = writer.begin()) {
        assertThat(tx.read("items", Key.of(1L)).map(Fixture::string)).contains("one");
        tx.create("items", Key.of(2L), bytes("two"));
        tx.commit();
      }
    }
  }

  @Test
  void aDamagedLogMessageIsCountedAndWarnedAboutOnceAndBlocksNothingElse(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database db = f.open(f.config().protocol(ProtocolKind.BASIC).checkpointExecutor(task -> {}));
      BasicProtocolTest.load(db, 20);
      BasicProtocolTest.update(db, 4, "first");
      List<String> queues =
          CloudFutures.await(f.services().simpleQueues().listQueues(Fixture.DB + "/pu/"));
      assertThat(queues).isNotEmpty();
      for (String queue : queues) {
        CloudFutures.await(
            f.services()
                .simpleQueues()
                .send(queue, "not a log message".getBytes(StandardCharsets.UTF_8)));
      }
      BasicProtocolTest.update(db, 5, "second");

      db.admin().checkpointAll();
      db.admin().checkpointAll(); // the damaged messages are received again, not counted again
      assertThat(db.stats().corruptMessages()).isEqualTo(queues.size());
      assertThat(BasicProtocolTest.read(db, 4)).isEqualTo("first");
      assertThat(BasicProtocolTest.read(db, 5)).isEqualTo("second");
    }
  }

  @Test
  void aCorruptCatalogIsReportedAtOpen(@Seed long seed) throws Exception {
    try (Fixture f = new Fixture(seed)) {
      f.open().createCollection("items");
      StorageService storage = f.services().storage();
      String catalog = Fixture.DB + "/catalog";
      StoredItem good = CloudFutures.await(storage.get(catalog)).orElseThrow();
      CloudFutures.await(storage.put(catalog, bytes("not a page"), Map.of()));
      assertThatThrownBy(f::open).isInstanceOf(CorruptPageException.class);
      CloudFutures.await(storage.put(catalog, good.payload(), Map.of()));
      assertThat(f.open().collections()).containsExactly("items");
    }
  }

  /**
   * On eventually consistent storage a page that another page refers to but that reads as absent
   * is taken for a write not visible yet: reads fail retryably, checkpoints give up without a
   * damage report, and both get past it once storage shows the page.
   */
  @Test
  void aReferredPageAbsentFromEventuallyConsistentStorageIsAStaleReadNotDamage(@Seed long seed) {
    try (Fixture f =
        new Fixture(
            seed,
            true,
            QueueBehavior.reliable(),
            b -> b.storageConsistency(StorageConsistency.eventual(Duration.ofSeconds(1))))) {
      Database writer =
          f.open(f.config().protocol(ProtocolKind.BASIC).checkpointExecutor(task -> {}));
      BasicProtocolTest.load(writer, 300);
      f.clock.advance(Duration.ofSeconds(2)); // past the window: the loaded pages are visible
      try (Transaction tx = writer.begin()) {
        tx.create("items", Key.of(1000L), bytes("new"));
        tx.commit(); // queued for the tree's checkpoint
      }
      StorageService storage = f.services().storage();
      Map<String, byte[]> hidden = new HashMap<>();
      for (ItemSummary item : CloudFutures.await(storage.listAll(Fixture.DB + "/c/items/"))) {
        if (!item.uri().equals(ROOT)) {
          hidden.put(
              item.uri(), CloudFutures.await(storage.get(item.uri())).orElseThrow().payload());
        }
      }
      assertThat(hidden).as("the loaded tree has pages below its root").isNotEmpty();
      for (String uri : hidden.keySet()) {
        CloudFutures.await(storage.delete(uri));
      }
      f.clock.advance(Fixture.TTL.plus(Duration.ofSeconds(2))); // every read now misses them

      Database reader = f.open(f.config().protocol(ProtocolKind.BASIC));
      try (Transaction tx = reader.begin()) {
        assertThatThrownBy(() -> tx.read("items", Key.of(1L)))
            .isInstanceOfSatisfying(
                StalePageException.class,
                e -> {
                  assertThat(e.isRetryable()).isTrue();
                  assertThat(hidden).containsKey(e.uri());
                });
      }
      CheckpointSummary missed = writer.admin().checkpointAll();
      assertThat(missed.recordsApplied()).isZero();
      assertThat(missed.quiescent()).isFalse();
      assertThat(writer.stats().corruptPages()).isZero();

      hidden.forEach((uri, payload) -> CloudFutures.await(storage.put(uri, payload, Map.of())));
      f.clock.advance(Duration.ofSeconds(31)); // past the window and any lease
      assertThat(writer.admin().checkpointAll().recordsApplied()).isEqualTo(1);
      f.clock.advance(Fixture.TTL.plus(Duration.ofSeconds(2)));
      assertThat(reader.read(tx -> tx.read("items", Key.of(1000L))).map(Fixture::string))
          .contains("new");
      assertThat(reader.read(tx -> tx.read("items", Key.of(1L))).map(Fixture::string))
          .contains("v0-1");
      assertThat(writer.stats().corruptPages()).isZero();
    }
  }
}
