package io.stratus.bench.tpcw.report;

import java.math.BigDecimal;
import java.util.Locale;

/**
 * How the reports print numbers. Every human-facing number goes through here so the console, the
 * markdown and the chart labels agree, and everything is formatted with {@link Locale#ROOT}: a
 * report produced on a German machine must still use decimal points.
 *
 * <p>Response times and milli-dollars span several orders of magnitude (an in-process read costs
 * 0.0004 m$ under 2026 prices, a naive Buy Confirm on S3 several m$), so they are printed with
 * three significant digits rather than a fixed number of decimals. Machine-facing files (CSV,
 * JSON) use {@link #plain}, which keeps every digit and never switches to exponent notation.
 */
final class Numbers {
  /** What a table cell shows when there is nothing to show (no interactions, a zero baseline). */
  static final String NONE = "-";

  private static final int MAX_DECIMALS = 6;

  private Numbers() {}

  /** Three significant digits, at most six decimals: 0.000412, 0.0412, 4.12, 41.2, 412, 41200. */
  static String sig3(double v) {
    if (!Double.isFinite(v)) {
      return NONE;
    }
    if (v == 0) {
      return "0";
    }
    int magnitude = (int) Math.floor(Math.log10(Math.abs(v)));
    int decimals = Math.max(0, Math.min(MAX_DECIMALS, 2 - magnitude));
    return String.format(Locale.ROOT, "%." + decimals + "f", v);
  }

  /** A rate in [0, 1] as a percentage with one decimal: "87.5%". */
  static String percent(double rate) {
    if (!Double.isFinite(rate)) {
      return NONE;
    }
    return String.format(Locale.ROOT, "%.1f%%", rate * 100);
  }

  /** A count. */
  static String count(long n) {
    return Long.toString(n);
  }

  /** Fixed decimals, for values with a natural precision (rates, seconds). */
  static String fixed(double v, int decimals) {
    if (!Double.isFinite(v)) {
      return NONE;
    }
    return String.format(Locale.ROOT, "%." + decimals + "f", v);
  }

  /** {@code value / baseline} as "0.42x"; {@link #NONE} when the baseline is zero or missing. */
  static String ratio(double value, double baseline, String times) {
    if (!Double.isFinite(value) || !Double.isFinite(baseline) || baseline == 0) {
      return NONE;
    }
    return String.format(Locale.ROOT, "%.2f%s", value / baseline, times);
  }

  /**
   * Every digit of {@code v}, never in exponent notation (1.0E-4 becomes 0.0001), integers without
   * a ".0"; {@code null} for NaN and infinities, which CSV leaves empty and JSON writes as null.
   */
  static String plain(double v) {
    if (!Double.isFinite(v)) {
      return null;
    }
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return Long.toString((long) v);
    }
    return BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
  }
}
