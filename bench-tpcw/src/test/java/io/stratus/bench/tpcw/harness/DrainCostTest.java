package io.stratus.bench.tpcw.harness;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.bench.tpcw.bookstore.BookstoreSchema;
import io.stratus.bench.tpcw.bookstore.DataGenerator;
import io.stratus.bench.tpcw.bookstore.Scale;
import io.stratus.bench.tpcw.bookstore.StratusBookstore;
import io.stratus.bench.tpcw.rbe.Emulator;
import io.stratus.bench.tpcw.rbe.EmulatorReport;
import io.stratus.bench.tpcw.rbe.InteractionAttribution;
import io.stratus.bench.tpcw.workload.Bookstore;
import io.stratus.bench.tpcw.workload.BrowserSession;
import io.stratus.bench.tpcw.workload.Interaction;
import io.stratus.bench.tpcw.workload.InteractionOutcome;
import io.stratus.bench.tpcw.workload.Mix;
import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.decorate.CloudMeter;
import io.stratus.cloudapi.decorate.Decorators;
import io.stratus.cloudapi.decorate.MeterSnapshot;
import io.stratus.cloudapi.decorate.MeteringInterceptor;
import io.stratus.cloudapi.decorate.PriceTable;
import io.stratus.cloudapi.decorate.PriceTables;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.cloudapi.time.ManualClock;
import io.stratus.core.Database;
import io.stratus.core.DatabaseConfig;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.log.PuQueues;
import java.time.Duration;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The drain at the end of a run charges what the interval left, once: it applies every record the
 * interval committed, visiting each queue its handle owes once at about what a background
 * checkpoint of the interval cost, and every call of the run is charged exactly once. The run is a real bookstore whose handle's
 * clock moves 20 ms per interaction, so that background checkpoints (on a thread of their own)
 * come due several times during the interval, as in a timed run.
 */
@ExtendWith(SeedExtension.class)
class DrainCostTest {
  private static final String DATABASE = "db/tpcw";
  private static final Duration INTERVAL = Duration.ofSeconds(5);

  @ParameterizedTest
  @EnumSource(
      value = ProtocolKind.class,
      names = {"BASIC", "MONOTONIC", "ATOMIC", "ADVANCED_ATOMIC"})
  void theDrainPaysAboutWhatTheIntervalsCheckpointsPaidForTheSameWork(
      ProtocolKind protocol, @Seed long seed) throws Exception {
    ManualClock clock = new ManualClock();
    ExecutorService background = Executors.newSingleThreadExecutor();
    try (InProcessCloud cloud = InProcessCloud.builder().clock(clock).seed(seed).build()) {
      InteractionAttribution attribution = new InteractionAttribution();
      AppliedRecords records = new AppliedRecords(new PuQueues(DATABASE).prefix(), attribution);
      CloudMeter all = new CloudMeter();
      CloudServices services =
          Decorators.wrap(cloud.services(), attribution, records, new MeteringInterceptor(all));
      Scale scale = new Scale(100, 1, 30);
      Database db =
          Database.open(
              BookstoreSchema.configure(DatabaseConfig.builder(services, DATABASE))
                  .protocol(protocol)
                  .clock(clock)
                  .pageSize(8192)
                  .checkpointInterval(INTERVAL)
                  .checkpointSeed(seed)
                  .checkpointExecutor(background)
                  .build());
      new DataGenerator(db, scale, seed, clock).load();
      db.admin().checkpointAll(); // the load's own queues, if any, are not the interval's
      MeterSnapshot before = all.snapshot();
      long checkpointsBefore = db.stats().checkpointsRun();
      AtomicLong owedAtDrain = new AtomicLong();
      AtomicLong checkpointsAtDrain = new AtomicLong();
      AtomicReference<DrainPasses> drained = new AtomicReference<>();

      EmulatorReport report =
          Emulator.builder()
              .sessionThinkTimeMean(Duration.ZERO)
              .mix(Mix.ORDERING)
              .ebs(4)
              .seed(seed)
              .interactionsPerBrowser(1_000)
              .warmUp(Duration.ZERO)
              .measure(Duration.ofDays(1))
              .attribution(attribution)
              .drain(
                  () -> {
                    owedAtDrain.set(db.stats().owedCheckpoints());
                    checkpointsAtDrain.set(db.stats().checkpointsRun());
                    drained.set(
                        DrainPasses.run(db, protocol, records, ArchiveDrainTurn.firstInOneJvm(0)));
                  })
              .build()
              .run(advancing(new StratusBookstore(db, scale, clock, seed), clock));

      // The drain applied what was left, and nothing remains for anyone else.
      DrainPasses drain = drained.get();
      assertThat(drain.quiescent()).isTrue();
      assertThat(drain.recordsApplied()).as("records the drain applied").isPositive();
      try (Database after =
          Database.open(
              BookstoreSchema.configure(DatabaseConfig.builder(cloud.services(), DATABASE))
                  .protocol(protocol)
                  .clock(clock)
                  .pageSize(8192)
                  .build())) {
        assertThat(after.admin().checkpointAll().recordsApplied())
            .as("left after the drain")
            .isZero();
      }

      // Every call of the run is charged once: to an interaction or to the background.
      MeterSnapshot run = all.snapshot().minus(before);
      long direct = report.directUsage().values().stream().mapToLong(MeterSnapshot::requests).sum();
      assertThat(direct + report.backgroundRequests()).isEqualTo(run.requests());

      // A checkpoint costs a part per run (lock, receives, page, release) and a part per record
      // (messages received and deleted). The drain pays at most twice what the interval's
      // background checkpoints paid for the same work, by whichever part dominates: per record
      // (a drain of long queues) or per queue it owed (a drain of short ones, whose checkpoints
      // apply less than an interval's worth each). The goal is 1.5 times, which the default run
      // reports (docs/tpcw.md); here the checkpoints run on a thread of their own beside the
      // browsers, so how many records each finds varies from run to run of one seed (1.6 times
      // in one of four full builds), and the bound is looser. The old drain paid 16 times.
      PriceTable prices = PriceTables.paper2008();
      MeterSnapshot steady = report.background().minus(report.drain());
      long steadyRecords = records.duringInterval();
      long checkpoints = checkpointsAtDrain.get() - checkpointsBefore;
      assertThat(steadyRecords).as("records the interval's checkpoints applied").isPositive();
      assertThat(checkpoints).as("the interval's background checkpoints").isPositive();
      double steadyCost = steady.cost(prices).doubleValue();
      double sameWork =
          Math.max(
              steadyCost / steadyRecords * drain.recordsApplied(),
              steadyCost / checkpoints * owedAtDrain.get());
      assertThat(report.drain().cost(prices).doubleValue())
          .as(
              "drain $ (%d queues owed, %d records, %d requests) against the interval's rate"
                  + " (%d checkpoints, %d records, %d requests)",
              owedAtDrain.get(),
              drain.recordsApplied(),
              report.drain().requests(),
              checkpoints,
              steadyRecords,
              steady.requests())
          .isLessThanOrEqualTo(2 * sameWork);
    } finally {
      background.shutdownNow();
    }
  }

  /**
   * The drain's records are those of every receive started after the interval, as its requests
   * are every call started after it: a background checkpoint still running when the browsers stop
   * is charged to the drain, so the records it applies are the drain's too, not the interval's.
   * (When only the close's records were counted, a slow run's last checkpoints raised the drain's
   * cost per record and lowered the interval's.)
   */
  @Test
  void recordsOfCheckpointsRunAfterTheIntervalAreTheDrains(@Seed long seed) {
    ManualClock clock = new ManualClock();
    ConcurrentLinkedQueue<Runnable> held = new ConcurrentLinkedQueue<>();
    try (InProcessCloud cloud = InProcessCloud.builder().clock(clock).seed(seed).build()) {
      InteractionAttribution attribution = new InteractionAttribution();
      AppliedRecords records = new AppliedRecords(new PuQueues(DATABASE).prefix(), attribution);
      CloudServices services = Decorators.wrap(cloud.services(), attribution, records);
      Scale scale = new Scale(100, 1, 30);
      Database db =
          Database.open(
              BookstoreSchema.configure(DatabaseConfig.builder(services, DATABASE))
                  .protocol(ProtocolKind.BASIC)
                  .clock(clock)
                  .pageSize(8192)
                  .checkpointInterval(INTERVAL)
                  .checkpointSeed(seed)
                  .checkpointExecutor(held::add)
                  .build());
      new DataGenerator(db, scale, seed, clock).load();
      db.admin().checkpointAll();
      long atIntervalEnd = records.count();
      AtomicLong late = new AtomicLong();
      AtomicReference<DrainPasses> drained = new AtomicReference<>();

      Emulator.builder()
          .sessionThinkTimeMean(Duration.ZERO)
          .mix(Mix.ORDERING)
          .ebs(2)
          .seed(seed)
          .interactionsPerBrowser(400)
          .warmUp(Duration.ZERO)
          .measure(Duration.ofDays(1))
          .attribution(attribution)
          .drain(
              () -> {
                // The checkpoints the interval scheduled run only now, after it: late ones.
                long before = records.count();
                for (Runnable r = held.poll(); r != null; r = held.poll()) {
                  r.run();
                }
                late.set(records.count() - before);
                drained.set(
                    DrainPasses.run(
                        db, ProtocolKind.BASIC, records, ArchiveDrainTurn.firstInOneJvm(0)));
              })
          .build()
          .run(advancing(new StratusBookstore(db, scale, clock, seed), clock));

      assertThat(late.get()).as("records the late checkpoints applied").isPositive();
      assertThat(records.duringInterval()).as("records applied in the interval").isZero();
      assertThat(drained.get().recordsApplied())
          .as("the drain's records: the late checkpoints' and the close's")
          .isEqualTo(records.count() - atIntervalEnd)
          .isEqualTo(records.afterInterval());
    }
  }

  /** {@code store} on a clock that moves 20 ms after every interaction. */
  private static Bookstore advancing(Bookstore store, ManualClock clock) {
    return new Bookstore() {
      @Override
      public BrowserSession newSession(long seed) {
        return store.newSession(seed);
      }

      @Override
      public InteractionOutcome execute(Interaction interaction, BrowserSession session) {
        try {
          return store.execute(interaction, session);
        } finally {
          clock.advance(Duration.ofMillis(20));
        }
      }
    };
  }
}
