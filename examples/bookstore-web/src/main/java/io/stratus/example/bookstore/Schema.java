package io.stratus.example.bookstore;

import io.stratus.codec.jackson.JacksonCodec;
import io.stratus.core.Database;
import io.stratus.core.Key;
import io.stratus.core.KeyRange;
import io.stratus.core.TypedCollection;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The shop's part of the TPC-W bookstore schema (the benchmark's table and column names, as the
 * {@code bench-tpcw} module uses them), one JSON collection per table, and the secondary indexes
 * its pages probe:
 *
 * <ul>
 *   <li>{@code item.by_title}: the filing title (see {@link #filingTitle}), so that a title
 *       search is a prefix range;
 *   <li>{@code item.by_author}: author id, filing title (the author's books, by title);
 *   <li>{@code item.by_subject}: subject, filing title (a subject's books, by title);
 *   <li>{@code author.by_last_name}: the folded last name (author search: a prefix range);
 *   <li>{@code orders.by_customer}: customer id, minus the order id (a customer's orders, newest
 *       first).
 * </ul>
 *
 * <p>Left out of TPC-W's ten tables: {@code address} and {@code country} (an address is kept in
 * the customer and the order), {@code cc_xacts} (kept in the order) and {@code
 * shopping_cart_line} (kept in the cart). Ids come from sequences, unique across instances.
 */
final class Schema {
  static final String ITEM = "item";
  static final String AUTHOR = "author";
  static final String CUSTOMER = "customer";
  static final String ORDERS = "orders";
  static final String ORDER_LINE = "order_line";
  static final String SHOPPING_CART = "shopping_cart";

  static final String ITEM_BY_TITLE = "by_title";
  static final String ITEM_BY_AUTHOR = "by_author";
  static final String ITEM_BY_SUBJECT = "by_subject";
  static final String AUTHOR_BY_LAST_NAME = "by_last_name";
  static final String ORDERS_BY_CUSTOMER = "by_customer";

  static final String ORDER_IDS = "order-ids";
  static final String CUSTOMER_IDS = "customer-ids";

  static final TypedCollection<Item> ITEMS = typed(ITEM, Item.class);
  static final TypedCollection<Author> AUTHORS = typed(AUTHOR, Author.class);
  static final TypedCollection<Customer> CUSTOMERS = typed(CUSTOMER, Customer.class);
  static final TypedCollection<Order> ORDERS_TABLE = typed(ORDERS, Order.class);
  static final TypedCollection<OrderLine> ORDER_LINES = typed(ORDER_LINE, OrderLine.class);
  static final TypedCollection<ShoppingCart> CARTS = typed(SHOPPING_CART, ShoppingCart.class);

  /** TPC-W's subjects, in the order the catalogue lists them. */
  static final List<String> SUBJECTS =
      List.of(
          "ARTS",
          "BIOGRAPHIES",
          "BUSINESS",
          "CHILDREN",
          "COMPUTERS",
          "COOKING",
          "HEALTH",
          "HISTORY",
          "HOME",
          "HUMOR",
          "LITERATURE",
          "MYSTERY",
          "NON-FICTION",
          "PARENTING",
          "POLITICS",
          "REFERENCE",
          "RELIGION",
          "ROMANCE",
          "SELF-HELP",
          "SCIENCE-NATURE",
          "SCIENCE-FICTION",
          "SPORTS",
          "YOUTH",
          "TRAVEL");

  private Schema() {}

  private static <T> TypedCollection<T> typed(String name, Class<T> type) {
    return TypedCollection.of(name, JacksonCodec.of(type));
  }

  /**
   * Creates the collections and indexes where missing and attaches the index extractors in this
   * process; every instance calls it at start-up.
   */
  static void install(Database db) {
    for (String c : List.of(ITEM, AUTHOR, CUSTOMER, ORDERS, ORDER_LINE, SHOPPING_CART)) {
      db.createCollection(c);
    }
    db.createIndex(
        ITEM, ITEM_BY_TITLE, ITEMS.index((k, i) -> some(Key.of(filingTitle(i.title())))));
    db.createIndex(
        ITEM,
        ITEM_BY_AUTHOR,
        ITEMS.index(
            (k, i) -> some(Key.composite(Key.of(i.authorId()), Key.of(filingTitle(i.title()))))));
    db.createIndex(
        ITEM,
        ITEM_BY_SUBJECT,
        ITEMS.index(
            (k, i) -> some(Key.composite(Key.of(i.subject()), Key.of(filingTitle(i.title()))))));
    db.createIndex(
        AUTHOR, AUTHOR_BY_LAST_NAME, AUTHORS.index((k, a) -> some(Key.of(fold(a.lastName())))));
    db.createIndex(
        ORDERS,
        ORDERS_BY_CUSTOMER,
        ORDERS_TABLE.index((k, o) -> some(Key.composite(Key.of(o.customerId()), Key.of(-o.id())))));
  }

  private static Optional<Key> some(Key k) {
    return Optional.of(k);
  }

  /** Search keys ignore case. */
  static String fold(String s) {
    return s.strip().toLowerCase(Locale.ROOT);
  }

  /**
   * A title as a library files it: folded, without a leading "the", "a" or "an", so that "The
   * Quiet Harbor" sorts under Q and a search for "quiet" finds it. A title that is only an
   * article keeps it.
   */
  static String filingTitle(String title) {
    String t = fold(title);
    for (String article : new String[] {"the ", "a ", "an "}) {
      if (t.startsWith(article) && t.length() > article.length()) {
        return t.substring(article.length()).stripLeading();
      }
    }
    return t;
  }

  /**
   * The folded strings (search keys of {@link Key#of(String)}) that start with {@code prefix}:
   * the prefix's UTF-8 bytes without the string key's terminator.
   */
  static KeyRange startingWith(String prefix) {
    return KeyRange.prefix(Key.ofBytes(fold(prefix).getBytes(StandardCharsets.UTF_8)));
  }

  /** The composite search keys whose first component is {@code first}. */
  static KeyRange under(Key first) {
    return KeyRange.prefix(first);
  }

  /** The key of order line {@code line} of order {@code orderId}. */
  static Key orderLine(long orderId, int line) {
    return Key.composite(Key.of(orderId), Key.ofInt(line));
  }
}
