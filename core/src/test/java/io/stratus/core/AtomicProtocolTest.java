package io.stratus.core;

import static io.stratus.core.BasicProtocolTest.load;
import static io.stratus.core.BasicProtocolTest.read;
import static io.stratus.core.BasicProtocolTest.update;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.CommitStateUnknownException;
import io.stratus.RecoverySummary;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.QueueMessage;
import io.stratus.cloudapi.ServiceUnavailableException;
import io.stratus.cloudapi.decorate.Call;
import io.stratus.cloudapi.decorate.CallInterceptor;
import io.stratus.cloudapi.decorate.FaultInterceptor;
import io.stratus.cloudapi.decorate.FaultPlan;
import io.stratus.cloudapi.decorate.ScriptedCrashPoints;
import io.stratus.cloudapi.decorate.SimulatedCrashException;
import io.stratus.cloudapi.inprocess.QueueBehavior;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.protocols.ProtocolKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The atomic protocol (paper 000, section 5.1): all or nothing of a transaction whatever step the
 * client dies at, recovery by the client itself or by others (several at once), weak queues.
 */
@ExtendWith(SeedExtension.class)
class AtomicProtocolTest {
  static final String QUEUE_A = Fixture.DB + "/atomic/a";

  /** The crash points of a commit in one complete-transaction message (the common case). */
  static final List<String> CRASH_POINTS =
      List.of(
          "atomic.before-log",
          "atomic.after-commit-record",
          "atomic.after-propagate",
          "atomic.after-cleanup");

  /** Those of a two-step commit (log records, then the commit record): one more. */
  static final List<String> TWO_STEP_CRASH_POINTS =
      List.of(
          "atomic.before-log",
          "atomic.after-log",
          "atomic.after-commit-record",
          "atomic.after-propagate",
          "atomic.after-cleanup");

  /** Queue messages this small make a transaction of two records take two steps. */
  static final int SMALL_MESSAGES = 220;

  static DatabaseConfig.Builder atomic(Fixture f, String client, ManualExecutor ex) {
    return f.config().protocol(ProtocolKind.ATOMIC).clientId(client).checkpointExecutor(ex);
  }

  /** Quiescence with recovery: past leases and visibility timeouts, a few full passes. */
  static void quiesce(Fixture f, Database db) {
    for (int i = 0; i < 3; i++) {
      f.clock.advance(Duration.ofSeconds(31));
      db.admin().checkpointAll();
    }
    f.clock.advance(Fixture.TTL.plusSeconds(1));
  }

  /** The transaction of round i: an update and an insert. */
  static void round(Database db, int i) {
    try (Transaction tx = db.begin()) {
      tx.update("items", Key.of((long) i * 30), Fixture.bytes("u" + i));
      tx.create("items", Key.of(1000L + i), Fixture.bytes("n" + i));
      tx.commit();
    }
  }

  /**
   * Client a dies at each step of its second commit (or of its propagation); then it reopens and
   * recovers itself, or client b recovers it. Every commit that returned is whole; the dying
   * transaction is whole or absent as the step says (before the one message or the commit
   * record: a loser; after: a winner); weak queues change nothing. Both commit forms: one
   * complete-transaction message, and log records then commit record (small queue messages).
   */
  @Test
  void aCrashAtEveryAtomicStepIsAllOrNothing(@Seed long seed) {
    for (QueueBehavior q : List.of(QueueBehavior.reliable(), QueueBehavior.weak())) {
      for (boolean selfRecovery : List.of(true, false)) {
        for (String point : CRASH_POINTS) {
          crashAndRecover(seed, q, selfRecovery, point, 0);
        }
        for (String point : TWO_STEP_CRASH_POINTS) {
          crashAndRecover(seed, q, selfRecovery, point, SMALL_MESSAGES);
        }
      }
    }
  }

  private void crashAndRecover(
      long seed, QueueBehavior q, boolean selfRecovery, String point, int maxMessage) {
    String what =
        point
            + (selfRecovery ? ", self" : ", other")
            + ", "
            + q
            + (maxMessage > 0 ? ", two steps" : ", one message");
    try (Fixture f =
        new Fixture(seed, true, q, maxMessage > 0 ? Fixture.maxMessageSize(maxMessage) : b -> b)) {
      ManualExecutor ex = new ManualExecutor();
      FaultInterceptor faults = new FaultInterceptor(FaultPlan.none(), seed, f.clock);
      ScriptedCrashPoints crash =
          new ScriptedCrashPoints().arm(point, 2).onCrash(faults::killClient);
      Database a =
          f.open(
              f.config(faults)
                  .protocol(ProtocolKind.ATOMIC)
                  .clientId("a")
                  .checkpointExecutor(ex)
                  .crashPoints(crash));
      Database b = f.open(atomic(f, "b", ex));
      load(b, 100);
      Map<Long, String> committed = new LinkedHashMap<>();
      int dying = -1;
      for (int i = 0; i < 4 && !crash.crashed(); i++) {
        try {
          round(a, i);
        } catch (SimulatedCrashException expected) {
          dying = i; // died inside commit()
          break;
        }
        committed.put((long) i * 30, "u" + i);
        committed.put(1000L + i, "n" + i);
        try {
          ex.runAll(); // the propagation and clean-up
        } catch (SimulatedCrashException expected) {
          // died after its commit returned
        }
      }
      assertThat(crash.crashed()).as("crashed at %s", what).isTrue();
      Database recoverer;
      if (selfRecovery) {
        faults.revive();
        recoverer = f.open(atomic(f, "a", ex)); // recovers its own ATOMIC queue at open
      } else {
        recoverer = b;
        f.clock.advance(Duration.ofSeconds(31)); // the dead client's leases lapse
        recoverer.admin().recoverAbandonedClients();
      }
      quiesce(f, recoverer);
      Database reader = f.open(atomic(f, "reader", ex));
      for (Map.Entry<Long, String> e : committed.entrySet()) {
        assertThat(read(reader, e.getKey()))
            .as("key %d, %s", e.getKey(), what)
            .isEqualTo(e.getValue());
      }
      if (dying >= 0) {
        boolean winner = point.equals("atomic.after-commit-record");
        assertThat(read(reader, 1000L + dying))
            .as("insert of the dying tx, %s", what)
            .isEqualTo(winner ? "n" + dying : null);
        assertThat(read(reader, (long) dying * 30))
            .as("update of the dying tx, %s", what)
            .isEqualTo(winner ? "u" + dying : "v0-" + dying * 30);
      }
      if (q.isReliable()) {
        f.clock.advance(Duration.ofSeconds(61)); // losers are old now
        recoverer.admin().checkpointAll();
        f.clock.advance(Duration.ofSeconds(31));
        assertThat(visibleMessages(f, QUEUE_A)).as("ATOMIC queue cleaned, %s", what).isZero();
      }
    }
  }

  static int visibleMessages(Fixture f, String queue) {
    List<QueueMessage> got =
        CloudFutures.await(f.services().simpleQueues().receive(queue, 10, Duration.ofSeconds(1)));
    return got.size();
  }

  /**
   * The commit returns once the commit record is sent; propagation waits for the checkpoint
   * executor, and checkpointAll completes it when the executor is held back (the benchmark).
   */
  @Test
  void commitReturnsAfterTheCommitRecordAndCheckpointAllCompletesPropagation(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      ManualExecutor ex = new ManualExecutor();
      Database db = f.open(atomic(f, "w", ex));
      load(db, 50);
      update(db, 7, "x");
      update(db, 8, "y");
      assertThat(ex.pending()).as("propagation waits for the executor").isPositive();
      assertThat(CloudFutures.await(f.services().simpleQueues().listQueues(Fixture.DB + "/pu/")))
          .as("nothing sent to PU queues on the application's thread")
          .isEmpty();
      assertThat(db.admin().checkpointAll().recordsApplied()).isEqualTo(2);
      assertThat(read(db, 7)).isEqualTo("x");
      assertThat(read(db, 8)).isEqualTo("y");
      assertThat(visibleMessages(f, Fixture.DB + "/atomic/w")).as("cleaned up").isZero();
      ex.runAll(); // the held-back tasks find nothing left to do
      assertThat(db.admin().checkpointAll().recordsApplied()).isZero();
    }
  }

  /**
   * A propagation that fails (the PU queues refuse sends) leaves the committed records in the
   * ATOMIC queue, counts a background failure in the stats, and a later pass propagates them.
   */
  @Test
  void aFailedPropagationIsCountedAndALaterPassDeliversIt(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      ManualExecutor ex = new ManualExecutor();
      AtomicBoolean refuse = new AtomicBoolean();
      CallInterceptor puDown =
          new CallInterceptor() {
            @Override
            public <T> CompletableFuture<T> intercept(
                Call<T> call, Supplier<CompletableFuture<T>> proceed) {
              boolean send =
                  call.operation() == Operation.QUEUE_SEND
                      || call.operation() == Operation.QUEUE_SEND_BATCH;
              if (refuse.get() && send && call.target().contains("/pu/")) {
                return CompletableFuture.failedFuture(
                    new ServiceUnavailableException("PU queues down"));
              }
              return proceed.get();
            }
          };
      Database db =
          f.open(
              f.config(puDown).protocol(ProtocolKind.ATOMIC).clientId("w").checkpointExecutor(ex));
      load(db, 20);
      assertThat(db.stats().backgroundFailures()).isZero();
      refuse.set(true);
      update(db, 3, "x");
      ex.runAll(); // the propagation fails
      assertThat(db.stats().backgroundFailures()).isPositive();
      refuse.set(false);
      assertThat(db.admin().checkpointAll().recordsApplied()).isEqualTo(1);
      assertThat(read(db, 3)).isEqualTo("x");
    }
  }

  /**
   * Client a commits twice and dies before propagating, then a third commit dies before its
   * commit record; three clients recover it at once, under weak queues: the two commits are
   * applied exactly, the third never.
   */
  @Test
  void severalRecoverersAtOnceAreSafe(@Seed long seed) throws Exception {
    try (Fixture f =
        new Fixture(seed, true, QueueBehavior.weak(), Fixture.maxMessageSize(SMALL_MESSAGES))) {
      ManualExecutor held = new ManualExecutor(); // a's propagation never runs
      ScriptedCrashPoints crash = new ScriptedCrashPoints().arm("atomic.after-log", 3);
      Database a = f.open(atomic(f, "a", held).crashPoints(crash));
      ManualExecutor ex = new ManualExecutor();
      List<Database> recoverers = new ArrayList<>();
      for (String c : List.of("b", "c", "d")) {
        recoverers.add(f.open(atomic(f, c, ex)));
      }
      load(recoverers.get(0), 100);
      round(a, 1);
      round(a, 2);
      try {
        round(a, 3);
      } catch (SimulatedCrashException expected) {
        // died before the commit record
      }
      assertThat(crash.crashed()).isTrue();
      f.clock.advance(Duration.ofSeconds(61)); // the loser is old enough to delete
      ExecutorService threads = Executors.newFixedThreadPool(3);
      try {
        for (int round = 0; round < 3; round++) {
          List<CompletableFuture<RecoverySummary>> runs = new ArrayList<>();
          for (Database r : recoverers) {
            runs.add(CompletableFuture.supplyAsync(r.admin()::recoverAbandonedClients, threads));
          }
          for (CompletableFuture<RecoverySummary> run : runs) {
            run.get(30, TimeUnit.SECONDS);
          }
          f.clock.advance(Duration.ofSeconds(31));
        }
      } finally {
        threads.shutdownNow();
      }
      for (Database r : recoverers) {
        quiesce(f, r);
      }
      Database reader = f.open(atomic(f, "reader", ex));
      for (int i = 1; i <= 2; i++) {
        assertThat(read(reader, (long) i * 30)).isEqualTo("u" + i);
        assertThat(read(reader, 1000L + i)).isEqualTo("n" + i);
      }
      assertThat(read(reader, 90)).isEqualTo("v0-90");
      assertThat(read(reader, 1003)).isNull();
    }
  }

  /** A recoverer leaves a live client's commit in flight alone: no commit record yet, young. */
  @Test
  void aLiveClientsCommitInFlightIsNotDestroyed(@Seed long seed) {
    try (Fixture f =
        new Fixture(seed, true, QueueBehavior.reliable(), Fixture.maxMessageSize(SMALL_MESSAGES))) {
      ManualExecutor ex = new ManualExecutor();
      Database b = f.open(atomic(f, "b", ex));
      load(b, 100);
      RecoverySummary[] seen = new RecoverySummary[1];
      io.stratus.cloudapi.CrashPoints recoverMidCommit =
          point -> {
            if (point.equals("atomic.after-log") && seen[0] == null) {
              f.clock.advance(Duration.ofSeconds(31)); // a slow commit, but within the timeout
              seen[0] = b.admin().recoverAbandonedClients();
            }
          };
      Database a = f.open(atomic(f, "a", ex).crashPoints(recoverMidCommit));
      round(a, 1);
      assertThat(seen[0].losers()).isZero();
      assertThat(seen[0].waiting()).isEqualTo(1);
      quiesce(f, b);
      assertThat(read(b, 30)).isEqualTo("u1");
      assertThat(read(b, 1001)).isEqualTo("n1");
    }
  }

  /**
   * The common case costs one queue round trip: a transaction whose records fit into one message
   * is sent as one complete-transaction message; a larger one as log records plus a commit record.
   */
  @Test
  void aSmallTransactionIsOneMessageALargeOneTwoSteps(@Seed long seed) {
    for (int maxMessage : List.of(0, SMALL_MESSAGES)) {
      try (Fixture f =
          new Fixture(
              seed,
              true,
              QueueBehavior.reliable(),
              maxMessage > 0 ? Fixture.maxMessageSize(maxMessage) : b -> b)) {
        ManualExecutor held = new ManualExecutor();
        Database a = f.open(atomic(f, "a", held));
        load(a, 100);
        round(a, 1); // an update and an insert
        assertThat(visibleMessages(f, QUEUE_A))
            .as("max message %d", maxMessage)
            .isEqualTo(maxMessage > 0 ? 3 : 1);
        f.clock.advance(Duration.ofSeconds(2));
        quiesce(f, a);
        assertThat(read(a, 30)).isEqualTo("u1");
        assertThat(read(a, 1001)).isEqualTo("n1");
      }
    }
  }

  /**
   * The hazard of atomic without counters: a winner propagated again (a resent or redelivered
   * message, a clean-up that died after propagating) after a newer update of the same key was
   * applied. Its records carry the writer's chain counters, so the checkpoint skips them.
   */
  @Test
  void aRepropagatedWinnerNeverOverwritesANewerValue(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      ManualExecutor ex = new ManualExecutor();
      Database a = f.open(atomic(f, "a", ex));
      load(a, 50);
      update(a, 7, "x1");
      List<QueueMessage> copy =
          CloudFutures.await(
              f.services().simpleQueues().receive(QUEUE_A, 10, Duration.ofSeconds(1)));
      assertThat(copy).hasSize(1);
      f.clock.advance(Duration.ofSeconds(2));
      ex.runAll(); // propagation and clean-up of x1
      a.admin().checkpointAll();
      update(a, 7, "x2");
      ex.runAll();
      a.admin().checkpointAll();
      CloudFutures.await(f.services().simpleQueues().send(QUEUE_A, copy.get(0).payload()));
      quiesce(f, a); // recovery finds x1's message again: a winner, propagated again
      Database reader = f.open(atomic(f, "reader", ex));
      assertThat(read(reader, 7)).isEqualTo("x2");
      assertThat(visibleMessages(f, QUEUE_A)).isZero();
    }
  }

  /**
   * An unknown outcome is resolved by sending again (a duplicate is harmless); when every resend
   * is unknown too, the commit reports it and the client settles it as a winner in the
   * background (sends until one is known to have arrived), so its counters leave no gap and the
   * client's next commit does not overtake it. Everything is applied once, in order.
   */
  @Test
  void unknownOutcomesAreSettledAsWinnersInOrder(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      ManualExecutor ex = new ManualExecutor();
      LoseReplies lose = new LoseReplies(Fixture.DB + "/atomic/");
      Database a =
          f.open(f.config(lose).protocol(ProtocolKind.ATOMIC).clientId("a").checkpointExecutor(ex));
      load(a, 50);
      lose.remaining = 1;
      update(a, 7, "x1"); // the resend's reply arrives: committed
      lose.remaining = 4; // the send and all three resends
      assertThatThrownBy(
              () -> {
                try (Transaction tx = a.begin()) {
                  tx.update("items", Key.of(7L), Fixture.bytes("x2"));
                  tx.update("items", Key.of(8L), Fixture.bytes("y2"));
                  tx.commit();
                }
              })
          .isInstanceOf(CommitStateUnknownException.class);
      update(a, 7, "x3"); // not stalled behind the unknown commit's counters
      ex.runAll();
      quiesce(f, a);
      Database reader = f.open(atomic(f, "reader", ex));
      assertThat(read(reader, 7)).isEqualTo("x3");
      assertThat(read(reader, 8)).as("the unknown commit did arrive").isEqualTo("y2");
      f.clock.advance(Duration.ofSeconds(61));
      a.admin().checkpointAll();
      f.clock.advance(Duration.ofSeconds(31));
      assertThat(visibleMessages(f, QUEUE_A)).as("duplicates cleaned up too").isZero();
    }
  }
}
