package io.stratus.bench.tpcw.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

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
import io.stratus.bench.tpcw.workload.ResponseStats;
import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.decorate.CloudMeter;
import io.stratus.cloudapi.decorate.Decorators;
import io.stratus.cloudapi.decorate.MeterSnapshot;
import io.stratus.cloudapi.decorate.MeteringInterceptor;
import io.stratus.cloudapi.decorate.OperationStats;
import io.stratus.cloudapi.decorate.PriceTables;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.cloudapi.time.ManualClock;
import io.stratus.core.Database;
import io.stratus.core.DatabaseConfig;
import io.stratus.core.IndexPlacement;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.ProtocolOption;
import io.stratus.protocols.log.PuQueues;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The cost per WI charges what a run cost, once and fully, as paper 000 counts it: every request
 * of the measurement interval (the interactions' own and the background's, the drain included),
 * the application server's rent and, at today's prices, the coordination ensemble's rent when the
 * run used it. The per-interaction figures add up to the totals, so the per-type and per-record
 * figures compare protocols on the same money.
 *
 * <p>A real bookstore on the in-process cloud; its clock, and the emulator's, move 20 ms per
 * interaction, so the interval is known exactly. Background checkpoints are held back, so the
 * drain applies everything.
 */
@ExtendWith(SeedExtension.class)
class CostPerWiConservationTest {
  private static final String DATABASE = "db/tpcw";
  private static final Set<Operation> COORDINATION =
      EnumSet.of(
          Operation.LOCK_SET_TIMEOUT,
          Operation.LOCK_ACQUIRE_EXCLUSIVE,
          Operation.LOCK_ACQUIRE_SHARED,
          Operation.LOCK_ACQUIRE_INTENTION,
          Operation.LOCK_RELEASE,
          Operation.LOCK_GET_TIMEOUT,
          Operation.COUNTER_SET_TIMEOUT,
          Operation.COUNTER_INCREMENT,
          Operation.COUNTER_VALIDATE,
          Operation.COUNTER_HIGHEST_VALIDATED,
          Operation.ADVANCED_QUEUE_CREATE,
          Operation.ADVANCED_QUEUE_DELETE,
          Operation.ADVANCED_QUEUE_LIST,
          Operation.ADVANCED_QUEUE_SEND,
          Operation.ADVANCED_QUEUE_RECEIVE,
          Operation.ADVANCED_QUEUE_DELETE_MESSAGE,
          Operation.ADVANCED_QUEUE_DELETE_BY_KEY);

  @ParameterizedTest
  @EnumSource(
      value = ProtocolKind.class,
      names = {"NAIVE", "BASIC", "SNAPSHOT_ISOLATION"})
  void everyRequestOnceAndTheMachinesAreChargedAndTheInteractionsAddUp(
      ProtocolKind protocol, @Seed long seed) {
    conserved(protocol, IndexPlacement.CLIENT_TREE, seed);
  }

  /**
   * The same with the bookstore's indexes in the index service (the paper's SDB configurations):
   * its puts, deletes and query pages are requests of the interactions that made them, charged
   * once, at SimpleDB's 2008 and DynamoDB's 2026 prices.
   */
  @ParameterizedTest
  @EnumSource(
      value = ProtocolKind.class,
      names = {"NAIVE", "BASIC", "SNAPSHOT_ISOLATION"})
  void withServiceHeldIndexesEveryRequestOnceAndTheInteractionsAddUp(
      ProtocolKind protocol, @Seed long seed) {
    MeterSnapshot run = conserved(protocol, IndexPlacement.INDEX_SERVICE, seed);
    long indexCalls = 0;
    for (Map.Entry<Operation, OperationStats> e : run.perOperation().entrySet()) {
      if (e.getKey().service() == Operation.Service.INDEX) {
        indexCalls += e.getValue().calls();
      }
    }
    assertThat(indexCalls).as("the interactions probed and wrote the service").isPositive();
    assertThat(run.cost(PriceTables.paper2008()).doubleValue()).isPositive();
  }

  /** Runs the bookstore with its indexes where {@code placement} says; returns the run's usage. */
  private static MeterSnapshot conserved(
      ProtocolKind protocol, IndexPlacement placement, long seed) {
    ManualClock clock = new ManualClock();
    try (InProcessCloud cloud = InProcessCloud.builder().clock(clock).seed(seed).build()) {
      InteractionAttribution attribution = new InteractionAttribution();
      AppliedRecords records = new AppliedRecords(new PuQueues(DATABASE).prefix(), attribution);
      CloudMeter all = new CloudMeter();
      CloudServices services =
          Decorators.wrap(cloud.services(), attribution, records, new MeteringInterceptor(all));
      ConcurrentLinkedQueue<Runnable> held = new ConcurrentLinkedQueue<>();
      DatabaseConfig.Builder config =
          BookstoreSchema.configure(DatabaseConfig.builder(services, DATABASE))
              .protocol(protocol)
              .clock(clock)
              .pageSize(8192);
      if (protocol.accepts(ProtocolOption.CHECKPOINTS)) {
        config.checkpointExecutor(held::add);
      }
      try (Database db = Database.open(config.build())) {
        Scale scale = new Scale(100, 1, 30);
        BookstoreSchema.install(db, placement);
        new DataGenerator(db, scale, seed, clock).load();
        MeterSnapshot before = all.snapshot();

        EmulatorReport report =
            Emulator.builder()
                .sessionThinkTimeMean(Duration.ZERO)
                .mix(Mix.ORDERING)
                .ebs(2)
                .seed(seed)
                .interactionsPerBrowser(120)
                .warmUp(Duration.ZERO)
                .measure(Duration.ofDays(1))
                .nanoTime(() -> clock.millis() * 1_000_000)
                .attribution(attribution)
                .drain(
                    () -> DrainPasses.run(db, protocol, records, ArchiveDrainTurn.firstInOneJvm(0)))
                .build()
                .run(advancing(new StratusBookstore(db, scale, clock, seed), clock));
        MeterSnapshot run = all.snapshot().minus(before);

        // One application server (the ec2 placement), as the harness charges it.
        ServerCost machines = ServerCost.forRun(1, report);
        ResponseStats total = report.total();
        assertThat(total.attempts()).isEqualTo(240);
        double hours = report.measuredSeconds() / 3600;
        assertThat(hours).as("the interval, 20 ms per interaction").isPositive();
        long coordination = coordinationCalls(run);
        assertThat(machines.coordinationRequests()).isEqualTo(coordination);
        assertThat(coordination > 0)
            .as("%s uses the coordination service", protocol)
            .isEqualTo(protocol != ProtocolKind.NAIVE);
        double rent2008 = hours * 0.10 * 1000;
        double rent2026 = hours * (0.0816 + (coordination > 0 ? 3 * 0.0408 : 0)) * 1000;

        // Total charged = every request of the run, once, + the server + the ensemble.
        double requests2008 = run.cost(PriceTables.paper2008()).doubleValue() * 1000;
        double requests2026 = run.cost(PriceTables.aws2026()).doubleValue() * 1000;
        double charged2008 = 0;
        double charged2026 = 0;
        double requestsCharged2008 = 0;
        long written = 0;
        double millis = 0;
        for (Interaction wi : Interaction.values()) {
          ResponseStats row = report.perInteraction().get(wi);
          CostPerWi cost = CostPerWi.of(row, machines);
          if (row.attempts() > 0) {
            charged2008 += cost.total2008() * row.attempts();
            charged2026 += cost.total2026() * row.attempts();
            requestsCharged2008 += cost.requests2008() * row.attempts();
          }
          written += row.recordsWritten();
          millis += row.meanMillis() * row.count();
        }
        assertThat(charged2008).isCloseTo(requests2008 + rent2008, within(1e-9));
        assertThat(charged2026).isCloseTo(requests2026 + rent2026, within(1e-9));
        assertThat(requestsCharged2008).isCloseTo(requests2008, within(1e-9));

        // The totals are the interactions added up: cost per WI, records, response time.
        CostPerWi all2 = CostPerWi.of(total, machines);
        assertThat(all2.total2008() * total.attempts()).isCloseTo(charged2008, within(1e-9));
        assertThat(all2.total2026() * total.attempts()).isCloseTo(charged2026, within(1e-9));
        assertThat(all2.machines2008() * total.attempts()).isCloseTo(rent2008, within(1e-9));
        assertThat(total.recordsWritten()).isEqualTo(written).isPositive();
        assertThat(total.meanMillis() * total.count()).isCloseTo(millis, within(1e-6));
        // Only interactions that wrote wrote records: per record written, the update group pays
        // its own requests and the whole background.
        ResponseStats update = report.update();
        assertThat(update.recordsWritten()).isEqualTo(written);
        assertThat(report.read().recordsWritten()).isZero();
        assertThat(update.milliDollarsPerRecordWritten2008() * written)
            .isCloseTo(update.milliDollars2008() * update.attempts(), within(1e-9));
        assertThat(
                CostPerWi.of(update, machines).total2008() * update.attempts()
                    + CostPerWi.of(report.read(), machines).total2008() * report.read().attempts())
            .isCloseTo(charged2008, within(1e-9));
        return run;
      }
    }
  }

  private static long coordinationCalls(MeterSnapshot usage) {
    long calls = 0;
    for (Map.Entry<Operation, OperationStats> e : usage.perOperation().entrySet()) {
      if (COORDINATION.contains(e.getKey())) {
        calls += e.getValue().calls();
      }
    }
    return calls;
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
