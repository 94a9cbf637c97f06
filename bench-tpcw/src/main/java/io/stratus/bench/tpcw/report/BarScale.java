package io.stratus.bench.tpcw.report;

import java.util.List;

/**
 * Keeps a bar that rests on few samples from setting a bar chart's scale. An average over one or
 * two interactions (an Admin Confirm that took 3.8 s, say) would otherwise stretch the axis so far
 * that every other bar becomes a sliver, although that average says little. The axis is cut at
 * {@value #HEADROOM} times the tallest bar that rests on at least {@value #MIN_SAMPLES} samples;
 * the bars above the cut, which necessarily rest on fewer, are drawn up to the cut, and the chart
 * names them with their value and samples. Nothing is cut when no bar rises above that, or when no
 * bar rests on enough samples to set a scale. A tall bar that rests on many samples is a result,
 * not an outlier, and is never cut; when the bars drawn span more than {@value #LOG_SPAN} times,
 * the axis is logarithmic instead, so that the short ones still show.
 */
final class BarScale {
  /** Samples a bar needs to set the scale. */
  static final long MIN_SAMPLES = 20;

  /** How far above the tallest well-sampled bar the axis is cut. */
  static final double HEADROOM = 1.25;

  /**
   * One bar.
   *
   * @param value its height (NaN or infinite: not drawn)
   * @param samples the interactions it averages
   */
  record Bar(double value, long samples) {}

  /**
   * How many times the shortest drawn bar the tallest may be on a linear axis; beyond that the
   * axis is logarithmic, or the short bars (reads of 0.3 ms beside an Admin Confirm of a second)
   * would not show at all.
   */
  static final double LOG_SPAN = 100;

  private final double cut;
  private final double logFloor;

  private BarScale(double cut, double logFloor) {
    this.cut = cut;
    this.logFloor = logFloor;
  }

  /** The scale of a chart of {@code bars}. */
  static BarScale of(List<Bar> bars) {
    double tallestWellSampled = Double.NaN;
    double tallest = 0;
    for (Bar b : bars) {
      if (!Double.isFinite(b.value())) {
        continue;
      }
      tallest = Math.max(tallest, b.value());
      if (b.samples() >= MIN_SAMPLES && b.value() > 0) {
        tallestWellSampled =
            Double.isNaN(tallestWellSampled) ? b.value() : Math.max(tallestWellSampled, b.value());
      }
    }
    double cut =
        Double.isNaN(tallestWellSampled) || tallest <= tallestWellSampled * HEADROOM
            ? Double.POSITIVE_INFINITY
            : tallestWellSampled * HEADROOM;
    double shortest = Double.POSITIVE_INFINITY;
    double highest = 0;
    for (Bar b : bars) {
      if (Double.isFinite(b.value()) && b.value() > 0) {
        shortest = Math.min(shortest, b.value());
        highest = Math.max(highest, Math.min(b.value(), cut));
      }
    }
    double logFloor =
        highest > shortest * LOG_SPAN ? Math.pow(10, Math.floor(Math.log10(shortest))) : Double.NaN;
    return new BarScale(cut, logFloor);
  }

  /**
   * Whether the axis is logarithmic: the drawn bars span more than {@value #LOG_SPAN} times. A
   * bar of zero is then not drawn (the tables give it).
   */
  boolean logarithmic() {
    return !Double.isNaN(logFloor);
  }

  /** Where a logarithmic axis starts: the power of ten at or below the shortest bar. */
  double logFloor() {
    return logFloor;
  }

  /** Whether the axis is cut (some bar rises above {@link #cut()}). */
  boolean cuts() {
    return Double.isFinite(cut);
  }

  /** Where the axis ends: positive infinity when nothing is cut. */
  double cut() {
    return cut;
  }

  /** Whether a bar of {@code value} rises above the cut. */
  boolean isCut(double value) {
    return Double.isFinite(value) && value > cut;
  }

  /**
   * The height a bar of {@code value} is drawn at; null (no bar) for a bar of zero on a
   * logarithmic axis, which cannot show it.
   */
  Double drawn(double value) {
    if (logarithmic() && !(value > 0)) {
      return null;
    }
    return isCut(value) ? cut : value;
  }
}
