package io.stratus.core;

import static io.stratus.core.BasicProtocolTest.load;
import static io.stratus.core.BasicProtocolTest.read;
import static io.stratus.core.BasicProtocolTest.readAll;
import static io.stratus.core.BasicProtocolTest.update;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.QueueMessage;
import io.stratus.cloudapi.SimpleQueueService;
import io.stratus.cloudapi.inprocess.QueueBehavior;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.protocols.ProtocolKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Monotonic writes (paper 001, section 5.2): one client's successive updates of a key end with
 * the later value whatever order or how often the queue delivers them; the basic protocol shows
 * the indeterminism of paper 000, section 4.3 in the same scenarios.
 */
@ExtendWith(SeedExtension.class)
class MonotonicWritesTest {

  static DatabaseConfig.Builder config(Fixture f, ProtocolKind kind, String client,
      ManualExecutor ex) {
    return f.config().protocol(kind).clientId(client).checkpointExecutor(ex);
  }

  /** The single PU queue of data pages there is (the tests load one page). */
  static String pageQueue(Fixture f) {
    List<String> qs = CloudFutures.await(
        f.services().simpleQueues().listQueues(Fixture.DB + "/pu/p/"));
    assertThat(qs).hasSize(1);
    return qs.get(0);
  }

  /** An old update delivered again after a newer one was applied (SQS at-least-once). */
  @Test
  void aRedeliveredOlderUpdateIsNotAppliedAgain(@Seed long seed) {
    for (ProtocolKind kind : List.of(ProtocolKind.MONOTONIC, ProtocolKind.BASIC)) {
      try (Fixture f = new Fixture(seed)) {
        ManualExecutor ex = new ManualExecutor();
        Database db = f.open(config(f, kind, "a", ex));
        load(db, 10);
        update(db, 3, "x1");
        SimpleQueueService queues = f.services().simpleQueues();
        String q = pageQueue(f);
        List<QueueMessage> first = CloudFutures.await(queues.receive(q, 10, Duration.ofSeconds(1)));
        assertThat(first).hasSize(1);
        f.clock.advance(Duration.ofSeconds(2));
        update(db, 3, "x2");
        db.checkpointAll();
        CloudFutures.await(queues.send(q, first.get(0).payload())); // the duplicate
        f.clock.advance(Duration.ofSeconds(31));
        db.checkpointAll();
        f.clock.advance(Fixture.TTL.plusSeconds(1));
        Database other = f.open(config(f, kind, "b", ex)); // sees storage, not a's own writes
        assertThat(read(other, 3)).as("%s", kind)
            .isEqualTo(kind == ProtocolKind.MONOTONIC ? "x2" : "x1");
      }
    }
  }

  /**
   * The older update is hidden (a short receive) while the newer one is checkpointed: the
   * monotonic checkpoint defers the newer one until its predecessor is there.
   */
  @Test
  void aNewerUpdateWaitsForItsMissingPredecessor(@Seed long seed) {
    for (ProtocolKind kind : List.of(ProtocolKind.MONOTONIC, ProtocolKind.BASIC)) {
      try (Fixture f = new Fixture(seed)) {
        ManualExecutor ex = new ManualExecutor();
        Database db = f.open(config(f, kind, "a", ex));
        Database other = f.open(config(f, kind, "b", ex)); // sees storage, not a's own writes
        load(db, 10);
        update(db, 3, "x1");
        String q = pageQueue(f);
        assertThat(CloudFutures.await(f.services().simpleQueues()
            .receive(q, 10, Duration.ofSeconds(40)))).hasSize(1); // x1 hidden for 40 s
        update(db, 3, "x2");
        db.checkpointAll();
        f.clock.advance(Fixture.TTL.plusSeconds(1));
        assertThat(read(other, 3)).as("%s while x1 is hidden", kind)
            .isEqualTo(kind == ProtocolKind.MONOTONIC ? "v0-3" : "x2");
        f.clock.advance(Duration.ofSeconds(31)); // x1 visible again
        db.checkpointAll();
        f.clock.advance(Fixture.TTL.plusSeconds(1));
        assertThat(read(other, 3)).as("%s at the end", kind)
            .isEqualTo(kind == ProtocolKind.MONOTONIC ? "x2" : "x1");
      }
    }
  }

  /** Weak queues (reordering, short receives, duplicates): the last update wins, every time. */
  @Test
  void successiveUpdatesEndWithTheLastUnderWeakQueues(@Seed long seed) {
    QueueBehavior weak = new QueueBehavior(true, 0.5, 0.3);
    for (int trial = 0; trial < 5; trial++) {
      try (Fixture f = new Fixture(seed + trial, true, weak)) {
        ManualExecutor ex = new ManualExecutor();
        Database db = f.open(config(f, ProtocolKind.MONOTONIC, "a", ex)
            .maxRecordsPerCheckpoint(1));
        load(db, 10);
        for (int i = 1; i <= 6; i++) {
          update(db, 3, "x" + i);
          update(db, 4, "y" + i);
          f.clock.advance(Duration.ofSeconds(1));
          if (i % 2 == 0) {
            db.checkpointAll(); // partial checkpoints in between
          }
        }
        BasicProtocolTest.quiesce(f, db);
        BasicProtocolTest.quiesce(f, db);
        Database other = f.open(config(f, ProtocolKind.MONOTONIC, "b", ex));
        assertThat(read(other, 3)).as("trial %d", trial).isEqualTo("x6");
        assertThat(read(other, 4)).as("trial %d", trial).isEqualTo("y6");
      }
    }
  }

  /** Concurrent writers sharing pages lose nothing under monotonic writes either. */
  @Test
  void concurrentClientsLoseNothing(@Seed long seed) {
    try (Fixture f = new Fixture(seed, true, QueueBehavior.weak())) {
      ManualExecutor ex = new ManualExecutor();
      List<Database> dbs = new ArrayList<>();
      for (int c = 0; c < BasicProtocolTest.CLIENTS; c++) {
        dbs.add(f.open(config(f, ProtocolKind.MONOTONIC, "c" + c, ex)));
      }
      load(dbs.get(0), BasicProtocolTest.RECORDS);
      Map<Long, String> expected = BasicProtocolTest.concurrentRounds(f, dbs);
      ex.runAll();
      BasicProtocolTest.quiesce(f, dbs.get(0));
      BasicProtocolTest.quiesce(f, dbs.get(0));
      assertThat(readAll(dbs.get(1))).isEqualTo(expected);
    }
  }

  /**
   * A commit whose sends all end "outcome unknown" (replies lost, resends too) is settled in the
   * background: its records are sent until known to have arrived, so the writer's chains have no
   * gap, and its next commit of the same key is applied after it, not before.
   */
  @Test
  void anUnknownCommitLeavesNoGapAndIsNotOvertaken(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      ManualExecutor ex = new ManualExecutor();
      LoseReplies lose = new LoseReplies(Fixture.DB + "/pu/");
      Database db = f.open(f.config(lose).protocol(ProtocolKind.MONOTONIC).clientId("a")
          .checkpointExecutor(ex));
      load(db, 10);
      update(db, 4, "w"); // creates the page's queue
      lose.remaining = 4; // the send and its three resends
      assertThatThrownBy(() -> update(db, 3, "x1"))
          .isInstanceOf(io.stratus.CommitStateUnknownException.class);
      f.clock.advance(Duration.ofMillis(1));
      update(db, 3, "x2");
      ex.runAll(); // the background resend
      BasicProtocolTest.quiesce(f, db);
      BasicProtocolTest.quiesce(f, db);
      Database other = f.open(config(f, ProtocolKind.MONOTONIC, "b", ex));
      assertThat(read(other, 3)).isEqualTo("x2");
    }
  }
}
