package io.stratus.core;

import io.stratus.btree.KeyRange;
import io.stratus.btree.TreeCursor;
import io.stratus.core.query.Order;
import java.util.List;
import java.util.Optional;

/**
 * An ordered key space a query reads, one bounded piece at a time: the seam between the query
 * machinery ({@link QueryRunner}) and where an index lives. A client-side B-link tree read through
 * the transaction's read path is one ({@link TreeSource}); an index held by a cloud index service,
 * which answers an ordered key range with a limit and a continuation, fits the same shape.
 *
 * <p>An implementation reads as the transaction's protocol requires: what it returns, and what it
 * reports read, is what the protocol sees the transaction depend on.
 */
interface IndexSource {
  /**
   * Up to {@code limit} entries of {@code range} in {@code order}.
   *
   * @return the entries, and where the next piece starts when this one may not have reached the
   *     range's end
   */
  Piece read(KeyRange range, Order order, int limit);

  /**
   * A piece of a source's range.
   *
   * @param entries the entries, in order (values: record payloads, or empty for index entries)
   * @param resumeAfter the last key the piece covered, after which the range goes on; empty when
   *     the piece reached the range's end
   */
  record Piece(List<TreeCursor.Entry> entries, Optional<byte[]> resumeAfter) {}
}
