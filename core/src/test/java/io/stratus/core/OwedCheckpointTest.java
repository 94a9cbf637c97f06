package io.stratus.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.CommitStateUnknownException;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.decorate.Call;
import io.stratus.cloudapi.decorate.CallInterceptor;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.protocols.ProtocolKind;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A record committed to a page nobody touches again is still checkpointed by its writer: the
 * handle owes its queue a checkpoint and schedules one once the record is older than the
 * checkpoint interval, at its next sweep; with nothing owed it schedules nothing. A debt is
 * cleared only by a run that saw the queue empty after the handle's last send to it.
 */
@ExtendWith(SeedExtension.class)
class OwedCheckpointTest {
  private static final Duration INTERVAL = Duration.ofSeconds(10);

  @ParameterizedTest
  @EnumSource(
      value = ProtocolKind.class,
      names = {"BASIC", "MONOTONIC", "ATOMIC", "ADVANCED_ATOMIC"})
  void aRecordNobodyTouchesAgainIsCheckpointedByItsWriter(ProtocolKind kind, @Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      ManualExecutor background = new ManualExecutor();
      Database writer =
          f.open(
              f.config()
                  .protocol(kind)
                  .clientId("writer")
                  .checkpointInterval(INTERVAL)
                  .checkpointExecutor(background));
      BasicProtocolTest.load(writer, 20);
      BasicProtocolTest.update(writer, 3, "warm");
      background.runAll(); // the writer rule: the page was never checkpointed
      assertThat(writer.stats().owedCheckpoints()).isZero();

      // The page was just checkpointed: the writer rule does not fire for this commit.
      BasicProtocolTest.update(writer, 3, "late");
      background.runAll(); // propagation (atomic protocols); no checkpoint is due yet
      assertThat(writer.stats().owedCheckpoints()).isPositive();

      f.clock.advance(INTERVAL.plusSeconds(1));
      BasicProtocolTest.read(writer, 19); // any activity of the handle sweeps what it owes
      assertThat(background.runAll()).as("the owed checkpoint ran").isPositive();
      assertThat(writer.stats().owedCheckpoints()).isZero();

      f.clock.advance(Fixture.TTL.plusSeconds(1));
      Database reader =
          f.open(f.config().protocol(kind).clientId("reader").checkpointExecutor(task -> {}));
      assertThat(BasicProtocolTest.read(reader, 3)).isEqualTo("late");

      // Nothing owed: however long the handle idles, a sweep has nothing to schedule.
      f.clock.advance(INTERVAL.multipliedBy(100));
      writer.stats();
      assertThat(writer.stats().owedCheckpoints()).isZero();
    }
  }

  /** An operator's flush on the writer's handle pays what it owes: nothing is left for close. */
  @ParameterizedTest
  @EnumSource(
      value = ProtocolKind.class,
      names = {"BASIC", "MONOTONIC", "ATOMIC", "ADVANCED_ATOMIC"})
  void aFlushPaysWhatTheHandleOwes(ProtocolKind kind, @Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database writer =
          f.open(
              f.config()
                  .protocol(kind)
                  .clientId("writer")
                  .checkpointInterval(INTERVAL)
                  .checkpointExecutor(new ManualExecutor()));
      writer.createCollection("items");
      for (int i = 0; i < 5; i++) {
        create(writer, i);
      }
      assertThat(writer.admin().checkpointAll().quiescent()).isTrue();
      assertThat(writer.stats().owedCheckpoints()).isZero();
    }
  }

  /**
   * A handle keeps creating while its owed checkpoint runs: the records it sends after the run's
   * last receive are not the run's, and the handle still owes them (the run used to clear the
   * debt because the debt was older than the run, and a handle that then went idle left them
   * queued for good).
   */
  @ParameterizedTest
  @EnumSource(
      value = ProtocolKind.class,
      names = {"BASIC", "MONOTONIC"})
  void recordsSentWhileTheOwedCheckpointRunsStayOwedUntilApplied(
      ProtocolKind kind, @Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      ManualExecutor background = new ManualExecutor();
      EmptyTreeReceives receives = new EmptyTreeReceives();
      Database writer = openWriter(f, kind, receives, background);
      create(writer, 0);
      f.clock.advance(INTERVAL.plusSeconds(1));
      // The run receives record 0, finds the queue empty, and meanwhile 20 more commits arrive.
      receives.afterTheNextEmptyOne(
          () -> {
            for (int i = 1; i <= 20; i++) {
              create(writer, i);
            }
          });
      readOther(writer); // a sweep: the queue has been owed for longer than the interval
      background.runAll();
      assertThat(receives.hooksRun()).as("the commits came during the run").isEqualTo(1);
      assertThat(writer.stats().owedCheckpoints())
          .as("records sent after the run's last receive are still owed")
          .isEqualTo(1);

      // The handle stays open and idle; its next sweep an interval later applies them.
      f.clock.advance(INTERVAL.plusSeconds(1));
      readOther(writer);
      background.runAll();
      assertThat(writer.stats().owedCheckpoints()).isZero();
      Database reader =
          f.open(f.config().protocol(kind).clientId("reader").checkpointExecutor(task -> {}));
      assertThat(Fixture.itemsByKey(reader)).hasSize(21);
    }
  }

  /** The writer of the debt tests: "items" and "other" created, its receives seen by {@code receives}. */
  private static Database openWriter(
      Fixture f, ProtocolKind kind, EmptyTreeReceives receives, ManualExecutor background) {
    Database writer =
        f.open(
            f.config(receives)
                .protocol(kind)
                .clientId("writer")
                .checkpointInterval(INTERVAL)
                .checkpointExecutor(background));
    writer.createCollection("items");
    writer.createCollection("other");
    return writer;
  }

  /**
   * A receive may come back empty while messages wait (SQS's short polling; the in-process
   * queues' short receives): one empty receive is no proof that the handle's records were applied.
   */
  @ParameterizedTest
  @EnumSource(
      value = ProtocolKind.class,
      names = {"BASIC", "MONOTONIC"})
  void anEmptyReceiveWhileRecordsWaitDoesNotClearTheDebt(ProtocolKind kind, @Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      ManualExecutor background = new ManualExecutor();
      EmptyTreeReceives receives = new EmptyTreeReceives();
      Database writer = openWriter(f, kind, receives, background);
      for (int i = 0; i < 5; i++) {
        create(writer, i);
      }
      f.clock.advance(INTERVAL.plusSeconds(1));
      receives.falselyEmpty(1);
      readOther(writer);
      background.runAll();
      assertThat(receives.falselyEmptied()).as("a receive came back empty").isEqualTo(1);

      Database reader =
          f.open(f.config().protocol(kind).clientId("reader").checkpointExecutor(task -> {}));
      int visible = Fixture.itemsByKey(reader).size();
      assertThat(visible == 5 || writer.stats().owedCheckpoints() == 1)
          .as(
              "the records are applied (%d of 5 visible) or still owed (%d queues owed)",
              visible, writer.stats().owedCheckpoints())
          .isTrue();
      f.clock.advance(INTERVAL.plusSeconds(1));
      readOther(writer);
      background.runAll();
      assertThat(Fixture.itemsByKey(reader)).hasSize(5);
      assertThat(writer.stats().owedCheckpoints()).isZero();
    }
  }

  /**
   * A commit whose sends lost their replies (its records are in the queue, its caller was told
   * "unknown") owes the queue a checkpoint like any other: its records are applied by the
   * writer's next sweep, not left to whoever touches the page next.
   */
  @ParameterizedTest
  @EnumSource(
      value = ProtocolKind.class,
      names = {"BASIC", "MONOTONIC"})
  void recordsOfACommitWithAnUnknownOutcomeAreOwedToo(ProtocolKind kind, @Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      ManualExecutor background = new ManualExecutor();
      LoseReplies lose = new LoseReplies(Fixture.DB + "/pu/");
      Database writer =
          f.open(
              f.config(lose)
                  .protocol(kind)
                  .clientId("writer")
                  .checkpointInterval(INTERVAL)
                  .checkpointExecutor(background));
      writer.createCollection("items");
      writer.createCollection("other");
      create(writer, 0);
      background.runAll(); // the writer rule: the root was never checkpointed
      assertThat(writer.stats().owedCheckpoints()).isZero();

      lose.remaining = 4; // the send and every resend on the committing thread
      assertThatThrownBy(() -> create(writer, 1)).isInstanceOf(CommitStateUnknownException.class);
      lose.remaining = 0;
      background.runAll(); // resends (monotonic), no checkpoint due yet
      assertThat(writer.stats().owedCheckpoints()).as("the unknown commit's queue").isEqualTo(1);

      f.clock.advance(INTERVAL.plusSeconds(1));
      readOther(writer);
      background.runAll();
      assertThat(writer.stats().owedCheckpoints()).isZero();
      Database reader =
          f.open(f.config().protocol(kind).clientId("reader").checkpointExecutor(task -> {}));
      assertThat(Fixture.itemsByKey(reader)).containsOnlyKeys("0", "1");
    }
  }

  private static void create(Database db, long key) {
    db.run(
        tx -> {
          tx.create("items", Key.of(key), Fixture.bytes("v" + key));
          return null;
        });
  }

  private static void readOther(Database db) {
    db.read(tx -> tx.read("other", Key.of(1L)));
  }

  /**
   * Acts on receives from primary-tree queues: runs a hook right after a receive that came back
   * empty, or answers receives with nothing although messages wait. Test-thread use only.
   */
  private static final class EmptyTreeReceives implements CallInterceptor {
    private Runnable hook;
    private int hooksRun;
    private int toEmpty;
    private int emptied;

    void afterTheNextEmptyOne(Runnable hook) {
      this.hook = hook;
    }

    void falselyEmpty(int receives) {
      this.toEmpty = receives;
    }

    int hooksRun() {
      return hooksRun;
    }

    int falselyEmptied() {
      return emptied;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> CompletableFuture<T> intercept(
        Call<T> call, Supplier<CompletableFuture<T>> proceed) {
      if (call.operation() != Operation.QUEUE_RECEIVE || !call.target().contains("/pu/t/")) {
        return proceed.get();
      }
      if (toEmpty > 0) {
        toEmpty--;
        emptied++;
        return CompletableFuture.completedFuture((T) List.of());
      }
      return proceed
          .get()
          .thenApply(
              r -> {
                Runnable h = hook;
                if (h != null && ((List<?>) r).isEmpty()) {
                  hook = null;
                  hooksRun++;
                  h.run();
                }
                return r;
              });
    }
  }
}
