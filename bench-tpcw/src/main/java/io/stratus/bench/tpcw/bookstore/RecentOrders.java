package io.stratus.bench.tpcw.bookstore;

import io.stratus.bench.tpcw.bookstore.Rows.OrderLineRow;
import io.stratus.bench.tpcw.bookstore.Rows.Sold;
import io.stratus.core.Record;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The order lines of the N most recent orders (Best Sellers: N = 3,333; Admin Confirm's related
 * items: N = 10,000), read as key-range scans of ORDER_LINE: order ids grow with time ({@link
 * Ids}) and lines are keyed by (order id, line), so the lines of the orders placed since a moment
 * are the key range from that moment's smallest id upwards.
 *
 * <p>There is no descending scan, so the range's start is guessed as "now minus a window" and
 * widened (four times, each widening scanning only the new part) until it covers N orders or the
 * whole table; the window that sufficed, with a margin, is remembered for the next call. Lines of
 * orders older than the N-th most recent are dropped. The remembered window is shared by all
 * threads (an {@link AtomicLong}; a lost update only costs a wider or narrower first guess).
 */
final class RecentOrders {
  static final long INITIAL_WINDOW_MILLIS = 3_600_000L;
  static final long MIN_WINDOW_MILLIS = 1_000L;

  /** One line of a recent order: its order and what it sold. */
  record Line(long orderId, Sold row) {}

  private final int orders;
  private final AtomicLong windowMillis = new AtomicLong(INITIAL_WINDOW_MILLIS);

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
    long now = w.startMillis;
    long window = Math.max(MIN_WINDOW_MILLIS, windowMillis.get());
    long lo = Ids.floorOf(now - window);
    List<Line> lines = decode(w.scan(BookstoreSchema.ORDER_LINE, BookstoreKeys.orderLinesFrom(lo)));
    int distinct = distinctOrders(lines);
    while (distinct < orders && lo > 0) {
      window = window > now / 4 ? now : window * 4;
      long newLo = Ids.floorOf(now - window);
      List<Line> older =
          decode(w.scan(BookstoreSchema.ORDER_LINE, BookstoreKeys.orderLinesBetween(newLo, lo)));
      older.addAll(lines);
      lines = older;
      lo = newLo;
      distinct = distinctOrders(lines);
    }
    if (distinct > orders) {
      long threshold = nthNewestOrder(lines, orders);
      lines.removeIf(l -> l.orderId() < threshold);
    }
    if (!lines.isEmpty() && distinct >= orders) {
      long reach = now - Ids.millisOf(lines.get(0).orderId());
      windowMillis.set(Math.max(MIN_WINDOW_MILLIS, reach + reach / 4));
    }
    return lines;
  }

  private static List<Line> decode(List<Record> records) {
    List<Line> out = new ArrayList<>(records.size());
    for (Record r : records) {
      out.add(
          new Line(BookstoreKeys.orderLineParts(r.key())[0], OrderLineRow.decodeSold(r.payload())));
    }
    return out;
  }

  private static int distinctOrders(List<Line> lines) {
    int n = 0;
    long previous = Long.MIN_VALUE;
    for (Line l : lines) {
      if (l.orderId() != previous) {
        n++;
        previous = l.orderId();
      }
    }
    return n;
  }

  /** The id of the n-th newest order among lines sorted by order id. */
  private static long nthNewestOrder(List<Line> lines, int n) {
    int seen = 0;
    long previous = Long.MIN_VALUE;
    for (int i = lines.size() - 1; i >= 0; i--) {
      long id = lines.get(i).orderId();
      if (id != previous) {
        seen++;
        previous = id;
        if (seen == n) {
          return id;
        }
      }
    }
    return Long.MIN_VALUE;
  }
}
