package io.stratus.bench.tpcw.report;

import io.stratus.bench.tpcw.harness.RunResult;
import io.stratus.bench.tpcw.workload.ResponseStats;
import java.awt.Color;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.BitmapEncoder.BitmapFormat;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.XYSeries.XYSeriesRenderStyle;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.AxesChartStyler;
import org.knowm.xchart.style.Styler.LegendLayout;
import org.knowm.xchart.style.Styler.LegendPosition;

/**
 * The report's PNG charts, drawn with XChart in the manner of the papers' figures (000 section 7):
 * grouped bars of average response time per interaction and run (Figures 3 and 5), the same for
 * update interactions only (Figures 4 and 6), bars of cost per web interaction per run under both
 * price tables, with the machines and for the requests alone (Figures 7 and 8), and per
 * interaction, and, when the swept parameter is a number, lines of average response time and cost
 * per WI against it with one series per protocol (Figures 9 to 14). Bar charts give the samples
 * behind each bar in its label, and a bar of few samples does not set the scale ({@link
 * BarScale}).
 *
 * <p>Charts are rendered off-screen ({@code java.awt.headless} is set unless the caller chose
 * otherwise), so they work on build machines without a display. An interaction that did not run
 * is drawn as a zero bar: category charts need a value in every category.
 */
final class Charts {
  /**
   * A chart written to disk.
   *
   * @param file where the PNG is
   * @param title what the chart shows, for the markdown caption
   */
  record Written(Path file, String title) {}

  static final String RESPONSE_TIME = "chart-response-time.png";
  static final String RESPONSE_TIME_UPDATES = "chart-response-time-updates.png";
  static final String COST_PER_WI = "chart-cost-per-wi.png";
  static final String COST_PER_INTERACTION_2008 = "chart-cost-per-interaction-2008.png";
  static final String COST_PER_INTERACTION_2026 = "chart-cost-per-interaction-2026.png";
  static final String SWEEP_RESPONSE_TIME = "chart-sweep-response-time.png";
  static final String SWEEP_COST = "chart-sweep-cost.png";

  /** Colour-blind-safe palette (Okabe-Ito), then darker repeats for long sweeps. */
  private static final int HEIGHT = 600;

  /** Beyond this many series the legend moves from below the plot to its right. */
  private static final int LEGEND_BELOW_MAX_SERIES = 6;

  private Charts() {}

  /** Draws every chart that applies to {@code view} into {@code dir}; returns them in order. */
  static List<Written> writeAll(SweepView view, Path dir) throws IOException {
    List<Written> written = new ArrayList<>();
    if (view.size() == 0) {
      return written;
    }
    written.add(
        save(
            perInteraction(
                view,
                "Average response time per interaction (ms)",
                "avg response time (ms)",
                false,
                (run, row) -> row.meanMillis(),
                " ms"),
            dir,
            RESPONSE_TIME));
    written.add(
        save(
            perInteraction(
                view,
                "Average response time, update interactions only (ms)",
                "avg response time (ms)",
                true,
                (run, row) -> row.meanMillis(),
                " ms"),
            dir,
            RESPONSE_TIME_UPDATES));
    written.add(save(costPerWi(view), dir, COST_PER_WI));
    written.add(
        save(
            perInteraction(
                view,
                "Cost per interaction, 2008 prices, machines included (milli-$)",
                "m$ per WI",
                false,
                (run, row) -> SweepView.cost(run, row).total2008(),
                " m$"),
            dir,
            COST_PER_INTERACTION_2008));
    written.add(
        save(
            perInteraction(
                view,
                "Cost per interaction, 2026 prices, machines included (milli-$)",
                "m$ per WI",
                false,
                (run, row) -> SweepView.cost(run, row).total2026(),
                " m$"),
            dir,
            COST_PER_INTERACTION_2026));

    var axis = view.numericAxis();
    if (axis.isPresent()) {
      written.add(
          save(
              sweepLines(
                  view,
                  axis.get(),
                  "Average response time per WI (ms) vs " + view.parameter(),
                  "avg response time (ms)",
                  List.of(new Measure("", r -> meanOrZero(SweepView.total(r))))),
              dir,
              SWEEP_RESPONSE_TIME));
      written.add(
          save(
              sweepLines(
                  view,
                  axis.get(),
                  "Cost per WI (milli-$) vs " + view.parameter(),
                  "m$ per WI",
                  List.of(
                      new Measure(" (2008)", SweepView::costPerWi2008),
                      new Measure(" (2026)", SweepView::costPerWi2026))),
              dir,
              SWEEP_COST));
    }
    return written;
  }

  /**
   * Whether a run's row is drawn: all seventeen rows, or the four update interactions and the
   * "update" group.
   */
  private static boolean drawn(SweepView.Row row, boolean updatesOnly) {
    if (!updatesOnly) {
      return true;
    }
    return row.interaction() != null ? row.interaction().isUpdate() : row.key().equals("update");
  }

  /**
   * Grouped bars: one group per interaction (or group), one bar per run. Each group's label gives
   * the interactions its bars average ("n=3" or, across runs, "n=1-3"); bars that rest on few
   * samples and would stretch the axis are cut ({@link BarScale}), and their group's label gives
   * their value.
   */
  static CategoryChart perInteraction(
      SweepView view,
      String title,
      String yTitle,
      boolean updatesOnly,
      Tables.RowMeasure measure,
      String unit) {
    List<List<SweepView.Row>> rows = new ArrayList<>();
    List<BarScale.Bar> bars = new ArrayList<>();
    for (int i = 0; i < view.size(); i++) {
      List<SweepView.Row> drawnRows = new ArrayList<>();
      for (SweepView.Row row : SweepView.rows(view.run(i))) {
        if (drawn(row, updatesOnly)) {
          drawnRows.add(row);
          bars.add(new BarScale.Bar(value(view.run(i), row.stats(), measure), row.stats().count()));
        }
      }
      rows.add(drawnRows);
    }
    BarScale scale = BarScale.of(bars);
    List<String> categories = new ArrayList<>();
    for (int c = 0; c < rows.get(0).size(); c++) {
      SweepView.Row first = rows.get(0).get(c);
      String label = updatesOnly && first.isGroup() ? "all updates" : first.label();
      long fewest = Long.MAX_VALUE;
      long most = 0;
      List<String> cut = new ArrayList<>();
      for (int i = 0; i < view.size(); i++) {
        ResponseStats s = rows.get(i).get(c).stats();
        fewest = Math.min(fewest, s.count());
        most = Math.max(most, s.count());
        double v = value(view.run(i), s, measure);
        if (scale.isCut(v)) {
          cut.add(view.name(i) + " " + Numbers.sig3(v) + unit);
        }
      }
      categories.add(
          label
              + " (n="
              + (fewest == most ? Long.toString(most) : fewest + "-" + most)
              + (cut.isEmpty() ? "" : "; off scale: " + String.join(", ", cut))
              + ")");
    }
    int width = barChartWidth(categories.size(), view.size());
    String scaleNote =
        (scale.logarithmic() ? ", log scale" : "")
            + (scale.cuts()
                ? ", axis cut at "
                    + Numbers.sig3(scale.cut())
                    + unit
                    + ", bars above it (< "
                    + BarScale.MIN_SAMPLES
                    + " samples) named in labels"
                : "");
    CategoryChart chart =
        new CategoryChartBuilder()
            .width(width)
            .height(HEIGHT)
            .title(scaleNote.isEmpty() ? title : title + " -" + scaleNote.substring(1))
            .xAxisTitle("web interaction (n: interactions measured)")
            .yAxisTitle(yTitle)
            .build();
    style(chart.getStyler());
    chart.getStyler().setXAxisLabelRotation(40);
    chart.getStyler().setAvailableSpaceFill(0.8);
    if (scale.cuts()) {
      chart.getStyler().setYAxisMax(scale.cut());
    }
    if (scale.logarithmic()) {
      chart.getStyler().setYAxisLogarithmic(true);
      chart.getStyler().setYAxisMin(scale.logFloor());
    }
    if (view.size() > LEGEND_BELOW_MAX_SERIES) {
      // A long sweep's legend would not fit in one row below the plot.
      chart.getStyler().setLegendPosition(LegendPosition.OutsideE);
      chart.getStyler().setLegendLayout(LegendLayout.Vertical);
    }
    for (int i = 0; i < view.size(); i++) {
      List<Double> values = new ArrayList<>();
      for (SweepView.Row row : rows.get(i)) {
        values.add(scale.drawn(value(view.run(i), row.stats(), measure)));
      }
      chart.addSeries(view.name(i), categories, values);
    }
    return chart;
  }

  /**
   * Bars of cost per WI per run (Figures 7 and 8): under each price table with the machines and
   * for the requests alone. Each run's label gives its interactions; bars that span more than
   * {@value BarScale#LOG_SPAN} times (2008's coordination requests beside 2026's) are drawn on a
   * logarithmic axis ({@link BarScale}).
   */
  private static CategoryChart costPerWi(SweepView view) {
    List<String> runs = new ArrayList<>();
    List<List<Double>> series = new ArrayList<>();
    List<ToDoubleFunction<RunResult>> measures =
        List.of(
            SweepView::costPerWi2008,
            SweepView::requestCostPerWi2008,
            SweepView::costPerWi2026,
            SweepView::requestCostPerWi2026);
    List<BarScale.Bar> bars = new ArrayList<>();
    int longest = 0;
    for (int i = 0; i < view.size(); i++) {
      RunResult run = view.run(i);
      String label = view.name(i) + " (n=" + SweepView.total(run).count() + ")";
      runs.add(label);
      longest = Math.max(longest, label.length());
      for (ToDoubleFunction<RunResult> m : measures) {
        bars.add(
            new BarScale.Bar(finiteOrZero(m.applyAsDouble(run)), SweepView.total(run).count()));
      }
    }
    BarScale scale = BarScale.of(bars);
    for (int m = 0; m < measures.size(); m++) {
      List<Double> values = new ArrayList<>();
      for (int i = 0; i < view.size(); i++) {
        values.add(scale.drawn(bars.get(i * measures.size() + m).value()));
      }
      series.add(values);
    }
    CategoryChart chart =
        new CategoryChartBuilder()
            .width(barChartWidth(view.size(), measures.size()))
            .height(HEIGHT)
            .title(
                "Cost per WI: requests (background work included) and machines (milli-$)"
                    + (scale.logarithmic() ? " - log scale" : ""))
            .xAxisTitle(
                (view.isProtocolSweep() ? "protocol" : "run") + " (n: interactions measured)")
            .yAxisTitle("m$ per WI")
            .build();
    style(chart.getStyler());
    chart.getStyler().setXAxisLabelRotation(view.size() > 6 || longest > 16 ? 40 : 0);
    chart.getStyler().setAvailableSpaceFill(0.7);
    if (scale.logarithmic()) {
      chart.getStyler().setYAxisLogarithmic(true);
      chart.getStyler().setYAxisMin(scale.logFloor());
    }
    List<String> names =
        List.of("2008 prices", "2008, requests only", "2026 prices", "2026, requests only");
    for (int m = 0; m < names.size(); m++) {
      chart.addSeries(names.get(m), runs, series.get(m));
    }
    return chart;
  }

  /** A line per protocol (and per measure): the measure of its runs against the swept value. */
  private record Measure(String suffix, ToDoubleFunction<RunResult> of) {}

  private static XYChart sweepLines(
      SweepView view,
      SweepView.NumericAxis axis,
      String title,
      String yTitle,
      List<Measure> measures) {
    XYChart chart =
        new XYChartBuilder()
            .width(1000)
            .height(HEIGHT)
            .title(title)
            .xAxisTitle(axis.axisTitle())
            .yAxisTitle(yTitle)
            .build();
    style(chart.getStyler());
    chart.getStyler().setDefaultSeriesRenderStyle(XYSeriesRenderStyle.Line);
    chart.getStyler().setMarkerSize(8);
    chart.getStyler().setXAxisDecimalPattern(decimalPattern(axis.values()));
    List<String> protocols = view.protocols();
    for (int p = 0; p < protocols.size(); p++) {
      String protocol = protocols.get(p);
      Color color = ChartStyle.color(p);
      List<Integer> runsOfProtocol = new ArrayList<>();
      for (int i = 0; i < view.size(); i++) {
        if (SweepView.protocol(view.run(i)).equals(protocol)) {
          runsOfProtocol.add(i);
        }
      }
      runsOfProtocol.sort(Comparator.comparingDouble(i -> axis.values()[i]));
      for (Measure m : measures) {
        double[] xs = new double[runsOfProtocol.size()];
        double[] ys = new double[runsOfProtocol.size()];
        for (int k = 0; k < xs.length; k++) {
          int i = runsOfProtocol.get(k);
          xs[k] = axis.values()[i];
          ys[k] = finiteOrZero(m.of().applyAsDouble(view.run(i)));
        }
        XYSeries series = chart.addSeries(protocol + m.suffix(), xs, ys);
        series.setLineColor(color);
        series.setMarkerColor(color);
        // The second measure (2026 prices) is dashed, in the protocol's colour.
        series.setLineStyle(m == measures.get(0) ? ChartStyle.SOLID : ChartStyle.DASHED);
      }
    }
    return chart;
  }

  private static void style(AxesChartStyler s) {
    ChartStyle.apply(s);
  }

  private static String decimalPattern(double[] values) {
    for (double v : values) {
      if (v != Math.rint(v)) {
        return "#,##0.###";
      }
    }
    return "#,##0";
  }

  private static int barChartWidth(int categories, int seriesCount) {
    int perCategory = 24 + 12 * seriesCount;
    return Math.max(900, Math.min(2400, 200 + categories * perCategory));
  }

  private static double value(RunResult run, ResponseStats s, Tables.RowMeasure measure) {
    return s.count() > 0 ? finiteOrZero(measure.of(run, s)) : 0.0;
  }

  private static double meanOrZero(ResponseStats s) {
    return s.count() > 0 ? finiteOrZero(s.meanMillis()) : 0.0;
  }

  private static double finiteOrZero(double v) {
    return Double.isFinite(v) ? v : 0.0;
  }

  private static Written save(Chart<?, ?> chart, Path dir, String fileName) throws IOException {
    Path file = dir.resolve(fileName);
    try (OutputStream out = Files.newOutputStream(file)) {
      BitmapEncoder.saveBitmap(chart, out, BitmapFormat.PNG);
    }
    return new Written(file, chart.getTitle());
  }
}
