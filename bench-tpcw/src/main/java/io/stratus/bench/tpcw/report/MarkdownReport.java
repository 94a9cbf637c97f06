package io.stratus.bench.tpcw.report;

import io.stratus.bench.tpcw.harness.RunResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * report.md: the sweep for a reader who was not watching the run. It opens with the warnings the
 * console printed and what went wrong in the runs ({@link Warnings}), then what was run (the
 * settings shared by all runs, then those that differ), gives the per-run summary, the cost per
 * WI and its parts and the comparison against naive, then response time and cost per interaction
 * (and per record written, and the sample counts) as tables next to the figure-style charts
 * ({@link Charts}), the parameter sweep lines when the parameter is numeric, the bulk load (the
 * papers' Table 4), and finally every run's full table.
 *
 * <p>The charts are PNG files next to the report and referenced by relative name, so the
 * directory can be moved or attached as a whole. The text contains no timestamps or host names:
 * the same sweep gives the same report.
 */
final class MarkdownReport {
  static final String FILE_NAME = "report.md";

  private static final String TIMES = "\u00d7";

  private final SweepView view;
  private final List<Charts.Written> charts;
  private final List<String> lines = new ArrayList<>();

  private MarkdownReport(SweepView view, List<Charts.Written> charts) {
    this.view = view;
    this.charts = charts;
  }

  /**
   * Draws the charts into {@code dir} and writes report.md there; returns the report's path
   * followed by the charts' paths.
   */
  static List<Path> write(SweepView view, Path dir) throws IOException {
    List<Charts.Written> charts = Charts.writeAll(view, dir);
    MarkdownReport report = new MarkdownReport(view, charts);
    report.build();
    Path file = dir.resolve(FILE_NAME);
    Files.writeString(file, String.join("\n", report.lines) + "\n", StandardCharsets.UTF_8);
    List<Path> written = new ArrayList<>();
    written.add(file);
    charts.forEach(c -> written.add(c.file()));
    return written;
  }

  private void build() {
    add("# Stratus TPC-W report");
    blank();
    add(
        view.isProtocolSweep()
            ? view.size()
                + " run(s), one per protocol: "
                + String.join(", ", view.protocols())
                + "."
            : view.size()
                + " run(s) sweeping **"
                + TextTable.escapeMarkdown(view.parameter())
                + "** for protocols "
                + String.join(", ", view.protocols())
                + ".");
    add(
        "Response times are in milliseconds; costs are in milli-dollars (m$) per web interaction"
            + " (WI) under the papers' 2008 prices and today's (2026) AWS prices. The cost per WI"
            + " is paper 000's (section 7.1): the requests, background work (checkpoints,"
            + " propagation, the drain of what the measurement interval left queued) included,"
            + " which the harness charges to the update interactions that caused it (000, section"
            + " 7.4), plus the machines paid by the hour: the application server in the ec2"
            + " placement and, at 2026 prices, the coordination ensemble of a run that made lock,"
            + " counter or advanced-queue requests (the 2008 prices charge those per request),"
            + " spread evenly over the interactions. \"req\" columns are the requests alone,"
            + " \"mach\" the machines; \"bg share\" is the background's part of the cost per WI."
            + " Update interactions are those that committed a write in the run, read"
            + " interactions those that wrote nothing; \"m\\$/rec\" and \"ms/rec\" are what"
            + " the interactions paid in requests and waited per record they wrote.");
    if (view.size() == 0) {
      return;
    }
    warnings();
    settings();
    summary();
    responseTime();
    cost();
    sweep();
    load();
    details();
  }

  private void warnings() {
    List<String> warnings = Warnings.of(view);
    if (warnings.isEmpty()) {
      return;
    }
    section("Warnings");
    for (String w : warnings) {
      add("- " + TextTable.escapeMarkdown(w));
    }
  }

  private void settings() {
    section("Settings");
    table(Tables.commonSettings(view));
    TextTable varying = Tables.varyingSettings(view);
    if (varying != null) {
      blank();
      add("Settings that differ between runs:");
      blank();
      table(varying);
    }
  }

  private void summary() {
    section("Summary");
    add(
        "WI/s: completed interactions per second of a closed loop (each browser sends its next"
            + " request when the last is answered); it is TPC-W's WIPS only when the run follows"
            + " the specification's rules (think time, steady state, 90th-percentile limits), which"
            + " each run's facts check.");
    blank();
    table(Tables.summary(view));
    add(
        "Cost per WI and its parts, and per record written by the interactions that wrote (the"
            + " machines: server rent; ensemble rent and the coordination requests it served):");
    blank();
    table(Tables.costs(view, true));
    List<String> headlines = Tables.comparisonHeadlines(view, TIMES);
    if (headlines.isEmpty()) {
      return;
    }
    section("Comparison");
    add(
        "Each run against naive (or the first run)"
            + (view.isProtocolSweep()
                ? ""
                : " at the same " + TextTable.escapeMarkdown(view.parameter()))
            + ": update-interaction and overall average response time, and cost per WI (requests and"
            + " machines; the headlines give the requests alone beside it). In brackets each ratio's spread: its lowest and highest over every pair of a window"
            + " of the one run and a window of the other (the runs' measurement intervals are"
            + " split into equal windows of one TTL or checkpoint interval each).");
    blank();
    table(Tables.comparison(view, TIMES, true));
    blank();
    for (String h : headlines) {
      add("- " + TextTable.escapeMarkdown(h));
    }
  }

  private void responseTime() {
    section("Response time per interaction");
    chart(Charts.RESPONSE_TIME);
    chart(Charts.RESPONSE_TIME_UPDATES);
    add("Average response time (ms)" + columnsCaption() + ":");
    blank();
    pivot((run, row) -> row.meanMillis(), List.of());
    add("Completed interactions" + columnsCaption() + ", the samples every figure above rests on:");
    blank();
    pivot((run, row) -> row.count(), List.of());
    add("Response time per record written (ms), where the interactions wrote:");
    blank();
    pivot((run, row) -> row.millisPerRecordWritten(), List.of());
  }

  private void cost() {
    section("Cost per interaction");
    chart(Charts.COST_PER_WI);
    chart(Charts.COST_PER_INTERACTION_2008);
    chart(Charts.COST_PER_INTERACTION_2026);
    add(
        "m\\$ per WI under the 2008 prices, requests and machines"
            + columnsCaption()
            + "; the last rows are the parts of the total that are background work and machines:");
    blank();
    pivot(
        (run, row) -> SweepView.cost(run, row).total2008(),
        List.of(
            new Tables.RunRow("of which background", SweepView::backgroundPerWi2008),
            new Tables.RunRow("of which machines", SweepView::machinesPerWi2008)));
    add("m\\$ per WI under the 2026 prices" + columnsCaption() + ", likewise:");
    blank();
    pivot(
        (run, row) -> SweepView.cost(run, row).total2026(),
        List.of(
            new Tables.RunRow("of which background", SweepView::backgroundPerWi2026),
            new Tables.RunRow("of which machines", SweepView::machinesPerWi2026)));
    add(
        "m\\$ per record written under the 2008 prices (requests, background included), where"
            + " the interactions wrote: the price of a write, whatever the writes per interaction:");
    blank();
    pivot((run, row) -> row.milliDollarsPerRecordWritten2008(), List.of());
  }

  private void pivot(Tables.RowMeasure measure, List<Tables.RunRow> extra) {
    for (TextTable t : Tables.pivot(view, measure, extra, Integer.MAX_VALUE)) {
      table(t);
    }
  }

  private void sweep() {
    if (view.numericAxis().isEmpty()) {
      return;
    }
    section("Varying " + TextTable.escapeMarkdown(view.parameter()));
    add(
        "Average response time and cost per WI against "
            + TextTable.escapeMarkdown(view.parameter())
            + ", one line per protocol (cost: solid 2008 prices, dashed 2026).");
    blank();
    chart(Charts.SWEEP_RESPONSE_TIME);
    chart(Charts.SWEEP_COST);
  }

  private void load() {
    section("Bulk load");
    add(
        "What loading the bookstore took per run, and the ITEM table alone with its indexes"
            + " (the papers' Table 4 loads 1,000 products).");
    blank();
    table(Tables.load(view));
  }

  private void details() {
    section("Runs in detail");
    for (int i = 0; i < view.size(); i++) {
      RunResult run = view.run(i);
      blank();
      add("### " + (i + 1) + ". " + TextTable.escapeMarkdown(view.name(i)));
      blank();
      table(Tables.detail(run, true));
      blank();
      for (String fact : Tables.runFacts(run)) {
        add("- " + TextTable.escapeMarkdown(fact));
      }
      TextTable clients = Tables.clients(run);
      if (clients != null) {
        blank();
        add("Per application server (client), each with its own database handle:");
        blank();
        table(clients);
      }
      blank();
      add(
          "Mix compliance: observed against target share of the completed interactions; a share"
              + " is off when chance over this many pages of the specification's Markov chain does"
              + " not explain the difference, thin when too few were expected to judge.");
      blank();
      table(Tables.mixCompliance(run));
      if (run.errorSamples() != null && !run.errorSamples().isEmpty()) {
        blank();
        add("Error samples:");
        blank();
        for (String sample : run.errorSamples()) {
          add("- `" + sample.replace('`', '\'').replace('\n', ' ').replace('\r', ' ') + "`");
        }
      }
    }
  }

  /** How pivot columns are headed in a parameter sweep: " (columns: protocol and ebs)". */
  private String columnsCaption() {
    return view.isProtocolSweep()
        ? ""
        : " (columns: protocol and " + TextTable.escapeMarkdown(view.parameter()) + ")";
  }

  /** Embeds the chart if it was drawn (the sweep charts exist only for numeric parameters). */
  private void chart(String fileName) {
    for (Charts.Written c : charts) {
      if (c.file().getFileName().toString().equals(fileName)) {
        add("![" + TextTable.escapeMarkdown(c.title()) + "](" + fileName + ")");
        blank();
        return;
      }
    }
  }

  private void table(TextTable t) {
    lines.addAll(t.markdown());
    blank();
  }

  private void section(String title) {
    if (!lines.isEmpty() && !lines.get(lines.size() - 1).isEmpty()) {
      blank();
    }
    add("## " + title);
    blank();
  }

  private void add(String line) {
    lines.add(line);
  }

  private void blank() {
    if (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty()) {
      return;
    }
    lines.add("");
  }
}
