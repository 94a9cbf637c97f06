package io.stratus.bench.tpcw.harness;

import java.time.Duration;

/**
 * How many equal windows a run's measurement interval is split into for {@link
 * RunResult#windows()}: one per period of the run's longest cycle (the TTL or, for a protocol
 * that checkpoints, the checkpoint interval; {@link RunWarnings}), so that every window sees the
 * same share of cache expiries and checkpoints and their figures can be compared; at least {@value
 * #MIN}, so that there is a spread, and at most {@value #MAX}.
 */
final class Windows {
  static final int MIN = 2;
  static final int MAX = 10;

  private Windows() {}

  /** The windows of a run of {@code s}. */
  static int count(RunSettings s) {
    Duration period = RunWarnings.longestPeriod(s);
    long n = period.isZero() ? MIN : s.measure().toNanos() / period.toNanos();
    return (int) Math.max(MIN, Math.min(MAX, n));
  }
}
