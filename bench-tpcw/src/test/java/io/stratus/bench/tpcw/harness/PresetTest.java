package io.stratus.bench.tpcw.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PresetTest {

  @Test
  void presetsAnswerToEveryFigureTheyCover() {
    assertThat(Preset.named("paper-fig7").name()).isEqualTo("paper-fig3");
    assertThat(Preset.named(" PAPER-FIG8 ").name()).isEqualTo("paper-fig5");
    assertThat(Preset.named("paper-fig10").name()).isEqualTo("paper-fig9");
    assertThat(Preset.named("paper-fig12").name()).isEqualTo("paper-fig11");
    assertThat(Preset.named("paper-fig14").name()).isEqualTo("paper-fig13");
    for (int figure = 3; figure <= 14; figure++) {
      assertThat(Preset.names()).contains("paper-fig" + figure);
    }
  }

  @Test
  void anUnknownPresetIsRefusedNamingTheKnownOnes() {
    assertThatThrownBy(() -> Preset.named("paper-fig2"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown preset 'paper-fig2'")
        .hasMessageContaining("paper-fig3, paper-fig5, paper-fig9, paper-fig11, paper-fig13");
  }

  @Test
  void flagsGivenReplaceThePresetsValues() {
    List<String> args = Preset.named("paper-fig5").argsBesides(Map.of("--ebs", "4"));

    assertThat(args)
        .doesNotContain("--ebs")
        .containsSubsequence("--ttl", "100s")
        .containsSubsequence("--end-user-rtt", "100ms");
    assertThat(args).hasSize(2 * Preset.named("paper-fig5").options().size() - 2);
  }

  @Test
  void theSweepYieldsToAGivenSweepOrAGivenValueOfItsParameter() {
    Preset fig9 = Preset.named("paper-fig9");

    assertThat(fig9.argsBesides(Map.of())).containsSubsequence("--sweep", "ebs=1,10,20,50,100");
    assertThat(fig9.argsBesides(Map.of("--ebs", "5"))).doesNotContain("--sweep", "--ebs");
    assertThat(fig9.argsBesides(Map.of("--sweep", "ttl=0,10s")))
        .doesNotContain("--sweep")
        .containsSubsequence("--ebs", "1");
    assertThat(Preset.named("paper-fig13").argsBesides(Map.of("--ttl", "5s")))
        .doesNotContain("--sweep", "--ttl");
  }

  @Test
  void theEndUserRoundTripYieldsToAGivenPlacementOutsideEc2() {
    Preset fig5 = Preset.named("paper-fig5");

    assertThat(fig5.argsBesides(Map.of("--placement", "EU"))).doesNotContain("--end-user-rtt");
    assertThat(fig5.argsBesides(Map.of("--placement", "ec2"))).contains("--end-user-rtt");
  }

  @Test
  void runsAndTheirLeastTimeFollowFromProtocolsAndSweep() {
    assertThat(Preset.named("paper-fig3").runs()).isEqualTo(5);
    assertThat(Preset.named("paper-fig3").leastRunTime()).isEqualTo(Duration.ofSeconds(5 * 330));
    assertThat(Preset.named("paper-fig9").runs()).isEqualTo(25);
    assertThat(Preset.named("paper-fig11").runs()).isEqualTo(20);
    for (Preset p : Preset.all()) {
      assertThat(p.summary()).startsWith(p.name()).hasSizeLessThan(78).doesNotContain("%");
    }
  }

  @Test
  void theWipsPresetFollowsTheSpecificationsRulesForEveryDefaultProtocol() {
    Preset wips = Preset.named("tpcw-wips");
    assertThat(wips).isSameAs(Preset.TPCW_WIPS);
    assertThat(Preset.names()).contains("tpcw-wips");
    assertThat(Preset.all()).as("the papers' figures only").doesNotContain(wips);
    assertThat(wips.options())
        .containsEntry("--think-time", "7s")
        .containsEntry("--ebs", "100")
        .containsEntry("--warm-up", "2m")
        .containsEntry("--duration", "10m");
    assertThat(wips.runs()).isEqualTo(Defaults.PROTOCOLS.size());
    assertThat(wips.summary()).startsWith("tpcw-wips").hasSizeLessThan(78);
  }
}
