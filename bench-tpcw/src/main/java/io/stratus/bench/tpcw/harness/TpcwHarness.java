package io.stratus.bench.tpcw.harness;

import io.stratus.bench.tpcw.bookstore.BookstoreSchema;
import io.stratus.bench.tpcw.bookstore.DataGenerator;
import io.stratus.bench.tpcw.bookstore.LoadReport;
import io.stratus.bench.tpcw.bookstore.Scale;
import io.stratus.bench.tpcw.bookstore.StalenessTracker;
import io.stratus.bench.tpcw.bookstore.StockAudit;
import io.stratus.bench.tpcw.bookstore.StratusBookstore;
import io.stratus.bench.tpcw.rbe.Emulator;
import io.stratus.bench.tpcw.rbe.EmulatorReport;
import io.stratus.bench.tpcw.report.Reports;
import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.decorate.CloudMeter;
import io.stratus.cloudapi.decorate.MeterSnapshot;
import io.stratus.cloudapi.decorate.PriceTable;
import io.stratus.cloudapi.decorate.PriceTables;
import io.stratus.cloudapi.time.SystemScheduler;
import io.stratus.core.Database;
import io.stratus.core.DatabaseStats;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Supplier;

/**
 * Runs a plan of TPC-W runs and writes the report: for each run a fresh database in a namespace of
 * its own, loaded by the bulk loader, then the emulated browsers for a warm-up and a measurement
 * interval; then the console table and the report files.
 *
 * <p>One database handle serves all emulated browsers of a run, as one web-application server's
 * request threads share it. Cloud calls pass, outermost first, through the interaction
 * attribution (which interaction, or the background, made each call), a meter of the whole run
 * (the load's cost), and on the in-process cloud the latency of the run's profile.
 *
 * <p>The buffer-pool hit rate and the checkpoints of the measurement interval are the difference
 * of the handle's counters between the first progress report at or after the end of the warm-up
 * and the end of the run (progress reports come a few times a second).
 */
public final class TpcwHarness {
  /**
   * Everything one invocation runs.
   *
   * @param target where the cloud services come from
   * @param sweptParameter the parameter that varies between the runs ("protocol" if only that)
   * @param runs the runs, in order
   * @param reportDir where the report files go
   * @param progressBars whether to draw progress bars on the error stream
   * @param interactionsPerEb 0 to run by time; otherwise every browser also stops after this many
   *     interactions (tests use it to run a fixed amount of work, not a fixed time), in the warm
   *     pass too
   * @param repeats how many times each run is measured ({@link Schedule})
   * @param warmPass the longest every protocol browses, unmeasured, before the first measured run
   *     ({@link WarmPass}: until the JIT compiler settles); zero for no warm pass
   */
  public record Plan(
      CloudTarget target,
      String sweptParameter,
      List<Sweep.Planned> runs,
      Path reportDir,
      boolean progressBars,
      long interactionsPerEb,
      int repeats,
      Duration warmPass) {
    /** Checks the plan. */
    public Plan {
      Objects.requireNonNull(target, "target");
      Objects.requireNonNull(reportDir, "reportDir");
      Objects.requireNonNull(warmPass, "warmPass");
      if (runs.isEmpty()) {
        throw new IllegalArgumentException("nothing to run");
      }
      if (interactionsPerEb < 0) {
        throw new IllegalArgumentException("interactionsPerEb must not be negative");
      }
      if (repeats < 1) {
        throw new IllegalArgumentException("repeats must be positive, not " + repeats);
      }
      if (warmPass.isNegative()) {
        throw new IllegalArgumentException("warmPass must not be negative");
      }
      runs = List.copyOf(runs);
    }
  }

  private final Plan plan;
  private final PrintWriter out;
  private final PrintWriter err;

  public TpcwHarness(Plan plan, PrintWriter out, PrintWriter err) {
    this.plan = Objects.requireNonNull(plan, "plan");
    this.out = Objects.requireNonNull(out, "out");
    this.err = Objects.requireNonNull(err, "err");
  }

  /**
   * Runs the warm pass and every planned run in the order of its {@link Schedule}, prints the
   * table, writes the report; returns the result, whose runs are in plan order, one repeat after
   * the other.
   */
  public SweepResult run() {
    Schedule schedule = Schedule.of(plan.sweptParameter, plan.runs, plan.repeats);
    int total = schedule.measured().size();
    RunSettings first = plan.runs.get(0).settings();
    out.printf(
        Locale.ROOT,
        "Stratus TPC-W: %d run(s)%s on the %s cloud, %s placement, indexes: %s; %d items,"
            + " %d EBs, %s mix; warm-up %s, measure %s; seed %d%n",
        total,
        plan.repeats == 1 ? "" : " (" + plan.runs.size() + " × " + plan.repeats + ", alternating)",
        first.cloud(),
        first.placement(),
        String.join(
            ", ", plan.runs.stream().map(r -> r.settings().index().id()).distinct().toList()),
        first.items(),
        first.ebs(),
        first.mix().id(),
        Durations.format(first.warmUp()),
        Durations.format(first.measure()),
        first.seed());
    RunResult[][] results = new RunResult[plan.repeats][plan.runs.size()];
    try (SystemScheduler scheduler = new SystemScheduler();
        LoadTemplates templates = new LoadTemplates()) {
      if (plan.target.kind() != CloudTarget.Kind.IN_PROCESS) {
        // An unreachable or refusing cloud fails here, before the warm pass takes its time.
        CloudConnection.open(plan.target, "probe", first.seed()).close();
      }
      if (!plan.warmPass.isZero()) {
        out.printf(
            Locale.ROOT,
            "warm pass (not measured): %s, until the JIT compiler settles (at most %s)%n",
            String.join(
                ", ",
                schedule.warmPass().stream()
                    .map(p -> p.settings().protocol().name().toLowerCase(Locale.ROOT))
                    .toList()),
            Durations.format(plan.warmPass));
        out.flush();
        // On the in-process cloud the warm pass loads the template the measured runs copy.
        boolean inProcess = plan.target.kind() == CloudTarget.Kind.IN_PROCESS;
        WarmPass.Warmed warmed;
        try (LoadTemplates own = new LoadTemplates()) {
          warmed =
              WarmPass.run(
                  schedule.warmPass(),
                  plan.warmPass,
                  plan.interactionsPerEb,
                  scheduler,
                  inProcess ? templates : own,
                  inProcess
                      ? (raw, settings) ->
                          loadTemplate(
                              raw,
                              new Scale(
                                  settings.items(), settings.totalEbs(), settings.customersPerEb()),
                              settings,
                              scheduler)
                      : WarmPass::loadTemplate);
        }
        out.printf(
            Locale.ROOT,
            "  warm pass took %.1f s (%s)%n",
            warmed.took().toMillis() / 1000.0,
            warmed.settled() ? "the compiler settled" : "the compiler was still busy at the end");
      }
      int n = 0;
      for (Schedule.Slot slot : schedule.measured()) {
        n++;
        Sweep.Planned p = plan.runs.get(slot.run());
        out.printf(
            Locale.ROOT,
            "[%d/%d] %s=%s (%s)%s%n",
            n,
            total,
            plan.sweptParameter,
            p.label(),
            p.settings().protocol().name().toLowerCase(Locale.ROOT),
            plan.repeats == 1 ? "" : ", repeat " + slot.repeat() + " of " + plan.repeats);
        out.flush();
        results[slot.repeat() - 1][slot.run()] = runOne(n, p, slot.repeat(), scheduler, templates);
        Set<LoadTemplates.Key> stillNeeded = new HashSet<>();
        for (Schedule.Slot later : schedule.measured().subList(n, total)) {
          stillNeeded.add(LoadTemplates.Key.of(plan.runs.get(later.run()).settings()));
        }
        templates.retainOnly(stillNeeded);
      }
    }
    List<RunResult> inPlanOrder = new ArrayList<>();
    for (RunResult[] repeat : results) {
      inPlanOrder.addAll(List.of(repeat));
    }
    SweepResult sweep = new SweepResult(plan.sweptParameter, inPlanOrder);
    Path report;
    try {
      report = Reports.writeAll(sweep, plan.reportDir, out);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot write the report to " + plan.reportDir + ": " + e.getMessage(), e);
    }
    out.println();
    out.println("Report: " + report.toAbsolutePath().normalize());
    out.flush();
    return sweep;
  }

  private RunResult runOne(
      int index,
      Sweep.Planned planned,
      int repeat,
      SystemScheduler scheduler,
      LoadTemplates templates) {
    RunSettings s = planned.settings();
    String runId =
        "r"
            + index
            + "-"
            + Long.toHexString(new SplittableRandom(System.nanoTime()).nextLong() & 0xffffffL);
    CloudMeter meter = new CloudMeter();
    Scale scale = new Scale(s.items(), s.totalEbs(), s.customersPerEb());
    if (s.clientPlacement() == ClientPlacement.PROCESS) {
      s.clientPlacement().check(plan.target);
      return new ClientProcessRun(plan, out, scheduler)
          .run(runId, planned.label(), repeat, s, (db, m) -> load(db, scale, s, m));
    }
    try (CloudConnection cloud = CloudConnection.open(plan.target, runId, s.seed())) {
      boolean copied = LoadTemplates.applies(plan.target, s);
      String databaseUri = copied ? LoadTemplates.DATABASE_URI : ClientHandle.databaseUri(runId);
      LoadTemplates.Copy copy =
          copied
              ? templates.copyInto(
                  cloud.services(),
                  s,
                  (raw, settings) -> loadTemplate(raw, scale, settings, scheduler))
              : null;
      List<ClientHandle> clients = new ArrayList<>();
      try {
        for (int k = 0; k < s.clients(); k++) {
          clients.add(
              ClientHandle.open(
                  plan.target, cloud.services(), databaseUri, k, runId, s, meter, scheduler));
        }
        LoadSummary load;
        if (copied) {
          if (!copy.loadedNow()) {
            out.printf(
                Locale.ROOT,
                "  a copy of the bookstore loaded for %s (its load's figures)%n",
                copy.loadedFor().name().toLowerCase(Locale.ROOT));
          }
          BookstoreSchema.install(clients.get(0).db(), s.index().placement());
          load = copy.load();
        } else {
          load = load(clients.get(0).db(), scale, s, meter);
        }
        for (ClientHandle c : clients.subList(1, clients.size())) {
          BookstoreSchema.install(c.db(), s.index().placement());
        }
        ClientHandle[] audit = new ClientHandle[1];
        try {
          return measure(
              planned.label(),
              repeat,
              clients,
              scale,
              s,
              load,
              () -> {
                audit[0] =
                    ClientHandle.open(
                        plan.target, cloud.services(), databaseUri, -1, runId, s, meter, scheduler);
                audit[0].latency().off();
                BookstoreSchema.install(audit[0].db(), s.index().placement());
                return audit[0].db();
              });
        } finally {
          if (audit[0] != null) {
            audit[0].db().close();
          }
        }
      } finally {
        ClientHandle.closeAll(clients);
      }
    }
  }

  /**
   * Loads the bookstore of {@code s} into {@code raw} (a template's cloud, {@link LoadTemplates})
   * through a handle decorated as a run's, so that the load's time and cost are a run's.
   */
  private LoadSummary loadTemplate(
      CloudServices raw, Scale scale, RunSettings s, SystemScheduler scheduler) {
    CloudMeter meter = new CloudMeter();
    ClientHandle loader =
        ClientHandle.open(
            CloudTarget.inProcess(),
            raw,
            LoadTemplates.DATABASE_URI,
            0,
            "template",
            s,
            meter,
            scheduler);
    try {
      return load(loader.db(), scale, s, meter);
    } finally {
      loader.db().close();
    }
  }

  private LoadSummary load(Database db, Scale scale, RunSettings s, CloudMeter meter) {
    MeterSnapshot before = meter.snapshot();
    BookstoreSchema.install(db, s.index().placement());
    LoadReport report;
    try (Progress bar = Progress.open(plan.progressBars, "load", scale.totalRows(), "rows")) {
      report =
          new DataGenerator(db, scale, s.seed(), Clock.systemUTC(), meter::snapshot)
              .load(bar::stepTo);
    }
    MeterSnapshot used = meter.snapshot().minus(before);
    MeterSnapshot items = report.usage(BookstoreSchema.ITEM);
    LoadSummary summary =
        new LoadSummary(
            report.rowsPerTable(),
            report.elapsed(),
            report.elapsedPerTable().getOrDefault(BookstoreSchema.ITEM, Duration.ZERO),
            used.requests(),
            milli(used.cost(paperPrices(s))),
            milli(used.cost(todayPrices(s))),
            report.pagesWritten(),
            items.requests(),
            milli(items.cost(paperPrices(s))),
            milli(items.cost(todayPrices(s))));
    out.printf(
        Locale.ROOT,
        "  loaded %,d rows in %.1f s: %,d requests, %.3f m$ (2008), %.3f m$"
            + " (2026); items %.2f s, %,d requests, %.3f m$ (2008), %.3f m$ (2026)%n",
        summary.totalRows(),
        summary.elapsed().toMillis() / 1000.0,
        summary.requests(),
        summary.milliDollars2008(),
        summary.milliDollars2026(),
        summary.itemsElapsed().toMillis() / 1000.0,
        summary.itemRequests(),
        summary.itemMilliDollars2008(),
        summary.itemMilliDollars2026());
    return summary;
  }

  /**
   * Measures one run. The drain closes the clients' handles; the stock audit then reads through
   * a handle {@code auditHandle} opens, whose calls are outside the run.
   */
  private RunResult measure(
      String label,
      int repeat,
      List<ClientHandle> clients,
      Scale scale,
      RunSettings s,
      LoadSummary load,
      Supplier<Database> auditHandle) {
    long totalMillis = s.warmUp().plus(s.measure()).toMillis();
    double measureStarts = (double) s.warmUp().toMillis() / totalMillis;
    int n = clients.size();
    AtomicReferenceArray<DatabaseStats> atMeasureStart = new AtomicReferenceArray<>(n);
    AtomicReferenceArray<DrainPasses> drained = new AtomicReferenceArray<>(n);
    StalenessTracker tracker = new StalenessTracker();
    // CPU split between library, harness and simulated cloud over the measurement interval.
    CpuProfiler cpu = CpuProfiler.ofThisJvm();
    AtomicReference<CpuProfiler.Totals> cpuAtStart = new AtomicReference<>();
    AtomicReference<CpuProfiler.Totals> cpuAtEnd = new AtomicReference<>();
    List<Emulator.Client> emulated = new ArrayList<>();
    for (int k = 0; k < n; k++) {
      ClientHandle c = clients.get(k);
      int client = k;
      drained.set(k, DrainPasses.NONE);
      StratusBookstore bookstore =
          new StratusBookstore(c.db(), scale, Clock.systemUTC(), s.seed(), tracker);
      emulated.add(
          new Emulator.Client(
              bookstore,
              c.attribution(),
              () -> {
                if (cpu != null) {
                  cpuAtEnd.compareAndSet(null, cpu.totals());
                }
                clients.forEach(other -> other.latency().off());
                drained.set(
                    client,
                    DrainPasses.run(
                        c.db(), s.protocol(), c.records(), ArchiveDrainTurn.firstInOneJvm(client)));
              }));
    }
    Emulator.ClientsReport reports;
    if (cpu != null) {
      cpu.startSampling();
    }
    try (Progress bar = Progress.open(plan.progressBars, "run", totalMillis / 1000, "s")) {
      Emulator.Builder emulator =
          measuredEmulator(s, s.seed())
              .progress(
                  f -> {
                    if (f >= measureStarts) {
                      if (cpu != null) {
                        cpuAtStart.compareAndSet(null, cpu.totals());
                      }
                      for (int k = 0; k < n; k++) {
                        atMeasureStart.compareAndSet(k, null, clients.get(k).db().stats());
                      }
                    }
                    bar.stepTo(Math.round(f * totalMillis / 1000));
                  });
      if (plan.interactionsPerEb > 0) {
        emulator.interactionsPerBrowser(plan.interactionsPerEb);
      }
      reports = emulator.build().runClients(emulated);
    } finally {
      if (cpu != null) {
        cpu.close();
      }
    }
    StockAudit audit =
        new StratusBookstore(auditHandle.get(), scale, Clock.systemUTC(), s.seed(), tracker)
            .auditStock();
    long hits = 0;
    long fetches = 0;
    long checkpoints = 0;
    long checkpointsFailed = 0;
    long refusals = 0;
    DrainPasses drain = DrainPasses.NONE;
    long steadyRecords = 0;
    List<ClientResult> perClient = new ArrayList<>();
    for (int k = 0; k < n; k++) {
      DatabaseStats end = clients.get(k).db().stats();
      DatabaseStats start = atMeasureStart.get(k) != null ? atMeasureStart.get(k) : end;
      hits += end.bufferPool().hits() - start.bufferPool().hits();
      fetches += end.bufferPool().fetches() - start.bufferPool().fetches();
      long run = end.checkpointsRun() - start.checkpointsRun();
      long failed = end.checkpointsFailed() - start.checkpointsFailed();
      checkpoints += run;
      checkpointsFailed += failed;
      long refused = clients.get(k).refusals().refused();
      refusals += refused;
      drain = drain.plus(drained.get(k));
      steadyRecords += clients.get(k).records().duringInterval();
      EmulatorReport own = reports.perClient().get(k);
      perClient.add(
          new ClientResult(
              k, own.interactionsPerSecond(), own.total(), own.update(), run, failed, refused));
    }
    RunResult result =
        new ClientTotals(
                hits,
                fetches,
                checkpoints,
                checkpointsFailed,
                refusals,
                steadyRecords,
                tracker.lostUpdates(BookstoreSchema.ITEM),
                tracker.lostUpdates(BookstoreSchema.CUSTOMER),
                new OwnReads(
                    tracker.ownReadsChecked(),
                    tracker.ownStaleReads(),
                    tracker.maxOwnStalenessMillis()),
                drain,
                perClient)
            .result(
                label,
                repeat,
                s,
                load,
                reports,
                audit,
                cpu == null || cpuAtStart.get() == null || cpuAtEnd.get() == null
                    ? CpuProfile.NONE
                    : CpuProfiler.between(
                        cpuAtStart.get(),
                        cpuAtEnd.get(),
                        reports.total().total().count() + reports.total().total().errors()));
    printResult(out, result);
    return result;
  }

  /** Prints the lines of one measured run: totals, stock audit, each client, the drain. */
  static void printResult(PrintWriter out, RunResult result) {
    StockAudit audit = result.stockAudit();
    out.printf(
        Locale.ROOT,
        "  %,d interactions (%,d errors), %.1f %s, avg %.1f ms,"
            + " update avg %.1f ms, %.4f m$/WI (2008, machines included); lost updates: %,d"
            + " item (stock), %,d customer%n",
        result.total().count(),
        result.total().errors(),
        result.interactionsPerSecond(),
        WipsRules.rateName(WipsRules.of(result)),
        result.total().meanMillis(),
        result.update().meanMillis(),
        CostPerWi.of(result.total(), result.serverCost()).total2008(),
        result.lostItemUpdates(),
        result.lostCustomerUpdates());
    out.printf(
        Locale.ROOT,
        "  stock audit: %,d of %,d items do not add up (%,d units)%s;"
            + " own reads: %,d stale of %,d%n",
        audit.itemsOff(),
        audit.itemsChecked(),
        audit.unitsOff(),
        audit.uncertainBuys() == 0
            ? ""
            : String.format(Locale.ROOT, ", %,d buys of unknown outcome", audit.uncertainBuys()),
        result.ownReads().stale(),
        result.ownReads().checked());
    for (ClientResult c : result.clients()) {
      out.printf(
          Locale.ROOT,
          "  client %d: %.1f interactions/s, avg %.1f ms, update avg %.1f ms, %.4f"
              + " m$/WI (2008), %,d checkpoints, %,d lock refusals%n",
          c.index(),
          c.interactionsPerSecond(),
          c.total().meanMillis(),
          c.update().meanMillis(),
          CostPerWi.of(c.total(), result.serverCost()).total2008(),
          c.checkpointsRun(),
          c.lockRefusals());
    }
    Drain d = result.drain();
    out.printf(
        Locale.ROOT,
        "  drain: %,d records applied, %,d pages, %,d requests, %.3f m$ (2008) in %.1f s%s;"
            + " per record %.2f requests, %.5f m$ (2008); the interval's own checkpoints:"
            + " %,d records, %.2f requests, %.5f m$ per record%n",
        d.recordsApplied(),
        d.pagesWritten(),
        d.requests(),
        d.milliDollars2008(),
        d.millis() / 1000.0,
        d.quiescent() ? "" : "; work was still pending after it",
        d.requestsPerRecord(),
        d.milliDollarsPerRecord2008(),
        d.steadyRecordsApplied(),
        result.steadyRequestsPerRecord(),
        result.steadyMilliDollarsPerRecord2008());
    out.flush();
  }

  /**
   * The 2008 prices, without data transfer in the EC2 placement (transfer between EC2 and S3 in
   * one region is free, paper 000 section 2.2).
   */
  /**
   * The emulator of a measured run of {@code s} whose browsers draw from {@code seed}: its
   * browsers, mix, phases, windows, think time, end-user round trip and price tables.
   */
  static Emulator.Builder measuredEmulator(RunSettings s, long seed) {
    return Emulator.builder()
        .ebs(s.ebs())
        .mix(s.mix())
        .warmUp(s.warmUp())
        .measure(s.measure())
        .windows(Windows.count(s))
        .thinkTimeMean(s.thinkTimeMean())
        .endUserRoundTrip(s.endUserRoundTrip())
        .seed(seed)
        .priceTables(paperPrices(s), todayPrices(s));
  }

  static PriceTable paperPrices(RunSettings s) {
    return s.placement().equals("ec2")
        ? PriceTables.paper2008().withoutTransfer()
        : PriceTables.paper2008();
  }

  /** Today's prices, likewise without transfer in the EC2 placement. */
  static PriceTable todayPrices(RunSettings s) {
    return s.placement().equals("ec2")
        ? PriceTables.aws2026().withoutTransfer()
        : PriceTables.aws2026();
  }

  private static double milli(java.math.BigDecimal dollars) {
    return dollars.doubleValue() * 1000;
  }
}
