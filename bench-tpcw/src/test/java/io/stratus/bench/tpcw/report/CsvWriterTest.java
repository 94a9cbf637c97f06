package io.stratus.bench.tpcw.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.stratus.bench.tpcw.workload.Interaction;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CsvWriterTest {
  @TempDir Path dir;

  private List<List<String>> results(SweepView view) throws IOException {
    Path file = dir.resolve("results.csv");
    CsvWriter.writeResults(view, file);
    return MiniCsv.parse(Files.readString(file, StandardCharsets.UTF_8));
  }

  private static String field(List<String> header, List<String> record, String column) {
    return record.get(header.indexOf(column));
  }

  @Test
  void oneRowPerRunAndInteractionOrGroupUnderTheHeader() throws IOException {
    List<List<String>> records = results(new SweepView(Fixtures.protocolSweep()));

    assertThat(records.get(0)).containsExactlyElementsOf(CsvWriter.RESULTS_HEADER);
    assertThat(records).hasSize(1 + 4 * (14 + 3));
    assertThat(records).allSatisfy(r -> assertThat(r).hasSize(CsvWriter.RESULTS_HEADER.size()));
    List<String> header = records.get(0);
    assertThat(field(header, records.get(1), "row")).isEqualTo(Interaction.HOME.name());
    assertThat(field(header, records.get(1), "row_label")).isEqualTo("Home");
    assertThat(field(header, records.get(1), "mix_percent")).isEqualTo("16");
    assertThat(field(header, records.get(17), "row")).isEqualTo("total");
    assertThat(field(header, records.get(17), "row_kind")).isEqualTo("group");
    assertThat(field(header, records.get(17), "is_update")).isEmpty();
    assertThat(field(header, records.get(16), "is_update")).isEqualTo("true");
    assertThat(field(header, records.get(68), "protocol")).isEqualTo("atomic");
    assertThat(field(header, records.get(68), "ttl_ms")).isEqualTo("100000");
    assertThat(field(header, records.get(68), "page_size")).isEqualTo("102400");
  }

  @Test
  void headerCoversEverySettingAndStatistic() {
    assertThat(CsvWriter.RESULTS_HEADER)
        .contains(
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
            "count",
            "errors",
            "mean_ms",
            "p50_ms",
            "p90_ms",
            "p99_ms",
            "requests_per_wi",
            "mdollars_per_wi_2008",
            "mdollars_per_wi_2026",
            "mean_staleness_ms",
            "max_staleness_ms",
            "interactions_per_second",
            "wips_rules_met",
            "buffer_pool_hit_rate",
            "checkpoints_run",
            "checkpoints_failed",
            "background_requests");
    assertThat(CsvWriter.RESULTS_HEADER).doesNotHaveDuplicates();
  }

  @Test
  void quotesLabelsWithCommasQuotesAndLineBreaks() throws IOException {
    Path file = dir.resolve("results.csv");
    CsvWriter.writeResults(new SweepView(Fixtures.awkward()), file);
    String text = Files.readString(file, StandardCharsets.UTF_8);
    List<List<String>> records = MiniCsv.parse(text);

    assertThat(text).contains("\"basic, \"\"tuned\"\"\nv2\"");
    List<String> header = records.get(0);
    assertThat(records).hasSize(1 + 3 * 17);
    assertThat(field(header, records.get(18), "label")).isEqualTo("basic, \"tuned\"\nv2");
    // the missing interaction is a zero row, the NaN mean an empty field
    assertThat(field(header, records.get(31), "row")).isEqualTo("ADMIN_CONFIRM");
    assertThat(field(header, records.get(31), "count")).isEqualTo("0");
    assertThat(field(header, records.get(18), "row")).isEqualTo("HOME");
    assertThat(field(header, records.get(18), "mean_ms")).isEmpty();
    assertThat(field(header, records.get(1), "mean_ms")).isEqualTo("40");
  }

  @Test
  void numbersArePlainDecimals() throws IOException {
    String text = Files.readString(write(new SweepView(Fixtures.protocolSweep())));

    assertThat(text).doesNotContainPattern("\\d[eE][-+]?\\d").doesNotContain("NaN");
    assertThat(text).contains(",0.002,"); // Home's cost per WI under the 2008 prices
  }

  /**
   * Each row's cost per WI is its requests plus the machines, beside the requests alone; per
   * record written, the row's requests over the records it wrote.
   */
  @Test
  void costPerWiIsRequestsPlusMachinesWithThePerRecordFiguresBeside() throws IOException {
    List<List<String>> records = results(new SweepView(Fixtures.protocolSweep()));
    List<String> header = records.get(0);
    List<String> atomicTotal = records.get(68);

    assertThat(field(header, atomicTotal, "row")).isEqualTo("total");
    double all = number(header, atomicTotal, "mdollars_per_wi_2008");
    double requests = number(header, atomicTotal, "request_mdollars_per_wi_2008");
    double machines = number(header, atomicTotal, "machines_mdollars_per_wi_2008");
    assertThat(machines).isPositive();
    assertThat(all).isCloseTo(requests + machines, within(1e-12));
    assertThat(number(header, atomicTotal, "mdollars_per_wi_2026"))
        .isCloseTo(
            number(header, atomicTotal, "request_mdollars_per_wi_2026")
                + number(header, atomicTotal, "machines_mdollars_per_wi_2026"),
            within(1e-12));
    assertThat(number(header, atomicTotal, "machines_mdollars_per_wi_2026"))
        .isCloseTo(
            number(header, atomicTotal, "server_mdollars_per_wi_2026")
                + number(header, atomicTotal, "ensemble_mdollars_per_wi_2026"),
            within(1e-12));
    double written = number(header, atomicTotal, "records_written");
    assertThat(written).isPositive();
    assertThat(number(header, atomicTotal, "mdollars_per_record_written_2008") * written)
        .isCloseTo(requests * number(header, atomicTotal, "count"), within(1e-9));
    assertThat(number(header, atomicTotal, "ms_per_record_written") * written)
        .isCloseTo(
            number(header, atomicTotal, "mean_ms") * number(header, atomicTotal, "count"),
            within(1e-6));
  }

  private static double number(List<String> header, List<String> record, String column) {
    return Double.parseDouble(field(header, record, column));
  }

  private Path write(SweepView view) throws IOException {
    Path file = dir.resolve("r.csv");
    CsvWriter.writeResults(view, file);
    return file;
  }

  @Test
  void loadHasOneRowPerRunAndAColumnPerTable() throws IOException {
    Path file = dir.resolve("load.csv");
    CsvWriter.writeLoad(new SweepView(Fixtures.awkward()), file);
    List<List<String>> records = MiniCsv.parse(Files.readString(file, StandardCharsets.UTF_8));

    List<String> header = records.get(0);
    assertThat(header)
        .containsExactly(
            "parameter",
            "run",
            "label",
            "name",
            "protocol",
            "total_rows",
            "rows_item",
            "rows_customer",
            "rows_odd, \"table\"",
            "elapsed_seconds",
            "item_table_seconds",
            "requests",
            "pages_written",
            "mdollars_2008",
            "mdollars_2026",
            "item_table_requests",
            "item_table_mdollars_2008",
            "item_table_mdollars_2026");
    assertThat(records).hasSize(4).allSatisfy(r -> assertThat(r).hasSize(header.size()));
    assertThat(field(header, records.get(2), "elapsed_seconds")).isEqualTo("23.3");
    // the item table of the first run: 100 + 10 EBs requests, 0.4 and 0.1 m$
    assertThat(field(header, records.get(1), "item_table_requests")).isEqualTo("110");
    assertThat(field(header, records.get(1), "item_table_mdollars_2008")).isEqualTo("0.4");
    assertThat(field(header, records.get(1), "item_table_mdollars_2026")).isEqualTo("0.1");
    // a summary without item-table usage reports zero
    assertThat(field(header, records.get(2), "item_table_requests")).isEqualTo("0");
    assertThat(field(header, records.get(2), "rows_odd, \"table\"")).isEqualTo("7");
    assertThat(field(header, records.get(2), "rows_customer")).isEmpty();
    assertThat(field(header, records.get(3), "total_rows")).isEmpty(); // no load summary
  }
}
