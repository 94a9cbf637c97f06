package io.stratus.bench.tpcw.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.bench.tpcw.harness.RunWarnings;
import io.stratus.bench.tpcw.harness.Sweep;
import io.stratus.bench.tpcw.harness.SweepResult;
import io.stratus.bench.tpcw.workload.Interaction;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MarkdownReportTest {
  private static final byte[] PNG_MAGIC = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

  @TempDir Path dir;

  @Test
  void protocolSweepReportHasEveryInteractionProtocolAndTheBarCharts() throws IOException {
    List<Path> written = MarkdownReport.write(new SweepView(Fixtures.protocolSweep()), dir);
    String md = Files.readString(dir.resolve("report.md"), StandardCharsets.UTF_8);

    assertThat(written.get(0)).isEqualTo(dir.resolve("report.md"));
    for (Interaction wi : Interaction.values()) {
      assertThat(md).contains("| " + wi.label() + " |");
    }
    assertThat(md).contains("naive", "basic", "monotonic", "atomic");
    assertThat(md)
        .contains(
            "# Stratus TPC-W report",
            "## Settings",
            "## Summary",
            "## Comparison",
            "## Response time per interaction",
            "## Cost per interaction",
            "## Bulk load",
            "## Runs in detail");
    assertThat(md).contains("atomic / naive cost = ").contains("\u00d7");
    assertThat(md).doesNotContain("## Varying");
    assertThat(fileNames(written))
        .containsExactly(
            "report.md",
            Charts.RESPONSE_TIME,
            Charts.RESPONSE_TIME_UPDATES,
            Charts.COST_PER_WI,
            Charts.COST_PER_INTERACTION_2008,
            Charts.COST_PER_INTERACTION_2026);
    assertThat(dir.resolve(Charts.SWEEP_RESPONSE_TIME)).doesNotExist();
    assertThat(dir.resolve(Charts.SWEEP_COST)).doesNotExist();
    assertPngs(written.subList(1, written.size()));
    assertImageLinksResolve(md);
  }

  @Test
  void numericSweepAddsTheLineCharts() throws IOException {
    List<Path> written = MarkdownReport.write(new SweepView(Fixtures.ebsSweep()), dir);
    String md = Files.readString(dir.resolve("report.md"), StandardCharsets.UTF_8);

    assertThat(fileNames(written)).contains(Charts.SWEEP_RESPONSE_TIME, Charts.SWEEP_COST);
    assertPngs(written.subList(1, written.size()));
    assertThat(md)
        .contains(
            "## Varying ebs",
            "(" + Charts.SWEEP_RESPONSE_TIME + ")",
            "(" + Charts.SWEEP_COST + ")");
    assertThat(md).contains("basic ebs=50", "atomic ebs=1");
    assertImageLinksResolve(md);
  }

  @Test
  void durationSweepIsNumericButMixSweepIsNot() throws IOException {
    Path ttl = Files.createDirectory(dir.resolve("ttl"));
    Path mix = Files.createDirectory(dir.resolve("mix"));

    List<Path> ttlFiles = MarkdownReport.write(new SweepView(Fixtures.ttlSweep()), ttl);
    List<Path> mixFiles = MarkdownReport.write(new SweepView(Fixtures.mixSweep()), mix);

    assertThat(fileNames(ttlFiles)).contains(Charts.SWEEP_COST);
    assertThat(fileNames(mixFiles)).doesNotContain(Charts.SWEEP_COST, Charts.SWEEP_RESPONSE_TIME);
  }

  @Test
  void bulkLoadTableIsLikeTable4() throws IOException {
    MarkdownReport.write(new SweepView(Fixtures.protocolSweep()), dir);
    String md = Files.readString(dir.resolve("report.md"), StandardCharsets.UTF_8);

    assertThat(md)
        .contains(
            "| run | rows | seconds | requests | pages | m\\$ 2008 | m\\$ 2026"
                + " | item s | item req | item m\\$ 2008 | item m\\$ 2026 |");
    // naive: 1000 items + 28800 customers, 21 s, 510 requests, 40 pages, 2 and 0.5 m$; the item
    // table: 2 s, 110 requests, 0.4 and 0.1 m$
    assertThat(md)
        .contains(
            "| naive | 29800 | 21.0 | 510 | 40 | 2.00 | 0.500 | 2.00 | 110 | 0.400 | 0.100 |");
  }

  @Test
  void awkwardLabelsDoNotBreakTheTables() throws IOException {
    MarkdownReport.write(new SweepView(Fixtures.awkward()), dir);
    String md = Files.readString(dir.resolve("report.md"), StandardCharsets.UTF_8);

    assertThat(md).contains("basic, \"tuned\" v2").doesNotContain("NaN");
    for (String line : md.lines().toList()) {
      if (line.startsWith("|")) {
        assertThat(line).endsWith("|");
      }
    }
    assertThat(md).contains("`IOException: \"timeout\" at C:\\path`");
  }

  /**
   * The warnings the console printed before the runs are in report.md word for word, and so is
   * what went wrong while they ran.
   */
  @Test
  void theConsolesWarningsAndTheRunsTroublesAreInTheReport() throws IOException {
    SweepResult sweep = Fixtures.awkward();
    List<Sweep.Planned> planned =
        sweep.runs().stream().map(r -> new Sweep.Planned(r.label(), r.settings())).toList();
    List<String> console = RunWarnings.forPlan(sweep.parameter(), planned);

    MarkdownReport.write(new SweepView(sweep), dir);
    String md = Files.readString(dir.resolve("report.md"), StandardCharsets.UTF_8);

    assertThat(console).isNotEmpty();
    assertThat(md).contains("## Warnings");
    assertThat(md.indexOf("## Warnings")).isLessThan(md.indexOf("## Summary"));
    for (String line : console) {
      assertThat(md).contains("- " + TextTable.escapeMarkdown(line));
    }
    assertThat(md)
        .contains("basic, \"tuned\" v2: the drain left work owed")
        .contains("basic, \"tuned\" v2: the mix is off its target for Home, Search Request");
  }

  /**
   * Cost per WI with its parts (requests, machines) and per record written, the samples behind
   * each interaction's figures, and response time per record written.
   */
  @Test
  void costsArePerWiWithTheirPartsAndPerRecordWritten() throws IOException {
    MarkdownReport.write(new SweepView(Fixtures.protocolSweep()), dir);
    String md = Files.readString(dir.resolve("report.md"), StandardCharsets.UTF_8);

    assertThat(md)
        .contains(
            "| run | m\\$/WI 2008 | req 2008 | mach 2008 | m\\$/WI 2026 | req 2026 | mach 2026 |"
                + " server 2026 | ensemble 2026 | coord req/WI | m\\$/rec 2008 | m\\$/rec 2026 |"
                + " upd ms/rec |")
        .contains("| of which machines |")
        .contains("Completed interactions")
        .contains("Response time per record written")
        .contains("m\\$ per record written under the 2008 prices")
        .doesNotContain("+machines");
  }

  static void assertPngs(List<Path> files) throws IOException {
    assertThat(files).isNotEmpty();
    for (Path f : files) {
      byte[] bytes = Files.readAllBytes(f);
      assertThat(bytes.length).as(f.toString()).isGreaterThan(1000);
      byte[] head = java.util.Arrays.copyOf(bytes, PNG_MAGIC.length);
      assertThat(head).as(f.toString()).isEqualTo(PNG_MAGIC);
    }
  }

  private void assertImageLinksResolve(String md) {
    Matcher m = Pattern.compile("!\\[[^\\]]*\\]\\(([^)]+)\\)").matcher(md);
    int links = 0;
    while (m.find()) {
      assertThat(dir.resolve(m.group(1))).exists();
      links++;
    }
    assertThat(links).isGreaterThanOrEqualTo(5);
  }

  private static List<String> fileNames(List<Path> paths) {
    return paths.stream().map(p -> p.getFileName().toString()).toList();
  }
}
