package io.stratus.bench.tpcw.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.stratus.aws.LocalStackFixture;
import io.stratus.bench.tpcw.bookstore.BookstoreSchema;
import io.stratus.bench.tpcw.bookstore.StalenessTracker;
import io.stratus.bench.tpcw.rbe.Emulator;
import io.stratus.bench.tpcw.workload.Mix;
import io.stratus.cloudapi.decorate.MeterSnapshot;
import io.stratus.cloudapi.decorate.PriceTables;
import io.stratus.cloudapi.time.SystemScheduler;
import io.stratus.protocols.ProtocolKind;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs with one process per client on real services shared by the processes: S3 and SQS on
 * LocalStack (found or started by the AWS adapter's fixture), locks and counters on a real
 * ZooKeeper. Two child JVMs each run one application server with its own browsers; the parent
 * loads the bookstore, merges their measurements into the run's one result and audits the stock.
 * The protocol is snapshot isolation, whose drain has a part only one client of a run may run.
 * Each browser runs a fixed number of interactions, so the work is the same on any machine.
 */
class ClientProcessRunTest {
  private static final int EBS = 2;
  private static final long INTERACTIONS_PER_EB = 12;

  private static TestingServer zookeeper;

  @BeforeAll
  static void startZooKeeper() throws Exception {
    zookeeper = new TestingServer(true);
  }

  @AfterAll
  static void stopZooKeeper() throws IOException {
    zookeeper.close();
  }

  @Test
  void twoClientProcessesMakeOneRunThatChargesEveryRequestOnce(@TempDir Path dir)
      throws IOException {
    StringWriter out = new StringWriter();
    SweepResult sweep =
        new TpcwHarness(plan(dir), new PrintWriter(out, true), new PrintWriter(out, true)).run();

    RunResult run = sweep.runs().get(0);
    List<ClientOutcome> outcomes = outcomes(dir);
    assertThat(outcomes).hasSize(2);
    assertThat(ProcessHandle.current().children().filter(ProcessHandle::isAlive))
        .as("every client process has exited")
        .isEmpty();

    // The merged interactions are the children's, each browser's fixed number of them.
    long completed = 0;
    for (ClientOutcome o : outcomes) {
      completed += o.measurements().completed();
    }
    assertThat(run.total().count()).isEqualTo(completed);
    assertThat(run.total().attempts()).as(out.toString()).isEqualTo(2 * EBS * INTERACTIONS_PER_EB);
    assertThat(run.clients())
        .extracting(c -> c.total().count())
        .containsExactly(
            outcomes.get(0).measurements().completed(), outcomes.get(1).measurements().completed());

    // Every request charged is one a child made in the run, counted once: the interactions' own,
    // the background's and each child's drain; the parent's load and audit are not charged.
    MeterSnapshot childrenInRun = MeterSnapshot.empty();
    MeterSnapshot childrenAll = MeterSnapshot.empty();
    for (ClientOutcome o : outcomes) {
      childrenInRun = childrenInRun.plus(o.measurements().calls());
      childrenAll = childrenAll.plus(o.meter());
      assertThat(o.meter().requests())
          .as("a child's meter holds its run's calls and its handle's opening")
          .isGreaterThan(o.measurements().calls().requests());
    }
    assertThat(run.total().requestsPerInteraction() * run.total().attempts())
        .isCloseTo(childrenInRun.requests(), within(1e-6));
    assertThat(run.total().milliDollars2008() * run.total().attempts())
        .isCloseTo(
            childrenInRun.cost(TpcwHarness.paperPrices(run.settings())).doubleValue() * 1000,
            within(1e-9));
    Emulator.ClientsReport perChild =
        Emulator.ClientsReport.of(
            outcomes.stream().map(ClientOutcome::measurements).toList(),
            Mix.SHOPPING,
            PriceTables.paper2008(),
            PriceTables.aws2026());
    long drained = 0;
    for (var r : perChild.perClient()) {
      drained += r.drain().requests();
    }
    assertThat(run.drain().requests()).isEqualTo(drained).isPositive();
    assertThat(run.drain().recordsApplied()).isPositive();
    // The snapshot archive is drained once per run, by client 0 after both clients stopped: a
    // second client's passes would find nothing and only add their calls.
    assertThat(outcomes.get(0).drain().passes()).isPositive();
    assertThat(outcomes.get(1).drain().passes()).isZero();
    assertThat(run.drain().quiescent()).as(out.toString()).isTrue();

    assertThat(out.toString())
        .contains("2 client processes")
        .contains("client 0:")
        .contains("client 1:")
        .contains("(0 errors)");
    assertThat(run.stockAudit().itemsChecked()).isPositive();
    assertThat(run.stockAudit().itemsOff()).as("snapshot isolation loses no stock update").isZero();
    assertThat(Files.readString(dir.resolve("results.json"))).contains("process");
  }

  /** A client that fails before its browsers start, as a child whose cloud refuses it would. */
  public static final class FailingClient {
    public static void main(String[] args) {
      System.out.println("cannot reach the bookstore from " + args[0]);
      System.exit(3);
    }
  }

  @Test
  void aFailingChildFailsTheRunNamingItsExitCodeAndLog(@TempDir Path dir) {
    TpcwHarness.Plan plan = plan(dir);
    RunSettings s = plan.runs().get(0).settings();
    try (SystemScheduler scheduler = new SystemScheduler()) {
      ClientProcessRun run =
          new ClientProcessRun(
              plan, new PrintWriter(new StringWriter()), scheduler, FailingClient.class.getName());
      assertThatThrownBy(
              () ->
                  run.run(
                      "fail-" + Long.toHexString(System.nanoTime() & 0xffffL),
                      "basic",
                      1,
                      s,
                      (db, meter) -> {
                        BookstoreSchema.install(db, s.index().placement());
                        return new LoadSummary(Map.of(), Duration.ZERO, Duration.ZERO, 0, 0, 0, 0);
                      }))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("exited (exit code 3) before its browsers started")
          .hasMessageContaining("so the run has no result")
          .hasMessageContaining("cannot reach the bookstore from");
    }
    assertThat(ProcessHandle.current().children().filter(ProcessHandle::isAlive)).isEmpty();
  }

  private static TpcwHarness.Plan plan(Path dir) {
    LocalStackFixture localstack = LocalStackFixture.get();
    URI endpoint = localstack.config().build().endpoint().orElseThrow();
    CloudTarget target =
        new CloudTarget(
            CloudTarget.Kind.LOCALSTACK,
            Optional.of(endpoint),
            CloudTarget.DEFAULT_REGION,
            localstack.bucket(),
            Optional.of(zookeeper.getConnectString()));
    RunSettings s =
        RunSettings.builder()
            .protocol(ProtocolKind.SNAPSHOT_ISOLATION)
            .cloud("localstack")
            .placement("ec2")
            .latencyProfile("ec2")
            .pageSize(16 * 1024)
            .ttl(Duration.ofSeconds(10))
            .checkpointInterval(Duration.ofSeconds(45))
            .ebs(EBS)
            .mix(Mix.SHOPPING)
            .items(50)
            .customersPerEb(10)
            .warmUp(Duration.ZERO)
            .measure(Duration.ofMinutes(10))
            .thinkTimeMean(Duration.ZERO)
            .endUserRoundTrip(Duration.ZERO)
            .seed(31)
            .clients(2)
            .clientPlacement(ClientPlacement.PROCESS)
            .build();
    return new TpcwHarness.Plan(
        target,
        "protocol",
        List.of(new Sweep.Planned("snapshot_isolation", s)),
        dir,
        false,
        INTERACTIONS_PER_EB,
        1,
        Duration.ZERO);
  }

  private static List<ClientOutcome> outcomes(Path dir) throws IOException {
    List<ClientOutcome> outcomes = new ArrayList<>();
    try (Stream<Path> runs = Files.list(dir.resolve("clients"))) {
      Path runDir = runs.findFirst().orElseThrow();
      for (int k = 0; Files.exists(runDir.resolve("client-" + k + ".outcome")); k++) {
        outcomes.add(
            ClientOutcome.readFrom(
                runDir.resolve("client-" + k + ".outcome"), new StalenessTracker()));
      }
    }
    return outcomes;
  }
}
