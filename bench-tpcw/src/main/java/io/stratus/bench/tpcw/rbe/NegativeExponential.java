package io.stratus.bench.tpcw.rbe;

import java.util.SplittableRandom;

/**
 * The truncated negative-exponential durations of TPC-W: think times (clause 5.3.2.1: {@code
 * -ln(r) * mean}, r uniform in (0, 1], at most 10 times the mean) and user-session minimum
 * durations (clause 5.3.1.2: mean 15 minutes, at most 60, i.e. 4 times the mean). A draw above
 * the cap is replaced by the cap, so the mean of the draws is {@code mean * (1 - exp(-cap /
 * mean))}: 0.99995 of the mean for think times, 0.98 for sessions.
 */
final class NegativeExponential {
  private final long meanNanos;
  private final long capNanos;

  /**
   * @param meanNanos the mean before truncation; zero gives zero every time
   * @param capMultiple the cap as a multiple of the mean
   */
  NegativeExponential(long meanNanos, double capMultiple) {
    if (meanNanos < 0 || capMultiple < 1) {
      throw new IllegalArgumentException("mean " + meanNanos + " ns, cap x" + capMultiple);
    }
    this.meanNanos = meanNanos;
    double cap = meanNanos * capMultiple;
    this.capNanos = cap >= Long.MAX_VALUE ? Long.MAX_VALUE : (long) cap;
  }

  long meanNanos() {
    return meanNanos;
  }

  long capNanos() {
    return capNanos;
  }

  /** One duration in nanoseconds, in [0, cap]. */
  long draw(SplittableRandom random) {
    if (meanNanos == 0) {
      return 0;
    }
    double r = 1.0 - random.nextDouble(); // uniform in (0, 1]
    double nanos = -Math.log(r) * meanNanos;
    return nanos >= capNanos ? capNanos : (long) nanos;
  }
}
