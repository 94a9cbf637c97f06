package io.stratus.bench.tpcw.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportsTest {
  @TempDir Path tmp;

  @Test
  void writeAllPrintsTheTableAndWritesEveryFileIntoANewDirectory() throws IOException {
    Path dir = tmp.resolve("out/sweep-1");
    StringWriter console = new StringWriter();

    Path report = Reports.writeAll(Fixtures.ebsSweep(), dir, new PrintWriter(console));

    assertThat(report).isEqualTo(dir.resolve("report.md"));
    assertThat(console.toString()).contains("Summary", "basic ebs=1", "atomic ebs=50");
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString()).sorted())
          .containsExactly(
              "chart-cost-per-interaction-2008.png",
              "chart-cost-per-interaction-2026.png",
              "chart-cost-per-wi.png",
              "chart-response-time-updates.png",
              "chart-response-time.png",
              "chart-sweep-cost.png",
              "chart-sweep-response-time.png",
              "load.csv",
              "report.md",
              "results.csv",
              "results.json");
    }
    assertThat(MiniCsv.parse(Files.readString(dir.resolve("results.csv")))).hasSize(1 + 6 * 17);
    assertThat(MiniJson.parse(Files.readString(dir.resolve("results.json")))).isNotNull();
  }

  @Test
  void writeFilesListsWhatItWroteWithTheReportLast() throws IOException {
    List<Path> written = Reports.writeFiles(Fixtures.protocolSweep(), tmp);

    assertThat(written).allSatisfy(p -> assertThat(p).isRegularFile());
    assertThat(written.get(0)).isEqualTo(tmp.resolve(Reports.RESULTS_CSV));
    assertThat(written.get(written.size() - 1)).isEqualTo(tmp.resolve(Reports.REPORT_MD));
    assertThat(written).contains(tmp.resolve(Reports.LOAD_CSV), tmp.resolve(Reports.RESULTS_JSON));
  }

  @Test
  void anEmptySweepStillWritesValidFiles() throws IOException {
    Path report =
        Reports.writeAll(
            new io.stratus.bench.tpcw.harness.SweepResult("protocol", List.of()),
            tmp,
            new PrintWriter(new StringWriter()));

    assertThat(report).exists();
    assertThat(MiniCsv.parse(Files.readString(tmp.resolve("results.csv")))).hasSize(1);
    assertThat(MiniJson.parse(Files.readString(tmp.resolve("results.json")))).isNotNull();
  }
}
