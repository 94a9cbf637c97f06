package io.stratus.bench.tpcw.bookstore;

import io.stratus.cloudapi.decorate.MeterSnapshot;
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
 * @param usagePerTable the cloud calls of each table's bulk load, its indexes included, as the
 *     generator's meter counted them (empty snapshots without a meter); price them with {@link
 *     MeterSnapshot#cost}
 */
public record LoadReport(
    Scale scale,
    Map<String, Long> rowsPerTable,
    long totalRows,
    long indexEntries,
    long pagesWritten,
    Duration elapsed,
    Map<String, Duration> elapsedPerTable,
    Map<String, MeterSnapshot> usagePerTable) {
  /** Copies the maps. */
  public LoadReport {
    rowsPerTable = Collections.unmodifiableMap(new LinkedHashMap<>(rowsPerTable));
    elapsedPerTable = Collections.unmodifiableMap(new LinkedHashMap<>(elapsedPerTable));
    usagePerTable = Collections.unmodifiableMap(new LinkedHashMap<>(usagePerTable));
  }

  /** The cloud calls of loading {@code table}; empty when it was not metered or not loaded. */
  public MeterSnapshot usage(String table) {
    return usagePerTable.getOrDefault(table, MeterSnapshot.empty());
  }
}
