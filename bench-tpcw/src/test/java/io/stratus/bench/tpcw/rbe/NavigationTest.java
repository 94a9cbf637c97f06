package io.stratus.bench.tpcw.rbe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.stratus.bench.tpcw.workload.Interaction;
import io.stratus.bench.tpcw.workload.Mix;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import java.util.EnumMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

@ExtendWith(SeedExtension.class)
class NavigationTest {
  /**
   * How far the chain's steady state may be from the mix table, in percentage points: the table
   * is rounded to 0.01 (up to 0.005 off) and the matrices to 1/9999; the largest difference over
   * the three mixes is 0.0054.
   */
  static final double TABLE_TOLERANCE_POINTS = 0.01;

  @ParameterizedTest
  @EnumSource(Mix.class)
  void everyRowIsAProbabilityDistribution(Mix mix) {
    double[][] p = Navigation.of(mix).matrix();
    for (Interaction from : Interaction.values()) {
      double sum = 0;
      for (double x : p[from.ordinal()]) {
        assertThat(x).isBetween(0.0, 1.0);
        sum += x;
      }
      assertThat(sum).as("row %s of %s", from, mix).isCloseTo(1.0, within(1e-12));
    }
  }

  @ParameterizedTest
  @EnumSource(Mix.class)
  void steadyStateOfTheMatrixIsTheMixTable(Mix mix) {
    double[] pi = MarkovChains.stationary(Navigation.of(mix).matrix());
    for (Interaction wi : Interaction.values()) {
      assertThat(100 * pi[wi.ordinal()])
          .as("%s share of %s", mix, wi)
          .isCloseTo(mix.percent(wi), within(TABLE_TOLERANCE_POINTS));
    }
  }

  @Test
  void browsersStartAtHome() {
    assertThat(Navigation.start()).isEqualTo(Interaction.HOME);
  }

  @Test
  void knownTransitionsHaveTheSpecificationsProbabilities() {
    // Spot checks against the specification's cumulative rows (differences of 1/9999 units).
    Navigation shopping = Navigation.of(Mix.SHOPPING);
    assertThat(shopping.probability(Interaction.HOME, Interaction.BEST_SELLERS))
        .isEqualTo(3124 / 9999.0);
    assertThat(shopping.probability(Interaction.SHOPPING_CART, Interaction.HOME))
        .isEqualTo((9552 - 2585) / 9999.0);
    assertThat(shopping.probability(Interaction.HOME, Interaction.HOME)).isZero();
    Navigation ordering = Navigation.of(Mix.ORDERING);
    assertThat(ordering.probability(Interaction.BUY_REQUEST, Interaction.BUY_CONFIRM))
        .isEqualTo(7999 / 9999.0);
    Navigation browsing = Navigation.of(Mix.BROWSING);
    assertThat(browsing.probability(Interaction.BUY_CONFIRM, Interaction.HOME))
        .isEqualTo(342 / 9999.0);
  }

  @Test
  void drawsFollowTheRow(@Seed long seed) {
    // Bound: each count is binomial(n, p); five standard deviations either side.
    Navigation nav = Navigation.of(Mix.SHOPPING);
    SplittableRandom random = new SplittableRandom(seed);
    int n = 200_000;
    Map<Interaction, Integer> counts = new EnumMap<>(Interaction.class);
    for (int i = 0; i < n; i++) {
      counts.merge(nav.next(Interaction.PRODUCT_DETAIL, random), 1, Integer::sum);
    }
    for (Interaction to : Interaction.values()) {
      double p = nav.probability(Interaction.PRODUCT_DETAIL, to);
      double observed = counts.getOrDefault(to, 0) / (double) n;
      assertThat(observed)
          .as("PRODUCT_DETAIL -> %s", to)
          .isCloseTo(p, within(5 * Math.sqrt(p * (1 - p) / n) + 1e-12));
    }
  }
}
