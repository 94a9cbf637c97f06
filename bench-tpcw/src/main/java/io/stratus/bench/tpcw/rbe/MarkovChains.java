package io.stratus.bench.tpcw.rbe;

/** Numbers of a finite Markov chain given by its one-step matrix (rows sum to 1). */
final class MarkovChains {
  private MarkovChains() {}

  /** The stationary distribution, by power iteration from the uniform distribution. */
  static double[] stationary(double[][] p) {
    int n = p.length;
    double[] pi = new double[n];
    java.util.Arrays.fill(pi, 1.0 / n);
    for (int iteration = 0; iteration < 100_000; iteration++) {
      double[] next = step(pi, p);
      double change = 0;
      for (int i = 0; i < n; i++) {
        change = Math.max(change, Math.abs(next[i] - pi[i]));
      }
      pi = next;
      if (change < 1e-15) {
        break;
      }
    }
    return pi;
  }

  /**
   * The asymptotic variance of the indicator of state {@code i} along the chain started in its
   * steady state: {@code n * Var(fraction of n steps spent in i)} tends to {@code pi_i (1 - pi_i)
   * + 2 pi_i sum_k (P^k_ii - pi_i)} (the Markov-chain central limit theorem).
   */
  static double asymptoticVariance(double[][] p, double[] pi, int i) {
    double[] row = new double[p.length];
    row[i] = 1;
    double sum = 0;
    for (int k = 1; k <= 2_000; k++) {
      row = step(row, p);
      sum += row[i] - pi[i];
    }
    return pi[i] * (1 - pi[i]) + 2 * pi[i] * sum;
  }

  private static double[] step(double[] v, double[][] p) {
    double[] next = new double[v.length];
    for (int from = 0; from < v.length; from++) {
      if (v[from] == 0) {
        continue;
      }
      for (int to = 0; to < v.length; to++) {
        next[to] += v[from] * p[from][to];
      }
    }
    return next;
  }
}
