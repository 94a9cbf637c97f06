package io.stratus.core;

/**
 * What {@link Database#bulkLoad} wrote.
 *
 * @param records records loaded into the collection
 * @param indexEntries entries loaded into its secondary indexes, all together
 * @param pagesWritten pages put to storage (one put each): about records / records-per-page for the
 *     collection plus its inner levels, and the same for each index
 */
public record BulkLoadResult(long records, long indexEntries, long pagesWritten) {}
