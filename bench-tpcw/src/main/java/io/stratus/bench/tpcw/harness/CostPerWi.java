package io.stratus.bench.tpcw.harness;

import io.stratus.bench.tpcw.workload.ResponseStats;

/**
 * Cost per web interaction as paper 000 section 7.1 defines it, "the charges of Amazon for using
 * EC2 and S3": the cloud requests an interaction caused (its own calls and its share of the
 * background work, {@link ResponseStats#milliDollars2008()}) plus the machines paid by the hour
 * ({@link ServerCost}: the application server in the ec2 placement and, at today's prices, the
 * coordination ensemble), which are spread evenly over the interactions. In milli-dollars per
 * interaction started (completed or failed).
 *
 * @param requests2008 the requests' part, 2008 prices
 * @param requests2026 the requests' part, today's prices
 * @param machines2008 the machines' part, 2008 prices
 * @param machines2026 the machines' part, today's prices
 */
public record CostPerWi(
    double requests2008, double requests2026, double machines2008, double machines2026) {
  /** Nothing to divide: no interaction started. */
  public static final CostPerWi NONE =
      new CostPerWi(Double.NaN, Double.NaN, Double.NaN, Double.NaN);

  /** The cost per WI of {@code row} (an interaction or a group) of a run with {@code machines}. */
  public static CostPerWi of(ResponseStats row, ServerCost machines) {
    if (row.attempts() == 0) {
      return NONE;
    }
    ServerCost m = machines == null ? ServerCost.NONE : machines;
    return new CostPerWi(
        row.milliDollars2008(),
        row.milliDollars2026(),
        m.milliDollarsPerWi2008(),
        m.milliDollarsPerWi2026());
  }

  /** Requests and machines, 2008 prices. */
  public double total2008() {
    return requests2008 + machines2008;
  }

  /** Requests and machines, today's prices. */
  public double total2026() {
    return requests2026 + machines2026;
  }
}
