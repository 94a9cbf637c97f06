package io.stratus.bench.tpcw.report;

import io.stratus.bench.tpcw.bookstore.StockAudit;
import io.stratus.bench.tpcw.harness.CostPerWi;
import io.stratus.bench.tpcw.harness.Drain;
import io.stratus.bench.tpcw.harness.LoadSummary;
import io.stratus.bench.tpcw.harness.OwnReads;
import io.stratus.bench.tpcw.harness.RunResult;
import io.stratus.bench.tpcw.harness.RunSettings;
import io.stratus.bench.tpcw.harness.ServerCost;
import io.stratus.bench.tpcw.harness.WipsRules;
import io.stratus.bench.tpcw.rbe.MixCompliance;
import io.stratus.bench.tpcw.workload.ResponseStats;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The sweep as flat CSV for spreadsheets and pandas: results.csv has one row per run and
 * interaction or group (fourteen interactions, then read, update, total), each carrying every
 * setting and run-level counter, so any row can be plotted without joins. The mdollars_per_wi_
 * columns are the cost per WI of paper 000 (requests, with the background work the harness
 * allocated to the interaction, plus the machines paid by the hour, the same per WI for every
 * row); request_mdollars_per_wi_ are the requests alone, machines_ (and server_, ensemble_) the
 * machines, background_ the background work; the _per_record_written columns are what the row's
 * interactions paid in requests and waited per record they wrote. load.csv has one row per
 * run with what loading the database took (the papers' Table 4), with one rows_ column per table
 * and the ITEM table's time, requests and cost (item_table_ columns).
 *
 * <p>Format: RFC 4180 (comma separated, CRLF line ends, fields with commas, quotes or line breaks
 * quoted and quotes doubled), UTF-8, a header row. Numbers are plain decimals with a decimal point
 * (never exponents); durations are in milliseconds; a value that is not a number is left empty.
 */
final class CsvWriter {
  /** Columns of results.csv, in order. */
  static final List<String> RESULTS_HEADER =
      List.of(
          "parameter",
          "run",
          "label",
          "name",
          "protocol",
          "cloud",
          "placement",
          "latency_profile",
          "page_size",
          "ttl_ms",
          "checkpoint_interval_ms",
          "ebs",
          "mix",
          "items",
          "customers_per_eb",
          "warm_up_ms",
          "measure_ms",
          "think_time_mean_ms",
          "end_user_round_trip_ms",
          "seed",
          "interactions_per_second",
          "wips_rules_met",
          "measured_seconds",
          "buffer_pool_hit_rate",
          "checkpoints_run",
          "checkpoints_failed",
          "background_requests",
          "background_mdollars_2008",
          "background_mdollars_2026",
          "background_mdollars_per_wi_2008",
          "background_mdollars_per_wi_2026",
          "lost_item_updates",
          "lost_customer_updates",
          "drain_requests",
          "drain_mdollars_2008",
          "drain_mdollars_2026",
          "drain_records_applied",
          "drain_quiescent",
          "server_hours",
          "coordination_hours",
          "machines_mdollars_per_wi_2008",
          "machines_mdollars_per_wi_2026",
          "server_mdollars_per_wi_2008",
          "server_mdollars_per_wi_2026",
          "ensemble_mdollars_per_wi_2026",
          "coordination_requests",
          "clients",
          "index",
          "lock_refusals",
          "stock_items_off",
          "stock_units_off",
          "stock_uncertain_buys",
          "own_reads_checked",
          "own_reads_stale",
          "row",
          "row_kind",
          "row_label",
          "is_update",
          "mix_percent",
          "count",
          "errors",
          "mean_ms",
          "p50_ms",
          "p90_ms",
          "p99_ms",
          "requests_per_wi",
          "mdollars_per_wi_2008",
          "mdollars_per_wi_2026",
          "request_mdollars_per_wi_2008",
          "request_mdollars_per_wi_2026",
          "mean_staleness_ms",
          "max_staleness_ms",
          "wrote",
          "records_read_per_wi",
          "records_written_per_wi",
          "retries_per_wi",
          "records_written",
          "mdollars_per_record_written_2008",
          "mdollars_per_record_written_2026",
          "ms_per_record_written",
          "observed_percent",
          "mix_verdict");

  private static final String EOL = "\r\n";

  private CsvWriter() {}

  /** Writes results.csv for {@code view} to {@code file}. */
  static void writeResults(SweepView view, Path file) throws IOException {
    try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      writeRecord(w, RESULTS_HEADER);
      for (int i = 0; i < view.size(); i++) {
        RunResult run = view.run(i);
        List<String> runFields = runFields(view, i);
        for (SweepView.Row row : SweepView.rows(run)) {
          List<String> record = new ArrayList<>(runFields);
          record.addAll(rowFields(run, row));
          writeRecord(w, record);
        }
      }
    }
  }

  /** Writes load.csv for {@code view} to {@code file}. */
  static void writeLoad(SweepView view, Path file) throws IOException {
    Set<String> tables = new LinkedHashSet<>();
    for (RunResult run : view.runs()) {
      if (run.load() != null && run.load().rowsPerTable() != null) {
        tables.addAll(run.load().rowsPerTable().keySet());
      }
    }
    List<String> header =
        new ArrayList<>(List.of("parameter", "run", "label", "name", "protocol", "total_rows"));
    for (String table : tables) {
      header.add("rows_" + table);
    }
    header.addAll(
        List.of(
            "elapsed_seconds",
            "item_table_seconds",
            "requests",
            "pages_written",
            "mdollars_2008",
            "mdollars_2026",
            "item_table_requests",
            "item_table_mdollars_2008",
            "item_table_mdollars_2026"));
    try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      writeRecord(w, header);
      for (int i = 0; i < view.size(); i++) {
        RunResult run = view.run(i);
        LoadSummary load = run.load();
        List<String> record =
            new ArrayList<>(
                List.of(
                    view.parameter(),
                    Integer.toString(i + 1),
                    nullToEmpty(run.label()),
                    view.name(i),
                    SweepView.protocol(run)));
        if (load == null) {
          while (record.size() < header.size()) {
            record.add("");
          }
        } else {
          record.add(Long.toString(load.totalRows()));
          for (String table : tables) {
            Long rows = load.rowsPerTable().get(table);
            record.add(rows == null ? "" : rows.toString());
          }
          record.add(number(load.elapsed().toNanos() / 1e9));
          record.add(number(load.itemsElapsed().toNanos() / 1e9));
          record.add(Long.toString(load.requests()));
          record.add(Long.toString(load.pagesWritten()));
          record.add(number(load.milliDollars2008()));
          record.add(number(load.milliDollars2026()));
          record.add(Long.toString(load.itemRequests()));
          record.add(number(load.itemMilliDollars2008()));
          record.add(number(load.itemMilliDollars2026()));
        }
        writeRecord(w, record);
      }
    }
  }

  private static List<String> runFields(SweepView view, int i) {
    RunResult run = view.run(i);
    RunSettings s = run.settings();
    Drain d = run.drain();
    ServerCost m = SweepView.machines(run);
    List<String> fields =
        new ArrayList<>(
            List.of(
                view.parameter(),
                Integer.toString(i + 1),
                nullToEmpty(run.label()),
                view.name(i),
                SweepView.protocol(run),
                nullToEmpty(s.cloud()),
                nullToEmpty(s.placement()),
                nullToEmpty(s.latencyProfile()),
                Integer.toString(s.pageSize()),
                millis(s.ttl()),
                millis(s.checkpointInterval()),
                Integer.toString(s.ebs()),
                s.mix().id(),
                Integer.toString(s.items()),
                Integer.toString(s.customersPerEb()),
                millis(s.warmUp()),
                millis(s.measure()),
                millis(s.thinkTimeMean()),
                millis(s.endUserRoundTrip()),
                Long.toString(s.seed()),
                number(run.interactionsPerSecond()),
                Boolean.toString(WipsRules.of(run).met()),
                number(run.measuredSeconds()),
                number(run.bufferPoolHitRate()),
                Long.toString(run.checkpointsRun()),
                Long.toString(run.checkpointsFailed()),
                Long.toString(run.backgroundRequests()),
                number(run.backgroundMilliDollars2008()),
                number(run.backgroundMilliDollars2026()),
                number(SweepView.backgroundPerWi2008(run)),
                number(SweepView.backgroundPerWi2026(run)),
                Long.toString(run.lostItemUpdates()),
                Long.toString(run.lostCustomerUpdates())));
    fields.addAll(
        List.of(
            Long.toString(d.requests()),
            number(d.milliDollars2008()),
            number(d.milliDollars2026()),
            Long.toString(d.recordsApplied()),
            Boolean.toString(d.quiescent()),
            number(m.serverHours()),
            number(m.coordinationHours()),
            number(m.milliDollarsPerWi2008()),
            number(m.milliDollarsPerWi2026()),
            number(m.serverMilliDollarsPerWi2008()),
            number(m.serverMilliDollarsPerWi2026()),
            number(m.coordinationMilliDollarsPerWi2026()),
            Long.toString(m.coordinationRequests()),
            Integer.toString(s.clients()),
            s.index() == null ? "" : s.index().id(),
            Long.toString(run.lockRefusals())));
    StockAudit audit = run.stockAudit();
    OwnReads own = run.ownReads() == null ? OwnReads.NONE : run.ownReads();
    fields.addAll(
        List.of(
            audit == null ? "" : Long.toString(audit.itemsOff()),
            audit == null ? "" : Long.toString(audit.unitsOff()),
            audit == null ? "" : Long.toString(audit.uncertainBuys()),
            Long.toString(own.checked()),
            Long.toString(own.stale())));
    return fields;
  }

  private static List<String> rowFields(RunResult run, SweepView.Row row) {
    ResponseStats st = row.stats();
    CostPerWi cost = SweepView.cost(run, st);
    Boolean update = row.isUpdate();
    String mixPercent =
        row.isGroup() ? "" : number(run.settings().mix().percent(row.interaction()));
    String observed = "";
    String verdict = "";
    if (!row.isGroup()) {
      MixCompliance.Row mix = run.mixCompliance().get(row.interaction().ordinal());
      observed = number(mix.observedPercent());
      verdict = mix.verdict().name().toLowerCase(Locale.ROOT);
    }
    List<String> fields =
        new ArrayList<>(
            List.of(
                row.key(),
                row.isGroup() ? "group" : "interaction",
                row.label(),
                update == null ? "" : update.toString(),
                mixPercent,
                Long.toString(st.count()),
                Long.toString(st.errors()),
                number(st.meanMillis()),
                number(st.p50Millis()),
                number(st.p90Millis()),
                number(st.p99Millis()),
                number(st.requestsPerInteraction()),
                number(cost.total2008()),
                number(cost.total2026()),
                number(cost.requests2008()),
                number(cost.requests2026()),
                number(st.meanStalenessMillis()),
                Long.toString(st.maxStalenessMillis())));
    fields.addAll(
        List.of(
            Long.toString(st.wrote()),
            number(st.recordsReadPerInteraction()),
            number(st.recordsWrittenPerInteraction()),
            number(st.retriesPerInteraction()),
            Long.toString(st.recordsWritten()),
            number(st.milliDollarsPerRecordWritten2008()),
            number(st.milliDollarsPerRecordWritten2026()),
            number(st.millisPerRecordWritten()),
            observed,
            verdict));
    return fields;
  }

  /** Writes one record, quoting fields as RFC 4180 requires. */
  static void writeRecord(Writer w, List<String> fields) throws IOException {
    for (int i = 0; i < fields.size(); i++) {
      if (i > 0) {
        w.write(',');
      }
      w.write(quote(fields.get(i)));
    }
    w.write(EOL);
  }

  /** The field as RFC 4180 wants it: as is, or in double quotes with inner quotes doubled. */
  static String quote(String field) {
    if (field == null) {
      return "";
    }
    boolean needs =
        field.indexOf(',') >= 0
            || field.indexOf('"') >= 0
            || field.indexOf('\n') >= 0
            || field.indexOf('\r') >= 0;
    return needs ? '"' + field.replace("\"", "\"\"") + '"' : field;
  }

  private static String number(double v) {
    String plain = Numbers.plain(v);
    return plain == null ? "" : plain;
  }

  private static String millis(Duration d) {
    return d == null ? "" : number(d.toNanos() / 1e6);
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }
}
