package io.stratus.bench.tpcw.harness;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.bench.tpcw.rbe.WindowStats;
import io.stratus.bench.tpcw.workload.Interaction;
import io.stratus.bench.tpcw.workload.ResponseStats;
import io.stratus.protocols.ProtocolKind;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The rules under which a run's rate may be called WIPS. */
class WipsRulesTest {

  private static ResponseStats p90(Interaction wi, double millis) {
    return new ResponseStats(
        wi.label(), 100, 0, millis, millis, millis, millis, 0, 0, 0, 0, 0, 0, 0, 0, 0);
  }

  private static Map<Interaction, ResponseStats> all(double millis) {
    Map<Interaction, ResponseStats> m = new EnumMap<>(Interaction.class);
    for (Interaction wi : Interaction.values()) {
      m.put(wi, p90(wi, millis));
    }
    return m;
  }

  @Test
  void theNinetiethPercentilesMustBeWithinEachInteractionsLimit() {
    assertThat(WipsRules.percentiles(all(2_999)).met()).isTrue();
    Map<Interaction, ResponseStats> slow = all(2_000);
    slow.put(Interaction.ADMIN_CONFIRM, p90(Interaction.ADMIN_CONFIRM, 19_999));
    slow.put(Interaction.SEARCH_RESULTS, p90(Interaction.SEARCH_RESULTS, 10_000));
    assertThat(WipsRules.percentiles(slow).met()).as("20 s and 10 s limits").isTrue();
    slow.put(Interaction.HOME, p90(Interaction.HOME, 3_001));
    WipsRules.Check over = WipsRules.percentiles(slow);
    assertThat(over.met()).isFalse();
    assertThat(over.detail()).isEqualTo("Home 3.0 s > 3 s");
    Map<Interaction, ResponseStats> missing = all(10);
    missing.remove(Interaction.ADMIN_REQUEST);
    assertThat(WipsRules.percentiles(missing).detail()).isEqualTo("never ran: Admin Request");
  }

  @Test
  void theBrowsersMustThinkAsTheSpecificationSays() {
    assertThat(WipsRules.thinkTime(Duration.ofSeconds(7)).met()).isTrue();
    WipsRules.Check none = WipsRules.thinkTime(Duration.ZERO);
    assertThat(none.met()).isFalse();
    assertThat(none.detail()).startsWith("none");
    assertThat(WipsRules.thinkTime(Duration.ofSeconds(1)).met()).isFalse();
  }

  @Test
  void ebsPerWipsMustBeBetweenSevenAndFourteenSecondsGiveOrTakeItsSamplingError() {
    long many = 1_000_000; // a sampling error of 0.3%
    assertThat(WipsRules.ebsPerWips(70, 10, many).met()).isTrue();
    assertThat(WipsRules.ebsPerWips(140, 10, many).met()).isTrue();
    assertThat(WipsRules.ebsPerWips(10, 1_300, many).met()).as("no think time").isFalse();
    assertThat(WipsRules.ebsPerWips(141, 10, many).met()).isFalse();
    assertThat(WipsRules.ebsPerWips(10, 0, 0).met()).isFalse();
    // 100 browsers thinking 7 s, 893 interactions in a minute: 6.72 s per WIPS, 1.4 standard
    // deviations from 7
    assertThat(WipsRules.ebsPerWips(100, 14.88, 893).met()).isTrue();
    assertThat(WipsRules.ebsPerWips(100, 14.88, 100_000).met()).isFalse();
  }

  @Test
  void aSteadyStateNeedsAWarmUpOfOneCycleAndEvenWindows() {
    RunSettings s = Defaults.settings(ProtocolKind.BASIC);
    List<WindowStats> even = List.of(window(1_000), window(1_020), window(990));
    assertThat(WipsRules.steadyState(s, even).met())
        .as("the default warm-up (2 s) is shorter than a checkpoint interval (7 s)")
        .isFalse();
    RunSettings longWarmUp = s.toBuilder().warmUp(Duration.ofSeconds(7)).build();
    assertThat(WipsRules.steadyState(longWarmUp, even).met()).isTrue();
    assertThat(
            WipsRules.steadyState(longWarmUp, List.of(window(600), window(1_000), window(1_400)))
                .met())
        .as("a rate still climbing")
        .isFalse();
    assertThat(WipsRules.steadyState(longWarmUp, List.of(window(10), window(16))).met())
        .as("within three standard deviations of a small count")
        .isTrue();
  }

  private static WindowStats window(long completed) {
    return new WindowStats(7, completed, 0, 1, 0, 0, 0, 0);
  }
}
