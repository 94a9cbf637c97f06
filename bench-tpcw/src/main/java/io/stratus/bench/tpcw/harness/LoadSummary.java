package io.stratus.bench.tpcw.harness;

import java.time.Duration;
import java.util.Map;

/**
 * What loading the bookstore cost (the papers' Table 4): rows per table, time, cloud requests and
 * dollars under both price tables, for the whole load and for the ITEM table alone (Table 4 loads
 * 1,000 products: its time, requests and cost are those of the item table with its indexes).
 *
 * @param rowsPerTable rows loaded per table, in load order
 * @param elapsed wall-clock time of the load
 * @param itemsElapsed wall-clock time of loading the ITEM table with its indexes
 * @param requests cloud requests the load made
 * @param milliDollars2008 cost under the papers' 2008 prices, in milli-dollars
 * @param milliDollars2026 cost under today's AWS prices, in milli-dollars
 * @param pagesWritten pages the bulk loader wrote
 * @param itemRequests cloud requests of loading the ITEM table with its indexes
 * @param itemMilliDollars2008 their cost under the 2008 prices, in milli-dollars
 * @param itemMilliDollars2026 their cost under today's prices, in milli-dollars
 */
public record LoadSummary(
    Map<String, Long> rowsPerTable,
    Duration elapsed,
    Duration itemsElapsed,
    long requests,
    double milliDollars2008,
    double milliDollars2026,
    long pagesWritten,
    long itemRequests,
    double itemMilliDollars2008,
    double itemMilliDollars2026) {

  /** A summary whose item-table requests and cost were not measured (zero). */
  public LoadSummary(
      Map<String, Long> rowsPerTable,
      Duration elapsed,
      Duration itemsElapsed,
      long requests,
      double milliDollars2008,
      double milliDollars2026,
      long pagesWritten) {
    this(
        rowsPerTable,
        elapsed,
        itemsElapsed,
        requests,
        milliDollars2008,
        milliDollars2026,
        pagesWritten,
        0,
        0,
        0);
  }

  /** Rows over all tables. */
  public long totalRows() {
    return rowsPerTable.values().stream().mapToLong(Long::longValue).sum();
  }
}
