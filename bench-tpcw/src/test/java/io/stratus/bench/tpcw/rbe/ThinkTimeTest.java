package io.stratus.bench.tpcw.rbe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.stratus.bench.tpcw.workload.Mix;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Think times and the end-user round trip. Bounds on means: a negative exponential's standard
 * deviation equals its mean, so the mean of n draws is within five standard deviations when it is
 * within {@code 5 * mean / sqrt(n)} of the (truncated) mean {@code mean * (1 - exp(-cap/mean))}.
 */
@ExtendWith(SeedExtension.class)
class ThinkTimeTest {

  @Test
  void thinkTimesAreNegativeExponentialCappedAtTenTimesTheMean(@Seed long seed) {
    long mean = Duration.ofSeconds(7).toNanos();
    NegativeExponential think = new NegativeExponential(mean, Emulator.THINK_TIME_CAP);
    SplittableRandom random = new SplittableRandom(seed);
    int n = 200_000;
    double sum = 0;
    long max = 0;
    long aboveMean = 0;
    for (int i = 0; i < n; i++) {
      long d = think.draw(random);
      assertThat(d).isBetween(0L, 10 * mean);
      sum += d;
      max = Math.max(max, d);
      aboveMean += d > mean ? 1 : 0;
    }
    double expectedMean = mean * (1 - Math.exp(-10));
    assertThat(sum / n).isCloseTo(expectedMean, within(5 * mean / Math.sqrt(n)));
    // P(d > mean) = 1/e for an exponential; binomial bound of five standard deviations.
    double pAbove = Math.exp(-1);
    assertThat(aboveMean / (double) n)
        .isCloseTo(pAbove, within(5 * Math.sqrt(pAbove * (1 - pAbove) / n)));
    assertThat(max).isLessThanOrEqualTo(think.capNanos());
  }

  @Test
  void sessionsAreCappedAtFourTimesTheMean(@Seed long seed) {
    long mean = Duration.ofMinutes(15).toNanos();
    NegativeExponential session = new NegativeExponential(mean, Emulator.SESSION_CAP);
    assertThat(session.capNanos()).isEqualTo(Duration.ofMinutes(60).toNanos());
    SplittableRandom random = new SplittableRandom(seed);
    int n = 100_000;
    double sum = 0;
    long atCap = 0;
    for (int i = 0; i < n; i++) {
      long d = session.draw(random);
      assertThat(d).isBetween(0L, session.capNanos());
      sum += d;
      atCap += d == session.capNanos() ? 1 : 0;
    }
    assertThat(sum / n).isCloseTo(mean * (1 - Math.exp(-4)), within(5 * mean / Math.sqrt(n)));
    // A draw is capped with probability exp(-4) = 1.8%: binomial bound of five deviations.
    double p = Math.exp(-4);
    assertThat(atCap / (double) n).isCloseTo(p, within(5 * Math.sqrt(p * (1 - p) / n)));
  }

  @Test
  void zeroMeanMeansNoThinkTime(@Seed long seed) {
    NegativeExponential none = new NegativeExponential(0, Emulator.THINK_TIME_CAP);
    assertThat(none.draw(new SplittableRandom(seed))).isZero();
    RecordingWaiter waiter = new RecordingWaiter();
    ObservedMixTest.countMode(Mix.SHOPPING, 2, 1_000, seed)
        .waiter(waiter)
        .build()
        .run(ScriptedBookstore.idle());
    assertThat(waiter.waits()).isEmpty();
  }

  @Test
  void browsersWaitTheRoundTripThenThinkAndTheRoundTripCountsInTheResponseTime(@Seed long seed) {
    Duration roundTrip = Duration.ofMillis(40);
    Duration thinkMean = Duration.ofMillis(100);
    int n = 20_000;
    RecordingWaiter waiter = new RecordingWaiter();
    EmulatorReport report =
        ObservedMixTest.countMode(Mix.BROWSING, 1, n, seed)
            .waiter(waiter)
            .endUserRoundTrip(roundTrip)
            .thinkTimeMean(thinkMean)
            .build()
            .run(ScriptedBookstore.idle());

    // After every interaction but the last: the round trip, then a think time (a think time
    // that rounds to zero nanoseconds, probability 1e-8 each, is not waited).
    List<Duration> waits = waiter.waits();
    int roundTrips = 0;
    int thinks = 0;
    double thinkSum = 0;
    for (int i = 0; i < waits.size(); i++) {
      assertThat(waits.get(i)).as("wait %d", i).isEqualTo(roundTrip);
      roundTrips++;
      if (i + 1 < waits.size() && !waits.get(i + 1).equals(roundTrip)) {
        Duration think = waits.get(++i);
        assertThat(think).isLessThanOrEqualTo(thinkMean.multipliedBy(10));
        thinkSum += think.toNanos();
        thinks++;
      }
    }
    assertThat(roundTrips).isEqualTo(n - 1);
    assertThat(thinks).isBetween(n - 10, n - 1);
    double meanNanos = thinkMean.toNanos();
    assertThat(thinkSum / thinks)
        .isCloseTo(meanNanos * (1 - Math.exp(-10)), within(5 * meanNanos / Math.sqrt(thinks)));

    // The fake clock never moves, so every response time is exactly the round trip (the mean is
    // exact; percentiles come from the histogram, whose buckets are 0.1% wide).
    assertThat(report.total().meanMillis()).isEqualTo(40.0);
    assertThat(report.total().p50Millis()).isCloseTo(40.0, within(0.04));
    assertThat(report.total().p99Millis()).isCloseTo(40.0, within(0.04));
  }
}
