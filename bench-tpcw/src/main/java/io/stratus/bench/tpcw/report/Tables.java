package io.stratus.bench.tpcw.report;

import io.stratus.bench.tpcw.bookstore.StockAudit;
import io.stratus.bench.tpcw.harness.ClientResult;
import io.stratus.bench.tpcw.harness.CostPerWi;
import io.stratus.bench.tpcw.harness.CpuProfile;
import io.stratus.bench.tpcw.harness.Drain;
import io.stratus.bench.tpcw.harness.LoadSummary;
import io.stratus.bench.tpcw.harness.OwnReads;
import io.stratus.bench.tpcw.harness.RunResult;
import io.stratus.bench.tpcw.harness.ServerCost;
import io.stratus.bench.tpcw.harness.WipsRules;
import io.stratus.bench.tpcw.rbe.MixCompliance;
import io.stratus.bench.tpcw.rbe.WindowStats;
import io.stratus.bench.tpcw.workload.Interaction;
import io.stratus.bench.tpcw.workload.ResponseStats;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.ToDoubleBiFunction;
import java.util.function.ToDoubleFunction;

/**
 * The tables of a report, built once from a {@link SweepView} and shown both on the console and in
 * report.md (see {@link TextTable}). Column sets are chosen so that every console table stays
 * under 130 columns with the longest interaction name and run names of the form "monotonic
 * checkpoint-interval=45s"; pivots that would be wider are split into several tables.
 *
 * <p>Costs per WI are the papers' (000 section 7.1): the requests, background work (checkpoints,
 * propagation) included, which the harness charges to the update interactions that caused it, as
 * the papers do, plus the machines paid by the hour ({@link CostPerWi}). The summary's "bg share",
 * the cost table and the pivots' "of which" rows show the parts.
 */
final class Tables {
  /** The widest a console line may be. */
  static final int CONSOLE_WIDTH = 130;

  /** Longest run name shown in full in console tables. */
  static final int RUN_NAME_WIDTH = 26;

  /** Longest baseline name shown in full in the comparison table. */
  private static final int BASELINE_NAME_WIDTH = 20;

  private static final int INTERACTION_WIDTH = 21; // "Customer Registration"

  private Tables() {}

  /**
   * A run's seventeen rows with every statistic (the per-run detail table): response times,
   * requests, cost per WI (requests and machines, {@link SweepView#cost}), what the interactions
   * paid and waited per record they wrote, staleness; {@code wide} adds the requests' part of the
   * cost, the cost per record under today's prices, the largest staleness and what the
   * interactions did (how many wrote, records read and written, retries), which do not fit a
   * console line.
   */
  static TextTable detail(RunResult run, boolean wide) {
    TextTable t =
        new TextTable()
            .left("interaction", INTERACTION_WIDTH)
            .right("count")
            .right("err")
            .right("avg ms")
            .right("p50 ms")
            .right("p90 ms")
            .right("p99 ms")
            .right("req/WI")
            .right("m$ 2008")
            .right("m$ 2026");
    if (wide) {
      t.right("req m$ 2008").right("req m$ 2026");
    }
    t.right("m$/rec 2008");
    if (wide) {
      t.right("m$/rec 2026");
    }
    t.right("ms/rec").right("stale ms");
    if (wide) {
      t.right("max stale").right("wrote").right("rec read").right("rec written").right("retries");
    }
    for (SweepView.Row row : SweepView.rows(run)) {
      if (row.key().equals(SweepView.GROUPS.get(0))) {
        t.rule();
      }
      ResponseStats s = row.stats();
      boolean any = s.count() > 0;
      CostPerWi cost = SweepView.cost(run, s);
      List<String> cells =
          new ArrayList<>(
              List.of(
                  row.label(),
                  Numbers.count(s.count()),
                  Numbers.count(s.errors()),
                  ms(any, s.meanMillis()),
                  ms(any, s.p50Millis()),
                  ms(any, s.p90Millis()),
                  ms(any, s.p99Millis()),
                  any ? Numbers.sig3(s.requestsPerInteraction()) : Numbers.NONE,
                  Numbers.sig3(cost.total2008()),
                  Numbers.sig3(cost.total2026())));
      if (wide) {
        cells.add(Numbers.sig3(cost.requests2008()));
        cells.add(Numbers.sig3(cost.requests2026()));
      }
      cells.add(Numbers.sig3(s.milliDollarsPerRecordWritten2008()));
      if (wide) {
        cells.add(Numbers.sig3(s.milliDollarsPerRecordWritten2026()));
      }
      cells.add(Numbers.sig3(s.millisPerRecordWritten()));
      cells.add(ms(any, s.meanStalenessMillis()));
      if (wide) {
        cells.addAll(
            List.of(
                any ? Numbers.count(s.maxStalenessMillis()) : Numbers.NONE,
                Numbers.count(s.wrote()),
                any ? Numbers.sig3(s.recordsReadPerInteraction()) : Numbers.NONE,
                any ? Numbers.sig3(s.recordsWrittenPerInteraction()) : Numbers.NONE,
                any ? Numbers.sig3(s.retriesPerInteraction()) : Numbers.NONE));
      }
      t.row(cells.toArray(new String[0]));
    }
    return t;
  }

  /**
   * The run-level facts under a detail table, as short "name value" segments (the rate and
   * whether it is TPC-W's WIPS, hit rate, checkpoints, background work, errors) for the caller to
   * join and wrap.
   */
  static List<String> runFacts(RunResult run) {
    List<String> facts = new ArrayList<>();
    WipsRules.Verdict wips = WipsRules.of(run);
    facts.add(Numbers.fixed(run.interactionsPerSecond(), 2) + " " + WipsRules.rateName(wips));
    WipsRules.Check p90 = wips.check("90th percentiles");
    facts.add(
        "90th percentiles "
            + (p90.met() ? "within TPC-W's limits" : "over TPC-W's limits: " + p90.detail()));
    facts.add("measured " + Numbers.fixed(run.measuredSeconds(), 1) + " s");
    facts.add("buffer-pool hit rate " + Numbers.percent(run.bufferPoolHitRate()));
    facts.add("checkpoints " + run.checkpointsRun() + " (" + run.checkpointsFailed() + " failed)");
    facts.add(
        "background work "
            + run.backgroundRequests()
            + " requests, "
            + Numbers.sig3(run.backgroundMilliDollars2008())
            + " m$ 2008 / "
            + Numbers.sig3(run.backgroundMilliDollars2026())
            + " m$ 2026 (per WI "
            + Numbers.sig3(SweepView.backgroundPerWi2008(run))
            + " / "
            + Numbers.sig3(SweepView.backgroundPerWi2026(run))
            + ", included in the costs)");
    ResponseStats all = SweepView.total(run);
    facts.add(
        "work per WI: "
            + Numbers.sig3(all.recordsReadPerInteraction())
            + " records read, "
            + Numbers.sig3(all.recordsWrittenPerInteraction())
            + " written, "
            + Numbers.sig3(all.retriesPerInteraction())
            + " retries; "
            + Numbers.count(all.wrote())
            + " of "
            + Numbers.count(all.count())
            + " WIs wrote");
    Drain d = run.drain();
    facts.add(
        "drain "
            + d.recordsApplied()
            + " records, "
            + d.requests()
            + " requests, "
            + Numbers.sig3(d.milliDollars2008())
            + " m$ 2008 (in the background work), "
            + Numbers.sig3(d.milliDollarsPerRecord2008())
            + " m$ per record; the interval's own checkpoints "
            + d.steadyRecordsApplied()
            + " records, "
            + Numbers.sig3(run.steadyMilliDollarsPerRecord2008())
            + " m$ per record"
            + (d.quiescent() ? "" : "; work still pending after it"));
    ServerCost server = SweepView.machines(run);
    facts.add(
        "machines per WI "
            + Numbers.sig3(server.milliDollarsPerWi2008())
            + " m$ 2008 / "
            + Numbers.sig3(server.milliDollarsPerWi2026())
            + " m$ 2026 (server "
            + Numbers.fixed(server.serverHours() * 3600, 0)
            + " s, ensemble "
            + Numbers.fixed(server.coordinationHours() * 3600, 0)
            + " s; in the costs)");
    facts.add(
        "coordination requests "
            + server.coordinationRequests()
            + " ("
            + Numbers.sig3(server.coordinationRequestsPerWi())
            + " per WI, "
            + Numbers.sig3(
                run.measuredSeconds() > 0
                    ? server.coordinationRequests() / run.measuredSeconds()
                    : Double.NaN)
            + " per s)");
    facts.add("lock refusals " + run.lockRefusals());
    CpuProfile cpu = run.cpu();
    if (cpu != null && cpu.samples() > 0) {
      facts.add(
          "CPU per WI: Stratus "
              + Numbers.fixed(cpu.library(), 0)
              + " us ("
              + Numbers.fixed(cpu.libraryForeground(), 0)
              + " on the browsers' threads), harness "
              + Numbers.fixed(cpu.harness(), 0)
              + " us, simulated cloud "
              + Numbers.fixed(cpu.cloud(), 0)
              + " us, other threads "
              + Numbers.fixed(cpu.other(), 0)
              + " us; process "
              + Numbers.fixed(cpu.process(), 0)
              + " us (GC "
              + Numbers.fixed(cpu.garbageCollection(), 0)
              + " us, JIT "
              + Numbers.fixed(cpu.compilation(), 0)
              + " us, sampling "
              + Numbers.fixed(cpu.sampling(), 0)
              + " us)");
    }
    facts.add(
        "lost updates "
            + run.lostItemUpdates()
            + " item (stock), "
            + run.lostCustomerUpdates()
            + " customer");
    StockAudit audit = run.stockAudit();
    if (audit != null) {
      facts.add(
          "stock audit "
              + (audit.clean()
                  ? "adds up"
                  : audit.itemsOff()
                      + " of "
                      + audit.itemsChecked()
                      + " items off by "
                      + audit.unitsOff()
                      + " units")
              + (audit.uncertainBuys() == 0
                  ? ""
                  : " (" + audit.uncertainBuys() + " buys of unknown outcome)"));
    }
    OwnReads own = run.ownReads();
    if (own != null && own.checked() > 0) {
      facts.add(
          "own writes read stale "
              + own.stale()
              + " of "
              + own.checked()
              + (own.stale() == 0 ? "" : " (max " + own.maxStalenessMillis() + " ms)"));
    }
    List<MixCompliance.Row> mix = run.mixCompliance();
    List<Interaction> off = MixCompliance.flagged(mix, MixCompliance.Verdict.OFF);
    List<Interaction> thin = MixCompliance.flagged(mix, MixCompliance.Verdict.THIN);
    facts.add(
        "mix "
            + (off.isEmpty() ? "within tolerance" : "OFF for " + labels(off))
            + (thin.isEmpty() ? "" : " (too few to judge: " + labels(thin) + ")"));
    long errors = SweepView.total(run).errors();
    if (errors > 0) {
      facts.add(errors + " errors");
    }
    return facts;
  }

  /** One row per application server of a run with several; null for a run with one. */
  static TextTable clients(RunResult run) {
    if (run.clients() == null || run.clients().isEmpty()) {
      return null;
    }
    TextTable t =
        new TextTable()
            .left("client", 8)
            .right("WIs")
            .right("err")
            .right("WI/s")
            .right("avg ms")
            .right("upd ms")
            .right("req/WI")
            .right("m$/WI 2008")
            .right("m$/WI 2026")
            .right("ckpts/fail")
            .right("lock refusals");
    for (ClientResult c : run.clients()) {
      ResponseStats all = c.total();
      boolean any = all.count() > 0;
      t.row(
          Integer.toString(c.index()),
          Numbers.count(all.count()),
          Numbers.count(all.errors()),
          Numbers.fixed(c.interactionsPerSecond(), 2),
          ms(any, all.meanMillis()),
          ms(c.update().count() > 0, c.update().meanMillis()),
          any ? Numbers.sig3(all.requestsPerInteraction()) : Numbers.NONE,
          any ? Numbers.sig3(SweepView.cost(run, all).total2008()) : Numbers.NONE,
          any ? Numbers.sig3(SweepView.cost(run, all).total2026()) : Numbers.NONE,
          c.checkpointsRun() + "/" + c.checkpointsFailed(),
          Numbers.count(c.lockRefusals()));
    }
    return t;
  }

  private static String labels(List<Interaction> interactions) {
    return String.join(", ", interactions.stream().map(Interaction::label).toList());
  }

  /**
   * Observed against target share per interaction with sample counts and the verdict of {@link
   * MixCompliance}.
   */
  static TextTable mixCompliance(RunResult run) {
    TextTable t =
        new TextTable()
            .left("interaction", INTERACTION_WIDTH)
            .right("count")
            .right("observed %")
            .right("target %")
            .right("tolerance pp")
            .left("verdict", 7);
    for (MixCompliance.Row row : run.mixCompliance()) {
      t.row(
          row.interaction().label(),
          Numbers.count(row.count()),
          Numbers.fixed(row.observedPercent(), 2),
          Numbers.fixed(row.targetPercent(), 2),
          Double.isInfinite(row.tolerancePoints())
              ? Numbers.NONE
              : Numbers.fixed(row.tolerancePoints(), 2),
          row.verdict().name().toLowerCase(java.util.Locale.ROOT));
    }
    return t;
  }

  /**
   * One row per run: throughput, response times, cost per WI (requests and machines), the
   * background work's share of it, buffer pool, checkpoints, lost updates.
   */
  static TextTable summary(SweepView view) {
    TextTable t =
        new TextTable()
            .left("run", RUN_NAME_WIDTH)
            .right("WIs")
            .right("err")
            .right("WI/s")
            .right("avg ms")
            .right("read ms")
            .right("upd ms")
            .right("m$/WI 2008")
            .right("m$/WI 2026")
            .right("bg share")
            .right("hits")
            .right("ckpts/fail")
            .right("lost upd");
    for (int i = 0; i < view.size(); i++) {
      RunResult r = view.run(i);
      ResponseStats total = SweepView.total(r);
      t.row(
          view.name(i),
          Numbers.count(total.count()),
          Numbers.count(total.errors()),
          Numbers.fixed(r.interactionsPerSecond(), 2),
          ms(total.count() > 0, total.meanMillis()),
          ms(SweepView.read(r).count() > 0, SweepView.read(r).meanMillis()),
          ms(SweepView.update(r).count() > 0, SweepView.update(r).meanMillis()),
          Numbers.sig3(SweepView.costPerWi2008(r)),
          Numbers.sig3(SweepView.costPerWi2026(r)),
          Numbers.percent(SweepView.backgroundShare2008(r)),
          Numbers.percent(r.bufferPoolHitRate()),
          r.checkpointsRun() + "/" + r.checkpointsFailed(),
          Numbers.count(r.lostItemUpdates() + r.lostCustomerUpdates()));
    }
    return t;
  }

  /**
   * One row per run: the cost per WI under both price tables and its two parts, the requests
   * (background work included) and the machines paid by the hour; then, for the interactions that
   * wrote, what they paid in requests and waited per record they wrote, which compares protocols
   * that write different amounts per interaction. {@code wide} adds the machines' parts (server,
   * ensemble), the coordination requests per WI and the cost per record under today's prices.
   */
  static TextTable costs(SweepView view, boolean wide) {
    TextTable t =
        new TextTable()
            .left("run", RUN_NAME_WIDTH)
            .right("m$/WI 2008")
            .right("req 2008")
            .right("mach 2008")
            .right("m$/WI 2026")
            .right("req 2026")
            .right("mach 2026");
    if (wide) {
      t.right("server 2026").right("ensemble 2026").right("coord req/WI");
    }
    t.right("m$/rec 2008");
    if (wide) {
      t.right("m$/rec 2026");
    }
    t.right("upd ms/rec");
    for (int i = 0; i < view.size(); i++) {
      RunResult r = view.run(i);
      CostPerWi c = SweepView.cost(r);
      ResponseStats update = SweepView.update(r);
      ServerCost m = SweepView.machines(r);
      boolean any = SweepView.total(r).attempts() > 0;
      List<String> cells =
          new ArrayList<>(
              List.of(
                  view.name(i),
                  Numbers.sig3(c.total2008()),
                  Numbers.sig3(c.requests2008()),
                  Numbers.sig3(c.machines2008()),
                  Numbers.sig3(c.total2026()),
                  Numbers.sig3(c.requests2026()),
                  Numbers.sig3(c.machines2026())));
      if (wide) {
        cells.add(any ? Numbers.sig3(m.serverMilliDollarsPerWi2026()) : Numbers.NONE);
        cells.add(any ? Numbers.sig3(m.coordinationMilliDollarsPerWi2026()) : Numbers.NONE);
        cells.add(any ? Numbers.sig3(m.coordinationRequestsPerWi()) : Numbers.NONE);
      }
      cells.add(Numbers.sig3(update.milliDollarsPerRecordWritten2008()));
      if (wide) {
        cells.add(Numbers.sig3(update.milliDollarsPerRecordWritten2026()));
      }
      cells.add(Numbers.sig3(update.millisPerRecordWritten()));
      t.row(cells.toArray(new String[0]));
    }
    return t;
  }

  /**
   * A figure the comparison gives a ratio of: its value for a run, and its value and weight in
   * the run's windows (for {@link Spread}).
   */
  private record Measure(
      ToDoubleFunction<RunResult> figure,
      ToDoubleBiFunction<RunResult, WindowStats> window,
      Predicate<WindowStats> counts) {}

  private static final Measure UPDATE_TIME =
      new Measure(
          r -> meanOrNaN(SweepView.update(r)),
          (r, w) -> w.updateMeanMillis(),
          w -> w.updates() > 0);
  private static final Measure AVERAGE_TIME =
      new Measure(
          r -> meanOrNaN(SweepView.total(r)), (r, w) -> w.meanMillis(), w -> w.completed() > 0);
  private static final Measure COST_2008 =
      new Measure(
          SweepView::costPerWi2008,
          (r, w) ->
              w.milliDollars2008() + machinesPerWi(r, w, SweepView.machines(r).milliDollars2008()),
          w -> w.completed() + w.errors() > 0);
  private static final Measure COST_2026 =
      new Measure(
          SweepView::costPerWi2026,
          (r, w) ->
              w.milliDollars2026() + machinesPerWi(r, w, SweepView.machines(r).milliDollars2026()),
          w -> w.completed() + w.errors() > 0);
  private static final Measure REQUESTS_2008 =
      new Measure(
          SweepView::requestCostPerWi2008,
          (r, w) -> w.milliDollars2008(),
          w -> w.completed() + w.errors() > 0);
  private static final Measure REQUESTS_2026 =
      new Measure(
          SweepView::requestCostPerWi2026,
          (r, w) -> w.milliDollars2026(),
          w -> w.completed() + w.errors() > 0);

  /**
   * The machines' rent over window {@code w} per interaction started in it: the run's rent ({@code
   * milliDollars} over its interval) paid by the second, so that a window of fewer interactions
   * pays more per interaction, as the run's cost per WI would.
   */
  private static double machinesPerWi(RunResult r, WindowStats w, double milliDollars) {
    long attempts = w.completed() + w.errors();
    return attempts == 0 || !(r.measuredSeconds() > 0)
        ? 0
        : milliDollars / r.measuredSeconds() * w.seconds() / attempts;
  }

  /**
   * {@code r}'s figure over {@code base}'s as "0.76x (0.70-0.83)": the ratio and, when both runs
   * have windows, its spread over them ({@link Spread}).
   */
  private static String ratio(RunResult r, RunResult base, Measure m, String times) {
    double value = m.figure().applyAsDouble(r);
    double baseline = m.figure().applyAsDouble(base);
    String plain = Numbers.ratio(value, baseline, times);
    Spread.Range range =
        plain.equals(Numbers.NONE)
            ? null
            : Spread.ofRatio(
                value,
                baseline,
                Spread.relative(r.windows(), w -> m.window().applyAsDouble(r, w), m.counts()),
                Spread.relative(
                    base.windows(), w -> m.window().applyAsDouble(base, w), m.counts()));
    return range == null
        ? plain
        : plain + " (" + Numbers.fixed(range.min(), 2) + "-" + Numbers.fixed(range.max(), 2) + ")";
  }

  /**
   * Each run against its baseline ({@link SweepView#baseline}): update-interaction and overall
   * response time, and cost per WI (requests and machines) under both price tables, as ratios
   * with their spread
   * over the runs' windows; {@code wide} adds each run's own figures, which do not fit a console
   * line (the summary above has them). Empty (no rows) when every run is its own baseline.
   */
  static TextTable comparison(SweepView view, String times, boolean wide) {
    TextTable t = new TextTable().left("run", RUN_NAME_WIDTH - 2).left("vs", BASELINE_NAME_WIDTH);
    for (String column : List.of("upd ms", "avg ms", "m$/WI 2008", "m$/WI 2026")) {
      if (wide) {
        t.right(column);
      }
      t.right(wide ? "ratio" : column.replace(" ms", " time") + " ratio");
    }
    for (int i = 0; i < view.size(); i++) {
      int b = view.baseline(i);
      if (b == i) {
        continue;
      }
      RunResult r = view.run(i);
      RunResult base = view.run(b);
      List<String> cells = new ArrayList<>(List.of(view.name(i), view.name(b)));
      for (Measure m : List.of(UPDATE_TIME, AVERAGE_TIME, COST_2008, COST_2026)) {
        if (wide) {
          cells.add(Numbers.sig3(m.figure().applyAsDouble(r)));
        }
        cells.add(ratio(r, base, m, times));
      }
      t.row(cells.toArray(new String[0]));
    }
    return t;
  }

  /**
   * The comparison's headline per run: "atomic / naive cost = 3.10x (2.90-3.30) (2008 prices),
   * ...", the cost per WI with the machines, then the requests alone, each ratio with its spread
   * when the runs have windows.
   */
  static List<String> comparisonHeadlines(SweepView view, String times) {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < view.size(); i++) {
      int b = view.baseline(i);
      if (b == i) {
        continue;
      }
      RunResult r = view.run(i);
      RunResult base = view.run(b);
      if (SweepView.total(r).count() == 0 || SweepView.total(base).count() == 0) {
        continue; // nothing to compare
      }
      lines.add(
          view.name(i)
              + " / "
              + view.name(b)
              + " cost = "
              + ratio(r, base, COST_2008, times)
              + " (2008 prices), "
              + ratio(r, base, COST_2026, times)
              + " (2026 prices); requests only "
              + ratio(r, base, REQUESTS_2008, times)
              + " / "
              + ratio(r, base, REQUESTS_2026, times)
              + "; update response time = "
              + ratio(r, base, UPDATE_TIME, times));
    }
    return lines;
  }

  /** A measure of one row (an interaction or a group) of a run. */
  @FunctionalInterface
  interface RowMeasure {
    double of(RunResult run, ResponseStats row);
  }

  /**
   * A last row of a pivot with a figure of the whole run, e.g. the part of a cost that is
   * background work.
   *
   * @param label the row's label
   * @param value the figure, per run
   */
  record RunRow(String label, ToDoubleFunction<RunResult> value) {}

  /**
   * Interaction rows by run columns of one measure (headed by {@link SweepView#shortName}, so the
   * caption must name the swept parameter), split so each table fits {@code width}
   * characters (pass {@link Integer#MAX_VALUE} for a single table), followed by {@code runRows}
   * (e.g. "of which background" under a cost). A row whose interactions did not run shows
   * {@link Numbers#NONE}.
   */
  static List<TextTable> pivot(
      SweepView view, RowMeasure measure, List<RunRow> runRows, int width) {
    List<TextTable> tables = new ArrayList<>();
    int i = 0;
    while (i < view.size()) {
      int used = INTERACTION_WIDTH;
      int end = i;
      while (end < view.size()) {
        int col = 2 + Math.max(8, Math.min(RUN_NAME_WIDTH, view.shortName(end).length()));
        if (end > i && used + col > width) {
          break;
        }
        used += col;
        end++;
      }
      tables.add(pivotOf(view, i, end, measure, runRows));
      i = end;
    }
    return tables;
  }

  private static TextTable pivotOf(
      SweepView view, int from, int to, RowMeasure measure, List<RunRow> runRows) {
    TextTable t = new TextTable().left("interaction", INTERACTION_WIDTH);
    for (int i = from; i < to; i++) {
      t.right(view.shortName(i));
    }
    List<List<SweepView.Row>> rowsPerRun = new ArrayList<>();
    for (int i = from; i < to; i++) {
      rowsPerRun.add(SweepView.rows(view.run(i)));
    }
    int rowCount = rowsPerRun.isEmpty() ? 0 : rowsPerRun.get(0).size();
    for (int r = 0; r < rowCount; r++) {
      SweepView.Row first = rowsPerRun.get(0).get(r);
      if (first.key().equals(SweepView.GROUPS.get(0))) {
        t.rule();
      }
      String[] cells = new String[to - from + 1];
      cells[0] = first.label();
      for (int i = from; i < to; i++) {
        ResponseStats s = rowsPerRun.get(i - from).get(r).stats();
        cells[i - from + 1] =
            s.count() > 0 ? Numbers.sig3(measure.of(view.run(i), s)) : Numbers.NONE;
      }
      t.row(cells);
    }
    for (RunRow extra : runRows) {
      String[] cells = new String[to - from + 1];
      cells[0] = extra.label();
      for (int i = from; i < to; i++) {
        cells[i - from + 1] = Numbers.sig3(extra.value().applyAsDouble(view.run(i)));
      }
      t.row(cells);
    }
    return t;
  }

  /**
   * The papers' Table 4 per run: what loading the bookstore took and cost, and the ITEM table's
   * share (Table 4 loads the 1,000 products alone).
   */
  static TextTable load(SweepView view) {
    TextTable t =
        new TextTable()
            .left("run", RUN_NAME_WIDTH)
            .right("rows")
            .right("seconds")
            .right("requests")
            .right("pages")
            .right("m$ 2008")
            .right("m$ 2026")
            .right("item s")
            .right("item req")
            .right("item m$ 2008")
            .right("item m$ 2026");
    for (int i = 0; i < view.size(); i++) {
      LoadSummary load = view.run(i).load();
      if (load == null) {
        String[] cells = new String[11];
        Arrays.fill(cells, Numbers.NONE);
        cells[0] = view.name(i);
        t.row(cells);
        continue;
      }
      t.row(
          view.name(i),
          Numbers.count(load.totalRows()),
          Numbers.fixed(load.elapsed().toNanos() / 1e9, 1),
          Numbers.count(load.requests()),
          Numbers.count(load.pagesWritten()),
          Numbers.sig3(load.milliDollars2008()),
          Numbers.sig3(load.milliDollars2026()),
          Numbers.fixed(load.itemsElapsed().toNanos() / 1e9, 2),
          Numbers.count(load.itemRequests()),
          Numbers.sig3(load.itemMilliDollars2008()),
          Numbers.sig3(load.itemMilliDollars2026()));
    }
    return t;
  }

  /** Settings every run shares, as "setting | value". */
  static TextTable commonSettings(SweepView view) {
    TextTable t = new TextTable().left("setting", 24).left("value", 60);
    for (Map.Entry<String, String> e : view.commonSettings().entrySet()) {
      t.row(e.getKey(), e.getValue());
    }
    return t;
  }

  /** One row per run with the settings that differ between runs; null when none differ. */
  static TextTable varyingSettings(SweepView view) {
    List<String> keys = view.varyingSettings();
    if (keys.isEmpty()) {
      return null;
    }
    TextTable t = new TextTable().left("run", RUN_NAME_WIDTH);
    for (String k : keys) {
      t.left(k, 24);
    }
    for (int i = 0; i < view.size(); i++) {
      Map<String, String> d = view.run(i).settings().describe();
      String[] cells = new String[keys.size() + 1];
      cells[0] = view.name(i);
      for (int k = 0; k < keys.size(); k++) {
        cells[k + 1] = d.get(keys.get(k));
      }
      t.row(cells);
    }
    return t;
  }

  /**
   * Greedily joins segments with {@code separator} into lines no longer than {@code width} (a
   * single over-long segment keeps its own line); the first line starts with {@code firstPrefix},
   * the others with {@code prefix}.
   */
  static List<String> wrap(
      List<String> segments, String firstPrefix, String prefix, String separator, int width) {
    List<String> lines = new ArrayList<>();
    StringBuilder line = new StringBuilder(firstPrefix);
    boolean empty = true;
    for (String seg : segments) {
      if (!empty && line.length() + separator.length() + seg.length() > width) {
        lines.add(line.toString());
        line = new StringBuilder(prefix);
        empty = true;
      }
      if (!empty) {
        line.append(separator);
      }
      line.append(seg);
      empty = false;
    }
    if (!empty) {
      lines.add(line.toString());
    }
    return lines;
  }

  private static double meanOrNaN(ResponseStats s) {
    return s.count() > 0 ? s.meanMillis() : Double.NaN;
  }

  private static String ms(boolean any, double v) {
    return any ? Numbers.sig3(v) : Numbers.NONE;
  }
}
