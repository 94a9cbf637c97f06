package io.stratus.core;

import static io.stratus.core.Fixture.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.stratus.CheckpointSummary;
import io.stratus.CorruptPageException;
import io.stratus.DeadLetter;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.ItemSummary;
import io.stratus.cloudapi.QueueMessage;
import io.stratus.cloudapi.SimpleQueueService;
import io.stratus.cloudapi.StorageService;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageCodec;
import io.stratus.pagemanager.PageKind;
import io.stratus.protocols.ProtocolKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Damage in the cloud blocks only what it touches, loudly: a corrupt leaf holds back the records
 * that would change it and nothing else, a page copied to another address is refused, a damaged
 * log message is moved into the dead-letter area, from where an operator replays it or skips it
 * (and with it the wait of its writer's later records).
 */
@ExtendWith(SeedExtension.class)
class DamageTest {
  private static final String ITEMS = Fixture.DB + "/c/items/";

  /** Loaded keys are even (0, 2, ...), so an odd key falls between two records of one leaf. */
  private static final int LOADED = 300;

  private static void loadEven(Database db) {
    db.createCollection("items");
    List<Record> records = new ArrayList<>();
    for (int i = 0; i < LOADED; i++) {
      records.add(new Record(Key.of(2L * i), bytes("v0-" + 2 * i)));
    }
    db.bulkLoad("items", records);
  }

  /** The leaves of the items tree in key order, with the index of the first record of each. */
  private record Leaf(Page page, int firstIndex) {
    long insideKey() {
      return 2L * firstIndex + 1; // between its first and second record
    }

    long firstKey() {
      return 2L * firstIndex;
    }
  }

  private static List<Leaf> leaves(Fixture f) {
    StorageService storage = f.services().storage();
    List<Page> pages = new ArrayList<>();
    for (ItemSummary s : CloudFutures.await(storage.listAll(ITEMS))) {
      byte[] bytes = CloudFutures.await(storage.get(s.uri())).orElseThrow().payload();
      Page p = PageCodec.decode(s.uri(), bytes);
      if (p.kind() == PageKind.LEAF) {
        pages.add(p);
      }
    }
    pages.sort(Comparator.comparing(Page::lowKey, Arrays::compareUnsigned));
    List<Leaf> out = new ArrayList<>();
    int index = 0;
    for (Page p : pages) {
      out.add(new Leaf(p, index));
      index += p.entryCount();
    }
    return out;
  }

  private static byte[] raw(Fixture f, String uri) {
    return CloudFutures.await(f.services().storage().get(uri)).orElseThrow().payload();
  }

  private static void put(Fixture f, String uri, byte[] bytes) {
    CloudFutures.await(f.services().storage().put(uri, bytes, Map.of()));
  }

  private static void create(Database db, long key, String value) {
    try (Transaction tx = db.begin()) {
      tx.create("items", Key.of(key), bytes(value));
      tx.commit();
    }
  }

  private static String read(Database db, long key) {
    return BasicProtocolTest.read(db, key);
  }

  /** A fresh handle: nothing cached, no own writes. */
  private static Database reader(Fixture f, ProtocolKind kind, String id) {
    return f.open(f.config().protocol(kind).clientId(id).checkpointExecutor(task -> {}));
  }

  @ParameterizedTest
  @EnumSource(
      value = ProtocolKind.class,
      names = {"BASIC", "MONOTONIC", "ATOMIC"})
  void aCorruptLeafHoldsBackOnlyTheRecordsThatWouldChangeIt(ProtocolKind kind, @Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database db = reader(f, kind, "writer");
      loadEven(db);
      List<Leaf> leaves = leaves(f);
      assertThat(leaves).as("leaves of the loaded tree").hasSizeGreaterThanOrEqualTo(3);
      // The bad leaf's records come from a writer of their own here; one writer's records on
      // both sides of the damage: aCorruptLeafHoldsBackOnlyItsOwnRecordsOfTheSameWriter.
      Leaf bad = leaves.get(1);
      Database victim = reader(f, kind, "victim");
      for (Leaf l : leaves) {
        Database w = l == bad ? victim : db;
        create(w, l.insideKey(), "new-" + l.insideKey()); // the tree queue
        BasicProtocolTest.update(w, l.firstKey(), "upd-" + l.firstKey()); // a data page queue
      }
      // Damaged after the commits (a commit into a corrupt leaf fails: it reads the leaf first).
      byte[] good = raw(f, bad.page().uri());
      byte[] garbage = good.clone();
      garbage[new Random(seed).nextInt(garbage.length)] ^= 0x5a;
      put(f, bad.page().uri(), garbage);
      f.clock.advance(Duration.ofSeconds(31));
      CheckpointSummary first = db.admin().checkpointAll(); // must not stop at the corrupt leaf
      f.clock.advance(Duration.ofSeconds(31));
      db.admin().checkpointAll();
      assertThat(first.failures()).as("the corrupt leaf's queue gave up").isPositive();
      assertThat(db.stats().corruptPages()).as("one corrupt page, reported once").isEqualTo(1);

      Database fresh = reader(f, kind, "reader");
      for (Leaf l : leaves) {
        if (l != bad) {
          assertThat(read(fresh, l.insideKey()))
              .as("insert into healthy leaf %s", l.page().uri())
              .isEqualTo("new-" + l.insideKey());
          assertThat(read(fresh, l.firstKey()))
              .as("update on healthy leaf %s", l.page().uri())
              .isEqualTo("upd-" + l.firstKey());
        }
      }
      assertThatThrownBy(() -> read(fresh, bad.insideKey()))
          .isInstanceOf(CorruptPageException.class);

      put(f, bad.page().uri(), good); // the repair: what waited is applied now
      f.clock.advance(Duration.ofSeconds(31));
      db.admin().checkpointAll();
      f.clock.advance(Fixture.TTL.plusSeconds(1));
      Database after = reader(f, kind, "after");
      assertThat(read(after, bad.insideKey())).isEqualTo("new-" + bad.insideKey());
      assertThat(read(after, bad.firstKey())).isEqualTo("upd-" + bad.firstKey());
      assertThat(BasicProtocolTest.readAll(after)).hasSize(LOADED + leaves.size());
    }
  }

  /**
   * A backlog for a corrupt leaf longer than a checkpoint receives ahead (many shares of a small
   * checkpoint) does not hide what lies behind it in the tree's queue: the records for healthy
   * leaves, sent after it by another writer, are applied while the leaf stays damaged. The records
   * a run receives ahead are located too, so one for the damaged leaf among them does not make
   * the whole run give up; and under the basic protocol the backlog stays hidden for a while
   * rather than coming back first in every receive.
   */
  @ParameterizedTest
  @EnumSource(
      value = ProtocolKind.class,
      names = {"BASIC", "MONOTONIC"})
  void aLongBacklogForACorruptLeafDoesNotHoldBackTheRecordsBehindIt(
      ProtocolKind kind, @Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      DatabaseConfig.Builder small =
          f.config().protocol(kind).maxRecordsPerCheckpoint(2).checkpointExecutor(task -> {});
      Database db = f.open(small.clientId("writer"));
      loadEven(db);
      List<Leaf> leaves = leaves(f);
      Leaf bad = leaves.get(1);
      Database victim = f.open(small.clientId("victim"));
      int backlog = bad.page().entryCount();
      for (int i = 0; i < backlog; i++) {
        create(victim, 2L * (bad.firstIndex() + i) + 1, "bad-" + i);
      }
      List<Long> healthy = new ArrayList<>();
      for (Leaf l : leaves) {
        if (l != bad) {
          create(db, l.insideKey(), "new-" + l.insideKey());
          healthy.add(l.insideKey());
        }
      }
      byte[] good = raw(f, bad.page().uri());
      byte[] garbage = good.clone();
      garbage[new Random(seed).nextInt(garbage.length)] ^= 0x5a;
      put(f, bad.page().uri(), garbage);
      for (int pass = 0; pass < 6; pass++) {
        f.clock.advance(Duration.ofSeconds(31));
        db.admin().checkpointAll();
      }
      Database fresh = reader(f, kind, "reader");
      for (long key : healthy) {
        assertThat(read(fresh, key))
            .as("insert %d into a healthy leaf, behind %d for the corrupt one", key, backlog)
            .isEqualTo("new-" + key);
      }
      // Closing the handle that owes the damaged leaf's records gives up on them once its rounds
      // make no progress, instead of retrying until its deadline (which the manual clock never
      // reaches); they stay queued for any client's checkpoint after the repair.
      assertTimeoutPreemptively(Duration.ofMinutes(2), victim::close);

      put(f, bad.page().uri(), good);
      for (int pass = 0; pass < 12; pass++) {
        f.clock.advance(Duration.ofSeconds(31));
        db.admin().checkpointAll();
      }
      f.clock.advance(Fixture.TTL.plusSeconds(1));
      assertThat(BasicProtocolTest.readAll(reader(f, kind, "after")))
          .hasSize(LOADED + backlog + healthy.size());
    }
  }

  /**
   * One writer's records of one tree: those for a corrupt leaf wait for its repair, the writer's
   * later records for healthy leaves are applied meanwhile, and once the leaf is repaired what
   * waited is applied in the writer's order, once (a create then a delete of one key leaves it
   * deleted).
   */
  @ParameterizedTest
  @EnumSource(
      value = ProtocolKind.class,
      names = {"MONOTONIC", "ATOMIC", "ADVANCED_ATOMIC"})
  void aCorruptLeafHoldsBackOnlyItsOwnRecordsOfTheSameWriter(ProtocolKind kind, @Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database db = reader(f, kind, "writer");
      loadEven(db);
      List<Leaf> leaves = leaves(f);
      assertThat(leaves).as("leaves of the loaded tree").hasSizeGreaterThanOrEqualTo(3);
      Leaf bad = leaves.get(1);
      long gone = bad.insideKey() + 2; // created, then deleted, both while the leaf is corrupt
      create(db, bad.insideKey(), "new-" + bad.insideKey()); // first in the writer's chain
      create(db, gone, "doomed");
      for (Leaf l : leaves) {
        if (l != bad) {
          create(db, l.insideKey(), "new-" + l.insideKey());
        }
      }
      try (Transaction tx = db.begin()) {
        tx.delete("items", Key.of(gone));
        tx.commit();
      }
      create(db, leaves.get(0).insideKey() + 2, "last"); // after the delete, on a healthy leaf
      byte[] good = raw(f, bad.page().uri());
      byte[] garbage = good.clone();
      garbage[new Random(seed).nextInt(garbage.length)] ^= 0x5a;
      put(f, bad.page().uri(), garbage);
      f.clock.advance(Duration.ofSeconds(31));
      db.admin().checkpointAll();
      f.clock.advance(Duration.ofSeconds(31));
      db.admin().checkpointAll();
      assertThat(db.stats().corruptPages()).as("one corrupt page, reported once").isEqualTo(1);

      Database fresh = reader(f, kind, "reader");
      for (Leaf l : leaves) {
        if (l != bad) {
          assertThat(read(fresh, l.insideKey()))
              .as("the writer's later insert into healthy leaf %s", l.page().uri())
              .isEqualTo("new-" + l.insideKey());
        }
      }
      assertThat(read(fresh, leaves.get(0).insideKey() + 2)).isEqualTo("last");

      put(f, bad.page().uri(), good); // the repair: what waited is applied now
      f.clock.advance(Duration.ofSeconds(31));
      db.admin().checkpointAll();
      f.clock.advance(Duration.ofSeconds(31));
      db.admin().checkpointAll();
      f.clock.advance(Fixture.TTL.plusSeconds(1));
      Database after = reader(f, kind, "after");
      assertThat(read(after, bad.insideKey())).isEqualTo("new-" + bad.insideKey());
      assertThat(read(after, gone)).as("created, then deleted").isNull();
      assertThat(BasicProtocolTest.readAll(after)).hasSize(LOADED + leaves.size() + 1);
    }
  }

  @Test
  void aValidPageCopiedToAnotherAddressIsRefused(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database db = reader(f, ProtocolKind.MONOTONIC, "writer");
      loadEven(db);
      List<Leaf> leaves = leaves(f);
      Leaf victim = leaves.get(1);
      put(f, victim.page().uri(), raw(f, leaves.get(0).page().uri()));

      Database fresh = reader(f, ProtocolKind.MONOTONIC, "reader");
      assertThatThrownBy(() -> read(fresh, victim.firstKey()))
          .isInstanceOfSatisfying(
              CorruptPageException.class, e -> assertThat(e.uri()).isEqualTo(victim.page().uri()))
          .hasMessageContaining("holds page " + leaves.get(0).page().uri());
      assertThatThrownBy(
              () -> {
                try (Transaction tx = fresh.begin()) {
                  tx.create("items", Key.of(victim.insideKey()), bytes("x"));
                  tx.commit();
                }
              })
          .isInstanceOf(CorruptPageException.class);
    }
  }

  /** Takes the one message of {@code queue} out and puts a damaged copy back; the good bytes. */
  private static byte[] damageTheMessageOf(Fixture f, String queue) {
    SimpleQueueService queues = f.services().simpleQueues();
    List<QueueMessage> got = CloudFutures.await(queues.receive(queue, 10, Duration.ofSeconds(1)));
    assertThat(got).as("messages in %s", queue).hasSize(1);
    byte[] good = got.get(0).payload();
    CloudFutures.await(queues.delete(queue, got.get(0).receiptHandle()));
    byte[] bad = good.clone();
    bad[bad.length - 1] ^= 0x01; // inside the records: the checksum no longer matches
    CloudFutures.await(queues.send(queue, bad));
    f.clock.advance(Duration.ofSeconds(2)); // past the receive's visibility timeout
    return good;
  }

  private static String onlyPageQueue(Fixture f) {
    List<String> queues =
        CloudFutures.await(f.services().simpleQueues().listQueues(Fixture.DB + "/pu/p/"));
    assertThat(queues).hasSize(1);
    return queues.get(0);
  }

  @Test
  void aDamagedMessageIsSetAsideOnceAndARepairedOneIsReplayed(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database db = reader(f, ProtocolKind.BASIC, "writer");
      loadEven(db);
      BasicProtocolTest.update(db, 0, "lost-until-replayed");
      String queue = onlyPageQueue(f);
      byte[] good = damageTheMessageOf(f, queue);

      db.admin().checkpointAll();
      db.admin().checkpointAll(); // it left the queue: not met, not counted again
      assertThat(db.stats().deadLettered()).isEqualTo(1);
      assertThat(db.stats().corruptMessages()).isEqualTo(1);
      List<DeadLetter> dead = db.admin().deadLetters();
      assertThat(dead)
          .singleElement()
          .satisfies(
              e -> {
                assertThat(e.queue()).isEqualTo(queue);
                assertThat(e.reason()).containsIgnoringCase("checksum");
                assertThat(e.payload()).hasSize(good.length);
              });
      f.clock.advance(Fixture.TTL.plusSeconds(1));
      assertThat(read(reader(f, ProtocolKind.BASIC, "r1"), 0)).isEqualTo("v0-0");

      DeadLetter repaired =
          new DeadLetter(
              dead.get(0).item(),
              queue,
              dead.get(0).messageId(),
              dead.get(0).reason(),
              dead.get(0).setAsideAt(),
              good);
      db.admin().replayDeadLetter(repaired);
      assertThat(db.admin().deadLetters()).isEmpty();
      db.admin().checkpointAll();
      f.clock.advance(Fixture.TTL.plusSeconds(1));
      assertThat(read(reader(f, ProtocolKind.BASIC, "r2"), 0)).isEqualTo("lost-until-replayed");
    }
  }

  @Test
  void aSkippedDeadLetterReleasesItsWritersLaterRecords(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database writer = reader(f, ProtocolKind.MONOTONIC, "writer");
      loadEven(writer);
      BasicProtocolTest.update(writer, 0, "damaged");
      String queue = onlyPageQueue(f);
      damageTheMessageOf(f, queue);
      BasicProtocolTest.update(writer, 2, "after-1");
      BasicProtocolTest.update(writer, 0, "after-2");

      writer.admin().checkpointAll();
      f.clock.advance(Duration.ofSeconds(31));
      writer.admin().checkpointAll();
      f.clock.advance(Fixture.TTL.plusSeconds(1));
      // Monotonic writes: what the writer committed after the damaged message waits for it.
      Database r1 = reader(f, ProtocolKind.MONOTONIC, "r1");
      assertThat(read(r1, 2)).isEqualTo("v0-2");
      assertThat(read(writer, 2)).as("the writer's own view").isEqualTo("after-1");
      assertThat(writer.stats().deadLettered()).isEqualTo(1);

      DeadLetter dead = writer.admin().deadLetters().get(0);
      f.clock.advance(Duration.ofSeconds(31)); // the waiting records, hidden by the last receive
      assertThat(writer.admin().skipDeadLetter(dead)).isTrue();
      assertThat(writer.admin().deadLetters()).isEmpty();
      f.clock.advance(Fixture.TTL.plusSeconds(1));
      Database r2 = reader(f, ProtocolKind.MONOTONIC, "r2");
      assertThat(read(r2, 2)).isEqualTo("after-1");
      assertThat(read(r2, 0)).isEqualTo("after-2");
      assertThat(read(writer, 0)).as("the writer reads what everyone reads").isEqualTo("after-2");
      BasicProtocolTest.update(writer, 4, "later");
      writer.admin().checkpointAll();
      f.clock.advance(Fixture.TTL.plusSeconds(1));
      assertThat(read(reader(f, ProtocolKind.MONOTONIC, "r3"), 4)).isEqualTo("later");
    }
  }
}
