package io.stratus.bench.tpcw.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.bench.tpcw.harness.CpuProfile;
import io.stratus.bench.tpcw.harness.RunResult;
import io.stratus.bench.tpcw.harness.SweepResult;
import io.stratus.bench.tpcw.rbe.WindowStats;
import io.stratus.protocols.ProtocolKind;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The comparison's cost ratios are of the cost per WI with the machines, so their spread must
 * follow that figure over the windows: the machines' rent is paid by the second, so a window of
 * fewer interactions pays more of it per interaction even when its requests cost the same.
 */
class ComparisonSpreadTest {
  private static final Pattern RANGE = Pattern.compile("([0-9.]+)x \\(([0-9.]+)-([0-9.]+)\\)");

  @Test
  void costSpreadCountsTheMachinesWhileTheRequestsOnlySpreadDoesNot() {
    RunResult naive =
        withWindows(
            Fixtures.run(
                "naive", Fixtures.settings(ProtocolKind.NAIVE, 10, Duration.ofSeconds(7)), 1.0),
            200,
            200,
            200);
    RunResult basic =
        withWindows(
            Fixtures.run(
                "basic", Fixtures.settings(ProtocolKind.BASIC, 10, Duration.ofSeconds(7)), 1.0),
            100,
            200,
            300);
    List<String> headlines =
        Tables.comparisonHeadlines(
            new SweepView(new SweepResult("protocol", List.of(naive, basic))), "x");

    assertThat(headlines).hasSize(1);
    String h = headlines.get(0);
    String cost = h.substring(h.indexOf(" cost = ") + 8, h.indexOf(" (2008 prices)"));
    int from = h.indexOf("requests only ") + 14;
    String requests = h.substring(from, h.indexOf(" / ", from));
    double[] c = range(cost);
    double[] r = range(requests);
    // Every window's requests cost the same per WI: no spread.
    assertThat(r[1]).as(h).isEqualTo(r[0]);
    assertThat(r[2]).as(h).isEqualTo(r[0]);
    // Basic's windows of 100 and 300 interactions pay 3x and 1x the rent per WI of the one of
    // 200: the ratio with the machines spreads around its value.
    assertThat(c[1]).as(h).isLessThan(c[0]);
    assertThat(c[2]).as(h).isGreaterThan(c[0]);
  }

  /** The value, lowest and highest of "0.76x (0.70-0.83)". */
  private static double[] range(String ratio) {
    Matcher m = RANGE.matcher(ratio);
    assertThat(m.matches()).as(ratio).isTrue();
    return new double[] {
      Double.parseDouble(m.group(1)), Double.parseDouble(m.group(2)), Double.parseDouble(m.group(3))
    };
  }

  /** {@code run} with one window per count, its interval split evenly, requests 0.001 m$/WI. */
  private static RunResult withWindows(RunResult run, long... completed) {
    double seconds = run.measuredSeconds() / completed.length;
    List<WindowStats> windows =
        Arrays.stream(completed)
            .mapToObj(n -> new WindowStats(seconds, n, 0, 10, n / 10, 20, 0.001, 0.0004))
            .toList();
    return new RunResult(
        run.label(),
        run.settings(),
        run.load(),
        run.perInteraction(),
        run.read(),
        run.update(),
        run.total(),
        run.interactionsPerSecond(),
        run.measuredSeconds(),
        run.bufferPoolHitRate(),
        run.checkpointsRun(),
        run.checkpointsFailed(),
        run.backgroundRequests(),
        run.backgroundMilliDollars2008(),
        run.backgroundMilliDollars2026(),
        run.errorSamples(),
        run.lostItemUpdates(),
        run.lostCustomerUpdates(),
        run.drain(),
        run.serverCost(),
        run.lockRefusals(),
        run.clients(),
        run.stockAudit(),
        run.ownReads(),
        1,
        windows,
        CpuProfile.NONE);
  }
}
