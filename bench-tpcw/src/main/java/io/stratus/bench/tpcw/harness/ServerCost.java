package io.stratus.bench.tpcw.harness;

import io.stratus.bench.tpcw.rbe.EmulatorReport;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.decorate.MeterSnapshot;
import io.stratus.cloudapi.decorate.OperationStats;
import io.stratus.cloudapi.decorate.PriceTable;
import io.stratus.cloudapi.decorate.PriceTables;
import java.util.Map;

/**
 * What a run's machines cost, by the hour ({@link HourlyPrices}), over its measurement interval:
 * the application servers (in the ec2 placement only: in the eu placement the client stack runs
 * outside the cloud, as in the papers) and the coordination ensemble (when the run made lock,
 * counter or advanced-queue requests). Spread evenly over every interaction started in the
 * interval, completed or failed, as the request costs are, so that a run's cost per WI times its
 * interactions is what it paid: paper 000's Figure 10 divides the server's rent by the WIs in the
 * same way.
 *
 * @param serverHours application-server hours of the interval (servers × interval)
 * @param coordinationHours ensemble hours of the interval (0 when the run made no coordination
 *     request)
 * @param coordinationRequests the lock, counter and advanced-queue requests charged to the
 *     interval (the interactions' own and the background's), which the ensemble served
 * @param interactions the interactions the machines are spread over (completed and failed)
 */
public record ServerCost(
    double serverHours, double coordinationHours, long coordinationRequests, long interactions) {
  /** No machine charged. */
  public static final ServerCost NONE = new ServerCost(0, 0, 0, 0);

  /** Checks the counts. */
  public ServerCost {
    if (serverHours < 0 || coordinationHours < 0 || coordinationRequests < 0 || interactions < 0) {
      throw new IllegalArgumentException("negative hours, requests or interactions");
    }
  }

  /**
   * The cost of {@code servers} application servers (0 outside EC2) and, if the run made any
   * {@code coordinationRequests}, one ensemble, over {@code seconds}, spread over {@code
   * interactions} (completed and failed).
   */
  public static ServerCost of(
      int servers, long coordinationRequests, double seconds, long interactions) {
    if (servers < 0 || coordinationRequests < 0 || seconds < 0 || interactions < 0) {
      throw new IllegalArgumentException(
          "negative servers, coordination requests, seconds or interactions");
    }
    double hours = seconds / 3600;
    return new ServerCost(
        servers * hours, coordinationRequests > 0 ? hours : 0, coordinationRequests, interactions);
  }

  /**
   * The machines of the run {@code report} measured: {@code servers} application servers and, if
   * the calls charged to its interval (the interactions' own and the background's) include a
   * coordination request, the ensemble, over its measurement interval, spread over its
   * interactions.
   */
  public static ServerCost forRun(int servers, EmulatorReport report) {
    MeterSnapshot charged = report.background();
    for (MeterSnapshot own : report.directUsage().values()) {
      charged = charged.plus(own);
    }
    return of(
        servers,
        coordinationRequests(charged),
        report.measuredSeconds(),
        report.total().attempts());
  }

  /** The lock, counter and advanced-queue calls in {@code usage}: the ensemble's work. */
  public static long coordinationRequests(MeterSnapshot usage) {
    PriceTable table = PriceTables.paper2008();
    long calls = 0;
    for (Map.Entry<Operation, OperationStats> e : usage.perOperation().entrySet()) {
      if (table.priceClass(e.getKey()).name().equals(PriceTables.ADVANCED)) {
        calls += e.getValue().calls();
      }
    }
    return calls;
  }

  /** The servers' rent over the interval in milli-dollars, 2008 prices. */
  public double serverMilliDollars2008() {
    return serverHours * HourlyPrices.PAPER_2008.serverPerHour() * 1000;
  }

  /** The servers' rent over the interval in milli-dollars, today's prices. */
  public double serverMilliDollars2026() {
    return serverHours * HourlyPrices.AWS_2026.serverPerHour() * 1000;
  }

  /**
   * The ensemble's rent over the interval in milli-dollars, 2008 prices: zero, as the 2008 table
   * prices coordination per request.
   */
  public double coordinationMilliDollars2008() {
    return coordinationHours * HourlyPrices.PAPER_2008.coordinationPerHour() * 1000;
  }

  /** The ensemble's rent over the interval in milli-dollars, today's prices. */
  public double coordinationMilliDollars2026() {
    return coordinationHours * HourlyPrices.AWS_2026.coordinationPerHour() * 1000;
  }

  /** Every machine over the interval in milli-dollars, 2008 prices. */
  public double milliDollars2008() {
    return serverMilliDollars2008() + coordinationMilliDollars2008();
  }

  /** Every machine over the interval in milli-dollars, today's prices. */
  public double milliDollars2026() {
    return serverMilliDollars2026() + coordinationMilliDollars2026();
  }

  /** Server rent per interaction, 2008 prices (0 without interactions). */
  public double serverMilliDollarsPerWi2008() {
    return perWi(serverMilliDollars2008());
  }

  /** Server rent per interaction, today's prices. */
  public double serverMilliDollarsPerWi2026() {
    return perWi(serverMilliDollars2026());
  }

  /** Ensemble rent per interaction, today's prices (the 2008 table prices requests instead). */
  public double coordinationMilliDollarsPerWi2026() {
    return perWi(coordinationMilliDollars2026());
  }

  /** Everything per WI under the 2008 prices. */
  public double milliDollarsPerWi2008() {
    return perWi(milliDollars2008());
  }

  /** Everything per WI under today's prices. */
  public double milliDollarsPerWi2026() {
    return perWi(milliDollars2026());
  }

  /** Coordination requests per interaction: how much of the ensemble a WI used. */
  public double coordinationRequestsPerWi() {
    return perWi(coordinationRequests);
  }

  private double perWi(double total) {
    return interactions == 0 ? 0 : total / interactions;
  }
}
