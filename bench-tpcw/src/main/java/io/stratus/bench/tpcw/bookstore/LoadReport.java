package io.stratus.bench.tpcw.bookstore;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What {@link DataGenerator#load} did.
 *
 * @param scale the scale loaded
 * @param rowsPerTable rows loaded per table, in load order
 * @param totalRows rows of all tables together
 * @param indexEntries secondary-index entries built
 * @param pagesWritten pages put to storage by the bulk loads (one put each)
 * @param elapsed wall time of the whole load (schema installation included)
 * @param elapsedPerTable wall time of each table's bulk load, its indexes included
 */
public record LoadReport(Scale scale, Map<String, Long> rowsPerTable, long totalRows,
    long indexEntries, long pagesWritten, Duration elapsed, Map<String, Duration> elapsedPerTable) {
  /** Copies the maps. */
  public LoadReport {
    rowsPerTable = Collections.unmodifiableMap(new LinkedHashMap<>(rowsPerTable));
    elapsedPerTable = Collections.unmodifiableMap(new LinkedHashMap<>(elapsedPerTable));
  }
}
