package io.stratus.core;

import static io.stratus.core.AdvancedAtomicTest.COMMIT;
import static io.stratus.core.AdvancedAtomicTest.LOG;
import static io.stratus.core.AdvancedAtomicTest.messages;
import static io.stratus.core.AdvancedAtomicTest.settle;
import static io.stratus.core.AdvancedAtomicTest.smallAdvancedMessages;
import static io.stratus.core.AdvancedAtomicTest.touch;
import static io.stratus.core.AtomicRecoveryTest.KEYS;
import static io.stratus.core.AtomicRecoveryTest.applied;
import static io.stratus.core.AtomicRecoveryTest.wideRound;
import static io.stratus.core.BasicProtocolTest.load;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.CommitFailedException;
import io.stratus.TransactionConflictException;
import io.stratus.TransactionTimeoutException;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.decorate.FaultInterceptor;
import io.stratus.cloudapi.decorate.FaultPlan;
import io.stratus.cloudapi.decorate.ScriptedCrashPoints;
import io.stratus.cloudapi.decorate.SimulatedCrashException;
import io.stratus.cloudapi.inprocess.QueueBehavior;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.cloudapi.time.SystemScheduler;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.StorageLayout;
import java.time.Duration;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A client of an isolating protocol dies inside a commit too large for one message, and another
 * client recovers (paper 000, Algorithms 5 and 6 under Algorithm 9): dead between its log messages
 * and its commit record, the transaction is a loser — nothing of it is ever read, its log messages
 * are deleted and its locks lapse with their lease; dead after its commit record, it is a winner —
 * the next client past the atomic timeout archives and validates it, and read-only transactions
 * see all of it at once, before any checkpoint (under two-phase locking, transactions that lock
 * what they read wait for the dead client's locks to lapse).
 */
@ExtendWith(SeedExtension.class)
class IsolationRecoveryTest {

  private static DatabaseConfig.Builder config(Fixture f, ProtocolKind kind, String client) {
    return f.config().protocol(kind).clientId(client).checkpointExecutor(new ManualExecutor());
  }

  /** How many of round 1's records a read-only transaction sees. */
  private static int readOnly(Database reader) {
    return reader.read(
        tx -> {
          int n = 0;
          for (int k = 1; k <= KEYS; k++) {
            if (("w1-" + k)
                .equals(
                    tx.read("items", Key.of((long) k * 30)).map(Fixture::string).orElse(null))) {
              n++;
            }
          }
          return n;
        });
  }

  /**
   * A handle closed right after a commit (a process about to exit) waits for the lock releases
   * the commit sent without waiting: here every release takes 300 ms to be answered, and another
   * client writes the record the moment the handle is closed.
   */
  @ParameterizedTest
  @EnumSource(names = {"SNAPSHOT_ISOLATION", "SERIALIZABLE_SNAPSHOT", "TWO_PHASE_LOCKING"})
  void closingAHandleReleasesTheLocksOfItsLastCommit(ProtocolKind kind, @Seed long seed) {
    try (Fixture f = new Fixture(seed);
        SystemScheduler scheduler = new SystemScheduler()) {
      Database b = f.open(config(f, kind, "b"));
      load(b, 50);
      FaultPlan slowReleases =
          FaultPlan.builder()
              .delay(
                  FaultPlan.Selector.operations(Operation.LOCK_RELEASE),
                  1.0,
                  Duration.ofMillis(300))
              .build();
      Database a =
          f.open(
              f.config(new FaultInterceptor(slowReleases, seed, scheduler))
                  .protocol(kind)
                  .clientId("a")
                  .checkpointExecutor(new ManualExecutor()));
      touch(a, 30, "a");
      a.close();
      b.run(
          RetryPolicy.builder().maxAttempts(1).build(),
          tx -> {
            tx.update("items", Key.of(30L), Fixture.bytes(BasicProtocolTest.read(b, 30) + "+b"));
            return null;
          });
      assertThat(BasicProtocolTest.read(b, 30)).isEqualTo("a+b");
    }
  }

  /**
   * Every send of a commit's records to the archive loses its reply (the records arrive, the
   * writer cannot know): the commit is durable and returns normally, holding its locks and its
   * unvalidated commit id. The writer's next begin sends the records again, validates the id and
   * releases the locks, so another client reads the commit and writes its record at once, with
   * no clock moved towards the atomic timeout; the duplicate in the archive changes nothing.
   */
  @ParameterizedTest
  @EnumSource(names = {"SNAPSHOT_ISOLATION", "SERIALIZABLE_SNAPSHOT", "TWO_PHASE_LOCKING"})
  void aCommitWhoseArchiveSendFailedIsArchivedByTheWritersNextBegin(
      ProtocolKind kind, @Seed long seed) {
    try (Fixture f = new Fixture(seed);
        SystemScheduler scheduler = new SystemScheduler()) {
      Database b = f.open(config(f, kind, "b"));
      load(b, 50);
      String archive = new StorageLayout(Fixture.DB).archivePrefix();
      FaultPlan.Builder lost = FaultPlan.builder();
      for (int n = 1; n <= 4; n++) { // every attempt of one send
        lost.onNthCall(Operation.ADVANCED_QUEUE_SEND, archive, n, FaultPlan.Fault.loseReply());
      }
      Database a =
          f.open(
              f.config(new FaultInterceptor(lost.build(), seed, scheduler))
                  .protocol(kind)
                  .clientId("a")
                  .checkpointExecutor(new ManualExecutor()));
      touch(a, 30, "a");
      assertThatThrownBy(() -> touch(b, 30, "too early"))
          .as("its locks are held until it is archived")
          .isInstanceOf(TransactionConflictException.class);
      touch(a, 31, "a"); // its begin archives the first commit again
      b.run(
          RetryPolicy.builder().maxAttempts(1).build(),
          tx -> {
            tx.update("items", Key.of(30L), Fixture.bytes(BasicProtocolTest.read(b, 30) + "+b"));
            return null;
          });
      assertThat(BasicProtocolTest.read(b, 30)).isEqualTo("a+b");
      assertThat(BasicProtocolTest.read(b, 31)).isEqualTo("a");
      settle(f, b);
      Database late = f.open(config(f, kind, "late"));
      assertThat(BasicProtocolTest.read(late, 30)).isEqualTo("a+b");
    }
  }

  /**
   * A commit whose reads are refused before its commit record (the first committer's check, the
   * serializable check, the fence of the key it inserts) fails retryably: nothing was
   * sent, so the outcome is known. Its commit id is validated and its locks released, so the
   * retry commits at once and another client reads it, with no clock moved.
   */
  @ParameterizedTest
  @EnumSource(names = {"SNAPSHOT_ISOLATION", "SERIALIZABLE_SNAPSHOT", "TWO_PHASE_LOCKING"})
  void aReadRefusedBeforeTheCommitRecordFailsTheCommitRetryably(
      ProtocolKind kind, @Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database b = f.open(config(f, kind, "b"));
      load(b, 50);
      FaultPlan refused =
          FaultPlan.builder()
              .unavailable(
                  FaultPlan.Selector.operations(
                      Operation.ADVANCED_QUEUE_RECEIVE, Operation.COUNTER_HIGHEST_VALIDATED),
                  1.0)
              .build();
      SwitchedFaults faults = new SwitchedFaults(new FaultInterceptor(refused, seed, f.clock));
      Database a =
          f.open(
              f.config(faults)
                  .protocol(kind)
                  .clientId("a")
                  .checkpointExecutor(new ManualExecutor()));
      try (Transaction tx = a.begin()) {
        tx.create("items", Key.of(100L), Fixture.bytes("a"));
        touch(b, 30, "b"); // a commit after its snapshot, for its checks to read
        faults.switchTo(true);
        assertThatThrownBy(tx::commit)
            .isInstanceOfSatisfying(
                CommitFailedException.class, e -> assertThat(e.isRetryable()).isTrue());
      }
      faults.switchTo(false);
      assertThat(faults.injected()).isPositive();
      assertThat(a.stats().unknownCommits()).isZero();
      a.run(
          RetryPolicy.builder().maxAttempts(1).build(),
          tx -> {
            tx.create("items", Key.of(100L), Fixture.bytes("a"));
            return null;
          });
      assertThat(BasicProtocolTest.read(b, 100)).isEqualTo("a");
    }
  }

  /**
   * A two-step commit whose log messages, or whose commit record, the advanced queue refuses
   * fails retryably with nothing sent that counts: its commit id is validated and its locks
   * released at once, so another client writes the same records with one attempt and no clock
   * moved, and the writer's next snapshot is not held back.
   */
  @ParameterizedTest
  @EnumSource(names = {"SNAPSHOT_ISOLATION", "SERIALIZABLE_SNAPSHOT", "TWO_PHASE_LOCKING"})
  void aRefusedSendBeforeTheCommitRecordReleasesEverything(ProtocolKind kind, @Seed long seed) {
    for (String queue : new String[] {LOG, COMMIT}) {
      try (Fixture f = new Fixture(seed, true, QueueBehavior.reliable(), smallAdvancedMessages())) {
        Database b = f.open(config(f, kind, "b"));
        load(b, 200);
        FaultPlan refused =
            FaultPlan.builder()
                .onNthCall(Operation.ADVANCED_QUEUE_SEND, queue, 1, FaultPlan.Fault.unavailable())
                .build();
        Database a =
            f.open(
                f.config(new FaultInterceptor(refused, seed, f.clock))
                    .protocol(kind)
                    .clientId("a")
                    .checkpointExecutor(new ManualExecutor()));
        assertThatThrownBy(() -> wideRound(a, 1))
            .as("%s refused", queue)
            .isInstanceOfSatisfying(
                CommitFailedException.class, e -> assertThat(e.isRetryable()).isTrue());
        b.run(
            RetryPolicy.builder().maxAttempts(1).build(),
            tx -> {
              tx.update("items", Key.of(30L), Fixture.bytes("b"));
              return null;
            });
        assertThat(BasicProtocolTest.read(a, 30)).as("after %s refused", queue).isEqualTo("b");
        wideRound(a, 2);
        assertThat(applied(b, 2)).as("after %s refused", queue).isEqualTo(KEYS);
        assertThat(applied(f.open(config(f, kind, "reader")), 1)).isZero();
      }
    }
  }

  @ParameterizedTest
  @EnumSource(names = {"SNAPSHOT_ISOLATION", "SERIALIZABLE_SNAPSHOT", "TWO_PHASE_LOCKING"})
  void aCrashBetweenLogMessagesAndCommitRecordLeavesNothing(ProtocolKind kind, @Seed long seed) {
    try (Fixture f = new Fixture(seed, true, QueueBehavior.reliable(), smallAdvancedMessages())) {
      Database b = f.open(config(f, kind, "b"));
      load(b, 200);
      ScriptedCrashPoints crash = new ScriptedCrashPoints().arm("isolation.after-log", 1);
      Database a = f.open(config(f, kind, "a").crashPoints(crash));
      assertThatThrownBy(() -> wideRound(a, 1)).isInstanceOf(SimulatedCrashException.class);
      assertThat(messages(f, LOG)).as("the log messages of two steps").isPositive();
      assertThat(messages(f, COMMIT)).isZero();
      assertThatThrownBy(() -> touch(b, 30, "while locked"))
          .as("the dead client's locks still hold")
          .isInstanceOf(TransactionConflictException.class);
      f.clock.advance(Duration.ofSeconds(121)); // past the lease of its locks and commit id
      touch(b, 30, "after");
      touch(b, 150, "x"); // a commit's recovery check deletes the orphans
      assertThat(messages(f, LOG)).as("orphans deleted").isZero();
      Database reader = f.open(config(f, kind, "reader"));
      assertThat(applied(reader, 1)).as("none of it").isZero();
      assertThat(BasicProtocolTest.read(reader, 30)).isEqualTo("after");
    }
  }

  @ParameterizedTest
  @EnumSource(names = {"SNAPSHOT_ISOLATION", "SERIALIZABLE_SNAPSHOT", "TWO_PHASE_LOCKING"})
  void aCrashAfterTheCommitRecordIsRecoveredWhole(ProtocolKind kind, @Seed long seed) {
    try (Fixture f = new Fixture(seed, true, QueueBehavior.reliable(), smallAdvancedMessages())) {
      Database b = f.open(config(f, kind, "b"));
      load(b, 200);
      ScriptedCrashPoints crash = new ScriptedCrashPoints().arm("isolation.after-commit-record", 1);
      Database a = f.open(config(f, kind, "a").crashPoints(crash));
      assertThatThrownBy(() -> wideRound(a, 1)).isInstanceOf(SimulatedCrashException.class);
      assertThat(messages(f, COMMIT)).isEqualTo(1);
      f.clock.advance(Duration.ofSeconds(61)); // past the atomic timeout
      touch(b, 1, "recovering"); // its begin recovers the stale commit record
      Database reader = f.open(config(f, kind, "reader"));
      assertThat(readOnly(reader)).as("all of it, before any checkpoint").isEqualTo(KEYS);
      f.clock.advance(Duration.ofSeconds(61)); // its locks lapse too (2PL reads wait for that)
      touch(b, 30, "next");
      b.admin().checkpointAll();
      assertThat(applied(f.open(config(f, kind, "late")), 1)).isEqualTo(KEYS - 1);
    }
  }

  /**
   * A client that stops between taking its commit id and finishing its commit holds the counter
   * back: another client's next begin (whose snapshot must include its own later commit) fails
   * retryably with a message naming the cause, the held commit id and how long it can last (the
   * isolation lease, or the atomic timeout once recovery can finish it); past the lease the
   * counter moves on and begins work again.
   */
  @org.junit.jupiter.api.Test
  void aStoppedClientsCommitIdStallsBeginsWithAMessageNamingCauseAndDuration(@Seed long seed) {
    ProtocolKind kind = ProtocolKind.SNAPSHOT_ISOLATION;
    try (Fixture f = new Fixture(seed, true, QueueBehavior.reliable(), smallAdvancedMessages())) {
      Database b = f.open(config(f, kind, "b"));
      load(b, 200);
      ScriptedCrashPoints crash = new ScriptedCrashPoints().arm("isolation.after-log", 1);
      Database a = f.open(config(f, kind, "a").crashPoints(crash));
      assertThatThrownBy(() -> wideRound(a, 1)).isInstanceOf(SimulatedCrashException.class);
      touch(b, 31, "after the stop"); // a commit id above the one the stopped client holds

      assertThatThrownBy(() -> b.begin().close())
          .isInstanceOfSatisfying(
              TransactionTimeoutException.class,
              e -> {
                assertThat(e.isRetryable()).isTrue();
                assertThat(e.getMessage())
                    .contains("was taken and not validated")
                    .contains("client that took it stopped")
                    .contains("at most 120.0 s after it was taken")
                    .contains("isolation lease")
                    .contains("atomic timeout (60.0 s)")
                    .contains("retry");
              });
      f.clock.advance(Duration.ofSeconds(121));
      assertThat(BasicProtocolTest.read(b, 31)).isEqualTo("after the stop");
    }
  }
}
