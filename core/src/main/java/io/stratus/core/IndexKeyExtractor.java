package io.stratus.core;

import java.util.Optional;

/**
 * Computes a record's search key for one secondary index: application code, so it cannot be
 * stored in the catalog and must be attached by every process that writes the collection (see
 * {@link Database#attachIndex}).
 *
 * <p>Must be a pure function of its arguments (deterministic, no side effects): the record manager
 * calls it for the old and the new payload on updates and deletes, and a different answer for the
 * same record would leave stale index entries behind. Must be thread-safe. The returned bytes are
 * used as they are; build them with {@link Key}'s order-preserving encodings so that range probes
 * follow the values' natural order.
 */
@FunctionalInterface
public interface IndexKeyExtractor {
  /** The search key of the record, or empty when the record is not in this index. */
  Optional<byte[]> extract(byte[] recordKey, byte[] payload);
}
