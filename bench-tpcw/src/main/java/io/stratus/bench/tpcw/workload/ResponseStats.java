package io.stratus.bench.tpcw.workload;

/**
 * Response time, cloud usage and staleness of one interaction, or of a group of them (read
 * interactions, update interactions, all), over a measurement interval. Times in milliseconds;
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
 */
public record ResponseStats(
    String label, long count, long errors, double meanMillis, double p50Millis, double p90Millis,
    double p99Millis, double requestsPerInteraction, double milliDollars2008,
    double milliDollars2026, double meanStalenessMillis, long maxStalenessMillis) {}
