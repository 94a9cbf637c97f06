package io.stratus.core;

import static io.stratus.core.BasicProtocolTest.basic;
import static io.stratus.core.BasicProtocolTest.load;
import static io.stratus.core.BasicProtocolTest.read;
import static io.stratus.core.BasicProtocolTest.update;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.CheckpointSummary;
import io.stratus.InvalidConfigurationException;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.ServiceUnavailableException;
import io.stratus.cloudapi.SupportsQueueInspection;
import io.stratus.cloudapi.decorate.Call;
import io.stratus.cloudapi.decorate.CallInterceptor;
import io.stratus.cloudapi.decorate.LatencyInterceptor;
import io.stratus.cloudapi.decorate.LatencyProfiles;
import io.stratus.cloudapi.decorate.ScriptedCrashPoints;
import io.stratus.cloudapi.decorate.SimulatedCrashException;
import io.stratus.cloudapi.inprocess.QueueBehavior;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.protocols.CheckpointWrites;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.Settings;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The basic protocol under stalls, crashes and latency. */
@ExtendWith(SeedExtension.class)
class BasicFailureTest {
  static final String ROOT = Fixture.DB + "/c/items/root";

  /** Runs {@code hook} once, just before the first put of {@code uri} goes out. */
  static final class StallFirstPut implements CallInterceptor {
    private final String uri;
    volatile Runnable hook;

    StallFirstPut(String uri) {
      this.uri = uri;
    }

    @Override
    public <T> CompletableFuture<T> intercept(Call<T> call, Supplier<CompletableFuture<T>> go) {
      boolean put =
          call.operation() == Operation.STORAGE_PUT
              || call.operation() == Operation.STORAGE_PUT_IF_VERSION;
      Runnable h = hook;
      if (put && call.target().equals(uri) && h != null) {
        hook = null;
        h.run();
      }
      return go.get();
    }
  }

  /**
   * Checkpointer A's put of the page is delayed in the network until its lease has lapsed and B
   * has checkpointed the page with B's own update: with conditional puts A's stale put fails and
   * nothing is lost; with timing only (the papers' mode) A's put overwrites B's update.
   */
  @Test
  void aStalledCheckpointerLosesNothingWithConditionalPutsButDoesWithTimingOnly(@Seed long seed) {
    for (CheckpointWrites mode :
        List.of(CheckpointWrites.CONDITIONAL, CheckpointWrites.TIMING_ONLY)) {
      try (Fixture f = new Fixture(seed)) {
        ManualExecutor ex = new ManualExecutor();
        StallFirstPut stall = new StallFirstPut(ROOT);
        Database a =
            f.open(
                f.config(stall)
                    .protocol(io.stratus.protocols.ProtocolKind.BASIC)
                    .clientId("a")
                    .checkpointExecutor(ex)
                    .checkpointWrites(mode));
        Database b = f.open(basic(f, "b", ex).checkpointWrites(mode));
        load(a, 10);
        update(a, 1, "from-a");
        stall.hook =
            () -> {
              f.clock.advance(Duration.ofSeconds(31)); // A's lease lapses meanwhile
              update(b, 2, "from-b");
              assertThat(b.admin().checkpointAll().recordsApplied())
                  .isEqualTo(2); // A's message too
            };
        a.admin().checkpointAll();
        assertThat(stall.hook).isNull();
        BasicProtocolTest.quiesce(f, b);
        Database fresh = f.open(basic(f, "reader", ex).checkpointWrites(mode));
        assertThat(read(fresh, 1)).isEqualTo("from-a");
        if (mode == CheckpointWrites.CONDITIONAL) {
          assertThat(read(fresh, 2)).as("no lost update").isEqualTo("from-b");
        } else {
          assertThat(read(fresh, 2))
              .as("the lost update of timing-only checkpoints")
              .isEqualTo("v0-2");
        }
      }
    }
  }

  /** A checkpointer stalled past its lease before the put does not put at all. */
  @Test
  void aCheckpointPastItsLeaseDoesNotPut(@Seed long seed) {
    try (Fixture f = new Fixture(seed, false)) { // no conditional puts: timing only
      ManualExecutor ex = new ManualExecutor();
      ScriptedCrashPoints none = new ScriptedCrashPoints();
      Database b = f.open(basic(f, "b", ex));
      io.stratus.cloudapi.CrashPoints stallAfterReceive =
          point -> {
            none.reach(point);
            if (point.equals("checkpoint.page.after-receive") && none.reached(point) == 1) {
              f.clock.advance(Duration.ofSeconds(26)); // 30 s lease - 5 s propagation: too late
            }
          };
      Database a = f.open(basic(f, "a", ex).crashPoints(stallAfterReceive));
      load(a, 10);
      update(a, 1, "x");
      long before = f.services().storage().get(ROOT).join().orElseThrow().version().hashCode();
      CheckpointSummary failed = a.admin().checkpointAll();
      assertThat(failed.failures()).isPositive();
      assertThat(failed.failureReasons())
          .as("why, for the first failures: %s", failed)
          .isNotEmpty()
          .hasSizeLessThanOrEqualTo(CheckpointSummary.MAX_FAILURE_REASONS)
          .allSatisfy(why -> assertThat(why).isNotBlank());
      assertThat(failed.toString()).contains(failed.failureReasons().get(0));
      assertThat(f.services().storage().get(ROOT).join().orElseThrow().version().hashCode())
          .isEqualTo(before);
      BasicProtocolTest.quiesce(f, b);
      assertThat(read(b, 1)).isEqualTo("x");
    }
  }

  /** Fails the puts of {@code uri} as unavailable (nothing written) while armed. */
  static final class RefusePuts implements CallInterceptor {
    private final String uri;
    volatile boolean armed;

    RefusePuts(String uri) {
      this.uri = uri;
    }

    @Override
    public <T> CompletableFuture<T> intercept(Call<T> call, Supplier<CompletableFuture<T>> go) {
      boolean put =
          call.operation() == Operation.STORAGE_PUT
              || call.operation() == Operation.STORAGE_PUT_IF_VERSION;
      if (armed && put && call.target().equals(uri)) {
        return CompletableFuture.failedFuture(new ServiceUnavailableException("refused put"));
      }
      return go.get();
    }
  }

  /**
   * A checkpoint that fails after its receive (its put is refused) hands its messages back where
   * the queue can: the next checkpoint, by another client and with no time passing, applies them.
   * Where the queue cannot, they stay hidden until the visibility timeout (the lock timeout) ends.
   */
  @Test
  void aFailedCheckpointsMessagesAreAppliedByTheNextOneAtOnceWhenHandedBack(@Seed long seed) {
    for (boolean handBack : new boolean[] {true, false}) {
      try (Fixture f =
          new Fixture(seed, true, QueueBehavior.reliable(), c -> c.visibilityChange(handBack))) {
        ManualExecutor ex = new ManualExecutor();
        RefusePuts refuse = new RefusePuts(ROOT);
        Database a =
            f.open(
                f.config(refuse).protocol(ProtocolKind.BASIC).clientId("a").checkpointExecutor(ex));
        Database b = f.open(basic(f, "b", ex));
        load(b, 10);
        update(b, 1, "x");
        refuse.armed = true;
        CheckpointSummary failed = a.admin().checkpointAll();
        assertThat(failed.failures()).as("handBack=%s", handBack).isPositive();
        assertThat(failed.recordsApplied()).isZero();

        CheckpointSummary next = b.admin().checkpointAll();
        if (handBack) {
          assertThat(next.recordsApplied()).as("handed back: applied at once").isEqualTo(1);
        } else {
          assertThat(next.recordsApplied()).as("hidden until the lock timeout").isZero();
          f.clock.advance(Duration.ofSeconds(31));
          assertThat(b.admin().checkpointAll().recordsApplied()).isEqualTo(1);
        }
        assertThat(read(f.open(basic(f, "reader", ex)), 1)).isEqualTo("x");
      }
    }
  }

  static final List<String> CRASH_POINTS =
      List.of(
          "basic.before-send", "basic.after-send",
          "checkpoint.tree.after-lock", "checkpoint.tree.after-receive",
          "checkpoint.tree.after-put", "checkpoint.tree.after-delete",
          "checkpoint.page.after-lock", "checkpoint.page.after-receive",
          "checkpoint.page.after-put", "checkpoint.page.after-delete");

  /** Whatever step a client dies at, nothing whose commit returned is lost. */
  @Test
  void aCrashAtAnyStepLosesNothingCommitted(@Seed long seed) {
    for (String point : CRASH_POINTS) {
      try (Fixture f = new Fixture(seed)) {
        ManualExecutor ex = new ManualExecutor();
        ScriptedCrashPoints crash =
            new ScriptedCrashPoints().arm(point, point.startsWith("basic.") ? 3 : 1);
        Database a = f.open(basic(f, "a", ex).crashPoints(crash));
        Database b = f.open(basic(f, "b", ex));
        load(b, 100);
        Map<Long, String> committed = new LinkedHashMap<>();
        try {
          for (int i = 0; i < 4; i++) {
            try (Transaction tx = a.begin()) {
              tx.update("items", Key.of((long) i * 30), Fixture.bytes("u" + i));
              tx.create("items", Key.of(1000L + i), Fixture.bytes("n" + i));
              tx.commit();
            }
            committed.put((long) i * 30, "u" + i);
            committed.put(1000L + i, "n" + i);
          }
          a.admin().checkpointAll();
        } catch (SimulatedCrashException expected) {
          // the client died here
        }
        assertThat(crash.crashed()).as("crashed at %s", point).isTrue();
        BasicProtocolTest.quiesce(f, b);
        for (Map.Entry<Long, String> e : committed.entrySet()) {
          assertThat(read(b, e.getKey()))
              .as("key %d after a crash at %s", e.getKey(), point)
              .isEqualTo(e.getValue());
        }
      }
    }
  }

  /**
   * A checkpoint whose receive returns a message together with a duplicate of it (two copies, one
   * message id) applies the records once and deletes both copies. A copy left behind comes back
   * after its visibility timeout and, without counters, puts the key's older value back over a
   * later update. The queue duplicates every first delivery; client a receives the message and
   * dies before applying it, so that b's receive returns the original and its duplicate together.
   */
  @Test
  void aDuplicateReceivedWithItsOriginalIsDeletedWithIt(@Seed long seed) {
    try (Fixture f = new Fixture(seed, true, new QueueBehavior(false, 0, 1.0))) {
      ManualExecutor ex = new ManualExecutor();
      ScriptedCrashPoints crash = new ScriptedCrashPoints().arm("checkpoint.page.after-receive", 1);
      Database a = f.open(basic(f, "a", ex).crashPoints(crash));
      Database b = f.open(basic(f, "b", ex));
      load(b, 10);
      update(b, 1, "first");
      assertThatThrownBy(a.admin()::checkpointAll).isInstanceOf(SimulatedCrashException.class);
      f.clock.advance(Duration.ofSeconds(31)); // a's lock lapses; both copies are visible
      assertThat(b.admin().checkpointAll().recordsApplied()).isEqualTo(1);
      String queue = f.services().simpleQueues().listQueues(Fixture.DB + "/pu/p/").join().get(0);
      assertThat(
              SupportsQueueInspection.of(f.services().simpleQueues())
                  .inspect(queue, 0)
                  .join()
                  .messages())
          .as("copies of the applied message left in %s", queue)
          .isZero();
      update(b, 1, "second");
      f.clock.advance(Duration.ofSeconds(20));
      assertThat(b.admin().checkpointAll().recordsApplied()).isEqualTo(1);
      // Past the visibility timeout of b's first receive, before that of its second.
      f.clock.advance(Duration.ofSeconds(11));
      b.admin().checkpointAll();
      f.clock.advance(Fixture.TTL.plusSeconds(1));
      Database reader = f.open(basic(f, "reader", ex));
      assertThat(read(reader, 1)).isEqualTo("second");
    }
  }

  /** Switches the latency interceptor on when the test says. */
  static final class Switchable implements CallInterceptor {
    final CallInterceptor inner;
    volatile boolean on;

    Switchable(CallInterceptor inner) {
      this.inner = inner;
    }

    @Override
    public <T> CompletableFuture<T> intercept(Call<T> call, Supplier<CompletableFuture<T>> go) {
      return on ? inner.intercept(call, go) : go.get();
    }
  }

  /** 20 records on 20 pages commit after one queue round trip: the sends go out together. */
  @Test
  void aCommitTakesOneQueueRoundTripWhateverItsSize(@Seed long seed) throws Exception {
    try (Fixture f = new Fixture(seed)) {
      ManualExecutor ex = new ManualExecutor();
      Switchable latency = new Switchable(new LatencyInterceptor(LatencyProfiles.ec2(), f.clock));
      Database db =
          f.open(
              f.config(latency)
                  .protocol(io.stratus.protocols.ProtocolKind.BASIC)
                  .clientId("w")
                  .checkpointExecutor(ex));
      load(db, 1000);
      Transaction warm = db.begin();
      for (int i = 0; i < 20; i++) {
        warm.update("items", Key.of(i * 50L), Fixture.bytes("w" + i)); // creates the queues
      }
      warm.commit();
      Transaction tx = db.begin();
      for (int i = 0; i < 20; i++) {
        tx.update("items", Key.of(i * 50L), Fixture.bytes("x" + i)); // pool hits: no calls
      }
      latency.on = true;
      Thread[] committer = new Thread[1];
      ExecutorService thread =
          Executors.newSingleThreadExecutor(
              r -> {
                committer[0] = new Thread(r, "committer");
                return committer[0];
              });
      try {
        CompletableFuture<Void> commit = CompletableFuture.runAsync(tx::commit, thread);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        int waiting = 0;
        // Every send is issued before the committer first blocks on one: wait for that moment.
        while (System.nanoTime() < deadline && !commit.isDone()) {
          waiting = f.clock.pendingWaits();
          Thread t = committer[0];
          if (waiting >= 10 && t != null && t.getState() == Thread.State.WAITING) {
            break;
          }
          Thread.onSpinWait();
        }
        assertThat(waiting).as("sends in flight at once").isGreaterThanOrEqualTo(10);
        assertThat(commit).isNotDone();
        f.clock.advance(Duration.ofMillis(20)); // one SQS send on EC2
        commit.get(10, TimeUnit.SECONDS);
        assertThat(f.clock.pendingWaits()).isZero();
      } finally {
        latency.on = false;
        thread.shutdownNow();
      }
      assertThat(db.admin().checkpointAll().recordsApplied()).isPositive();
      assertThat(read(db, 50)).isEqualTo("x1");
    }
  }

  @Test
  void settingsAreValidated(@Seed long seed) {
    try (Fixture f = new Fixture(seed, false)) {
      DatabaseConfig.Builder b = f.config();
      assertThatThrownBy(() -> b.checkpointLockTimeout(Duration.ZERO))
          .isInstanceOf(InvalidConfigurationException.class);
      assertThatThrownBy(() -> b.propagationPeriod(Duration.ofSeconds(-1)))
          .isInstanceOf(InvalidConfigurationException.class);
      assertThatThrownBy(() -> b.maxRecordsPerCheckpoint(0))
          .isInstanceOf(InvalidConfigurationException.class);
      assertThatThrownBy(() -> b.writerLanes(0)).isInstanceOf(InvalidConfigurationException.class);
      assertThatThrownBy(() -> b.writerLanes(Settings.MAX_WRITER_LANES + 1))
          .isInstanceOf(InvalidConfigurationException.class);
      assertThat(f.config().protocol(ProtocolKind.MONOTONIC).writerLanes(1).build().writerLanes())
          .isEqualTo(1);
      assertThatThrownBy(
              () ->
                  f.config()
                      .protocol(ProtocolKind.BASIC)
                      .checkpointLockTimeout(Duration.ofSeconds(2))
                      .build())
          .isInstanceOf(InvalidConfigurationException.class)
          // The message names the setting the user chose, and the default it clashes with.
          .hasMessageStartingWith("checkpointLockTimeout(PT2S) must be longer")
          .hasMessageContaining("(PT5S, the default)");
      assertThatThrownBy(
              () ->
                  f.config()
                      .protocol(ProtocolKind.ATOMIC)
                      .propagationPeriod(Duration.ofSeconds(40))
                      .build())
          .isInstanceOf(InvalidConfigurationException.class)
          .hasMessageStartingWith("propagationPeriod(PT40S) must be shorter")
          .hasMessageContaining("(PT30S, the default)");
      assertThatThrownBy(
              () ->
                  f.open(
                      f.config()
                          .protocol(io.stratus.protocols.ProtocolKind.BASIC)
                          .checkpointWrites(CheckpointWrites.CONDITIONAL)))
          .isInstanceOf(io.stratus.InvalidRequestException.class);
    }
  }
}
