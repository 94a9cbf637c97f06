package io.stratus.bench.tpcw.bookstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** NURand: its range, its shape against the exact distribution, and the specification's A. */
@ExtendWith(SeedExtension.class)
class NuRandTest {
  /** The exact probability of each value of NURand(a, x, y), by enumerating both draws. */
  private static double[] exact(long a, long x, long y) {
    int n = (int) (y - x + 1);
    double[] p = new double[n];
    double each = 1.0 / ((a + 1) * n);
    for (long u = 0; u <= a; u++) {
      for (long v = x; v <= y; v++) {
        p[(int) ((u | v) % n)] += each;
      }
    }
    return p;
  }

  @Test
  void drawsFollowTheExactDistributionAndStayInRange(@Seed long seed) {
    long a = 63;
    long x = 1;
    long y = 1_000;
    double[] expected = exact(a, x, y);
    SplittableRandom random = new SplittableRandom(seed);
    int draws = 400_000;
    long[] seen = new long[(int) (y - x + 1)];
    for (int i = 0; i < draws; i++) {
      long v = NuRand.draw(random, a, x, y);
      assertThat(v).isBetween(x, y);
      seen[(int) (v - x)]++;
    }
    double chiSquare = 0;
    int cells = 0;
    for (int k = 0; k < seen.length; k++) {
      double e = expected[k] * draws;
      if (e > 0) {
        chiSquare += (seen[k] - e) * (seen[k] - e) / e;
        cells++;
      } else {
        assertThat(seen[k]).as("a value NURand cannot give: " + (k + x)).isZero();
      }
    }
    // 1,000 cells: the chi-square's mean is about 1,000 and its deviation about 45.
    assertThat(chiSquare).as("chi-square over " + cells + " cells").isLessThan(cells * 1.25);
  }

  @Test
  void theDistributionIsSkewedNotUniform() {
    double[] p = exact(63, 1, 1_000);
    double[] sorted = p.clone();
    Arrays.sort(sorted);
    double topTenth = 0;
    for (int k = sorted.length - 100; k < sorted.length; k++) {
      topTenth += sorted[k];
    }
    assertThat(Arrays.stream(p).sum()).isCloseTo(1.0, within(1e-9));
    assertThat(topTenth).as("the most frequent tenth of the values").isGreaterThan(0.2);
    assertThat(sorted[sorted.length - 1] / (1.0 / 1_000))
        .as("the most frequent value vs uniform")
        .isGreaterThan(3);
  }

  @Test
  void customerIdsStayInThePopulationAndSpreadOverIt(@Seed long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    Set<Long> seen = new HashSet<>();
    for (int i = 0; i < 50_000; i++) {
      long id = NuRand.customerId(random, 2_880);
      assertThat(id).isBetween(1L, 2_880L);
      seen.add(id);
    }
    // about 2,400 distinct ids are expected (some ids are very rare), not 2,880 as uniform would
    assertThat(seen.size()).isBetween(2_200, 2_600);
  }

  @Test
  void theConstantsAreTheSpecifications() {
    assertThat(NuRand.customerA(1)).isEqualTo(1_023);
    assertThat(NuRand.customerA(9_999)).isEqualTo(1_023);
    assertThat(NuRand.customerA(10_000)).isEqualTo(4_095);
    assertThat(NuRand.customerA(28_800)).isEqualTo(4_095);
    assertThat(NuRand.customerA(40_000)).isEqualTo(16_383);
    assertThat(NuRand.customerA(288_000)).isEqualTo(65_535);
    assertThat(NuRand.customerA(2_559_999)).isEqualTo(262_143);
    assertThat(NuRand.customerA(2_560_000)).isEqualTo(1_048_575);
    assertThat(NuRand.customerA(655_359_999)).isEqualTo(67_108_863);
    assertThat(NuRand.itemA(1_000)).isEqualTo(63);
    assertThat(NuRand.itemA(10_000)).isEqualTo(511);
    assertThat(NuRand.itemA(100_000)).isEqualTo(4_095);
    assertThat(NuRand.itemA(1_000_000)).isEqualTo(32_767);
    assertThat(NuRand.itemA(10_000_000)).isEqualTo(524_287);
    assertThat(NuRand.itemA(100)).as("below the smallest scale").isEqualTo(63);
    assertThat(NuRand.itemA(50_000)).as("between scales").isEqualTo(511);
  }

  @Test
  void badArgumentsAreRefused() {
    SplittableRandom random = new SplittableRandom(1);
    assertThatThrownBy(() -> NuRand.draw(random, -1, 1, 10))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> NuRand.draw(random, 63, 10, 1))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
