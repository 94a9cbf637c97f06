package io.stratus.bench.tpcw.report;

import io.stratus.bench.tpcw.rbe.WindowStats;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;

/**
 * The spread of a ratio between two runs, from how much each run's figure varied over the windows
 * of its measurement interval ({@code RunResult.windows()}): each window's value relative to the
 * mean of its run's windows scales the run's figure, and the ratio is taken for every pair of a
 * window of the one run and a window of the other. The smallest and largest of those ratios are
 * the spread the reports print beside the ratio of the run figures; a difference between two
 * protocols that lies within it is one the runs cannot tell from noise.
 */
final class Spread {
  /**
   * A ratio's spread.
   *
   * @param min the smallest of the pairs' ratios
   * @param max the largest
   * @param pairs how many pairs of windows they come from
   */
  record Range(double min, double max, int pairs) {}

  private Spread() {}

  /**
   * Each window's {@code measure} relative to the mean over the windows that {@code counts}; empty
   * when fewer than two windows count or their mean is not positive.
   */
  static double[] relative(
      List<WindowStats> windows,
      ToDoubleFunction<WindowStats> measure,
      Predicate<WindowStats> counts) {
    List<Double> values = new ArrayList<>();
    for (WindowStats w : windows) {
      if (counts.test(w)) {
        values.add(measure.applyAsDouble(w));
      }
    }
    double mean = values.stream().mapToDouble(Double::doubleValue).average().orElse(0);
    if (values.size() < 2 || !(mean > 0)) {
      return new double[0];
    }
    return values.stream().mapToDouble(v -> v / mean).toArray();
  }

  /**
   * The spread of {@code value / baseline} given the relative window values of each run; null
   * when either has none or the ratio is not finite.
   */
  static Range ofRatio(double value, double baseline, double[] valueWindows, double[] baseWindows) {
    double ratio = value / baseline;
    if (!Double.isFinite(ratio) || valueWindows.length == 0 || baseWindows.length == 0) {
      return null;
    }
    double[] ratios = new double[valueWindows.length * baseWindows.length];
    int n = 0;
    for (double a : valueWindows) {
      for (double b : baseWindows) {
        ratios[n++] = b > 0 ? ratio * a / b : Double.NaN;
      }
    }
    double[] finite = Arrays.stream(ratios).filter(Double::isFinite).sorted().toArray();
    if (finite.length == 0) {
      return null;
    }
    return new Range(finite[0], finite[finite.length - 1], finite.length);
  }
}
