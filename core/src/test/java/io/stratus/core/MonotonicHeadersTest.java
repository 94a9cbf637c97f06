package io.stratus.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.CheckpointSummary;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.QueueMessage;
import io.stratus.cloudapi.SimpleQueueService;
import io.stratus.cloudapi.StoredItem;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageCodec;
import io.stratus.pagemanager.PageKind;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.checkpoint.ChainState;
import io.stratus.protocols.checkpoint.CheckpointTimes;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Chain entries in page headers stay bounded: split pages do not inherit them, chains of closed
 * or dead incarnations retire, and new chains wait for room rather than break tree checkpoints
 * (1 KB pages, so a handful of entries fill a root's budget).
 */
@ExtendWith(SeedExtension.class)
class MonotonicHeadersTest {
  /** Past the retirement horizon at the default lock timeout (and past every writer lease). */
  private static final Duration PAST_HORIZON = Duration.ofMinutes(16);

  private static Database open(Fixture f, String client) {
    return f.open(
        f.config()
            .protocol(ProtocolKind.MONOTONIC)
            .clientId(client)
            .checkpointExecutor(new ManualExecutor()));
  }

  private static String treeQueueRoot(Fixture f) {
    List<String> qs =
        CloudFutures.await(f.services().simpleQueues().listQueues(Fixture.DB + "/pu/t/"));
    assertThat(qs).hasSize(1);
    return qs.get(0).substring((Fixture.DB + "/pu/t/").length());
  }

  private static Page page(Fixture f, String uri) {
    StoredItem item = CloudFutures.await(f.services().storage().get(uri)).orElseThrow();
    return PageCodec.decode(uri, item.payload());
  }

  /** Bytes the chain entries and retired hashes take in {@code p}'s bound. */
  private static int headerBytes(Page p) {
    return p.encodedSizeBound()
        - p.toBuilder().protocolState(new byte[0]).build().encodedSizeBound();
  }

  private static void insert(Database db, long key, String value) {
    try (Transaction tx = db.begin()) {
      tx.create("items", Key.of(key), Fixture.bytes(value));
      tx.commit();
    }
  }

  private static void delete(Database db, long key) {
    try (Transaction tx = db.begin()) {
      assertThat(tx.delete("items", Key.of(key))).as("key %d is there to delete", key).isTrue();
      tx.commit();
    }
  }

  /** What a fresh handle of another client sees once every cached page has expired. */
  private static Map<String, String> storedView(Fixture f, String client) {
    f.clock.advance(Fixture.TTL.plusSeconds(1));
    Database reader = open(f, client);
    Map<String, String> view = Fixture.itemsByKey(reader);
    reader.close();
    return view;
  }

  @Test
  void treeCheckpointsKeepApplyingAcrossManyRestarts(@Seed long seed) {
    Random random = new Random(seed);
    try (Fixture f = new Fixture(seed)) {
      Database admin = open(f, "admin");
      admin.createCollection("items");
      Map<String, String> expected = new HashMap<>();
      int restarts = 34;
      for (int i = 0; i < restarts; i++) {
        Database db = open(f, "app"); // a new incarnation of the same client
        insert(db, i, "v" + i);
        expected.put(Long.toString(i), "v" + i);
        if (i > 0 && random.nextInt(3) == 0) {
          long gone = random.nextInt(i);
          // Only a key this handle sees: the insert of an incarnation that stopped without
          // closing may still wait for room in the root's header (it is applied once chains of
          // stopped writers retire, which the final view checks).
          if (expected.containsKey(Long.toString(gone))
              && BasicProtocolTest.read(db, gone) != null) {
            expected.remove(Long.toString(gone));
            delete(db, gone);
          }
        }
        db.admin().checkpointAll();
        if (random.nextInt(4) != 0) {
          db.close(); // graceful: its writer lease is free at once
        } // else it simply stops (a crash): its lease lapses
        f.clock.advance(Duration.ofMinutes(1 + random.nextInt(20)));
      }
      String root = treeQueueRoot(f);
      for (int round = 0; round < 10; round++) {
        f.clock.advance(PAST_HORIZON);
        insert(admin, 1000 + round, "a"); // retirement runs in checkpoints that apply something
        expected.put(Long.toString(1000 + round), "a");
        admin.admin().checkpointAll();
      }
      assertThat(storedView(f, "reader")).isEqualTo(expected);
      Page r = page(f, root);
      assertThat(headerBytes(r)).isLessThanOrEqualTo(Fixture.PAGE_SIZE / 2);
      assertThat(ChainState.of(r).counters().size()).isLessThan(restarts);
    }
  }

  /**
   * A burst of short-lived handles (one insert each, 1 KB pages) starts more writer chains than a
   * root header has room for: the records of the chains that do not fit wait, and the stats of
   * the handle whose checkpoints meet them say how many records and writers wait for room; once
   * the closed writers' chains retire, every record is applied and the stats fall back to 0.
   */
  @Test
  void recordsWaitingForRoomInAHeaderAreVisibleInStats(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database admin = open(f, "admin");
      admin.createCollection("items");
      Map<String, String> expected = new HashMap<>();
      int handles = 60;
      for (int i = 0; i < handles; i++) {
        // A close settles within its timeout; these records cannot be applied before chains
        // retire, so each close would spend its pauses for nothing: the burst closes at once.
        Database db =
            f.open(
                f.config()
                    .protocol(ProtocolKind.MONOTONIC)
                    .clientId("burst-" + i)
                    .checkpointExecutor(new ManualExecutor())
                    .closeTimeout(Duration.ZERO));
        insert(db, i, "v" + i);
        expected.put(Long.toString(i), "v" + i);
        db.close();
      }
      CheckpointSummary s = admin.admin().checkpointAll();
      Map<String, String> seen = storedView(f, "reader-1");
      int missing = handles - seen.size();
      assertThat(missing).as("records of chains that found no room (%s)", s).isPositive();
      assertThat(admin.stats().recordsWaitingForRoom()).isEqualTo(missing);
      assertThat(admin.stats().writersWaitingForRoom()).isEqualTo(missing);
      assertThat(admin.stats().toString()).contains("recordsWaitingForRoom=" + missing);

      for (int round = 0; round < 60 && admin.stats().recordsWaitingForRoom() > 0; round++) {
        f.clock.advance(PAST_HORIZON);
        insert(admin, 1000 + round, "a"); // retirement runs in checkpoints that apply something
        expected.put(Long.toString(1000 + round), "a");
        admin.admin().checkpointAll();
      }
      assertThat(admin.stats().recordsWaitingForRoom()).isZero();
      assertThat(admin.stats().writersWaitingForRoom()).isZero();
      assertThat(storedView(f, "reader-2")).isEqualTo(expected);
    }
  }

  @Test
  void aRootSplitUnderManyPendingWritersLeavesTheHeaderOnTheRoot(@Seed long seed) {
    Random random = new Random(seed);
    try (Fixture f = new Fixture(seed)) {
      Database admin = open(f, "admin");
      admin.createCollection("items");
      List<Database> writers = new ArrayList<>();
      for (int w = 0; w < 4; w++) {
        writers.add(open(f, "w" + w));
      }
      Map<String, String> expected = new HashMap<>();
      for (int w = 0; w < writers.size(); w++) { // the root leaf gets every writer's chain first
        insert(writers.get(w), 1000 + w, "first");
        expected.put(Long.toString(1000 + w), "first");
      }
      admin.admin().checkpointAll();
      for (int k = 0; k < 160; k++) {
        Database db = writers.get(random.nextInt(writers.size()));
        String value = "value-" + k + "-" + "x".repeat(random.nextInt(40));
        insert(db, k, value);
        expected.put(Long.toString(k), value);
      }
      admin.admin().checkpointAll();
      assertThat(storedView(f, "reader")).isEqualTo(expected);
      String rootUri = treeQueueRoot(f);
      Page root = page(f, rootUri);
      assertThat(root.kind()).isEqualTo(PageKind.INNER);
      assertThat(ChainState.of(root).counters().keySet()).allMatch(k -> k.startsWith("t:"));
      assertThat(ChainState.of(root).counters()).hasSize(4);
      List<Page> level = List.of(root);
      while (level.get(0).kind() == PageKind.INNER) {
        List<Page> below = new ArrayList<>();
        for (Page p : level) {
          for (int i = 0; i < p.entryCount(); i++) {
            below.add(page(f, new String(p.value(i), StandardCharsets.UTF_8)));
          }
        }
        for (Page child : below) {
          assertThat(ChainState.of(child).counters()).as(child.uri()).isEmpty();
          assertThat(CheckpointTimes.of(child).treeMillis()).as(child.uri()).isZero();
        }
        level = below;
      }
    }
  }

  @Test
  void aDeadWritersDuplicateAfterItsChainRetiredIsNotApplied(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database admin = open(f, "admin");
      admin.createCollection("items");
      Database dead = open(f, "dead");
      insert(dead, 7, "old");
      SimpleQueueService queues = f.services().simpleQueues();
      String queue = Fixture.DB + "/pu/t/" + treeQueueRoot(f);
      List<QueueMessage> copy =
          CloudFutures.await(queues.receive(queue, 10, Duration.ofSeconds(1)));
      assertThat(copy).hasSize(1);
      f.clock.advance(Duration.ofSeconds(2));
      dead.admin().checkpointAll();
      dead.close();
      f.clock.advance(Fixture.TTL.plusSeconds(1));
      delete(admin, 7); // someone else deletes the key afterwards
      admin.admin().checkpointAll();
      f.clock.advance(Duration.ofMinutes(5)); // the dead chain is the oldest: retired first
      // Fill half the root's budget with chains of other closed writers, so retirement runs (not
      // more than the page remembers retired chains of).
      for (int i = 0; i < 4; i++) {
        Database db = open(f, "filler-" + i);
        insert(db, 100 + i, "f");
        db.admin().checkpointAll();
        db.close();
      }
      for (int round = 0; round < 4; round++) {
        f.clock.advance(PAST_HORIZON);
        insert(admin, 200 + round, "a"); // retirement runs in checkpoints that apply something
        admin.admin().checkpointAll();
      }
      Page root = page(f, treeQueueRoot(f));
      assertThat(ChainState.of(root).counters().keySet()).noneMatch(k -> k.contains("dead#"));
      CloudFutures.await(queues.send(queue, copy.get(0).payload())); // the stray copy
      admin.admin().checkpointAll();
      Map<String, String> view = storedView(f, "reader");
      assertThat(view).doesNotContainKey("7");
      assertThat(view).hasSize(8);
      assertThat(CloudFutures.await(queues.receive(queue, 10, Duration.ofSeconds(1)))).isEmpty();
    }
  }

  @Test
  void aLiveWritersChainIsNeverRetired(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database admin = open(f, "admin");
      admin.createCollection("items");
      Database live = open(f, "live");
      insert(live, 1, "a");
      live.admin().checkpointAll();
      for (int i = 0; i < 8; i++) {
        Database db = open(f, "filler-" + i);
        insert(db, 100 + i, "f");
        db.admin().checkpointAll();
        db.close();
      }
      // Hours pass; the live handle runs its checkpoints (and so renews its lease) meanwhile.
      for (int step = 0; step < 24; step++) {
        f.clock.advance(Duration.ofMinutes(2));
        live.admin().checkpointAll();
        insert(admin, 200 + step, "a");
        admin.admin().checkpointAll();
      }
      Page root = page(f, treeQueueRoot(f));
      assertThat(ChainState.of(root).counters().keySet())
          .anyMatch(k -> k.startsWith("t:live#"))
          .noneMatch(k -> k.startsWith("t:filler-"));
      delete(live, 1);
      insert(live, 2, "b");
      live.admin().checkpointAll();
      Map<String, String> view = storedView(f, "reader");
      assertThat(view).doesNotContainKey("1").containsEntry("2", "b");
    }
  }

  /**
   * A lock-service restart drops every writer lease and refuses every acquire for the longest
   * configured timeout; when it grants again, a live writer's lease is free until the writer
   * renews. A checkpoint that probes in that moment must not retire the live writer's idle chain:
   * its later records would then be held back for good (the writer answers alive) and its
   * committed write never applied.
   */
  @Test
  void aLiveIdleWritersChainSurvivesALockServiceRestart(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database admin = open(f, "admin");
      admin.createCollection("items");
      Database live = open(f, "live");
      insert(live, 1, "a");
      live.admin().checkpointAll();
      // Closed writers' chains fill half the root's budget, so checkpoints probe for retirement.
      for (int i = 0; i < 4; i++) {
        Database db = open(f, "filler-" + i);
        insert(db, 100 + i, "f");
        db.admin().checkpointAll();
        db.close();
      }
      // The live handle writes nothing past the horizon, but its checkpoints renew its lease.
      for (Duration idle = Duration.ZERO;
          idle.compareTo(PAST_HORIZON) < 0;
          idle = idle.plusMinutes(2)) {
        f.clock.advance(Duration.ofMinutes(2));
        live.admin().checkpointAll();
      }
      f.cloud.restartLockService();
      // Past the restart window however long the leases made it (ten lock timeouts before).
      f.clock.advance(Duration.ofMinutes(5).plusSeconds(1));
      insert(admin, 200, "a");
      admin.admin().checkpointAll(); // probes the oldest chains, the live writer's first
      Page root = page(f, treeQueueRoot(f));
      assertThat(ChainState.of(root).counters().keySet()).anyMatch(k -> k.startsWith("t:live#"));

      insert(live, 2, "b");
      live.admin().checkpointAll();
      // A death time later the closed writers' chains retire in the next checkpoint of the root
      // (one that applies something); the live writer's stays.
      f.clock.advance(Duration.ofMinutes(6));
      live.admin().checkpointAll();
      insert(admin, 201, "a");
      admin.admin().checkpointAll();
      root = page(f, treeQueueRoot(f));
      assertThat(ChainState.of(root).counters().keySet())
          .anyMatch(k -> k.startsWith("t:live#"))
          .noneMatch(k -> k.startsWith("t:filler-"));
      Map<String, String> view = storedView(f, "reader");
      assertThat(view)
          .as("the live writer's insert after the restart")
          .containsEntry("1", "a")
          .containsEntry("2", "b")
          .containsEntry("200", "a")
          .containsEntry("201", "a");
    }
  }
}
