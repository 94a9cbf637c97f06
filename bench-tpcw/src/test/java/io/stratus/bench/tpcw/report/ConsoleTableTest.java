package io.stratus.bench.tpcw.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.bench.tpcw.harness.RunResult;
import io.stratus.bench.tpcw.harness.SweepResult;
import io.stratus.bench.tpcw.workload.Interaction;
import io.stratus.protocols.ProtocolKind;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class ConsoleTableTest {

  private static String print(SweepResult result) {
    StringWriter out = new StringWriter();
    Reports.printConsole(result, new PrintWriter(out));
    return out.toString();
  }

  @Test
  void showsEveryInteractionGroupAndProtocol() {
    String text = print(Fixtures.protocolSweep());

    for (Interaction wi : Interaction.values()) {
      assertThat(text).contains(wi.label());
    }
    assertThat(text).contains("read", "update", "total");
    assertThat(text).contains("naive", "basic", "monotonic", "atomic");
    assertThat(text).contains("Run 1/4: naive", "Run 4/4: atomic", "Summary", "Comparison");
  }

  @Test
  void linesFitTheConsoleForFourRunsAndForALongSweep() {
    List<String> protocolLines = print(Fixtures.protocolSweep()).lines().toList();
    List<String> sweepLines = print(longNamedSweep()).lines().toList();

    assertThat(protocolLines).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(132));
    assertThat(sweepLines).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(132));
    assertThat(String.join("\n", sweepLines))
        .contains("Run 6/6: atomic checkpoint-interval=120s", "monotonic 5s", "atomic 120s");
    assertThat(print(Fixtures.awkward()).lines())
        .allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(132));
    // The headlines of long run names wrap rather than lose their end: three runs are compared.
    assertThat(sweepLines.stream().filter(l -> l.contains("update response time = ")))
        .hasSize(3)
        .allSatisfy(l -> assertThat(l).doesNotEndWith("..."));
  }

  @Test
  void comparesEachProtocolWithNaive() {
    String text = print(Fixtures.protocolSweep());
    // cost per WI: the total row's, which includes atomic's 20 m$ of background work, and the
    // machines; beside it the requests alone
    SweepView view = new SweepView(Fixtures.protocolSweep());
    double ratio = SweepView.costPerWi2008(view.run(3)) / SweepView.costPerWi2008(view.run(0));
    double requests =
        view.run(3).total().milliDollars2008() / view.run(0).total().milliDollars2008();
    double requests2026 =
        view.run(3).total().milliDollars2026() / view.run(0).total().milliDollars2026();

    assertThat(text)
        .contains(String.format(Locale.ROOT, "atomic / naive cost = %.2fx (2008 prices)", ratio))
        .contains(
            String.format(
                Locale.ROOT,
                "(2026 prices); requests only %.2fx / %.2fx;",
                requests,
                requests2026));
    assertThat(text).contains("basic / naive cost = ", "monotonic / naive cost = ");
    assertThat(text).doesNotContain("naive / naive");
    // update response time: atomic 100 ms against naive 400 ms
    assertThat(text).contains("update response time = 0.25x");
  }

  /**
   * The console gives the cost per WI with its parts, the cost per interaction of every run side
   * by side, and what a write cost and took, per record, beside the per-WI figures.
   */
  @Test
  void showsTheCostPerWiWithItsPartsPerInteractionAndPerRecordWritten() {
    String text = print(Fixtures.protocolSweep());
    SweepView view = new SweepView(Fixtures.protocolSweep());
    RunResult atomic = view.run(3);

    assertThat(text)
        .contains("Cost per interaction (m$ per WI, 2008 prices")
        .contains("of which machines")
        .contains("Cost per WI (m$) = requests (background work included) + machines")
        .containsPattern(
            "run\\s+m\\$/WI 2008\\s+req 2008\\s+mach 2008\\s+m\\$/WI 2026\\s+req 2026\\s+mach 2026"
                + "\\s+m\\$/rec 2008\\s+upd ms/rec")
        .containsPattern("m\\$ 2008\\s+m\\$ 2026\\s+m\\$/rec 2008\\s+ms/rec\\s+stale ms");
    // atomic's row of the cost table: the total, its requests, its machines, per record written
    assertThat(text)
        .containsPattern(
            "atomic\\s+"
                + Numbers.sig3(SweepView.costPerWi2008(atomic))
                + "\\s+"
                + Numbers.sig3(SweepView.requestCostPerWi2008(atomic))
                + "\\s+"
                + Numbers.sig3(SweepView.machinesPerWi2008(atomic))
                + "\\s+.*"
                + Numbers.sig3(atomic.update().milliDollarsPerRecordWritten2008())
                + "\\s+"
                + Numbers.sig3(atomic.update().millisPerRecordWritten()));
  }

  @Test
  void comparesAtTheSameSweptValueInAParameterSweep() {
    String text = print(Fixtures.ebsSweep());

    assertThat(text).contains("atomic ebs=10 / basic ebs=10 cost = ");
    assertThat(text).doesNotContain("atomic ebs=10 / basic ebs=1 ");
  }

  @Test
  void aSingleRunHasNoComparison() {
    SweepResult one = new SweepResult("protocol", List.of(Fixtures.protocolSweep().runs().get(1)));

    String text = print(one);

    assertThat(text).contains("Run 1/1: basic", "Summary").doesNotContain("Comparison");
  }

  @Test
  void usesDecimalPointsWhateverTheDefaultLocale() {
    Locale before = Locale.getDefault();
    try {
      Locale.setDefault(Locale.GERMANY);
      String text = print(Fixtures.protocolSweep());
      assertThat(text).contains("0.25x").doesNotContain("0,25x");
      assertThat(text).containsPattern("\\b\\d+\\.\\d+\\b");
      assertThat(text).doesNotContainPattern("\\d,\\d");
    } finally {
      Locale.setDefault(before);
    }
  }

  @Test
  void emptyRowsAndMissingStatisticsPrintAsDashes() {
    String text = print(Fixtures.awkward());

    assertThat(text).containsPattern("Admin Confirm\\s+0\\s+0\\s+-\\s+-");
    assertThat(text).contains("error: IOException");
    assertThat(text).doesNotContain("NaN");
  }

  /** Six runs named like "monotonic checkpoint-interval=45s": the widest names a sweep makes. */
  private static SweepResult longNamedSweep() {
    List<RunResult> runs = new ArrayList<>();
    for (String value : List.of("5s", "45s", "120s")) {
      for (ProtocolKind p : List.of(ProtocolKind.MONOTONIC, ProtocolKind.ATOMIC)) {
        runs.add(Fixtures.run(value, Fixtures.settings(p, 10, Duration.ofSeconds(100)), 1.0));
      }
    }
    return new SweepResult("checkpoint-interval", runs);
  }
}
