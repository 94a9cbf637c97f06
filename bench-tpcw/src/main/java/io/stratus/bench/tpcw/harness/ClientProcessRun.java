package io.stratus.bench.tpcw.harness;

import io.stratus.bench.tpcw.bookstore.BookstoreSchema;
import io.stratus.bench.tpcw.bookstore.Scale;
import io.stratus.bench.tpcw.bookstore.StalenessTracker;
import io.stratus.bench.tpcw.bookstore.StockAudit;
import io.stratus.bench.tpcw.bookstore.StratusBookstore;
import io.stratus.bench.tpcw.rbe.ClientMeasurements;
import io.stratus.bench.tpcw.rbe.Emulator;
import io.stratus.bench.tpcw.rbe.EmulatorReport;
import io.stratus.cloudapi.decorate.CloudMeter;
import io.stratus.cloudapi.time.SystemScheduler;
import io.stratus.core.Database;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * One run with {@link ClientPlacement#PROCESS}: the harness loads the bookstore into the shared
 * cloud, starts one child JVM per client ({@link ClientProcessMain}, through {@link
 * ClientProcesses}), starts their browsers together once every child is ready, waits for them,
 * and builds the run's one result from their outcomes exactly as a run in one JVM builds it from
 * its clients: the measurements add up ({@link ClientMeasurements#plus}), each client's calls,
 * its drain included, are counted once in its own process, and the stock audit accounts for every
 * client's Buy Confirms.
 *
 * <p>What one JVM measures across its clients but processes cannot share is per client here: lost
 * updates are those each client's own browsers saw (the stock audit still finds every lost stock
 * update), and the CPU profile is not taken.
 */
final class ClientProcessRun {
  /** Longest wait for every child to open its handle and be ready. */
  private static final Duration READY_TIMEOUT = Duration.ofMinutes(5);

  /** Time from the start signal to the browsers' start, for every child to read it. */
  private static final long START_DELAY_MILLIS = 500;

  /** How often the children's ready files are looked for. */
  private static final long POLL_MILLIS = 20;

  /** Allowance beyond warm-up and measurement for the browsers' stop and each client's drain. */
  private static final Duration AFTER_RUN = Duration.ofMinutes(5);

  /** Loads the bookstore through a handle, returning the load's figures. */
  @FunctionalInterface
  interface Loader {
    LoadSummary load(Database db, CloudMeter meter);
  }

  private final TpcwHarness.Plan plan;
  private final PrintWriter out;
  private final SystemScheduler scheduler;
  private final String clientMain;

  ClientProcessRun(TpcwHarness.Plan plan, PrintWriter out, SystemScheduler scheduler) {
    this(plan, out, scheduler, ClientProcessMain.class.getName());
  }

  /** A run whose children run {@code clientMain} (taking a {@link ClientJob} file). */
  ClientProcessRun(
      TpcwHarness.Plan plan, PrintWriter out, SystemScheduler scheduler, String clientMain) {
    this.plan = Objects.requireNonNull(plan, "plan");
    this.out = Objects.requireNonNull(out, "out");
    this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
    this.clientMain = Objects.requireNonNull(clientMain, "clientMain");
  }

  /** Loads, runs the children, and returns the run's result; {@code runId} names its namespace. */
  RunResult run(String runId, String label, int repeat, RunSettings s, Loader loader) {
    Scale scale = new Scale(s.items(), s.totalEbs(), s.customersPerEb());
    String databaseUri = ClientHandle.databaseUri(runId);
    // The parent's handles (load and audit) are outside the measured run.
    CloudMeter outside = new CloudMeter();
    Path dir = plan.reportDir().resolve("clients").resolve(runId);
    try (CloudConnection cloud = CloudConnection.open(plan.target(), runId, s.seed())) {
      LoadSummary load;
      ClientHandle loading = open(cloud, databaseUri, runId, s, outside);
      try {
        load = loader.load(loading.db(), outside);
      } finally {
        loading.db().close();
      }
      List<ClientOutcome> outcomes = new ArrayList<>();
      StalenessTracker audited = new StalenessTracker();
      for (ClientJob job : runChildren(dir, runId, databaseUri, s)) {
        outcomes.add(ClientOutcome.readFrom(job.output(), audited));
      }
      ClientHandle auditing = open(cloud, databaseUri, runId, s, outside);
      StockAudit audit;
      try {
        BookstoreSchema.install(auditing.db(), s.index().placement());
        audit =
            new StratusBookstore(auditing.db(), scale, Clock.systemUTC(), s.seed(), audited)
                .auditStock();
      } finally {
        auditing.db().close();
      }
      return result(label, repeat, s, load, outcomes, audit);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot exchange files with the client processes in " + dir + ": " + e.getMessage(), e);
    }
  }

  /** A handle of the parent's own (load, audit), without the modelled latency. */
  private ClientHandle open(
      CloudConnection cloud, String databaseUri, String runId, RunSettings s, CloudMeter meter) {
    ClientHandle h =
        ClientHandle.open(
            plan.target(), cloud.services(), databaseUri, -1, runId, s, meter, scheduler);
    h.latency().off();
    return h;
  }

  private List<ClientJob> runChildren(Path dir, String runId, String databaseUri, RunSettings s)
      throws IOException {
    Files.createDirectories(dir);
    Path startSignal = dir.resolve("start");
    List<ClientJob> jobs = new ArrayList<>();
    List<List<String>> args = new ArrayList<>();
    for (int k = 0; k < s.clients(); k++) {
      ClientJob job =
          new ClientJob(
              plan.target(),
              runId,
              databaseUri,
              k,
              s,
              plan.interactionsPerEb(),
              startSignal,
              dir.resolve("client-" + k + ".outcome"));
      Path file = dir.resolve("client-" + k + ".job");
      job.writeTo(file);
      jobs.add(job);
      args.add(List.of(file.toString()));
    }
    out.printf(
        Locale.ROOT,
        "  %d client process%s (logs in %s)%n",
        s.clients(),
        s.clients() == 1 ? "" : "es",
        dir.toAbsolutePath());
    out.flush();
    try (ClientProcesses children = ClientProcesses.start(clientMain, args, dir)) {
      awaitReady(children, jobs);
      Path tmp = dir.resolve("start.tmp");
      Files.writeString(
          tmp, (System.currentTimeMillis() + START_DELAY_MILLIS) + ";", StandardCharsets.UTF_8);
      Files.move(tmp, startSignal, StandardCopyOption.ATOMIC_MOVE);
      children.awaitAll(s.warmUp().plus(s.measure()).plus(AFTER_RUN));
    }
    return jobs;
  }

  private static void awaitReady(ClientProcesses children, List<ClientJob> jobs)
      throws IOException {
    long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
    while (!jobs.stream().allMatch(j -> Files.exists(j.readyFile()))) {
      children.failIfAnyExited("before its browsers started");
      if (System.nanoTime() > deadline) {
        children.close();
        throw new IllegalStateException(
            "the client processes were not all ready within "
                + Durations.format(READY_TIMEOUT)
                + "; their logs are in "
                + jobs.get(0).output().getParent());
      }
      try {
        Thread.sleep(POLL_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        children.close();
        throw new IllegalStateException("interrupted while starting the client processes", e);
      }
    }
  }

  private RunResult result(
      String label,
      int repeat,
      RunSettings s,
      LoadSummary load,
      List<ClientOutcome> outcomes,
      StockAudit audit) {
    Emulator.ClientsReport reports =
        Emulator.ClientsReport.of(
            outcomes.stream().map(ClientOutcome::measurements).toList(),
            s.mix(),
            TpcwHarness.paperPrices(s),
            TpcwHarness.todayPrices(s));
    int n = outcomes.size();
    long hits = 0;
    long fetches = 0;
    long checkpoints = 0;
    long checkpointsFailed = 0;
    long refusals = 0;
    long steadyRecords = 0;
    long lostItems = 0;
    long lostCustomers = 0;
    long ownChecked = 0;
    long ownStale = 0;
    long ownMax = 0;
    DrainPasses drain = DrainPasses.NONE;
    List<ClientResult> perClient = new ArrayList<>();
    for (int k = 0; k < n; k++) {
      ClientOutcome o = outcomes.get(k);
      hits += o.bufferHits();
      fetches += o.bufferFetches();
      checkpoints += o.checkpointsRun();
      checkpointsFailed += o.checkpointsFailed();
      refusals += o.lockRefusals();
      steadyRecords += o.steadyRecords();
      lostItems += o.lostItemUpdates();
      lostCustomers += o.lostCustomerUpdates();
      ownChecked += o.ownReads().checked();
      ownStale += o.ownReads().stale();
      ownMax = Math.max(ownMax, o.ownReads().maxStalenessMillis());
      drain = drain.plus(o.drain());
      EmulatorReport own = reports.perClient().get(k);
      perClient.add(
          new ClientResult(
              k,
              own.interactionsPerSecond(),
              own.total(),
              own.update(),
              o.checkpointsRun(),
              o.checkpointsFailed(),
              o.lockRefusals()));
    }
    RunResult result =
        new ClientTotals(
                hits,
                fetches,
                checkpoints,
                checkpointsFailed,
                refusals,
                steadyRecords,
                lostItems,
                lostCustomers,
                new OwnReads(ownChecked, ownStale, ownMax),
                drain,
                perClient)
            .result(label, repeat, s, load, reports, audit, CpuProfile.NONE);
    TpcwHarness.printResult(out, result);
    return result;
  }
}
