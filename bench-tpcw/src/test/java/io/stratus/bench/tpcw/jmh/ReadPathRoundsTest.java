package io.stratus.bench.tpcw.jmh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The rounds' settings are checked, and their summary quantiles are the usual ones. */
class ReadPathRoundsTest {

  @Test
  void quantilesInterpolateBetweenTheClosestRanks() {
    double[] values = {4, 1, 3, 2};
    assertThat(ReadPathRounds.quantile(values, 0.5)).isEqualTo(2.5);
    assertThat(ReadPathRounds.quantile(values, 0.25)).isEqualTo(1.75);
    assertThat(ReadPathRounds.quantile(values, 0.75)).isEqualTo(3.25);
    assertThat(ReadPathRounds.quantile(values, 0)).isEqualTo(1);
    assertThat(ReadPathRounds.quantile(values, 1)).isEqualTo(4);
    assertThat(values).containsExactly(4, 1, 3, 2); // not sorted in place
  }

  @Test
  void tooFewForksOrRoundsOrTooShortABurstIsRefusedWithTheSetting() {
    assertThatThrownBy(() -> new ReadPathRounds(List.of("NAIVE"), 0, 30, 200, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("forks must be at least 1, not 0");
    assertThatThrownBy(() -> new ReadPathRounds(List.of("NAIVE"), 2, 2, 200, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("rounds must be at least 3, not 2");
    assertThatThrownBy(() -> new ReadPathRounds(List.of("NAIVE"), 2, 30, 5, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("a burst must last at least 10 ms, not 5");
  }
}
