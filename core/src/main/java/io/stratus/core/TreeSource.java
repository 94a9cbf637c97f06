package io.stratus.core;

import io.stratus.btree.BLinkTree;
import io.stratus.btree.KeyRange;
import io.stratus.btree.TreeCursor;
import io.stratus.core.query.Order;
import io.stratus.pagemanager.PageStore;
import io.stratus.protocols.ProtocolTransaction;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A B-link tree as an {@link IndexSource}, read through a transaction's read path: the protocol's
 * read view (its own writes, a snapshot, the latest commit of locked keys) and its read reports,
 * as {@link Transaction#scan} and {@link Transaction#probeRange} read.
 *
 * <p>A piece reports only the part of the range it covers: a first pass through the view finds
 * where {@code limit} entries end, the protocol is told of the range up to there (so two-phase
 * locking locks those keys and the next one, and serializable snapshot isolation validates just
 * that range), and a second pass reads the covered range as the protocol now shows it. Both
 * passes read the same pages, pinned in the transaction, so the second costs no request.
 */
final class TreeSource implements IndexSource {
  private final BLinkTree tree;
  private final PageStore view;
  private final ProtocolTransaction protocol;

  TreeSource(BLinkTree tree, PageStore view, ProtocolTransaction protocol) {
    this.tree = tree;
    this.view = view;
    this.protocol = protocol;
  }

  @Override
  public Piece read(KeyRange range, Order order, int limit) {
    boolean descending = order == Order.DESCENDING;
    List<TreeCursor.Entry> ahead = take(range, descending, limit);
    KeyRange covered = range;
    Optional<byte[]> end = Optional.empty();
    if (ahead.size() == limit) {
      byte[] last = ahead.get(limit - 1).keyUnsafe();
      covered = descending ? from(range, last) : upTo(range, last);
      end = Optional.of(last);
    }
    protocol.readKeys(tree.rootUri(), covered);
    List<TreeCursor.Entry> entries = take(covered, descending, limit);
    if (entries.size() == limit) {
      return new Piece(entries, Optional.of(entries.get(limit - 1).keyUnsafe()));
    }
    return new Piece(entries, end);
  }

  private List<TreeCursor.Entry> take(KeyRange range, boolean descending, int limit) {
    List<TreeCursor.Entry> out = new ArrayList<>(Math.min(limit, 256));
    TreeCursor c = tree.scan(view, range, descending);
    while (out.size() < limit && c.hasNext()) {
      out.add(c.next());
    }
    return out;
  }

  /** {@code range} cut above at {@code key}, inclusive. */
  private static KeyRange upTo(KeyRange range, byte[] key) {
    return KeyRange.of(range.lowerBound().orElse(null), range.isLowerInclusive(), key, true);
  }

  /** {@code range} cut below at {@code key}, inclusive. */
  private static KeyRange from(KeyRange range, byte[] key) {
    return KeyRange.of(key, true, range.upperBound().orElse(null), range.isUpperInclusive());
  }
}
