package io.stratus.bench.tpcw;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The papers' Table 4 from a run: the ITEM table's load time, requests and cost reach the
 * console, load.csv, results.json and the markdown report.
 */
class TableFourTest {
  /** A run on the in-process cloud reports the item table's share of the load's requests. */
  @Test
  void aRunReportsTheItemTablesRequestsAndCost(@TempDir Path dir) throws Exception {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        StratusBench.run(
            new String[] {
              "--protocols",
              "naive",
              "--profile",
              "none",
              "--ebs",
              "1",
              "--items",
              "100",
              "--customers-per-eb",
              "10",
              "--warm-up",
              "0",
              "--duration",
              "10m",
              "--interactions-per-eb",
              "5",
              "--seed",
              "7",
              "--no-progress",
              "--out",
              dir.toString()
            },
            new PrintWriter(out, true),
            new PrintWriter(err, true));
    assertThat(code).as(err.toString()).isZero();
    assertThat(out.toString()).containsPattern("items [0-9.]+ s, [0-9,]+ requests, [0-9.]+ m\\$");

    List<String> lines = Files.readAllLines(dir.resolve("load.csv"), StandardCharsets.UTF_8);
    List<String> header = List.of(lines.get(0).split(","));
    List<String> row = List.of(lines.get(1).split(","));
    long requests = Long.parseLong(row.get(header.indexOf("requests")));
    long itemRequests = Long.parseLong(row.get(header.indexOf("item_table_requests")));
    assertThat(itemRequests).as("the item table and its four indexes").isBetween(5L, requests);
    assertThat(Double.parseDouble(row.get(header.indexOf("item_table_mdollars_2008"))))
        .isPositive()
        .isLessThan(Double.parseDouble(row.get(header.indexOf("mdollars_2008"))));
    String json = Files.readString(dir.resolve("results.json"), StandardCharsets.UTF_8);
    assertThat(json).contains("\"itemTableRequests\": " + itemRequests);
    assertThat(Files.readString(dir.resolve("report.md"), StandardCharsets.UTF_8))
        .contains("item req");
  }
}
