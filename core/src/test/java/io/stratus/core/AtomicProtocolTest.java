package io.stratus.core;

import static io.stratus.core.BasicProtocolTest.load;
import static io.stratus.core.BasicProtocolTest.read;
import static io.stratus.core.BasicProtocolTest.update;
import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.QueueMessage;
import io.stratus.cloudapi.decorate.FaultInterceptor;
import io.stratus.cloudapi.decorate.FaultPlan;
import io.stratus.cloudapi.decorate.ScriptedCrashPoints;
import io.stratus.cloudapi.decorate.SimulatedCrashException;
import io.stratus.cloudapi.inprocess.QueueBehavior;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.RecoverySummary;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The atomic protocol (paper 000, section 5.1): all or nothing of a transaction whatever step the
 * client dies at, recovery by the client itself or by others (several at once), weak queues.
 */
@ExtendWith(SeedExtension.class)
class AtomicProtocolTest {
  static final String QUEUE_A = Fixture.DB + "/atomic/a";

  static final List<String> CRASH_POINTS = List.of("atomic.before-log", "atomic.after-log",
      "atomic.after-commit-record", "atomic.after-propagate", "atomic.after-cleanup");

  static DatabaseConfig.Builder atomic(Fixture f, String client, ManualExecutor ex) {
    return f.config().protocol(ProtocolKind.ATOMIC).clientId(client).checkpointExecutor(ex);
  }

  /** Quiescence with recovery: past leases and visibility timeouts, a few full passes. */
  static void quiesce(Fixture f, Database db) {
    for (int i = 0; i < 3; i++) {
      f.clock.advance(Duration.ofSeconds(31));
      db.checkpointAll();
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
   * transaction is whole or absent as the step says; weak queues change nothing.
   */
  @Test
  void aCrashAtEveryAtomicStepIsAllOrNothing(@Seed long seed) {
    for (QueueBehavior q : List.of(QueueBehavior.reliable(), QueueBehavior.weak())) {
      for (boolean selfRecovery : List.of(true, false)) {
        for (String point : CRASH_POINTS) {
          crashAndRecover(seed, q, selfRecovery, point);
        }
      }
    }
  }

  private void crashAndRecover(long seed, QueueBehavior q, boolean selfRecovery, String point) {
    String what = point + (selfRecovery ? ", self" : ", other") + ", " + q;
    try (Fixture f = new Fixture(seed, true, q)) {
      ManualExecutor ex = new ManualExecutor();
      FaultInterceptor faults = new FaultInterceptor(FaultPlan.none(), seed, f.clock);
      ScriptedCrashPoints crash = new ScriptedCrashPoints().arm(point, 2)
          .onCrash(faults::killClient);
      Database a = f.open(f.config(faults).protocol(ProtocolKind.ATOMIC).clientId("a")
          .checkpointExecutor(ex).crashPoints(crash));
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
        recoverer.recoverAbandonedClients();
      }
      quiesce(f, recoverer);
      Database reader = f.open(atomic(f, "reader", ex));
      for (Map.Entry<Long, String> e : committed.entrySet()) {
        assertThat(read(reader, e.getKey())).as("key %d, %s", e.getKey(), what)
            .isEqualTo(e.getValue());
      }
      if (dying >= 0) {
        boolean winner = point.equals("atomic.after-commit-record");
        assertThat(read(reader, 1000L + dying)).as("insert of the dying tx, %s", what)
            .isEqualTo(winner ? "n" + dying : null);
        assertThat(read(reader, (long) dying * 30)).as("update of the dying tx, %s", what)
            .isEqualTo(winner ? "u" + dying : "v0-" + dying * 30);
      }
      if (q.isReliable()) {
        f.clock.advance(Duration.ofSeconds(61)); // losers are old now
        recoverer.checkpointAll();
        f.clock.advance(Duration.ofSeconds(31));
        assertThat(visibleMessages(f, QUEUE_A)).as("ATOMIC queue cleaned, %s", what).isZero();
      }
    }
  }

  static int visibleMessages(Fixture f, String queue) {
    List<QueueMessage> got = CloudFutures.await(f.services().simpleQueues()
        .receive(queue, 10, Duration.ofSeconds(1)));
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
          .as("nothing sent to PU queues on the application's thread").isEmpty();
      assertThat(db.checkpointAll().recordsApplied()).isEqualTo(2);
      assertThat(read(db, 7)).isEqualTo("x");
      assertThat(read(db, 8)).isEqualTo("y");
      assertThat(visibleMessages(f, Fixture.DB + "/atomic/w")).as("cleaned up").isZero();
      ex.runAll(); // the held-back tasks find nothing left to do
      assertThat(db.checkpointAll().recordsApplied()).isZero();
    }
  }

  /**
   * Client a commits twice and dies before propagating, then a third commit dies before its
   * commit record; three clients recover it at once, under weak queues: the two commits are
   * applied exactly, the third never.
   */
  @Test
  void severalRecoverersAtOnceAreSafe(@Seed long seed) throws Exception {
    try (Fixture f = new Fixture(seed, true, QueueBehavior.weak())) {
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
            runs.add(CompletableFuture.supplyAsync(r::recoverAbandonedClients, threads));
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
    try (Fixture f = new Fixture(seed)) {
      ManualExecutor ex = new ManualExecutor();
      Database b = f.open(atomic(f, "b", ex));
      load(b, 100);
      RecoverySummary[] seen = new RecoverySummary[1];
      io.stratus.cloudapi.CrashPoints recoverMidCommit = point -> {
        if (point.equals("atomic.after-log") && seen[0] == null) {
          f.clock.advance(Duration.ofSeconds(31)); // a slow commit, but within the timeout
          seen[0] = b.recoverAbandonedClients();
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
}
