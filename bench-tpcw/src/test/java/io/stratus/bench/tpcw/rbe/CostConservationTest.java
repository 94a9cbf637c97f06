package io.stratus.bench.tpcw.rbe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.stratus.CheckpointSummary;
import io.stratus.bench.tpcw.bookstore.BookstoreSchema;
import io.stratus.bench.tpcw.bookstore.DataGenerator;
import io.stratus.bench.tpcw.bookstore.Scale;
import io.stratus.bench.tpcw.bookstore.StratusBookstore;
import io.stratus.bench.tpcw.workload.Mix;
import io.stratus.bench.tpcw.workload.ResponseStats;
import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.decorate.CloudMeter;
import io.stratus.cloudapi.decorate.Decorators;
import io.stratus.cloudapi.decorate.MeterSnapshot;
import io.stratus.cloudapi.decorate.MeteringInterceptor;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.cloudapi.time.ManualClock;
import io.stratus.core.Database;
import io.stratus.core.DatabaseConfig;
import io.stratus.protocols.ProtocolKind;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Cost is conserved over a run of the real bookstore: everything the measurement interval commits
 * is applied by the drain before the run ends, and every cloud call the run makes is charged
 * exactly once, to an interaction or to the background the interactions pay for.
 */
@ExtendWith(SeedExtension.class)
class CostConservationTest {

  @ParameterizedTest
  @EnumSource(
      value = ProtocolKind.class,
      names = {"BASIC", "ATOMIC", "ADVANCED_ATOMIC"})
  void theDrainAppliesWhatTheIntervalCommittedAndEveryCallIsChargedOnce(
      ProtocolKind protocol, @Seed long seed) {
    ManualClock clock = new ManualClock();
    InProcessCloud cloud = InProcessCloud.builder().clock(clock).seed(seed).build();
    InteractionAttribution attribution = new InteractionAttribution();
    CloudMeter all = new CloudMeter();
    CloudServices services =
        Decorators.wrap(cloud.services(), attribution, new MeteringInterceptor(all));
    // Background checkpoints are held back and never run: only the drain applies the queues.
    ConcurrentLinkedQueue<Runnable> held = new ConcurrentLinkedQueue<>();
    DatabaseConfig config =
        BookstoreSchema.configure(DatabaseConfig.builder(services, "db/tpcw"))
            .protocol(protocol)
            .clock(clock)
            .pageSize(8192)
            .checkpointExecutor(held::add)
            .build();
    try (Database db = Database.open(config)) {
      Scale scale = new Scale(100, 1, 30);
      new DataGenerator(db, scale, seed, clock).load();
      AtomicReference<CheckpointSummary> drained = new AtomicReference<>();
      MeterSnapshot before = all.snapshot();
      InteractionAttribution.Usage usageBefore = attribution.snapshot();

      EmulatorReport report =
          ObservedMixTest.countMode(Mix.ORDERING, 2, 150, seed)
              .attribution(attribution)
              .drain(() -> drained.set(db.admin().checkpointAll()))
              .build()
              .run(new StratusBookstore(db, scale, clock, seed));

      MeterSnapshot run = all.snapshot().minus(before);
      InteractionAttribution.Usage usage = attribution.snapshot().minus(usageBefore);
      ResponseStats update = report.update();
      assertThat(update.count()).as("interactions that wrote").isPositive();
      assertThat(drained.get().recordsApplied()).as("records the drain applied").isPositive();
      assertThat(report.drain().requests()).isPositive();
      assertThat(report.background()).isEqualTo(usage.backgroundMeasure().plus(report.drain()));
      // Nothing is left for later: a further pass finds no record to apply.
      assertThat(db.admin().checkpointAll().recordsApplied()).as("left after the drain").isZero();
      // Every call of the run is in exactly one meter, and the report charges the measured
      // interactions exactly their own calls plus the whole background.
      long direct = report.directUsage().values().stream().mapToLong(MeterSnapshot::requests).sum();
      assertThat(
              direct
                  + report.backgroundRequests()
                  + usage.warmUp().requests()
                  + usage.backgroundWarmUp().requests()
                  + usage.backgroundOutside().requests())
          .isEqualTo(run.requests());
      ResponseStats total = report.total();
      double charged = total.requestsPerInteraction() * (total.count() + total.errors());
      assertThat(charged).isCloseTo(direct + report.backgroundRequests(), within(1e-6));
      double groups =
          update.requestsPerInteraction() * (update.count() + update.errors())
              + report.read().requestsPerInteraction()
                  * (report.read().count() + report.read().errors());
      assertThat(groups).isCloseTo(charged, within(1e-6));
    }
  }
}
