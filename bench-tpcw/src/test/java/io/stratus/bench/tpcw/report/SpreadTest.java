package io.stratus.bench.tpcw.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.stratus.bench.tpcw.rbe.WindowStats;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A ratio's spread comes from every pair of the two runs' windows. */
class SpreadTest {
  private static WindowStats window(long completed, double meanMillis) {
    return new WindowStats(7, completed, 0, meanMillis, 0, 0, 0, 0);
  }

  @Test
  void windowsScaleTheRunFiguresAndEveryPairGivesARatio() {
    double[] a =
        Spread.relative(
            List.of(window(10, 8), window(10, 12), window(0, 99)),
            WindowStats::meanMillis,
            w -> w.completed() > 0);
    assertThat(a).containsExactly(0.8, 1.2);
    double[] b =
        Spread.relative(
            List.of(window(5, 5), window(5, 5)), WindowStats::meanMillis, w -> w.completed() > 0);
    assertThat(b).containsExactly(1.0, 1.0);
    Spread.Range r = Spread.ofRatio(20, 10, a, b);
    assertThat(r.min()).isCloseTo(1.6, within(1e-12));
    assertThat(r.max()).isCloseTo(2.4, within(1e-12));
    assertThat(r.pairs()).isEqualTo(4);
    Spread.Range inverse = Spread.ofRatio(10, 20, b, a);
    assertThat(inverse.min()).isCloseTo(0.5 / 1.2, within(1e-12));
    assertThat(inverse.max()).isCloseTo(0.5 / 0.8, within(1e-12));
  }

  @Test
  void noSpreadWithoutTwoWindowsOrAFiniteRatio() {
    double[] one =
        Spread.relative(List.of(window(3, 4)), WindowStats::meanMillis, w -> w.completed() > 0);
    assertThat(one).isEmpty();
    double[] two = {0.9, 1.1};
    assertThat(Spread.ofRatio(1, 1, one, two)).isNull();
    assertThat(Spread.ofRatio(1, 0, two, two)).isNull();
    assertThat(Spread.ofRatio(1, 1, two, two)).isNotNull();
  }
}
