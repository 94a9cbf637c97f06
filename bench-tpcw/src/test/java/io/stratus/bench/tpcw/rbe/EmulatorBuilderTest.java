package io.stratus.bench.tpcw.rbe;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class EmulatorBuilderTest {

  @Test
  void eachSettingIsCheckedWhenSet() {
    Emulator.Builder b = Emulator.builder();
    assertThatThrownBy(() -> b.ebs(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ebs");
    assertThatThrownBy(() -> b.measure(Duration.ZERO)).hasMessageContaining("measure");
    assertThatThrownBy(() -> b.warmUp(Duration.ofSeconds(-1))).hasMessageContaining("warmUp");
    assertThatThrownBy(() -> b.thinkTimeMean(Duration.ofMillis(-1)))
        .hasMessageContaining("thinkTimeMean");
    assertThatThrownBy(() -> b.endUserRoundTrip(Duration.ofMillis(-1)))
        .hasMessageContaining("endUserRoundTrip");
    assertThatThrownBy(() -> b.sessionMean(Duration.ZERO)).hasMessageContaining("sessionMean");
    assertThatThrownBy(() -> b.stopTimeout(Duration.ZERO)).hasMessageContaining("stopTimeout");
    assertThatThrownBy(() -> b.interactionsPerBrowser(0))
        .hasMessageContaining("interactionsPerBrowser");
    assertThatThrownBy(() -> b.measure(Duration.ofDays(365L * 1_000)))
        .hasMessageContaining("too long");
    assertThatThrownBy(() -> b.mix(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("mix");
    assertThatThrownBy(() -> b.build().run(null)).isInstanceOf(NullPointerException.class);
  }
}
