package io.stratus.bench.tpcw.harness;

/**
 * What a run's machines cost per web interaction, by the hour ({@link HourlyPrices}), over its
 * measurement interval: the application servers (in the ec2 placement only: in the eu placement
 * the client stack runs outside the cloud, as in the papers) and the coordination ensemble (when
 * the run used locks, counters or advanced queues).
 *
 * @param serverHours application-server hours of the interval (servers × interval)
 * @param coordinationHours ensemble hours of the interval (0 when unused)
 * @param serverMilliDollarsPerWi2008 server cost per completed WI, 2008 prices
 * @param serverMilliDollarsPerWi2026 server cost per completed WI, today's prices
 * @param coordinationMilliDollarsPerWi2026 ensemble cost per completed WI, today's prices (the
 *     2008 table prices those services per request instead)
 */
public record ServerCost(
    double serverHours,
    double coordinationHours,
    double serverMilliDollarsPerWi2008,
    double serverMilliDollarsPerWi2026,
    double coordinationMilliDollarsPerWi2026) {
  /** No machine charged. */
  public static final ServerCost NONE = new ServerCost(0, 0, 0, 0, 0);

  /**
   * The cost of {@code servers} application servers (0 outside EC2) and, if {@code
   * usedCoordination}, one ensemble, over {@code seconds}, spread over {@code interactions}.
   */
  public static ServerCost of(
      int servers, boolean usedCoordination, double seconds, long interactions) {
    if (servers < 0 || seconds < 0 || interactions < 0) {
      throw new IllegalArgumentException("negative servers, seconds or interactions");
    }
    double serverHours = servers * seconds / 3600;
    double coordinationHours = usedCoordination ? seconds / 3600 : 0;
    if (interactions == 0) {
      return new ServerCost(serverHours, coordinationHours, 0, 0, 0);
    }
    double perWi = 1000.0 / interactions;
    return new ServerCost(
        serverHours,
        coordinationHours,
        serverHours * HourlyPrices.PAPER_2008.serverPerHour() * perWi,
        serverHours * HourlyPrices.AWS_2026.serverPerHour() * perWi,
        coordinationHours * HourlyPrices.AWS_2026.coordinationPerHour() * perWi);
  }

  /** Everything per WI under the 2008 prices. */
  public double milliDollarsPerWi2008() {
    return serverMilliDollarsPerWi2008;
  }

  /** Everything per WI under today's prices. */
  public double milliDollarsPerWi2026() {
    return serverMilliDollarsPerWi2026 + coordinationMilliDollarsPerWi2026;
  }
}
