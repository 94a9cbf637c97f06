package io.stratus.bench.tpcw.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurationsTest {
  @Test
  void parsesUnitsAndIso() {
    assertThat(Durations.parse("250ms")).isEqualTo(Duration.ofMillis(250));
    assertThat(Durations.parse("30s")).isEqualTo(Duration.ofSeconds(30));
    assertThat(Durations.parse("1.5s")).isEqualTo(Duration.ofMillis(1500));
    assertThat(Durations.parse("2m")).isEqualTo(Duration.ofMinutes(2));
    assertThat(Durations.parse("1h")).isEqualTo(Duration.ofHours(1));
    assertThat(Durations.parse("0")).isEqualTo(Duration.ZERO);
    assertThat(Durations.parse("PT45S")).isEqualTo(Duration.ofSeconds(45));
    assertThat(Durations.parse("pt45s")).isEqualTo(Duration.ofSeconds(45));
  }

  @Test
  void refusesWhatIsNotADuration() {
    assertThatThrownBy(() -> Durations.parse("soon"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("soon")
        .hasMessageContaining("30s");
    assertThatThrownBy(() -> Durations.parse("5")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void formatsShortly() {
    assertThat(Durations.format(Duration.ZERO)).isEqualTo("0s");
    assertThat(Durations.format(Duration.ofMillis(250))).isEqualTo("250ms");
    assertThat(Durations.format(Duration.ofSeconds(30))).isEqualTo("30s");
    assertThat(Durations.format(Duration.ofMinutes(2))).isEqualTo("2m");
    assertThat(Durations.format(Duration.ofMillis(1500))).isEqualTo("1.50s");
  }
}
