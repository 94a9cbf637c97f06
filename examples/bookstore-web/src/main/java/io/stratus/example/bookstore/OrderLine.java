package io.stratus.example.bookstore;

/**
 * A row of TPC-W's {@code order_line} table, stored as JSON in the {@value Schema#ORDER_LINE}
 * collection under (order id, line number), so that an order's lines are one key-range scan. The
 * title and price are those at the time of the order.
 */
public record OrderLine(
    long orderId, int line, long itemId, String title, int quantity, long costCents) {

  /** Price times quantity. */
  public long totalCents() {
    return costCents * quantity;
  }
}
