package io.stratus.bench.tpcw.sigmod;

import io.stratus.bench.tpcw.report.ChartStyle;
import io.stratus.cloudapi.decorate.PriceTable;
import io.stratus.cloudapi.decorate.PriceTables;
import io.stratus.protocols.ProtocolKind;
import java.awt.Color;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.BitmapEncoder.BitmapFormat;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.XYSeries.XYSeriesRenderStyle;

/**
 * The files of a run: the tables as CSV ({@value #TABLE}), the checkpoint-interval sweep as CSV
 * ({@value #SWEEP}) and as charts in the manner of paper 001's Figure 3, total cost per 1,000
 * transactions against the checkpoint interval, one line per protocol, with the transactions'
 * own cost dashed beneath (the level the paper's curve converges to for an infinite interval).
 */
final class SigmodReport {
  static final String TABLE = "protocols.csv";
  static final String SWEEP = "cost-vs-checkpoint-interval.csv";
  static final String CHART_PAPER = "cost-vs-checkpoint-interval.png";
  static final String CHART_2026 = "cost-vs-checkpoint-interval-2026.png";

  private SigmodReport() {}

  /** The names of the files {@link #write} writes. */
  static List<String> files(boolean withSweep) {
    return withSweep ? List.of(TABLE, SWEEP, CHART_PAPER, CHART_2026) : List.of(TABLE);
  }

  /** Writes the files into {@code dir} (which exists). */
  static void write(
      Path dir, List<SigmodRun.Result> timed, List<SigmodRun.Result> sweep, PriceTable paper)
      throws IOException {
    PriceTable today = PriceTables.aws2026();
    List<String> table = new ArrayList<>();
    table.add(
        "protocol,profile,clients,transactions,committed,failed,retries,avg_s,max_s,"
            + "one_by_one_avg_s,one_by_one_max_s,"
            + "requests_per_tx,sqs_sends_per_tx,checkpoints,pending_after_drain,"
            + "paper_prices_total,paper_prices_checkpoint,paper_prices_transaction,"
            + "aws2026_total,aws2026_checkpoint,aws2026_transaction,"
            + "paper_avg_s,paper_max_s,paper_total,paper_checkpoint,paper_transaction");
    for (SigmodRun.Result r : timed) {
      double[] time = SigmodBenchmark.PAPER_TIME.get(r.spec().protocol());
      double[] cost = SigmodBenchmark.PAPER_COST.get(r.spec().protocol());
      table.add(
          String.join(
              ",",
              SigmodBenchmark.name(r),
              r.spec().profile(),
              Integer.toString(r.spec().clients()),
              Integer.toString(r.spec().transactions()),
              Long.toString(r.committed()),
              Long.toString(r.failed()),
              Long.toString(r.retries()),
              number(r.averageSeconds()),
              number(r.maxSeconds()),
              number(r.serialSeconds()),
              number(r.serialMaxSeconds()),
              number(SigmodBenchmark.perTransaction(r, r.transactions().requests())),
              number(SigmodBenchmark.perTransaction(r, SigmodBenchmark.sends(r.transactions()))),
              Long.toString(r.checkpoints()),
              Long.toString(r.pendingMessages()),
              split(r, paper),
              split(r, today),
              time == null ? "," : number(time[0]) + "," + number(time[1]),
              cost == null
                  ? ",,"
                  : number(cost[0]) + "," + number(cost[1]) + "," + number(cost[2])));
    }
    Files.write(dir.resolve(TABLE), table, StandardCharsets.UTF_8);
    if (sweep.isEmpty()) {
      return;
    }
    List<String> rows = new ArrayList<>();
    rows.add(
        "protocol,checkpoint_interval_s,clients,transactions,spacing_s,checkpoints,"
            + "requests_per_tx,pending_after_drain,paper_prices_total,paper_prices_checkpoint,"
            + "paper_prices_transaction,aws2026_total,aws2026_checkpoint,aws2026_transaction");
    for (SigmodRun.Result r : sweep) {
      rows.add(
          String.join(
              ",",
              SigmodBenchmark.name(r),
              number(r.spec().checkpointInterval().toMillis() / 1e3),
              Integer.toString(r.spec().clients()),
              Long.toString(r.committed()),
              number(r.spec().spacing().toNanos() / 1e9),
              Long.toString(r.checkpoints()),
              number(SigmodBenchmark.perTransaction(r, r.all().requests())),
              Long.toString(r.pendingMessages()),
              split(r, paper),
              split(r, today)));
    }
    Files.write(dir.resolve(SWEEP), rows, StandardCharsets.UTF_8);
    chart(dir.resolve(CHART_PAPER), sweep, paper);
    chart(dir.resolve(CHART_2026), sweep, today);
  }

  private static String split(SigmodRun.Result r, PriceTable prices) {
    return r.perThousand(r.all(), prices).toPlainString()
        + ","
        + r.perThousand(r.background(), prices).toPlainString()
        + ","
        + r.perThousand(r.transactions(), prices).toPlainString();
  }

  private static String number(double v) {
    return Double.isFinite(v) ? String.format(Locale.ROOT, "%.4f", v) : "";
  }

  private static void chart(Path file, List<SigmodRun.Result> sweep, PriceTable prices)
      throws IOException {
    XYChart chart =
        new XYChartBuilder()
            .width(1000)
            .height(600)
            .title(
                "Cost per 1,000 transactions, varying the checkpoint interval ("
                    + prices.name()
                    + ")")
            .xAxisTitle("checkpoint interval (s)")
            .yAxisTitle("$ per 1,000 transactions")
            .build();
    var styler = chart.getStyler();
    ChartStyle.apply(styler);
    styler.setDefaultSeriesRenderStyle(XYSeriesRenderStyle.Line);
    styler.setMarkerSize(8);
    styler.setXAxisMin(0.0);
    styler.setXAxisDecimalPattern("#,##0.#");
    Map<ProtocolKind, List<SigmodRun.Result>> byProtocol = new LinkedHashMap<>();
    for (SigmodRun.Result r : sweep) {
      byProtocol.computeIfAbsent(r.spec().protocol(), k -> new ArrayList<>()).add(r);
    }
    int p = 0;
    for (Map.Entry<ProtocolKind, List<SigmodRun.Result>> e : byProtocol.entrySet()) {
      List<SigmodRun.Result> runs = new ArrayList<>(e.getValue());
      runs.sort((a, b) -> a.spec().checkpointInterval().compareTo(b.spec().checkpointInterval()));
      double[] xs = new double[runs.size()];
      double[] total = new double[runs.size()];
      double[] transactions = new double[runs.size()];
      for (int i = 0; i < xs.length; i++) {
        SigmodRun.Result r = runs.get(i);
        xs[i] = r.spec().checkpointInterval().toMillis() / 1e3;
        total[i] = r.perThousand(r.all(), prices).doubleValue();
        transactions[i] = r.perThousand(r.transactions(), prices).doubleValue();
      }
      Color color = ChartStyle.color(p++);
      String name = e.getKey().name().toLowerCase(Locale.ROOT);
      XYSeries t = chart.addSeries(name + " total", xs, total);
      t.setLineColor(color);
      t.setMarkerColor(color);
      t.setLineStyle(ChartStyle.SOLID);
      XYSeries own = chart.addSeries(name + " transactions only", xs, transactions);
      own.setLineColor(color);
      own.setMarkerColor(color);
      own.setLineStyle(ChartStyle.DASHED);
    }
    try (OutputStream out = Files.newOutputStream(file)) {
      BitmapEncoder.saveBitmap(chart, out, BitmapFormat.PNG);
    }
  }
}
