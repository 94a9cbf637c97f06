package io.stratus.bench.tpcw.harness;

import java.time.Duration;
import java.util.Map;

/**
 * What loading the bookstore cost (the papers' Table 4): rows per table, time, cloud requests and
 * dollars under both price tables.
 *
 * @param rowsPerTable rows loaded per table, in load order
 * @param elapsed wall-clock time of the load
 * @param itemsElapsed wall-clock time of loading the ITEM table with its indexes (what the
 *     papers' Table 4 times for 1,000 products)
 * @param requests cloud requests the load made
 * @param milliDollars2008 cost under the papers' 2008 prices, in milli-dollars
 * @param milliDollars2026 cost under today's AWS prices, in milli-dollars
 * @param pagesWritten pages the bulk loader wrote
 */
public record LoadSummary(
    Map<String, Long> rowsPerTable, Duration elapsed, Duration itemsElapsed, long requests, double milliDollars2008,
    double milliDollars2026, long pagesWritten) {

  /** Rows over all tables. */
  public long totalRows() {
    return rowsPerTable.values().stream().mapToLong(Long::longValue).sum();
  }
}
