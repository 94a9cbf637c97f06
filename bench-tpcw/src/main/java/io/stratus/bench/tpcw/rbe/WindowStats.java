package io.stratus.bench.tpcw.rbe;

import io.stratus.cloudapi.decorate.MeterSnapshot;
import io.stratus.cloudapi.decorate.PriceTable;
import java.util.ArrayList;
import java.util.List;

/**
 * One window of a measurement interval split into equal parts ({@link Emulator.Builder#windows}):
 * how fast, how quick and how costly the interactions that started in it were. The windows of a
 * run show how much its figures vary within the run, which the reports give as the spread of the
 * ratios between protocols, and whether the run was in a steady state.
 *
 * <p>Cost: the calls of the window's interactions, the background calls that started in it, and
 * a share of the rest of the run's charged background (what started after the interval: the
 * browsers' last interactions and the drain) in proportion to the records the window's
 * interactions wrote; interactions still in flight at a boundary are counted in the window they
 * ended in. The windows' costs add up to the interval's, but each window's is an approximation
 * (a checkpoint runs in a later window than the writes it applies), meant for its variation, not
 * its level.
 *
 * @param seconds the window's length
 * @param completed interactions that started in it and completed
 * @param errors interactions that started in it and failed
 * @param meanMillis their average response time, 0 when none completed
 * @param updates completed interactions that committed a write
 * @param updateMeanMillis their average response time, 0 when none
 * @param milliDollars2008 cost per interaction (completed or failed) under the 2008 prices
 * @param milliDollars2026 the same under the 2026 prices
 */
public record WindowStats(
    double seconds,
    long completed,
    long errors,
    double meanMillis,
    long updates,
    double updateMeanMillis,
    double milliDollars2008,
    double milliDollars2026) {

  /** Completed interactions per second. */
  public double interactionsPerSecond() {
    return seconds > 0 ? completed / seconds : 0;
  }

  /**
   * The windows of a run.
   *
   * @param counts what the interactions of each window did
   * @param boundaries the attribution's usage at each window boundary, the interval's start first
   *     and its end last ({@code counts.size() + 1} snapshots)
   * @param run the run's whole usage, from before its start to after the drain
   * @param seconds each window's length
   */
  static List<WindowStats> of(
      WindowCounts counts,
      List<InteractionAttribution.Usage> boundaries,
      InteractionAttribution.Usage run,
      double[] seconds,
      PriceTable paper,
      PriceTable today) {
    int n = counts.size();
    if (boundaries.size() != n + 1 || seconds.length != n) {
      throw new IllegalArgumentException(
          n + " windows need " + (n + 1) + " boundaries and " + n + " lengths");
    }
    MeterSnapshot[] direct = new MeterSnapshot[n];
    MeterSnapshot[] background = new MeterSnapshot[n];
    MeterSnapshot directSum = MeterSnapshot.empty();
    MeterSnapshot backgroundSum = MeterSnapshot.empty();
    for (int w = 0; w < n; w++) {
      direct[w] = direct(boundaries.get(w + 1)).minus(direct(boundaries.get(w)));
      background[w] =
          boundaries.get(w + 1).backgroundMeasure().minus(boundaries.get(w).backgroundMeasure());
      directSum = directSum.plus(direct[w]);
      backgroundSum = backgroundSum.plus(background[w]);
    }
    // What the boundaries missed: calls moved after the last one (interactions in flight at the
    // end) and the background after the interval, the drain included.
    MeterSnapshot directRest = direct(run).minus(directSum);
    MeterSnapshot backgroundRest =
        run.backgroundMeasure().plus(run.backgroundAfter()).minus(backgroundSum);
    long allCompleted = 0;
    long allWritten = 0;
    for (int w = 0; w < n; w++) {
      allCompleted += counts.completed[w] + counts.errors[w];
      allWritten += counts.recordsWritten[w];
    }
    List<WindowStats> out = new ArrayList<>(n);
    for (int w = 0; w < n; w++) {
      long attempts = counts.completed[w] + counts.errors[w];
      double directShare = allCompleted == 0 ? 0 : (double) attempts / allCompleted;
      double backgroundShare = allWritten == 0 ? 0 : (double) counts.recordsWritten[w] / allWritten;
      MeterSnapshot own = direct[w].plus(background[w]);
      out.add(
          new WindowStats(
              seconds[w],
              counts.completed[w],
              counts.errors[w],
              mean(counts.sumMicros[w], counts.completed[w]),
              counts.updates[w],
              mean(counts.updateMicros[w], counts.updates[w]),
              perInteraction(
                  own, directRest, backgroundRest, directShare, backgroundShare, paper, attempts),
              perInteraction(
                  own, directRest, backgroundRest, directShare, backgroundShare, today, attempts)));
    }
    return List.copyOf(out);
  }

  private static MeterSnapshot direct(InteractionAttribution.Usage usage) {
    MeterSnapshot sum = MeterSnapshot.empty();
    for (MeterSnapshot s : usage.directPerInteraction().values()) {
      sum = sum.plus(s);
    }
    return sum;
  }

  private static double perInteraction(
      MeterSnapshot own,
      MeterSnapshot directRest,
      MeterSnapshot backgroundRest,
      double directShare,
      double backgroundShare,
      PriceTable prices,
      long attempts) {
    if (attempts == 0) {
      return 0;
    }
    double milli =
        own.cost(prices).doubleValue() * 1000
            + directRest.cost(prices).doubleValue() * 1000 * directShare
            + backgroundRest.cost(prices).doubleValue() * 1000 * backgroundShare;
    return milli / attempts;
  }

  private static double mean(long micros, long n) {
    return n == 0 ? 0 : micros / 1000.0 / n;
  }
}
