package io.stratus.bench.tpcw.rbe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.stratus.bench.tpcw.workload.Interaction;
import io.stratus.bench.tpcw.workload.Mix;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Long seeded runs against a bookstore that does nothing reproduce the mix table.
 *
 * <p>The bound: the fraction of n steps a chain spends in state i is asymptotically normal with
 * variance {@code sigma_i^2 / n}, where {@code sigma_i^2} is the asymptotic variance of the
 * indicator of i (the Markov-chain central limit theorem; computed exactly from the matrix, it is
 * larger than the binomial {@code pi_i (1 - pi_i)} because consecutive pages are correlated). We
 * allow five standard deviations (a false alarm about once in 1.7 million per interaction) plus
 * the table's own distance from the chain's steady state ({@link
 * NavigationTest#TABLE_TOLERANCE_POINTS}). Several browsers are independent chains, so their
 * pooled fraction has the same variance over the pooled count; each starts at Home rather than in
 * the steady state, a bias of a few steps per browser, far below the bound.
 */
@ExtendWith(SeedExtension.class)
class ObservedMixTest {

  @ParameterizedTest
  @EnumSource(Mix.class)
  void oneBrowserFollowsTheMix(Mix mix, @Seed long seed) {
    EmulatorReport report = runByCount(mix, 1, 300_000, seed);
    assertMixWithinBounds(report, mix, 300_000);
  }

  @Test
  void severalBrowsersTogetherFollowTheMix(@Seed long seed) {
    EmulatorReport report = runByCount(Mix.SHOPPING, 8, 40_000, seed);
    assertMixWithinBounds(report, Mix.SHOPPING, 320_000);
  }

  @Test
  void eachBrowserWalksItsOwnSeededPath(@Seed long seed) {
    ScriptedBookstore first = ScriptedBookstore.idle();
    ScriptedBookstore second = ScriptedBookstore.idle();
    countMode(Mix.ORDERING, 3, 500, seed).build().run(first);
    countMode(Mix.ORDERING, 3, 500, seed).build().run(second);
    assertThat(pathsBySeed(first)).isEqualTo(pathsBySeed(second));
    assertThat(first.sessions()).extracting(s -> s.seed).doesNotHaveDuplicates();
  }

  @Test
  void sessionLengthsDoNotChangeThePageSequence(@Seed long seed) {
    java.util.List<String> shortSessions = pagesWithSessionsOf(Duration.ofSeconds(5), seed);
    java.util.List<String> longSessions = pagesWithSessionsOf(Duration.ofHours(1), seed);
    assertThat(shortSessions).isEqualTo(longSessions);
  }

  /** One browser's pages (restarts left out), one fake second per page. */
  private static java.util.List<String> pagesWithSessionsOf(Duration mean, long seed) {
    FakeTicker ticker = new FakeTicker();
    ScriptedBookstore bookstore =
        new ScriptedBookstore(
            (wi, s) -> {
              ticker.advance(Duration.ofSeconds(1));
              return ScriptedBookstore.nothing(wi);
            });
    countMode(Mix.SHOPPING, 1, 2_000, seed)
        .nanoTime(ticker)
        .sessionMean(mean)
        .build()
        .run(bookstore);
    return bookstore.sessions().get(0).log.stream().filter(e -> !e.equals("RESTART")).toList();
  }

  private static java.util.Map<Long, java.util.List<String>> pathsBySeed(ScriptedBookstore b) {
    java.util.Map<Long, java.util.List<String>> m = new java.util.TreeMap<>();
    for (ScriptedBookstore.Session s : b.sessions()) {
      m.put(s.seed, java.util.List.copyOf(s.log));
    }
    return m;
  }

  private static EmulatorReport runByCount(Mix mix, int ebs, int perBrowser, long seed) {
    EmulatorReport report =
        countMode(mix, ebs, perBrowser, seed).build().run(ScriptedBookstore.idle());
    assertThat(report.total().count()).isEqualTo((long) ebs * perBrowser);
    assertThat(report.total().errors()).isZero();
    return report;
  }

  static Emulator.Builder countMode(Mix mix, int ebs, long perBrowser, long seed) {
    return Emulator.builder()
        .sessionThinkTimeMean(Duration.ZERO)
        .mix(mix)
        .ebs(ebs)
        .seed(seed)
        .interactionsPerBrowser(perBrowser)
        .warmUp(Duration.ZERO)
        .measure(Duration.ofDays(1))
        .nanoTime(new FakeTicker())
        .waiter(new RecordingWaiter());
  }

  private static void assertMixWithinBounds(EmulatorReport report, Mix mix, long n) {
    double[][] p = Navigation.of(mix).matrix();
    double[] pi = MarkovChains.stationary(p);
    for (Interaction wi : Interaction.values()) {
      double sigma = Math.sqrt(MarkovChains.asymptoticVariance(p, pi, wi.ordinal()) / n);
      double bound = 100 * 5 * sigma + NavigationTest.TABLE_TOLERANCE_POINTS;
      assertThat(report.observedPercent().get(wi))
          .as("%s share of %s (bound %.4f points)", mix, wi, bound)
          .isCloseTo(mix.percent(wi), within(bound));
    }
  }
}
