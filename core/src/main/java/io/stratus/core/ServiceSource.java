package io.stratus.core;

import io.stratus.btree.KeyRange;
import io.stratus.btree.TreeCursor;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.IndexItem;
import io.stratus.cloudapi.IndexPage;
import io.stratus.cloudapi.IndexQuery;
import io.stratus.cloudapi.IndexService;
import io.stratus.core.query.Order;
import io.stratus.protocols.ProtocolTransaction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NavigableSet;
import java.util.Optional;

/**
 * An index held by the index service as an {@link IndexSource}: one service query per piece, its
 * entries merged with those the transaction itself inserts (which the service gets only at commit).
 *
 * <p>The entries are hints: the query machinery reads each one's record through the transaction's
 * read path and drops those whose record is gone or has another search key, so what a query
 * returns has the protocol's read guarantees as long as the service holds every entry of every
 * commit the transaction can see ({@link ServiceEntries} puts them before the commit).
 *
 * <p>Phantoms: a service index has no keys to lock or validate as a tree has, so every piece
 * reports that the transaction depends on the whole collection ({@link
 * ProtocolTransaction#readsAll}); two-phase locking then locks the collection against writers, and
 * serializable snapshot isolation validates that no commit since the snapshot changed it.
 */
final class ServiceSource implements IndexSource {
  private static final byte[] NONE = new byte[0];

  private final IndexService service;
  private final String domain;
  private final NavigableSet<byte[]> own;
  private final String primaryRoot;
  private final ProtocolTransaction protocol;

  ServiceSource(
      IndexService service,
      String domain,
      NavigableSet<byte[]> own,
      String primaryRoot,
      ProtocolTransaction protocol) {
    this.service = service;
    this.domain = domain;
    this.own = own;
    this.primaryRoot = primaryRoot;
    this.protocol = protocol;
  }

  @Override
  public Piece read(KeyRange range, Order order, int limit) {
    protocol.readsAll(primaryRoot);
    boolean descending = order == Order.DESCENDING;
    int size = Math.min(limit, service.limits().maxPageSize());
    IndexQuery query =
        ServiceEntries.query(
            range, descending ? IndexQuery.Order.DESCENDING : IndexQuery.Order.ASCENDING, size);
    IndexPage page = CloudFutures.await(service.query(domain, query));
    while (page.items().isEmpty() && page.nextToken().isPresent()) {
      // A page may be empty although more follow; its token moves on without a position.
      page = CloudFutures.await(service.query(domain, query.after(page.nextToken().get())));
    }
    List<byte[]> found = new ArrayList<>(page.items().size());
    for (IndexItem item : page.items()) {
      found.add(ServiceEntries.composite(item));
    }
    boolean more = page.nextToken().isPresent();
    // The service covered the range up to its last entry when more follow, else to the range's end.
    KeyRange covered = more ? cut(range, found.get(found.size() - 1), descending) : range;
    List<byte[]> merged = merge(found, mine(covered, descending), descending);
    if (merged.size() > limit) {
      List<byte[]> first = merged.subList(0, limit);
      return new Piece(entries(first), Optional.of(first.get(limit - 1)));
    }
    return new Piece(
        entries(merged),
        more ? Optional.of(found.get(found.size() - 1)) : Optional.<byte[]>empty());
  }

  /** The transaction's own entries in {@code range}, in order. */
  private List<byte[]> mine(KeyRange range, boolean descending) {
    List<byte[]> out = new ArrayList<>();
    for (byte[] k : descending ? own.descendingSet() : own) {
      if (range.contains(k)) {
        out.add(k);
      }
    }
    return out;
  }

  /** Two ordered lists as one, each key once. */
  private static List<byte[]> merge(List<byte[]> a, List<byte[]> b, boolean descending) {
    List<byte[]> out = new ArrayList<>(a.size() + b.size());
    int i = 0;
    int j = 0;
    while (i < a.size() || j < b.size()) {
      int c;
      if (i == a.size()) {
        c = 1;
      } else if (j == b.size()) {
        c = -1;
      } else {
        c = Arrays.compareUnsigned(a.get(i), b.get(j)) * (descending ? -1 : 1);
      }
      if (c <= 0) {
        out.add(a.get(i++));
        if (c == 0) {
          j++;
        }
      } else {
        out.add(b.get(j++));
      }
    }
    return out;
  }

  private static List<TreeCursor.Entry> entries(List<byte[]> keys) {
    List<TreeCursor.Entry> out = new ArrayList<>(keys.size());
    for (byte[] k : keys) {
      out.add(new TreeCursor.Entry(k, NONE));
    }
    return out;
  }

  /** {@code range} ended at {@code key}, inclusive, in the walk's direction. */
  private static KeyRange cut(KeyRange range, byte[] key, boolean descending) {
    return descending
        ? KeyRange.of(key, true, range.upperBound().orElse(null), range.isUpperInclusive())
        : KeyRange.of(range.lowerBound().orElse(null), range.isLowerInclusive(), key, true);
  }
}
