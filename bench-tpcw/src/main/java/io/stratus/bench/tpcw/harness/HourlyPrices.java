package io.stratus.bench.tpcw.harness;

/**
 * The machines a deployment pays by the hour, which the per-request price tables leave out: the
 * application server on EC2 (paper 000 section 7.1 counts "the charges of Amazon for using EC2 and
 * S3"; its Figure 10 is the server's cost per WI) and the ensemble that runs locks, counters and
 * advanced queues (ZooKeeper on EC2 today).
 *
 * @param name the table's name, as in the reports
 * @param serverPerHour dollars per hour of one application server
 * @param coordinationPerHour dollars per hour of the coordination ensemble, charged to a run that
 *     used it (made a lock, counter or advanced-queue request); zero where the per-request table
 *     already prices those requests
 */
public record HourlyPrices(String name, double serverPerHour, double coordinationPerHour) {
  /**
   * 2008, as paper 000 prices it: an EC2 small instance at $0.10 per hour (section 2.2.2 quotes
   * $0.10 to $0.80 per hour); locks, counters and advanced queues are priced per request in the
   * 2008 request table ($0.01 per 1,000, section 7.1), so no ensemble hours.
   */
  public static final HourlyPrices PAPER_2008 = new HourlyPrices("paper 2008", 0.10, 0);

  /**
   * Today, us-east-1 on-demand Linux (aws.amazon.com/ec2/pricing/on-demand): the server an
   * m7g.large (2 vCPUs, 8 GiB) at $0.0816 per hour; the ensemble three m7g.medium (1 vCPU, 4 GiB)
   * at $0.0408 each, ZooKeeper's smallest fault-tolerant ensemble, since today's request table
   * charges nothing per lock, counter or advanced-queue request.
   */
  public static final HourlyPrices AWS_2026 = new HourlyPrices("aws 2026", 0.0816, 3 * 0.0408);
}
