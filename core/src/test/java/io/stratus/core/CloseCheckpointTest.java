package io.stratus.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.decorate.Call;
import io.stratus.cloudapi.decorate.CallInterceptor;
import io.stratus.cloudapi.decorate.FaultInterceptor;
import io.stratus.cloudapi.decorate.FaultPlan;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.cloudapi.time.ManualClock;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.checkpoint.CheckpointScheduler;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A graceful close settles what the handle committed, within the close timeout: a loader that
 * exits, or a web application that restarts under a new client id, leaves nothing for the next
 * handle to wait for. A close that cannot finish its checkpoints returns within its time and says
 * what it left.
 */
@ExtendWith(SeedExtension.class)
class CloseCheckpointTest {
  private static final int RECORDS = 40;

  /**
   * The loader's background work never runs (its executor is never driven), as in a process that
   * exits right after its last commit: only its close can apply the records.
   */
  @ParameterizedTest
  @EnumSource(
      value = ProtocolKind.class,
      names = {"NAIVE"},
      mode = EnumSource.Mode.EXCLUDE)
  void aHandleOpenedAfterALoaderClosedSeesEveryRecordAtOnce(ProtocolKind kind, @Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database loader =
          f.open(
              f.config()
                  .protocol(kind)
                  .clientId("loader")
                  .checkpointExecutor(new ManualExecutor())
                  .indexExtractor("items", "byCategory", Fixture.BY_CATEGORY));
      loader.createCollection("items");
      loader.createIndex("items", "byCategory", Fixture.BY_CATEGORY);
      for (int i = 0; i < RECORDS; i++) {
        create(loader, i);
      }
      loader.close();

      // No time passes: a restarted process, under a new client id, reads at once.
      Database next =
          f.open(f.config().protocol(kind).clientId("restarted").checkpointExecutor(task -> {}));
      assertThat(Fixture.itemsByKey(next)).as("records").hasSize(RECORDS);
      List<Record> entries = next.read(tx -> tx.probeRange("items", "byCategory", KeyRange.all()));
      assertThat(entries).as("index entries").hasSize(RECORDS);
      assertThat(loader.stats().owedCheckpoints()).as("nothing left owed").isZero();
    }
  }

  /**
   * Every receive from a pending-update queue fails and takes 3 s: the close gives up when its
   * time is out, reports the queues it leaves, and nothing is lost — the next checkpoint of
   * another handle applies them.
   */
  @ParameterizedTest
  @EnumSource(
      value = ProtocolKind.class,
      names = {"BASIC", "MONOTONIC", "ATOMIC", "ADVANCED_ATOMIC"})
  void aCloseWhoseCheckpointsCannotFinishReturnsInTimeAndReportsWhatIsLeft(
      ProtocolKind kind, @Seed long seed) {
    Duration closeTimeout = Duration.ofSeconds(10);
    Duration perReceive = Duration.ofSeconds(3);
    try (Fixture f = new Fixture(seed)) {
      SwitchedFaults faults =
          new SwitchedFaults(
              new FaultInterceptor(
                  FaultPlan.builder()
                      .unavailable(
                          FaultPlan.Selector.operations(Operation.QUEUE_RECEIVE)
                              .withTargetPrefix(Fixture.DB + "/pu/"),
                          1.0)
                      .build(),
                  seed,
                  f.clock));
      SlowReceives slow = new SlowReceives(f.clock, perReceive);
      Database loader =
          f.open(
              f.config(slow, faults)
                  .protocol(kind)
                  .clientId("loader")
                  .closeTimeout(closeTimeout)
                  .checkpointExecutor(new ManualExecutor()));
      loader.createCollection("items");
      for (int i = 0; i < RECORDS; i++) {
        create(loader, i);
      }
      faults.switchTo(true);
      slow.on = true;
      Instant closing = f.clock.instant();
      List<String> warnings = warningsOf(CheckpointScheduler.class, loader::close);
      Duration took = Duration.between(closing, f.clock.instant());

      assertThat(took)
          .as("within the close timeout and one call")
          .isLessThanOrEqualTo(closeTimeout.plus(perReceive));
      assertThat(faults.injected()).as("the close tried").isPositive();
      assertThat(loader.stats().owedCheckpoints()).as("what the close left").isEqualTo(1);
      assertThat(warnings)
          .as("the close says what it left, and why")
          .anySatisfy(
              w ->
                  assertThat(w)
                      .contains("closing the handle left", Fixture.DB + "/pu/t/", "close timeout"));

      faults.switchTo(false);
      slow.on = false;
      Database other =
          f.open(f.config().protocol(kind).clientId("other").checkpointExecutor(task -> {}));
      other.admin().checkpointAll();
      assertThat(Fixture.itemsByKey(other)).hasSize(RECORDS);
    }
  }

  /** Checkpoints that fail at once, while no time passes: the close gives up all the same. */
  @ParameterizedTest
  @EnumSource(
      value = ProtocolKind.class,
      names = {"BASIC", "MONOTONIC"})
  void aCloseWhoseCheckpointsKeepFailingGivesUp(ProtocolKind kind, @Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      SwitchedFaults faults =
          new SwitchedFaults(
              new FaultInterceptor(
                  FaultPlan.builder()
                      .fail(
                          FaultPlan.Selector.operations(Operation.QUEUE_RECEIVE)
                              .withTargetPrefix(Fixture.DB + "/pu/"),
                          1.0)
                      .build(),
                  seed,
                  f.clock));
      List<Duration> pauses = new CopyOnWriteArrayList<>();
      Database loader =
          f.open(
              f.config(faults)
                  .protocol(kind)
                  .clientId("loader")
                  .checkpointExecutor(new ManualExecutor())
                  .retryPolicy(RetryPolicy.builder().sleeper(pauses::add).build()));
      loader.createCollection("items");
      create(loader, 1);
      faults.switchTo(true);
      loader.close();
      assertThat(loader.stats().owedCheckpoints()).isEqualTo(1);
      assertThat(faults.injected()).isPositive();
      // Between its rounds the close waited as the handle's retry policy waits, on its sleeper
      // (here: not at all), never on a clock of its own.
      assertThat(pauses)
          .containsExactly(
              Duration.ofMillis(50),
              Duration.ofMillis(100),
              Duration.ofMillis(200),
              Duration.ofMillis(400));
    }
  }

  /** The warnings {@code source}'s logger logs while {@code action} runs. */
  private static List<String> warningsOf(Class<?> source, Runnable action) {
    List<String> warnings = new CopyOnWriteArrayList<>();
    Handler handler =
        new Handler() {
          @Override
          public void publish(LogRecord r) {
            if (r.getLevel().intValue() >= Level.WARNING.intValue()) {
              warnings.add(r.getMessage());
            }
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    Logger logger = Logger.getLogger(source.getName());
    logger.addHandler(handler);
    try {
      action.run();
    } finally {
      logger.removeHandler(handler);
    }
    return warnings;
  }

  private static void create(Database db, long key) {
    db.run(
        tx -> {
          tx.create("items", Key.of(key), Fixture.bytes("v" + key));
          return null;
        });
  }

  /** Receives from pending-update queues take {@code each} of the manual clock while on. */
  private static final class SlowReceives implements CallInterceptor {
    private final ManualClock clock;
    private final Duration each;
    volatile boolean on;

    SlowReceives(ManualClock clock, Duration each) {
      this.clock = clock;
      this.each = each;
    }

    @Override
    public <T> CompletableFuture<T> intercept(
        Call<T> call, Supplier<CompletableFuture<T>> proceed) {
      if (on
          && call.operation() == Operation.QUEUE_RECEIVE
          && call.target().startsWith(Fixture.DB + "/pu/")) {
        clock.advance(each);
      }
      return proceed.get();
    }
  }
}
