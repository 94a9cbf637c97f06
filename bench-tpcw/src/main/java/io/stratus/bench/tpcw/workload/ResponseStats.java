package io.stratus.bench.tpcw.workload;

/**
 * Response time, cloud usage, work and staleness of one interaction, or of a group of them (read
 * interactions: those that wrote nothing; update interactions: those that committed a write; all),
 * over a measurement interval. Times in milliseconds;
 * costs in milli-dollars per interaction under the papers' 2008 prices and today's AWS prices.
 * Requests and costs include the interaction's share of the background work (checkpoints, the
 * atomic protocol's propagation) that the emulator allocates to update interactions in proportion
 * to the records they wrote; {@code RunResult} shows the background totals separately.
 *
 * @param label the interaction's label or the group's name ("read", "update", "total")
 * @param count interactions completed in the interval (errors excluded)
 * @param errors interactions that ended with an exception
 * @param meanMillis average response time
 * @param p50Millis median response time
 * @param p90Millis 90th percentile
 * @param p99Millis 99th percentile
 * @param requestsPerInteraction cloud requests per interaction
 * @param milliDollars2008 cost per interaction under the 2008 price table
 * @param milliDollars2026 cost per interaction under the 2026 price table
 * @param meanStalenessMillis average staleness of the reads whose freshness is tracked (0 if none)
 * @param maxStalenessMillis largest staleness observed
 * @param wrote completed interactions that committed at least one write
 * @param recordsReadPerInteraction records read per completed interaction (probes and scans
 *     included), as the bookstore reported them
 * @param recordsWrittenPerInteraction records created, updated or deleted per completed
 *     interaction
 * @param retriesPerInteraction transaction attempts re-run per completed interaction after a
 *     failure that said nothing took effect
 */
public record ResponseStats(
    String label,
    long count,
    long errors,
    double meanMillis,
    double p50Millis,
    double p90Millis,
    double p99Millis,
    double requestsPerInteraction,
    double milliDollars2008,
    double milliDollars2026,
    double meanStalenessMillis,
    long maxStalenessMillis,
    long wrote,
    double recordsReadPerInteraction,
    double recordsWrittenPerInteraction,
    double retriesPerInteraction) {

  /** Nothing measured. */
  public static ResponseStats empty(String label) {
    return new ResponseStats(label, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
  }

  /** Interactions started: completed and failed, the number the costs per interaction divide. */
  public long attempts() {
    return count + errors;
  }

  /** Records the completed interactions wrote, in all. */
  public long recordsWritten() {
    return Math.round(recordsWrittenPerInteraction * count);
  }

  /**
   * What the interactions paid in requests (their own calls and their share of the background),
   * under the 2008 prices, per record they wrote: the price of a write, whatever the number of
   * writes per interaction. NaN when they wrote none.
   */
  public double milliDollarsPerRecordWritten2008() {
    return perRecordWritten(milliDollars2008 * attempts());
  }

  /** As {@link #milliDollarsPerRecordWritten2008()} under today's prices. */
  public double milliDollarsPerRecordWritten2026() {
    return perRecordWritten(milliDollars2026 * attempts());
  }

  /**
   * The completed interactions' response time per record they wrote (their summed response time
   * over their records written). NaN when they wrote none.
   */
  public double millisPerRecordWritten() {
    return perRecordWritten(meanMillis * count);
  }

  private double perRecordWritten(double total) {
    long records = recordsWritten();
    return records == 0 ? Double.NaN : total / records;
  }
}
