package io.stratus.bench.tpcw.bookstore;

import io.stratus.bench.tpcw.bookstore.RecentOrders.Line;
import io.stratus.bench.tpcw.bookstore.Rows.OrderLineRow;
import io.stratus.bench.tpcw.bookstore.Rows.OrderRow;
import io.stratus.bench.tpcw.bookstore.Rows.Sold;
import io.stratus.core.Record;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The related items Admin Confirm gives an item (specification clause 2.16): among the most
 * recent orders (the last 10,000), the customers who bought the item; then everything those
 * customers bought, in any of their orders, summed by item; the five items of the largest total
 * quantity (ties: the smaller item id), the item itself excluded.
 *
 * <p>When fewer than five are found, the list is filled with the item ids that follow the last one
 * found (after 0 when none was), wrapping around the item range and skipping the item itself and
 * ids already listed, as the specification's reference implementation fills it.
 *
 * <p>Reads: the lines of the recent orders ({@link RecentOrders}), the order rows of the recent
 * orders that contain the item (for their customers), each such customer's orders through {@code
 * orders.by_customer}, and the lines of those orders not among the recent ones. Orders not visible to
 * the transaction count as not placed.
 *
 * <p>Stateless; thread-safe.
 */
final class RelatedItems {
  /** Related items an item lists. */
  static final int COUNT = 5;

  private final Scale scale;
  private final RecentOrders recentOrders;

  RelatedItems(Scale scale, RecentOrders recentOrders) {
    this.scale = scale;
    this.recentOrders = recentOrders;
  }

  /** The five related items of {@code itemId} as the recent orders visible to {@code w} say. */
  long[] of(Work w, long itemId) {
    Map<Long, List<Sold>> recent = new LinkedHashMap<>();
    for (Line l : recentOrders.lines(w)) {
      recent.computeIfAbsent(l.orderId(), k -> new ArrayList<>()).add(l.row());
    }
    Set<Long> buyers = new LinkedHashSet<>();
    for (Map.Entry<Long, List<Sold>> order : recent.entrySet()) {
      if (order.getValue().stream().anyMatch(s -> s.itemId() == itemId)) {
        customerOf(w, order.getKey()).ifPresent(buyers::add);
      }
    }
    Map<Long, Long> bought = new HashMap<>();
    for (long customer : buyers) {
      for (Record o :
          w.probeRange(
              BookstoreSchema.ORDERS,
              BookstoreSchema.ORDERS_BY_CUSTOMER,
              BookstoreKeys.childrenOf(customer))) {
        long orderId = BookstoreKeys.idOf(o.key());
        for (Sold s : linesOf(w, orderId, recent)) {
          if (s.itemId() != itemId) {
            bought.merge(s.itemId(), (long) s.quantity(), Long::sum);
          }
        }
      }
    }
    List<Map.Entry<Long, Long>> ranked = new ArrayList<>(bought.entrySet());
    ranked.sort(
        Map.Entry.<Long, Long>comparingByValue()
            .reversed()
            .thenComparing(Map.Entry.comparingByKey()));
    List<Long> top = new ArrayList<>();
    for (int i = 0; i < Math.min(COUNT, ranked.size()); i++) {
      top.add(ranked.get(i).getKey());
    }
    return fill(top, itemId, scale.items());
  }

  /** The lines of an order: from the recent window when it is there, else read. */
  private static List<Sold> linesOf(Work w, long orderId, Map<Long, List<Sold>> recent) {
    List<Sold> known = recent.get(orderId);
    if (known != null) {
      return known;
    }
    List<Sold> lines = new ArrayList<>();
    for (Record r : w.scan(BookstoreSchema.ORDER_LINE, BookstoreKeys.childrenOf(orderId))) {
      lines.add(OrderLineRow.decodeSold(r.payload()));
    }
    return lines;
  }

  /**
   * {@code found} completed to {@link #COUNT} items with the ids after the last one found (after
   * 0 when none), in 1..{@code items}, skipping {@code itemId} and ids already listed.
   */
  static long[] fill(List<Long> found, long itemId, long items) {
    long[] related = new long[COUNT];
    int n = 0;
    for (long id : found) {
      related[n++] = id;
    }
    long next = found.isEmpty() ? 0 : found.get(found.size() - 1);
    while (n < COUNT) {
      next = next % items + 1;
      if (next != itemId && !contains(related, n, next)) {
        related[n++] = next;
      }
    }
    return related;
  }

  private static boolean contains(long[] values, int n, long v) {
    for (int k = 0; k < n; k++) {
      if (values[k] == v) {
        return true;
      }
    }
    return false;
  }

  /** The customer of an order, empty when the order is not visible. */
  private static Optional<Long> customerOf(Work w, long orderId) {
    return w.read(BookstoreSchema.ORDERS, orderId).map(p -> OrderRow.decode(p).customerId());
  }
}
