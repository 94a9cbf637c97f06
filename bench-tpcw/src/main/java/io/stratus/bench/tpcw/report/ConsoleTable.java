package io.stratus.bench.tpcw.report;

import io.stratus.bench.tpcw.harness.RunResult;
import io.stratus.bench.tpcw.harness.SweepResult;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The sweep on the terminal, for the person watching the run: first each run's full table
 * (seventeen rows with count, percentiles, requests, cost per WI under both price tables and per
 * record written, staleness) with its run-level facts; then, when several runs were made, the
 * average response time and the cost per interaction with the runs side by side; then the
 * summary and the cost table, one row per run; and last each run against its baseline ("atomic /
 * naive cost = 3.10x"). The comparisons come last so they are what stays on the screen.
 *
 * <p>Every line is at most {@link Tables#CONSOLE_WIDTH} characters; longer ones (an unusually
 * long run name or error message) are cut. Only ASCII is printed, so any console encoding works.
 */
final class ConsoleTable {
  private static final String INDENT = "  ";
  private static final String TIMES = "x";

  private final List<String> lines = new ArrayList<>();

  private ConsoleTable() {}

  /** Prints the tables of {@code result} to {@code out} and flushes it. */
  static void print(SweepResult result, PrintWriter out) {
    for (String line : render(new SweepView(result))) {
      out.println(line);
    }
    out.flush();
  }

  /** The console lines, each at most {@link Tables#CONSOLE_WIDTH} characters. */
  static List<String> render(SweepView view) {
    ConsoleTable c = new ConsoleTable();
    c.build(view);
    return c.lines;
  }

  private void build(SweepView view) {
    add(
        "TPC-W results: "
            + view.size()
            + (view.size() == 1 ? " run" : " runs")
            + (view.isProtocolSweep() ? " (one per protocol)" : ", sweeping " + view.parameter()));
    if (view.size() == 0) {
      return;
    }
    addAll(
        Tables.wrap(
            commonSettings(view),
            INDENT + "settings: ",
            INDENT + "  ",
            ", ",
            Tables.CONSOLE_WIDTH));
    for (int i = 0; i < view.size(); i++) {
      RunResult run = view.run(i);
      blank();
      add("Run " + (i + 1) + "/" + view.size() + ": " + view.name(i) + varyingSettings(view, run));
      addAll(Tables.detail(run, false).fixedWidth(INDENT));
      addAll(Tables.wrap(Tables.runFacts(run), INDENT, INDENT, " | ", Tables.CONSOLE_WIDTH));
      TextTable clients = Tables.clients(run);
      if (clients != null) {
        add(INDENT + "per client (application server):");
        addAll(clients.fixedWidth(INDENT));
      }
      if (run.errorSamples() != null) {
        for (String sample : run.errorSamples().stream().limit(3).toList()) {
          add(INDENT + "error: " + sample);
        }
      }
    }
    if (view.size() > 1) {
      pivots(
          view,
          "Average response time (ms) per interaction and run",
          (run, row) -> row.meanMillis(),
          List.of());
      pivots(
          view,
          "Cost per interaction (m$ per WI, 2008 prices: requests, background included, and"
              + " machines) per run",
          (run, row) -> SweepView.cost(run, row).total2008(),
          List.of(
              new Tables.RunRow("of which background", SweepView::backgroundPerWi2008),
              new Tables.RunRow("of which machines", SweepView::machinesPerWi2008)));
    }
    blank();
    add(
        "Summary (ms; m$ per WI under 2008 and 2026 prices, requests and machines; bg share: the"
            + " background work's part of the 2008 cost;");
    add("  WI/s: interactions per second of a closed loop, TPC-W's WIPS only under its rules)");
    addAll(Tables.summary(view).fixedWidth(INDENT));
    blank();
    add(
        "Cost per WI (m$) = requests (background work included) + machines (server rent in the ec2"
            + " placement; ensemble at 2026 prices)");
    add(
        "  m$/rec, upd ms/rec: what the interactions that wrote paid in requests and waited, per"
            + " record written");
    addAll(Tables.costs(view, false).fixedWidth(INDENT));
    List<String> headlines = Tables.comparisonHeadlines(view, TIMES);
    if (!headlines.isEmpty()) {
      blank();
      add(
          "Comparison against naive (or the first run)"
              + (view.isProtocolSweep() ? "" : " at the same " + view.parameter())
              + " (in brackets: the ratio's lowest and highest");
      add("  over every pair of a window of the one run and a window of the other)");
      addAll(Tables.comparison(view, TIMES, false).fixedWidth(INDENT));
      for (String h : headlines) {
        // With their spreads and the requests-only ratios the headlines outgrow a line (and two
        // long run names would be cut): they wrap between their parts.
        addAll(
            Tables.wrap(List.of(h.split("; ")), INDENT, INDENT + "  ", "; ", Tables.CONSOLE_WIDTH));
      }
    }
  }

  /** A pivot of one measure, interaction rows by run columns, split to fit the console. */
  private void pivots(
      SweepView view, String caption, Tables.RowMeasure measure, List<Tables.RunRow> extra) {
    blank();
    add(
        caption
            + (view.isProtocolSweep() ? "" : " (columns: protocol and " + view.parameter() + ")"));
    List<TextTable> tables =
        Tables.pivot(view, measure, extra, Tables.CONSOLE_WIDTH - INDENT.length());
    for (int p = 0; p < tables.size(); p++) {
      if (p > 0) {
        blank();
      }
      addAll(tables.get(p).fixedWidth(INDENT));
    }
  }

  /** "  [ebs 10, page size 65536]": the run's settings that differ between runs, but protocol. */
  private static String varyingSettings(SweepView view, RunResult run) {
    Map<String, String> described = run.settings().describe();
    List<String> parts = new ArrayList<>();
    for (String key : view.varyingSettings()) {
      if (!key.equals("protocol")) {
        parts.add(key + " " + described.get(key));
      }
    }
    return parts.isEmpty() ? "" : "  [" + String.join(", ", parts) + "]";
  }

  /** The settings all runs share as "name value" segments ("ebs 10", "mix shopping"). */
  private static List<String> commonSettings(SweepView view) {
    List<String> parts = new ArrayList<>();
    for (Map.Entry<String, String> e : view.commonSettings().entrySet()) {
      parts.add(e.getKey() + " " + e.getValue());
    }
    return parts;
  }

  private void add(String line) {
    lines.add(cut(toAscii(line)));
  }

  private void addAll(List<String> more) {
    more.forEach(this::add);
  }

  private void blank() {
    lines.add("");
  }

  private static String cut(String line) {
    return line.length() <= Tables.CONSOLE_WIDTH
        ? line
        : line.substring(0, Tables.CONSOLE_WIDTH - 3) + "...";
  }

  private static String toAscii(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char ch = s.charAt(i);
      b.append(ch >= 0x20 && ch < 0x7f ? ch : Character.isWhitespace(ch) ? ' ' : '?');
    }
    return b.toString();
  }
}
