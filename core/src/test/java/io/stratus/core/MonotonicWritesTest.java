package io.stratus.core;

import static io.stratus.core.BasicProtocolTest.load;
import static io.stratus.core.BasicProtocolTest.read;
import static io.stratus.core.BasicProtocolTest.readAll;
import static io.stratus.core.BasicProtocolTest.update;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.CheckpointSummary;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.OutcomeUnknownException;
import io.stratus.cloudapi.QueueMessage;
import io.stratus.cloudapi.SimpleQueueService;
import io.stratus.cloudapi.decorate.Call;
import io.stratus.cloudapi.decorate.CallInterceptor;
import io.stratus.cloudapi.inprocess.QueueBehavior;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageCodec;
import io.stratus.pagemanager.PageKind;
import io.stratus.protocols.ProtocolKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Monotonic writes (paper 001, section 5.2): one client's successive updates of a key end with
 * the later value whatever order or how often the queue delivers them; the basic protocol shows
 * the indeterminism of paper 000, section 4.3 in the same scenarios.
 */
@ExtendWith(SeedExtension.class)
class MonotonicWritesTest {

  static DatabaseConfig.Builder config(
      Fixture f, ProtocolKind kind, String client, ManualExecutor ex) {
    return f.config().protocol(kind).clientId(client).checkpointExecutor(ex);
  }

  /** The single PU queue of data pages there is (the tests load one page). */
  static String pageQueue(Fixture f) {
    List<String> qs =
        CloudFutures.await(f.services().simpleQueues().listQueues(Fixture.DB + "/pu/p/"));
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
        db.admin().checkpointAll();
        CloudFutures.await(queues.send(q, first.get(0).payload())); // the duplicate
        f.clock.advance(Duration.ofSeconds(31));
        db.admin().checkpointAll();
        f.clock.advance(Fixture.TTL.plusSeconds(1));
        Database other = f.open(config(f, kind, "b", ex)); // sees storage, not a's own writes
        // Monotonic: the counter chain skips the duplicate. Basic: no counters, but the
        // duplicate's write stamp is older than the entry's, so the page keeps x2 as well.
        assertThat(read(other, 3)).as("%s", kind).isEqualTo("x2");
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
        assertThat(
                CloudFutures.await(
                    f.services().simpleQueues().receive(q, 10, Duration.ofSeconds(40))))
            .hasSize(1); // x1 hidden for 40 s
        update(db, 3, "x2");
        db.admin().checkpointAll();
        f.clock.advance(Fixture.TTL.plusSeconds(1));
        assertThat(read(other, 3))
            .as("%s while x1 is hidden", kind)
            .isEqualTo(kind == ProtocolKind.MONOTONIC ? "v0-3" : "x2");
        f.clock.advance(Duration.ofSeconds(31)); // x1 visible again
        db.admin().checkpointAll();
        f.clock.advance(Fixture.TTL.plusSeconds(1));
        // Basic applied x2 first; x1 arrives late with an older write stamp and is dropped.
        assertThat(read(other, 3)).as("%s at the end", kind).isEqualTo("x2");
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
        Database db = f.open(config(f, ProtocolKind.MONOTONIC, "a", ex).maxRecordsPerCheckpoint(1));
        load(db, 10);
        for (int i = 1; i <= 6; i++) {
          update(db, 3, "x" + i);
          update(db, 4, "y" + i);
          f.clock.advance(Duration.ofSeconds(1));
          if (i % 2 == 0) {
            db.admin().checkpointAll(); // partial checkpoints in between
          }
        }
        // One record per checkpoint, and short receives hide some: quiescence takes as many
        // rounds as the summaries report work done or deferred (bounded).
        int rounds = 0;
        CheckpointSummary s;
        do {
          s = BasicProtocolTest.quiesce(f, db);
          rounds++;
        } while ((s.recordsApplied() > 0 || s.recordsDeferred() > 0) && rounds < 12);
        assertThat(s.recordsDeferred())
            .as("trial %d: deferred after %d rounds", trial, rounds)
            .isZero();
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
      Database db =
          f.open(
              f.config(lose).protocol(ProtocolKind.MONOTONIC).clientId("a").checkpointExecutor(ex));
      load(db, 10);
      update(db, 4, "w"); // creates the page's queue
      lose.remaining = 4; // the send and its three resends
      assertThatThrownBy(() -> update(db, 3, "x1"))
          .isInstanceOf(io.stratus.CommitStateUnknownException.class);
      assertThat(db.stats().unknownCommits()).isEqualTo(1);
      assertThat(db.stats().failedCommits()).isEqualTo(1);
      f.clock.advance(Duration.ofMillis(1));
      update(db, 3, "x2");
      ex.runAll(); // the background resend
      BasicProtocolTest.quiesce(f, db);
      BasicProtocolTest.quiesce(f, db);
      Database other = f.open(config(f, ProtocolKind.MONOTONIC, "b", ex));
      assertThat(read(other, 3)).isEqualTo("x2");
    }
  }

  /**
   * A handle closed while a commit's outcome is still unknown sends its records once more on the
   * way out, so they, and the later records of the same lane held back behind them, are applied.
   */
  @Test
  void aGracefulCloseSettlesAnUnknownCommit(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      ManualExecutor ex = new ManualExecutor();
      int[] dropped = {0};
      CallInterceptor dropSends = new CallInterceptor() { // "unknown", and nothing arrived
            @Override
            public <T> CompletableFuture<T> intercept(
                Call<T> call, Supplier<CompletableFuture<T>> proceed) {
              if (call.operation() == Operation.QUEUE_SEND_BATCH && dropped[0] > 0) {
                dropped[0]--;
                return CompletableFuture.failedFuture(new OutcomeUnknownException("request lost"));
              }
              return proceed.get();
            }
          };
      Database db =
          f.open(
              f.config(dropSends)
                  .protocol(ProtocolKind.MONOTONIC)
                  .clientId("a")
                  .checkpointExecutor(ex));
      load(db, 10);
      update(db, 4, "w"); // creates the page's queue
      dropped[0] = 4; // the send and its three resends
      assertThatThrownBy(() -> update(db, 3, "x1"))
          .isInstanceOf(io.stratus.CommitStateUnknownException.class);
      update(db, 5, "y"); // same lane, after x1 in its chain
      db.close(); // the background resend never ran
      Database other = f.open(config(f, ProtocolKind.MONOTONIC, "b", ex));
      BasicProtocolTest.quiesce(f, other);
      BasicProtocolTest.quiesce(f, other);
      assertThat(read(other, 3)).isEqualTo("x1");
      assertThat(read(other, 5)).isEqualTo("y");
    }
  }

  /**
   * An update routed to a data page that then splits (its key moving to a new right page) and a
   * later update of the same key by the same client: the later one must not be applied first, at
   * either page. The client keeps routing the key to the page its pending update went to, and that
   * page's checkpoint applies both, in counter order, to the page now responsible.
   */
  @Test
  void anUpdateRoutedBeforeASplitIsNotOvertakenByALaterOne(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      ManualExecutor ex = new ManualExecutor();
      Database a = f.open(config(f, ProtocolKind.MONOTONIC, "a", ex));
      Database b = f.open(config(f, ProtocolKind.MONOTONIC, "b", ex));
      a.createCollection("items");
      List<Record> spaced = new ArrayList<>();
      for (long i = 0; i < 60; i++) {
        spaced.add(new Record(Key.of(i * 1000), Fixture.bytes("v0-" + i)));
      }
      a.bulkLoad("items", spaced);
      long k = 30_000;
      String before = leafHolding(f, k);
      update(a, k, "x1");
      String q = Fixture.DB + "/pu/p/";
      List<String> queues = CloudFutures.await(f.services().simpleQueues().listQueues(q));
      assertThat(queues).hasSize(1);
      assertThat(
              CloudFutures.await(
                  f.services().simpleQueues().receive(queues.get(0), 10, Duration.ofSeconds(40))))
          .hasSize(1); // x1 hidden 40 s
      for (int i = 1; i <= 12; i++) { // inserts just below k split its leaf; k moves right
        try (Transaction tx = b.begin()) {
          tx.create("items", Key.of(k - i), Fixture.bytes("n".repeat(60)));
          tx.commit();
        }
      }
      f.clock.advance(Duration.ofSeconds(1));
      b.admin().checkpointAll();
      String after = leafHolding(f, k);
      assertThat(after).as("the split moved the key to another page").isNotEqualTo(before);
      f.clock.advance(Fixture.TTL.plusSeconds(1)); // a's pool now routes by the split tree
      update(a, k, "x2");
      assertThat(read(a, k)).as("read-your-writes").isEqualTo("x2");
      a.admin().checkpointAll();
      f.clock.advance(Duration.ofSeconds(41)); // x1 visible again
      BasicProtocolTest.quiesce(f, a);
      BasicProtocolTest.quiesce(f, a);
      Database c = f.open(config(f, ProtocolKind.MONOTONIC, "c", ex));
      assertThat(read(c, k)).as("the later update wins").isEqualTo("x2");
      assertThat(read(a, k)).isEqualTo("x2");
    }
  }

  /**
   * A collection small enough for one page: its root is its only leaf, and updates go to the
   * root's queue. Inserts then split the root, which keeps its URI and becomes an inner page. The
   * queued update is still applied, to the leaf that now holds its key (by every queue protocol).
   */
  @Test
  void anUpdateQueuedOnARootLeafThatSplitIsApplied(@Seed long seed) {
    for (ProtocolKind kind :
        List.of(ProtocolKind.BASIC, ProtocolKind.MONOTONIC, ProtocolKind.ATOMIC)) {
      try (Fixture f = new Fixture(seed)) {
        ManualExecutor ex = new ManualExecutor();
        Database a = f.open(config(f, kind, "a", ex));
        Database b = f.open(config(f, kind, "b", ex));
        load(a, 5);
        String root = leafHolding(f, 3);
        update(a, 3, "x1");
        if (kind == ProtocolKind.ATOMIC) {
          ex.runQueued(); // propagated to the root's queue; its checkpoint waits
        }
        String q = pageQueue(f);
        assertThat(
                CloudFutures.await(
                    f.services().simpleQueues().receive(q, 10, Duration.ofSeconds(40))))
            .as("%s", kind)
            .hasSize(1); // hidden 40 s
        for (int i = 0; i < 12; i++) { // the root leaf splits
          try (Transaction tx = b.begin()) {
            tx.create("items", Key.of(100L + i), Fixture.bytes("n".repeat(80)));
            tx.commit();
          }
        }
        f.clock.advance(Duration.ofSeconds(1));
        b.admin().checkpointAll();
        assertThat(leafHolding(f, 3))
            .as("%s: the root is no longer the key's leaf", kind)
            .isNotEqualTo(root);
        f.clock.advance(Duration.ofSeconds(41)); // x1 visible again
        BasicProtocolTest.quiesce(f, b);
        BasicProtocolTest.quiesce(f, b);
        Database c = f.open(config(f, kind, "c", ex));
        assertThat(read(c, 3)).as("%s", kind).isEqualTo("x1");
      }
    }
  }

  /** The URI of the stored leaf that holds {@code key} (read straight from storage). */
  static String leafHolding(Fixture f, long key) {
    byte[] k = Key.of(key).toBytes();
    String found = null;
    Optional<String> token = Optional.empty();
    do {
      var page = CloudFutures.await(f.services().storage().list(Fixture.DB + "/", token, 1000));
      for (var item : page.items()) {
        var stored = CloudFutures.await(f.services().storage().get(item.uri()));
        Page p;
        try {
          p = PageCodec.decode(item.uri(), stored.orElseThrow().payload());
        } catch (RuntimeException notAPage) {
          continue;
        }
        if (p.kind() == PageKind.LEAF && p.indexOf(k) >= 0) {
          assertThat(found).as("one leaf holds the key").isNull();
          found = p.uri();
        }
      }
      token = page.nextToken();
    } while (token.isPresent());
    assertThat(found).as("a leaf holds the key").isNotNull();
    return found;
  }
}
