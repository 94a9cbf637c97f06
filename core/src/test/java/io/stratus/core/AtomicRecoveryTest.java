package io.stratus.core;

import static io.stratus.core.AtomicProtocolTest.QUEUE_A;
import static io.stratus.core.AtomicProtocolTest.SMALL_MESSAGES;
import static io.stratus.core.AtomicProtocolTest.atomic;
import static io.stratus.core.AtomicProtocolTest.quiesce;
import static io.stratus.core.AtomicProtocolTest.visibleMessages;
import static io.stratus.core.BasicProtocolTest.load;
import static io.stratus.core.BasicProtocolTest.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.CommitFailedException;
import io.stratus.RecoverySummary;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.LockGrant;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.QueueBacklog;
import io.stratus.cloudapi.QueueMessage;
import io.stratus.cloudapi.ServiceUnavailableException;
import io.stratus.cloudapi.SupportsQueueInspection;
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
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Recovery of ATOMIC queues when a pass cannot see everything: two-step transactions whose log
 * messages are partly out of sight, passes that die between their steps, later passes of the same
 * process, and a client whose commits keep arriving while its clean-up runs.
 */
@ExtendWith(SeedExtension.class)
class AtomicRecoveryTest {
  /** Keys 30, 60, 90, 120 of round i get "w<i>-<k>": four records, four log messages. */
  static final int KEYS = 4;

  static void wideRound(Database db, int i) {
    try (Transaction tx = db.begin()) {
      for (int k = 1; k <= KEYS; k++) {
        tx.update("items", Key.of((long) k * 30), Fixture.bytes("w" + i + "-" + k));
      }
      tx.commit();
    }
  }

  /** How many of round i's records a reader sees (all or none is right). */
  static int applied(Database reader, int i) {
    int n = 0;
    for (int k = 1; k <= KEYS; k++) {
      if (("w" + i + "-" + k).equals(read(reader, (long) k * 30))) {
        n++;
      }
    }
    return n;
  }

  /**
   * A recoverer finds a two-step transaction's commit record but one of its log messages is out
   * of sight (here: received by someone else with a long visibility timeout, as a short receive
   * or another pass would hide it), long past the atomic timeout. Nothing of it may be applied
   * until the message is back; then all of it is.
   */
  @Test
  void aCommittedSetWithAnUnseenLogMessageIsNeverAppliedInPart(@Seed long seed) {
    try (Fixture f =
        new Fixture(seed, true, QueueBehavior.reliable(), Fixture.maxMessageSize(SMALL_MESSAGES))) {
      ManualExecutor held = new ManualExecutor(); // a never propagates itself
      ManualExecutor ex = new ManualExecutor();
      Database b = f.open(atomic(f, "b", ex));
      load(b, 200);
      Database a = f.open(atomic(f, "a", held));
      wideRound(a, 1);
      List<QueueMessage> away =
          CloudFutures.await(
              f.services()
                  .simpleQueues()
                  .receive(QUEUE_A, 1, Duration.ofSeconds(200))); // the first log message
      assertThat(away).hasSize(1);
      f.clock.advance(Duration.ofSeconds(61));
      b.admin().recoverAbandonedClients();
      b.admin().checkpointAll();
      Database reader = f.open(atomic(f, "reader", ex));
      assertThat(applied(reader, 1)).as("a committed set with a message out of sight").isZero();
      f.clock.advance(Duration.ofSeconds(140)); // the message is back
      quiesce(f, b);
      Database late = f.open(atomic(f, "late", ex));
      assertThat(applied(late, 1)).as("all of it once every message is seen").isEqualTo(KEYS);
      f.clock.advance(Duration.ofSeconds(61));
      b.admin().checkpointAll();
      f.clock.advance(Duration.ofSeconds(31));
      assertThat(visibleMessages(f, QUEUE_A)).as("ATOMIC queue cleaned").isZero();
    }
  }

  /**
   * Weak queues (most receives short, reordering, duplicates): a dead client's two-step
   * transactions are recovered by passes of several clients, with time passing between them, and
   * the newest ends applied whole.
   */
  @Test
  void shortReceivesNeverSplitATransaction(@Seed long seed) {
    QueueBehavior weak = new QueueBehavior(true, 0.8, 0.2);
    try (Fixture f = new Fixture(seed, true, weak, Fixture.maxMessageSize(SMALL_MESSAGES))) {
      ManualExecutor held = new ManualExecutor();
      ManualExecutor ex = new ManualExecutor();
      Database b = f.open(atomic(f, "b", ex));
      Database c = f.open(atomic(f, "c", ex));
      load(b, 200);
      Database a = f.open(atomic(f, "a", held));
      int rounds = 3;
      for (int i = 1; i <= rounds; i++) {
        wideRound(a, i);
      }
      Random random = new Random(seed);
      for (int step = 0; step < 12; step++) {
        f.clock.advance(Duration.ofSeconds(10 + random.nextInt(40)));
        // Pages of one round may be checkpointed at different times, and under short receives
        // a checkpoint can find a queue empty that is not: atomicity promises all or nothing in
        // the end, checked below, not at every instant.
        (random.nextBoolean() ? b : c).admin().checkpointAll();
      }
      quiesce(f, b);
      quiesce(f, c);
      Database reader = f.open(atomic(f, "reader", ex));
      assertThat(applied(reader, rounds)).isEqualTo(KEYS);
    }
  }

  /** The points between a pass's steps on a two-step winner. */
  static final List<String> PASS_POINTS =
      List.of(
          "atomic.pass-after-propagate",
          "atomic.pass-after-marker",
          "atomic.pass-after-log-deletes");

  /**
   * A recoverer dies between any two steps of its pass over a dead client's two-step winner
   * (propagated, marker sent, log messages deleted); another recoverer, with reliable or weak
   * queues, finishes: the transaction is applied whole and the ATOMIC queue ends empty.
   */
  @Test
  void aRecovererDyingBetweenItsStepsLeavesAWholeTransaction(@Seed long seed) {
    for (QueueBehavior q : List.of(QueueBehavior.reliable(), QueueBehavior.weak())) {
      for (String point : PASS_POINTS) {
        String what = point + ", " + q;
        try (Fixture f = new Fixture(seed, true, q, Fixture.maxMessageSize(SMALL_MESSAGES))) {
          ManualExecutor held = new ManualExecutor();
          ManualExecutor ex = new ManualExecutor();
          Database c = f.open(atomic(f, "c", ex));
          load(c, 200);
          Database a = f.open(atomic(f, "a", held));
          wideRound(a, 1);
          FaultInterceptor faults = new FaultInterceptor(FaultPlan.none(), seed, f.clock);
          ScriptedCrashPoints crash =
              new ScriptedCrashPoints().arm(point, 1).onCrash(faults::killClient);
          Database b =
              f.open(
                  f.config(faults)
                      .protocol(ProtocolKind.ATOMIC)
                      .clientId("b")
                      .checkpointExecutor(ex)
                      .crashPoints(crash));
          for (int i = 0; i < 10 && !crash.crashed(); i++) {
            try {
              b.admin().recoverAbandonedClients();
            } catch (SimulatedCrashException expected) {
              // died inside its pass
            }
            f.clock.advance(Duration.ofSeconds(31));
          }
          assertThat(crash.crashed()).as("crashed at %s", what).isTrue();
          f.clock.advance(Duration.ofSeconds(31));
          for (int i = 0; i < 4; i++) {
            Database reader = f.open(atomic(f, "r" + i, ex));
            assertThat(applied(reader, 1)).as("%s, step %d", what, i).isIn(0, KEYS);
            f.clock.advance(Duration.ofSeconds(31));
            c.admin().checkpointAll();
          }
          quiesce(f, c);
          Database reader = f.open(atomic(f, "reader", ex));
          assertThat(applied(reader, 1)).as(what).isEqualTo(KEYS);
          if (q.isReliable()) {
            f.clock.advance(Duration.ofSeconds(61));
            c.admin().checkpointAll();
            f.clock.advance(Duration.ofSeconds(31));
            assertThat(visibleMessages(f, QUEUE_A)).as("cleaned, %s", what).isZero();
          }
        }
      }
    }
  }

  /**
   * A pass that leaves messages hidden (a young transaction without commit record) keeps the
   * queue's lock; the next pass of the same process must not be granted it as a renewal, find
   * the queue empty and release the lock while the messages are still hidden. Where the queue can
   * hand messages back, the pass hands them back and releases the lock, and the next pass, run at
   * once, sees them.
   */
  @Test
  void aLaterPassOfTheSameProcessIsNotGrantedWhileMessagesAreHidden(@Seed long seed) {
    for (boolean handBack : new boolean[] {false, true}) {
      try (Fixture f =
          new Fixture(
              seed,
              true,
              QueueBehavior.reliable(),
              c -> Fixture.maxMessageSize(SMALL_MESSAGES).apply(c).visibilityChange(handBack))) {
        ManualExecutor ex = new ManualExecutor();
        Database b = f.open(atomic(f, "b", ex));
        load(b, 200);
        ScriptedCrashPoints crash = new ScriptedCrashPoints().arm("atomic.after-log", 1);
        Database a = f.open(atomic(f, "a", ex).crashPoints(crash));
        assertThatThrownBy(() -> wideRound(a, 1)).isInstanceOf(SimulatedCrashException.class);
        RecoverySummary first = b.admin().recoverAbandonedClients();
        assertThat(first.waiting()).as("young, no commit record").isEqualTo(1);
        RecoverySummary second = b.admin().recoverAbandonedClients();
        LockGrant probe =
            CloudFutures.await(f.services().locks().acquireExclusive(QUEUE_A, "probe"));
        if (handBack) {
          assertThat(second.skipped()).as("handed back: the second pass ran").isZero();
          assertThat(second.waiting()).as("and saw the transaction").isEqualTo(1);
          assertThat(probe.granted()).as("nothing hidden, the lock is free").isTrue();
          CloudFutures.await(f.services().locks().release(QUEUE_A, "probe"));
        } else {
          assertThat(second.skipped()).as("the second pass could not see the queue").isEqualTo(1);
          assertThat(probe.granted()).as("the lock stays held while messages are hidden").isFalse();
        }
        f.clock.advance(Duration.ofSeconds(61)); // hidden messages back, the loser is old
        RecoverySummary third = b.admin().recoverAbandonedClients();
        assertThat(third.losers()).isEqualTo(1);
        f.clock.advance(Duration.ofSeconds(31));
        assertThat(visibleMessages(f, QUEUE_A)).isZero();
      }
    }
  }

  /**
   * Commits keep arriving while the clean-up pass receives (each receive of the pass lets one
   * more commit in): every commit's message is deleted by the end of the flushes, the queue does
   * not grow with the number of commits, and deletes are batched.
   */
  @Test
  void theCleanUpKeepsUpWithCommitsArrivingDuringItsPass(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      ManualExecutor ex = new ManualExecutor();
      Database loader = f.open(atomic(f, "loader", ex));
      load(loader, 200);
      int commits = 60;
      AtomicInteger made = new AtomicInteger();
      AtomicInteger deleteCalls = new AtomicInteger();
      Database[] a = new Database[1];
      CallInterceptor load =
          new CallInterceptor() {
            @Override
            public <T> java.util.concurrent.CompletableFuture<T> intercept(
                Call<T> call, Supplier<java.util.concurrent.CompletableFuture<T>> proceed) {
              if (call.target().equals(QUEUE_A) && a[0] != null) {
                if (call.operation() == Operation.QUEUE_RECEIVE && made.get() < commits) {
                  int i = made.incrementAndGet();
                  BasicProtocolTest.update(a[0], i % 150, "c" + i); // arrives during the pass
                } else if (call.operation() == Operation.QUEUE_DELETE_BATCH) {
                  deleteCalls.incrementAndGet();
                }
              }
              return proceed.get();
            }
          };
      a[0] =
          f.open(f.config(load).protocol(ProtocolKind.ATOMIC).clientId("a").checkpointExecutor(ex));
      BasicProtocolTest.update(a[0], 0, "c0");
      ex.runAll();
      assertThat(made.get()).isEqualTo(commits);
      f.clock.advance(Duration.ofSeconds(31)); // anything hidden is visible again
      int left = 0;
      for (int i = 0; i < 20; i++) {
        left +=
            CloudFutures.await(
                    f.services().simpleQueues().receive(QUEUE_A, 10, Duration.ofSeconds(1)))
                .size();
      }
      assertThat(left)
          .as("ATOMIC messages left after the flushes (%d delete batches)", deleteCalls.get())
          .isLessThanOrEqualTo(1);
      // batched: far fewer delete requests than commits
      assertThat(deleteCalls.get()).isLessThanOrEqualTo(commits / 2);
      Database reader = f.open(atomic(f, "reader", ex));
      loader.admin().checkpointAll();
      assertThat(read(reader, commits % 150)).isEqualTo("c" + commits);
    }
  }

  /**
   * A clean-up pass whose deletes are refused hands the winner's message back where the queue can,
   * and releases the lock: the next pass (the own recovery of {@code checkpointAll}) deletes it at
   * once. Where the queue cannot, the message stays hidden and the lock held until the pass's
   * lease lapses.
   */
  @Test
  void aCleanUpPassThatCannotDeleteHandsItsMessagesBack(@Seed long seed) {
    for (boolean handBack : new boolean[] {true, false}) {
      try (Fixture f =
          new Fixture(seed, true, QueueBehavior.reliable(), c -> c.visibilityChange(handBack))) {
        ManualExecutor ex = new ManualExecutor();
        Database loader = f.open(atomic(f, "loader", ex));
        load(loader, 20);
        boolean[] refuse = {false};
        CallInterceptor refuseDeletes =
            new CallInterceptor() {
              @Override
              public <T> java.util.concurrent.CompletableFuture<T> intercept(
                  Call<T> call, Supplier<java.util.concurrent.CompletableFuture<T>> proceed) {
                if (refuse[0]
                    && call.target().equals(QUEUE_A)
                    && call.operation() == Operation.QUEUE_DELETE_BATCH) {
                  return java.util.concurrent.CompletableFuture.failedFuture(
                      new ServiceUnavailableException("refused delete"));
                }
                return proceed.get();
              }
            };
        Database a =
            f.open(
                f.config(refuseDeletes)
                    .protocol(ProtocolKind.ATOMIC)
                    .clientId("a")
                    .checkpointExecutor(ex));
        BasicProtocolTest.update(a, 1, "x");
        refuse[0] = true;
        ex.runAll(); // propagation, then a clean-up pass whose deletes fail
        refuse[0] = false;
        QueueBacklog left = backlog(f, QUEUE_A);
        assertThat(left.messages()).as("handBack=%s", handBack).isEqualTo(1);
        assertThat(left.visible()).isEqualTo(handBack ? 1 : 0);

        a.admin().checkpointAll(); // its own recovery pass, no time passing
        assertThat(backlog(f, QUEUE_A).messages()).isEqualTo(handBack ? 0 : 1);
        if (!handBack) {
          f.clock.advance(Duration.ofSeconds(31)); // the first pass's lease lapses
          a.admin().checkpointAll();
          assertThat(backlog(f, QUEUE_A).messages()).isZero();
        }
        Database reader = f.open(atomic(f, "reader", ex));
        assertThat(read(reader, 1)).isEqualTo("x");
      }
    }
  }

  private static QueueBacklog backlog(Fixture f, String queue) {
    return CloudFutures.await(
        SupportsQueueInspection.of(f.services().simpleQueues()).inspect(queue, 0));
  }

  /**
   * Paper 000, Algorithm 5, line 5: a two-step commit whose log records took longer than the
   * commit deadline (below the atomic timeout) sends no commit record and fails retryably, since
   * a recoverer may already have deleted its log messages as a loser's; nothing of it applies.
   */
  @Test
  void aTwoStepCommitPastItsDeadlineFailsWithoutCommitRecord(@Seed long seed) {
    try (Fixture f =
        new Fixture(seed, true, QueueBehavior.reliable(), Fixture.maxMessageSize(SMALL_MESSAGES))) {
      ManualExecutor ex = new ManualExecutor();
      Database b = f.open(atomic(f, "b", ex));
      load(b, 200);
      boolean[] slow = {true};
      io.stratus.cloudapi.CrashPoints slowLog =
          point -> {
            if (point.equals("atomic.after-log") && slow[0]) {
              slow[0] = false;
              f.clock.advance(Duration.ofSeconds(46)); // atomic timeout 60 s, deadline 45 s
            }
          };
      Database a = f.open(atomic(f, "a", ex).crashPoints(slowLog));
      assertThatThrownBy(() -> wideRound(a, 1))
          .isInstanceOfSatisfying(
              CommitFailedException.class, e -> assertThat(e.isRetryable()).isTrue());
      wideRound(a, 2); // in time
      ex.runAll();
      f.clock.advance(Duration.ofSeconds(61));
      quiesce(f, b);
      Database reader = f.open(atomic(f, "reader", ex));
      assertThat(applied(reader, 2)).isEqualTo(KEYS);
      f.clock.advance(Duration.ofSeconds(61));
      a.admin().checkpointAll();
      f.clock.advance(Duration.ofSeconds(31));
      assertThat(visibleMessages(f, QUEUE_A))
          .as("the late commit's log messages are losers")
          .isZero();
    }
  }
}
