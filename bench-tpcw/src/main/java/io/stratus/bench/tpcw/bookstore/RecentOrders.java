package io.stratus.bench.tpcw.bookstore;

import io.stratus.bench.tpcw.bookstore.Rows.OrderLineRow;
import io.stratus.bench.tpcw.bookstore.Rows.Sold;
import io.stratus.core.Record;
import io.stratus.core.query.Order;
import io.stratus.core.query.Query;
import io.stratus.core.query.QueryPage;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The order lines of the N most recent orders (Best Sellers: N = 3,333; Admin Confirm's related
 * items: N = 10,000), read by a descending query over ORDER_LINE's keys: order ids grow with time
 * ({@link Ids}) and lines are keyed by (order id, line), so the lines of the newest orders are the
 * first of the key space read from its end. Pages are sized by the lines per order seen so far, so
 * the query reads little beyond the N-th order's lines; lines of older orders are dropped.
 * Stateless; thread-safe.
 */
final class RecentOrders {
  /** Lines per order a first page assumes (TPC-W orders have 1 to 5, 3 on average). */
  static final int LINES_PER_ORDER = 3;

  /** One line of a recent order: its order and what it sold. */
  record Line(long orderId, Sold row) {}

  private static final Query NEWEST_LINES =
      Query.on(BookstoreSchema.ORDER_LINE).order(Order.DESCENDING);

  private final int orders;

  RecentOrders(int orders) {
    if (orders < 1) {
      throw new IllegalArgumentException("orders must be positive, got " + orders);
    }
    this.orders = orders;
  }

  int orders() {
    return orders;
  }

  /** The lines of the most recent {@link #orders()} orders visible to {@code w}, oldest first. */
  List<Line> lines(Work w) {
    List<Line> newestFirst = new ArrayList<>();
    int distinct = 0;
    long previous = Long.MIN_VALUE;
    Query next = NEWEST_LINES.limit(pageSize(orders, LINES_PER_ORDER));
    while (true) {
      QueryPage<Record> page = w.query(next);
      for (Record r : page.rows()) {
        long orderId = BookstoreKeys.orderLineParts(r.key())[0];
        if (orderId != previous) {
          if (distinct == orders) {
            Collections.reverse(newestFirst);
            return newestFirst;
          }
          distinct++;
          previous = orderId;
        }
        newestFirst.add(new Line(orderId, OrderLineRow.decodeSold(r.payload())));
      }
      if (page.continuation().isEmpty()) {
        Collections.reverse(newestFirst);
        return newestFirst;
      }
      // the orders still missing, at the lines per order seen so far, and the next order's first
      double perOrder = Math.max(1.0, (double) newestFirst.size() / distinct);
      int rest = (int) Math.ceil((orders - distinct + 1) * perOrder);
      next = NEWEST_LINES.limit(pageSize(1, rest)).after(page.continuation().get());
    }
  }

  private static int pageSize(int orders, int linesPerOrder) {
    return (int) Math.min(Query.MAX_LIMIT, (long) orders * linesPerOrder + 1);
  }
}
