package io.stratus.example.bookstore;

import java.util.ArrayList;
import java.util.List;

/**
 * A browser's cart: TPC-W's {@code shopping_cart} row with its {@code shopping_cart_line} rows
 * inside, stored as JSON in the {@value Schema#SHOPPING_CART} collection under the random token
 * of the browser's {@code cart} cookie. It also remembers the customer who checked out from this
 * browser (0 before the first checkout), whose orders the order history shows.
 */
public record ShoppingCart(String id, long updatedMillis, List<Line> lines, long customerId) {
  /** The largest quantity of one book in a cart. */
  public static final int MAX_QUANTITY = 10;

  /** A book in the cart and how many copies. */
  public record Line(long itemId, int quantity) {}

  public ShoppingCart {
    lines = List.copyOf(lines);
  }

  static ShoppingCart empty(String id) {
    return new ShoppingCart(id, 0, List.of(), 0);
  }

  /** The cart with {@code quantity} copies of the item (none: the line removed), lines in order. */
  ShoppingCart withQuantity(long itemId, int quantity, long nowMillis) {
    List<Line> out = new ArrayList<>();
    boolean placed = false;
    for (Line l : lines) {
      if (l.itemId() == itemId) {
        placed = true;
        if (quantity > 0) {
          out.add(new Line(itemId, quantity));
        }
      } else {
        out.add(l);
      }
    }
    if (!placed && quantity > 0) {
      out.add(new Line(itemId, quantity));
    }
    return new ShoppingCart(id, nowMillis, out, customerId);
  }

  /** The copies of {@code itemId} in the cart. */
  int quantityOf(long itemId) {
    return lines.stream().filter(l -> l.itemId() == itemId).mapToInt(Line::quantity).sum();
  }

  /** The cart after a checkout by {@code customer}: empty, remembering the customer. */
  ShoppingCart checkedOut(long customer, long nowMillis) {
    return new ShoppingCart(id, nowMillis, List.of(), customer);
  }
}
