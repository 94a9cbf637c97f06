package io.stratus.bench.tpcw.bookstore;

import io.stratus.bench.tpcw.bookstore.Rows.CartLineRow;
import io.stratus.bench.tpcw.bookstore.Rows.CartRow;
import io.stratus.bench.tpcw.workload.Interaction;
import io.stratus.core.Key;
import io.stratus.core.Record;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * The Shopping Cart interaction (specification clause 2.6) and the reading and writing of a
 * session's cart that Buy Request and Buy Confirm share.
 *
 * <p><b>What the page does depends on the page before it</b>, as in the specification's browser
 * emulator, which requests the cart in three forms: the "add to cart" button of Product Detail
 * adds the item that page showed ({@link Action#ADD}: quantity + 1, or a new line); the refresh
 * button of the Shopping Cart page sends new quantities for the lines it showed ({@link
 * Action#REFRESH}, see {@link #refreshedQuantities}); every other link only shows the cart
 * ({@link Action#VIEW}). In every form an empty cart gets a random item (quantity 1), and a
 * session without a cart gets a new one. The cart row is written (its time and version) only
 * when the cart changed, so a view of a non-empty cart writes nothing.
 *
 * <p>The page also shows the promotional items ({@link BrowseInteractions#promotions}) and, for
 * each line, the item (title, cost, backing).
 *
 * <p><b>The session's own cart.</b> Every read of the cart is compared with the versions the
 * session committed ({@link OwnWrites#cartRead}); every write records its version after the
 * commit. Under the queue protocols a cart may be invisible: it is then written again under the
 * same id (the queue protocols apply a create of an existing key as an upsert).
 *
 * <p>Stateless; thread-safe.
 */
final class CartPage {
  /** What the Shopping Cart request asks for. */
  enum Action {
    /** Add the item Product Detail showed. */
    ADD,
    /** Change the quantities of the lines the previous cart page showed. */
    REFRESH,
    /** Show the cart. */
    VIEW
  }

  /** A cart as the page shows it: its id, item id to quantity, and the promotional items. */
  record CartView(long cartId, Map<Long, Integer> quantities, List<Long> promotions) {}

  /** A session's cart as read: its row (empty when not visible) and its visible lines. */
  record Contents(Optional<CartRow> row, Map<Long, Integer> lines) {
    static final Contents NONE = new Contents(Optional.empty(), Map.of());

    boolean visible() {
      return row.isPresent();
    }
  }

  private final Scale scale;

  CartPage(Scale scale) {
    this.scale = scale;
  }

  /** The request the emulator makes when it comes to the cart from {@code previous}. */
  static Action actionAfter(Interaction previous) {
    if (previous == Interaction.PRODUCT_DETAIL) {
      return Action.ADD;
    }
    return previous == Interaction.SHOPPING_CART ? Action.REFRESH : Action.VIEW;
  }

  /** Shopping Cart, as requested from the session's previous page. */
  CartView shoppingCart(Work w) {
    return shoppingCart(w, actionAfter(w.session.previous));
  }

  /** Shopping Cart with the given request. */
  CartView shoppingCart(Work w, Action action) {
    BookstoreSession s = w.session;
    SplittableRandom random = s.random;
    boolean hasCart = s.cartId != 0;
    long cartId = hasCart ? s.cartId : s.ids.next(w.startMillis);
    Contents cart = hasCart ? read(w) : Contents.NONE;
    Map<Long, Integer> lines = new LinkedHashMap<>(cart.lines());
    Map<Long, Integer> changes = new LinkedHashMap<>();
    boolean changed = false;
    switch (action) {
      case ADD -> {
        if (s.lastItemId != 0) {
          long item = s.lastItemId;
          int quantity = lines.getOrDefault(item, 0) + 1;
          setLine(w, cartId, item, quantity, lines.containsKey(item), changes);
          lines.put(item, quantity);
          changed = true;
        }
      }
      case REFRESH -> {
        Map<Long, Integer> next = refreshedQuantities(random, lines);
        for (Map.Entry<Long, Integer> e : next.entrySet()) {
          if (!e.getValue().equals(lines.get(e.getKey()))) {
            setLine(w, cartId, e.getKey(), e.getValue(), true, changes);
          }
        }
        lines = next;
        lines.values().removeIf(q -> q == 0);
        changed = true;
      }
      case VIEW -> {}
      default -> throw new IllegalStateException("unknown cart action " + action);
    }
    if (lines.isEmpty()) {
      long item = random.nextLong(1, scale.items() + 1);
      setLine(w, cartId, item, 1, false, changes);
      lines.put(item, 1);
      changed = true;
    }
    if (changed) {
      long customer = cart.row().map(CartRow::customerId).orElse(s.customerId);
      write(w, cartId, cart.visible(), customer, changes);
    }
    for (long item : lines.keySet()) {
      w.item(item); // the page shows title, cost and backing of every line
    }
    List<Long> promotions = BrowseInteractions.promotions(w, scale.items());
    return new CartView(cartId, Collections.unmodifiableMap(lines), promotions);
  }

  /**
   * The quantities the emulator sends when it refreshes a cart showing {@code lines} (the
   * specification's rule for the Shopping Cart refresh): a cart of one line gets a quantity of 1
   * to 10 for it; a larger cart gets new quantities for 1 to all of its lines, chosen at random,
   * each 0 to 9 and different from the line's present quantity. A quantity of 0 removes the line.
   * Lines not chosen keep their quantity; the map keeps the order of {@code lines}.
   */
  static Map<Long, Integer> refreshedQuantities(SplittableRandom random, Map<Long, Integer> lines) {
    Map<Long, Integer> next = new LinkedHashMap<>(lines);
    List<Long> items = new ArrayList<>(lines.keySet());
    if (items.size() == 1) {
      next.put(items.get(0), random.nextInt(1, 11));
      return next;
    }
    int changes = items.isEmpty() ? 0 : random.nextInt(1, items.size() + 1);
    for (int i = 0; i < changes; i++) { // the first i items of a partial shuffle
      Collections.swap(items, i, random.nextInt(i, items.size()));
      long item = items.get(i);
      int quantity = random.nextInt(9);
      if (quantity >= lines.get(item)) {
        quantity++; // 0 to 9 without the present quantity
      }
      next.put(item, quantity);
    }
    return next;
  }

  // ---- the session's cart, shared with Buy Request and Buy Confirm ----

  /**
   * Reads the session's cart (none when it has no cart id; no lines when the row is not
   * visible) and judges the read against what the session committed ({@link Work#ownRead}).
   */
  static Contents read(Work w) {
    long cartId = w.session.cartId;
    if (cartId == 0) {
      return Contents.NONE;
    }
    Optional<CartRow> row = w.read(BookstoreSchema.SHOPPING_CART, cartId).map(CartRow::decode);
    Map<Long, Integer> lines = row.isPresent() ? lines(w, cartId) : Map.of();
    w.ownRead(w.session.own.cartRead(row.map(CartRow::version).orElse(-1L), lines, w.startMillis));
    return new Contents(row, lines);
  }

  /**
   * Writes the cart row of a changed cart (created when it is not visible, else updated) with
   * the session's next cart version, and records that version and the transaction's {@code
   * lineChanges} (item id to quantity, 0 for a deleted line) once it committed.
   */
  static void write(
      Work w, long cartId, boolean visible, long customerId, Map<Long, Integer> lineChanges) {
    BookstoreSession s = w.session;
    long version = s.own.nextCartVersion();
    byte[] row = new CartRow(version, w.startMillis, customerId).encode();
    if (visible) {
      w.update(BookstoreSchema.SHOPPING_CART, BookstoreKeys.id(cartId), row);
    } else {
      w.create(BookstoreSchema.SHOPPING_CART, BookstoreKeys.id(cartId), row);
    }
    Map<Long, Integer> committed = Map.copyOf(lineChanges);
    w.afterCommitAt(
        millis -> {
          s.cartId = cartId;
          s.own.cartCommitted(version, committed, millis);
        });
  }

  /**
   * Sets a line's quantity: creates, updates, or deletes it (quantity 0); notes the change in
   * {@code changes}.
   */
  static void setLine(
      Work w, long cartId, long item, int quantity, boolean exists, Map<Long, Integer> changes) {
    changes.put(item, quantity);
    Key key = BookstoreKeys.cartLine(cartId, item);
    byte[] row = new CartLineRow(quantity).encode();
    if (quantity == 0) {
      w.delete(BookstoreSchema.SHOPPING_CART_LINE, key);
    } else if (!exists || !w.update(BookstoreSchema.SHOPPING_CART_LINE, key, row)) {
      w.create(BookstoreSchema.SHOPPING_CART_LINE, key, row);
    }
  }

  /** The visible lines of a cart: item id to quantity, by item id. */
  static Map<Long, Integer> lines(Work w, long cartId) {
    Map<Long, Integer> lines = new LinkedHashMap<>();
    for (Record r : w.scan(BookstoreSchema.SHOPPING_CART_LINE, BookstoreKeys.childrenOf(cartId))) {
      lines.put(BookstoreKeys.cartLineItem(r.key()), CartLineRow.decode(r.payload()).quantity());
    }
    return lines;
  }
}
