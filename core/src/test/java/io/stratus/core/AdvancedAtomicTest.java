package io.stratus.core;

import static io.stratus.core.AtomicRecoveryTest.KEYS;
import static io.stratus.core.AtomicRecoveryTest.applied;
import static io.stratus.core.AtomicRecoveryTest.wideRound;
import static io.stratus.core.BasicProtocolTest.load;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.CheckpointSummary;
import io.stratus.CommitFailedException;
import io.stratus.DatabaseInRecoveryException;
import io.stratus.DeadLetter;
import io.stratus.cloudapi.AdvancedMessage;
import io.stratus.cloudapi.AdvancedQueueService;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.CloudLimits;
import io.stratus.cloudapi.LockGrant;
import io.stratus.cloudapi.decorate.ScriptedCrashPoints;
import io.stratus.cloudapi.decorate.SimulatedCrashException;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.cloudapi.inprocess.QueueBehavior;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.StorageLayout;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Advanced atomicity (paper 000, section 5.3): a crashed client's transaction is finished by any
 * other client once it is older than the atomic timeout — before the next commit of that client
 * — commits are refused while another client holds the recovery lock, a transaction that never
 * sent its commit record leaves nothing behind, and a recoverer that dies half-way is followed by
 * another.
 */
@ExtendWith(SeedExtension.class)
class AdvancedAtomicTest {
  static final String LOG = new StorageLayout(Fixture.DB).advancedAtomicLog();
  static final String COMMIT = new StorageLayout(Fixture.DB).advancedAtomicCommits();

  /** Advanced-queue messages this small make a transaction of four records take two steps. */
  static final int SMALL = 220;

  static UnaryOperator<InProcessCloud.Builder> smallAdvancedMessages() {
    return b -> b.limits(CloudLimits.aws().toBuilder().maxAdvancedMessageSize(SMALL).build());
  }

  static DatabaseConfig.Builder advanced(Fixture f, String client, ManualExecutor ex) {
    return f.config()
        .protocol(ProtocolKind.ADVANCED_ATOMIC)
        .clientId(client)
        .checkpointExecutor(ex);
  }

  static int messages(Fixture f, String queue) {
    return CloudFutures.await(f.services().advancedQueues().receiveAfterId(queue, 1000, 0)).size();
  }

  /** A client commits one small transaction (which also runs the recovery check). */
  static void touch(Database db, long key, String value) {
    try (Transaction tx = db.begin()) {
      tx.update("items", Key.of(key), Fixture.bytes(value));
      tx.commit();
    }
  }

  /** Checkpoints until nothing is pending, past every lease; then past the TTL. */
  static void settle(Fixture f, Database db) {
    for (int i = 0; i < 3; i++) {
      f.clock.advance(Duration.ofSeconds(31));
      db.admin().checkpointAll();
    }
    f.clock.advance(Fixture.TTL.plusSeconds(1));
  }

  /**
   * A client dies right after its commit record (two-step: log messages, then commit record),
   * before propagating. Another client's next commit, once the atomic timeout has passed, finds
   * the stale commit record, takes the recovery lock and propagates the whole transaction.
   */
  @Test
  void aStaleCommitRecordIsRecoveredByTheNextCommitOfAnyClient(@Seed long seed) {
    for (boolean twoStep : new boolean[] {false, true}) {
      try (Fixture f =
          new Fixture(
              seed, true, QueueBehavior.reliable(), twoStep ? smallAdvancedMessages() : b -> b)) {
        ManualExecutor ex = new ManualExecutor();
        Database b = f.open(advanced(f, "b", ex));
        load(b, 200);
        ScriptedCrashPoints crash = new ScriptedCrashPoints().arm("aatomic.after-commit-record", 1);
        Database a = f.open(advanced(f, "a", new ManualExecutor()).crashPoints(crash));
        assertThatThrownBy(() -> wideRound(a, 1)).isInstanceOf(SimulatedCrashException.class);
        assertThat(messages(f, COMMIT)).as("its commit record").isEqualTo(1);
        assertThat(messages(f, LOG)).as("its log messages").isEqualTo(twoStep ? KEYS : 0);

        touch(b, 150, "young"); // within the atomic timeout: not recovered yet
        ex.runAll(); // b's own commit propagated and cleaned up
        assertThat(messages(f, COMMIT)).isEqualTo(1);

        f.clock.advance(Duration.ofSeconds(61));
        touch(b, 150, "old"); // the recovery check finds it stale and recovers it
        ex.runAll();
        assertThat(messages(f, COMMIT)).as("commit record recovered").isZero();
        assertThat(messages(f, LOG)).as("log messages deleted").isZero();
        ex.runAll();
        settle(f, b);
        Database reader = f.open(advanced(f, "reader", ex));
        assertThat(applied(reader, 1)).as("all of it (two steps: %s)", twoStep).isEqualTo(KEYS);
      }
    }
  }

  /**
   * A client dies between its log messages and its commit record: the transaction is a loser.
   * Nothing of it is ever applied, and its log messages are deleted once they are older than the
   * atomic timeout.
   */
  @Test
  void logMessagesWithoutACommitRecordAreDeletedAndNeverApplied(@Seed long seed) {
    try (Fixture f = new Fixture(seed, true, QueueBehavior.reliable(), smallAdvancedMessages())) {
      ManualExecutor ex = new ManualExecutor();
      Database b = f.open(advanced(f, "b", ex));
      load(b, 200);
      ScriptedCrashPoints crash = new ScriptedCrashPoints().arm("aatomic.after-log", 1);
      Database a = f.open(advanced(f, "a", new ManualExecutor()).crashPoints(crash));
      assertThatThrownBy(() -> wideRound(a, 1)).isInstanceOf(SimulatedCrashException.class);
      assertThat(messages(f, LOG)).isEqualTo(KEYS);
      f.clock.advance(Duration.ofSeconds(61));
      touch(b, 150, "x");
      assertThat(messages(f, LOG)).as("orphans deleted").isZero();
      ex.runAll();
      settle(f, b);
      assertThat(applied(f.open(advanced(f, "reader", ex)), 1)).isZero();
    }
  }

  /**
   * While another client holds the recovery lock and a stale commit record waits, a commit is
   * refused before it sends anything, with a retryable error; once the lock is free, the next
   * commit recovers the stale transaction and goes through.
   */
  @Test
  void commitsAreRefusedWhileAnotherClientRecovers(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      ManualExecutor ex = new ManualExecutor();
      Database b = f.open(advanced(f, "b", ex));
      load(b, 200);
      ScriptedCrashPoints crash = new ScriptedCrashPoints().arm("aatomic.after-commit-record", 1);
      Database a = f.open(advanced(f, "a", new ManualExecutor()).crashPoints(crash));
      assertThatThrownBy(() -> wideRound(a, 1)).isInstanceOf(SimulatedCrashException.class);
      f.clock.advance(Duration.ofSeconds(61));
      LockGrant held =
          CloudFutures.await(f.services().locks().acquireExclusive(COMMIT, "another-recoverer"));
      assertThat(held.granted()).isTrue();

      assertThatThrownBy(() -> touch(b, 150, "refused"))
          .isInstanceOf(DatabaseInRecoveryException.class)
          .satisfies(e -> assertThat(((CommitFailedException) e).isRetryable()).isTrue())
          .hasMessageContaining("another client holds the recovery lock")
          .hasMessageContaining("If that client stopped too, its lock lapses at most 30.0 s");
      assertThat(messages(f, COMMIT)).as("nothing sent; the stale record waits").isEqualTo(1);

      CloudFutures.await(f.services().locks().release(COMMIT, "another-recoverer"));
      touch(b, 150, "accepted");
      assertThat(messages(f, COMMIT))
          .as("recovered, and the new commit propagated later")
          .isLessThanOrEqualTo(1);
      ex.runAll();
      settle(f, b);
      Database reader = f.open(advanced(f, "reader", ex));
      assertThat(applied(reader, 1)).isEqualTo(KEYS);
      assertThat(BasicProtocolTest.read(reader, 150)).isEqualTo("accepted");
    }
  }

  /**
   * A recoverer dies after propagating a stale transaction and before deleting it; its lock
   * lapses and a second recoverer propagates it again: applied once, whole, and the newer write
   * of one key made after the first propagation is not overwritten by the repeat.
   */
  @Test
  void aRecovererThatDiesIsFollowedByAnotherWithoutHarm(@Seed long seed) {
    try (Fixture f = new Fixture(seed, true, QueueBehavior.reliable(), smallAdvancedMessages())) {
      ManualExecutor ex = new ManualExecutor();
      Database c = f.open(advanced(f, "c", ex));
      load(c, 200);
      ScriptedCrashPoints crashA = new ScriptedCrashPoints().arm("aatomic.after-commit-record", 1);
      Database a = f.open(advanced(f, "a", new ManualExecutor()).crashPoints(crashA));
      assertThatThrownBy(() -> wideRound(a, 1)).isInstanceOf(SimulatedCrashException.class);
      f.clock.advance(Duration.ofSeconds(61));

      ScriptedCrashPoints crashB =
          new ScriptedCrashPoints().arm("aatomic.recovery.after-propagate", 1);
      Database b = f.open(advanced(f, "b", new ManualExecutor()).crashPoints(crashB));
      assertThatThrownBy(() -> touch(b, 150, "b")).isInstanceOf(SimulatedCrashException.class);
      assertThat(messages(f, COMMIT)).as("the dead recoverer left it").isEqualTo(1);
      settle(f, c); // applies the first propagation; c's own recovery check has not run yet

      f.clock.advance(Duration.ofSeconds(61)); // the dead recoverer's lock lapses
      touch(c, 30, "newer"); // recovers again, then writes key 30 after it
      ex.runAll();
      settle(f, c);
      Database reader = f.open(advanced(f, "reader", ex));
      assertThat(BasicProtocolTest.read(reader, 30))
          .as("the repeat did not overwrite")
          .isEqualTo("newer");
      for (int k = 2; k <= KEYS; k++) {
        assertThat(BasicProtocolTest.read(reader, (long) k * 30)).isEqualTo("w1-" + k);
      }
      assertThat(messages(f, COMMIT)).isZero();
      assertThat(messages(f, LOG)).isZero();
    }
  }

  /** A commit whose log messages took too long sends no commit record: nothing is applied. */
  @Test
  void aTwoStepCommitPastItsDeadlineSendsNoCommitRecord(@Seed long seed) {
    try (Fixture f = new Fixture(seed, true, QueueBehavior.reliable(), smallAdvancedMessages())) {
      ManualExecutor ex = new ManualExecutor();
      Database a =
          f.open(
              advanced(f, "a", ex)
                  .crashPoints(
                      point -> {
                        if (point.equals("aatomic.after-log")) {
                          f.clock.advance(
                              Duration.ofSeconds(50)); // past three quarters of the atomic timeout
                        }
                      }));
      load(a, 200);
      assertThatThrownBy(() -> wideRound(a, 1))
          .isInstanceOf(CommitFailedException.class)
          .satisfies(e -> assertThat(((CommitFailedException) e).isRetryable()).isTrue());
      assertThat(messages(f, COMMIT)).isZero();
      ex.runAll();
      settle(f, a);
      assertThat(applied(f.open(advanced(f, "reader", ex)), 1)).isZero();
    }
  }

  /**
   * Damaged messages are never dropped silently nor applied in part: a garbled log message under a
   * committed transaction's key leaves that transaction (commit record and log) in place and
   * unapplied, a garbled commit record is set aside into the dead-letter area, and neither stops
   * other commits.
   */
  @Test
  void damagedMessagesAreLeftInPlaceAndNeverAppliedInPart(@Seed long seed) {
    try (Fixture f = new Fixture(seed, true, QueueBehavior.reliable(), smallAdvancedMessages())) {
      ManualExecutor ex = new ManualExecutor();
      Database b = f.open(advanced(f, "b", ex));
      load(b, 200);
      ScriptedCrashPoints crash = new ScriptedCrashPoints().arm("aatomic.after-commit-record", 1);
      Database a = f.open(advanced(f, "a", new ManualExecutor()).crashPoints(crash));
      assertThatThrownBy(() -> wideRound(a, 1)).isInstanceOf(SimulatedCrashException.class);
      AdvancedQueueService q = f.services().advancedQueues();
      long key = CloudFutures.await(q.receiveAfterId(COMMIT, 1, 0)).get(0).key();
      byte[] garbage = "not a log message".getBytes(StandardCharsets.UTF_8);
      CloudFutures.await(q.send(LOG, garbage, key));
      CloudFutures.await(q.send(COMMIT, garbage, 7));
      f.clock.advance(Duration.ofSeconds(61));

      touch(b, 150, "goes-through");
      ex.runAll();
      assertThat(messages(f, COMMIT))
          .as("the transaction's commit record (the garbled one is set aside)")
          .isEqualTo(1);
      assertThat(b.admin().deadLetters())
          .singleElement()
          .satisfies(e -> assertThat(e.queue()).isEqualTo(COMMIT));
      assertThat(messages(f, LOG)).as("its log messages and the garbled one").isEqualTo(KEYS + 1);
      settle(f, b);
      Database reader = f.open(advanced(f, "reader", ex));
      assertThat(applied(reader, 1)).as("nothing of a transaction with a damaged message").isZero();
      assertThat(BasicProtocolTest.read(reader, 150)).isEqualTo("goes-through");
    }
  }

  /**
   * Garbage in the shared ATOMIC COMMIT queue is set aside into the dead-letter area with its key
   * (so a replay puts it back as it was), counted and warned about once, and no longer reported
   * as transactions waiting, however often the handle checks and checkpoints.
   */
  @Test
  void garbageInTheCommitQueueIsSetAsideCountedAndWarnedOnce(@Seed long seed) {
    try (Fixture f = new Fixture(seed, true, QueueBehavior.reliable());
        Warnings warnings = new Warnings()) {
      ManualExecutor ex = new ManualExecutor();
      Database b = f.open(advanced(f, "b", ex));
      load(b, 200);
      AdvancedQueueService q = f.services().advancedQueues();
      byte[] garbage = "not a commit record".getBytes(StandardCharsets.UTF_8);
      List<Long> ids = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        ids.add(CloudFutures.await(q.send(COMMIT, garbage, 7)));
      }
      f.clock.advance(Duration.ofSeconds(61));

      for (int round = 0; round < 5; round++) {
        touch(b, 150, "round-" + round);
        ex.runAll();
        CheckpointSummary s = b.admin().checkpointAll();
        assertThat(s.transactionsWaiting()).as("round %s: %s", round, s).isZero();
        f.clock.advance(Duration.ofSeconds(13));
      }
      assertThat(messages(f, COMMIT)).as("garbage left in the queue").isZero();
      assertThat(b.stats().corruptMessages()).isEqualTo(3);
      assertThat(b.stats().deadLettered()).isEqualTo(3);
      for (long id : ids) {
        assertThat(warnings.mentioning("message " + id + " ")).as("warnings of %s", id).hasSize(1);
      }
      List<DeadLetter> dead = b.admin().deadLetters();
      assertThat(dead)
          .hasSize(3)
          .allSatisfy(
              e -> {
                assertThat(e.queue()).isEqualTo(COMMIT);
                assertThat(e.key()).hasValue(7);
                assertThat(e.payload()).isEqualTo(garbage);
              });

      b.admin().replayDeadLetter(dead.get(0));
      List<AdvancedMessage> back = CloudFutures.await(q.receiveAfterId(COMMIT, 10, 0));
      assertThat(back).singleElement().satisfies(m -> assertThat(m.key()).isEqualTo(7));
      assertThat(b.admin().deadLetters()).hasSize(2);
    }
  }

  /** Captures the warnings the protocols log, through java.util.logging (System.Logger's backend). */
  static final class Warnings extends Handler implements AutoCloseable {
    private final Logger logger = Logger.getLogger("io.stratus.protocols");
    private final List<String> lines = new CopyOnWriteArrayList<>();

    Warnings() {
      logger.addHandler(this);
    }

    List<String> mentioning(String text) {
      return lines.stream().filter(l -> l.contains(text)).toList();
    }

    @Override
    public void publish(LogRecord r) {
      if (r.getLevel().intValue() >= java.util.logging.Level.WARNING.intValue()) {
        lines.add(r.getMessage());
      }
    }

    @Override
    public void flush() {}

    @Override
    public void close() {
      logger.removeHandler(this);
    }
  }
}
