package io.stratus.bench.tpcw.rbe;

import io.stratus.bench.tpcw.workload.Interaction;
import io.stratus.bench.tpcw.workload.Mix;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Whether a run followed its mix: per interaction, the observed share of the completed
 * interactions against the mix's target, with the sample count, flagged when the difference is
 * larger than chance explains or when too few interactions ran to tell.
 *
 * <p>The tolerance is statistical, from the specification's own transition matrix: browsers walk
 * a Markov chain, so successive pages are correlated and an interaction's observed share over
 * {@code n} pages has the chain's asymptotic variance {@code v_i / n} (the Markov-chain central
 * limit theorem), several times the binomial one for interactions that come in runs (Search
 * Request then Search Results). An interaction is {@link Verdict#OFF} when its share is more than
 * {@value #SIGMAS} standard deviations plus the table's rounding ({@value #TABLE_ROUNDING_POINTS}
 * percentage points) from the target, which a run that follows the matrix does with probability
 * under 0.1% over all fourteen; {@link Verdict#THIN} when fewer than {@value #MIN_EXPECTED}
 * interactions were expected, too few for the share to mean much (a short run's Admin Confirm).
 */
public final class MixCompliance {
  /** Standard deviations a share may stray from its target by chance. */
  static final double SIGMAS = 4;

  /** The mix table's targets are rounded to 0.01 percentage points. */
  static final double TABLE_ROUNDING_POINTS = 0.01;

  /** Expected interactions below which a share is flagged as too thin to judge. */
  static final long MIN_EXPECTED = 20;

  /** How one interaction's share compares with its target. */
  public enum Verdict {
    /** Within the tolerance. */
    OK,
    /** Outside the tolerance: the run did not follow the mix. */
    OFF,
    /** Too few interactions expected to judge. */
    THIN
  }

  /**
   * One interaction's line.
   *
   * @param interaction the interaction
   * @param count its completed measured interactions
   * @param observedPercent its share of all completed measured interactions
   * @param targetPercent the mix's share
   * @param tolerancePoints the largest difference, in percentage points, chance explains here
   * @param verdict the flag
   */
  public record Row(
      Interaction interaction,
      long count,
      double observedPercent,
      double targetPercent,
      double tolerancePoints,
      Verdict verdict) {}

  private static final Map<Mix, double[]> VARIANCES = new EnumMap<>(Mix.class);

  static {
    for (Mix mix : Mix.values()) {
      double[][] p = Navigation.of(mix).matrix();
      double[] pi = MarkovChains.stationary(p);
      double[] v = new double[pi.length];
      for (int i = 0; i < v.length; i++) {
        v[i] = MarkovChains.asymptoticVariance(p, pi, i);
      }
      VARIANCES.put(mix, v);
    }
  }

  private MixCompliance() {}

  /** The rows of a run of {@code mix} that completed {@code counts} interactions. */
  public static List<Row> of(Mix mix, Map<Interaction, Long> counts) {
    long n = 0;
    for (Interaction wi : Interaction.values()) {
      n += counts.getOrDefault(wi, 0L);
    }
    double[] variance = VARIANCES.get(mix);
    List<Row> rows = new ArrayList<>();
    for (Interaction wi : Interaction.values()) {
      long count = counts.getOrDefault(wi, 0L);
      double target = mix.percent(wi);
      double observed = n == 0 ? 0 : 100.0 * count / n;
      double tolerance =
          n == 0
              ? Double.POSITIVE_INFINITY
              : 100 * SIGMAS * Math.sqrt(variance[wi.ordinal()] / n) + TABLE_ROUNDING_POINTS;
      Verdict verdict =
          n * target / 100 < MIN_EXPECTED
              ? Verdict.THIN
              : Math.abs(observed - target) > tolerance ? Verdict.OFF : Verdict.OK;
      rows.add(new Row(wi, count, observed, target, tolerance, verdict));
    }
    return List.copyOf(rows);
  }

  /** The interactions flagged {@code verdict} among {@code rows}. */
  public static List<Interaction> flagged(List<Row> rows, Verdict verdict) {
    return rows.stream().filter(r -> r.verdict() == verdict).map(Row::interaction).toList();
  }
}
