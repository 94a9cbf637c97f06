package io.stratus.bench.tpcw.jmh;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The JMH summary gives each benchmark's spread and its ratios to the floor and to MVStore, by CPU
 * second when the CPU was measured (so a loaded machine's waits do not count), else by wall clock.
 */
class JmhSummaryTest {

  @Test
  void ratiosComeFromTheMediansPerCpuSecondWhenMeasured() {
    JmhSummary summary =
        new JmhSummary(
            List.of(
                new JmhSummary.Row(
                    "floor", List.of(10.0, 20.0, 90.0), List.of(100.0, 120.0, 140.0)),
                new JmhSummary.Row("mvStore", List.of(5.0, 6.0, 7.0), List.of(40.0, 50.0, 60.0)),
                new JmhSummary.Row(
                    "cachedPointRead NAIVE", List.of(1.0, 2.0, 3.0), List.of(30.0, 60.0, 90.0))));

    List<String> lines = printed(summary);

    // floor 120 / 60 per CPU second: twice the floor's cost; 60 / 50: 1.2 x MVStore's speed.
    assertThat(line(lines, "cachedPointRead NAIVE"))
        .containsSubsequence("1", "2", "3", "60", "2.00", "1.20");
    assertThat(line(lines, "floor")).containsSubsequence("10", "20", "90", "120", "1.00", "2.40");
    assertThat(line(lines, "mvStore")).endsWith("2.40       1.00");
  }

  @Test
  void withoutCpuTimesTheWallClockMediansAreCompared() {
    JmhSummary summary =
        new JmhSummary(
            List.of(
                new JmhSummary.Row("floor", List.of(30.0, 40.0), List.of()),
                new JmhSummary.Row("cachedPointRead BASIC", List.of(9.0, 11.0), List.of())));

    String naive = line(printed(summary), "cachedPointRead BASIC");

    assertThat(naive).contains(" - ").endsWith("3.50          -");
  }

  private static List<String> printed(JmhSummary summary) {
    StringWriter out = new StringWriter();
    summary.print(new PrintWriter(out));
    return out.toString().lines().toList();
  }

  private static String line(List<String> lines, String benchmark) {
    return lines.stream().filter(l -> l.startsWith(benchmark + " ")).findFirst().orElseThrow();
  }
}
