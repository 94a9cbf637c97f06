package io.stratus.bench.tpcw.bookstore;

import io.stratus.core.Key;
import io.stratus.core.KeyRange;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Record keys and index search keys of the bookstore, all built with {@link Key}'s
 * order-preserving encodings so that the ranges the interactions need are key-range scans:
 *
 * <ul>
 *   <li>Every table is keyed by a {@code long} id ({@link Key#of(long)}); the two line tables by
 *       (parent id, item or line number), so a parent's lines are one prefix scan.
 *   <li>Order ids grow with time ({@link Ids}): the recent orders, and through the order-line
 *       key (order id, line) their lines, are the tail of the key space.
 *   <li>Descending orders (newest first) negate the value: the sign-flipped big-endian long
 *       encoding sorts -x descending in x.
 * </ul>
 */
final class BookstoreKeys {
  private BookstoreKeys() {}

  static Key id(long id) {
    return Key.of(id);
  }

  static long idOf(Key key) {
    return key.decoder().nextLong();
  }

  static Key orderLine(long orderId, long lineNumber) {
    return Key.builder().add(orderId).add(lineNumber).build();
  }

  /** The lines of one order, or one cart: the keys that start with the parent id. */
  static KeyRange childrenOf(long parentId) {
    return KeyRange.prefix(Key.of(parentId));
  }

  /** Every order line of orders whose id is at least {@code orderId}. */
  static KeyRange orderLinesFrom(long orderId) {
    return KeyRange.atLeast(Key.of(orderId));
  }

  /** Order lines of orders with ids in {@code [fromOrderId, toOrderId)}. */
  static KeyRange orderLinesBetween(long fromOrderId, long toOrderId) {
    return KeyRange.halfOpen(Key.of(fromOrderId), Key.of(toOrderId));
  }

  /** (order id, line number) of an order-line key. */
  static long[] orderLineParts(Key key) {
    var d = key.decoder();
    return new long[] {d.nextLong(), d.nextLong()};
  }

  static Key cartLine(long cartId, long itemId) {
    return Key.builder().add(cartId).add(itemId).build();
  }

  /** The item id of a cart-line key. */
  static long cartLineItem(Key key) {
    var d = key.decoder();
    d.nextLong();
    return d.nextLong();
  }

  // ---- search keys ----

  static String fold(String s) {
    return s.toLowerCase(Locale.ROOT);
  }

  /** item.by_title: the lower-cased title. */
  static Key titleSearch(String title) {
    return Key.of(fold(title));
  }

  /**
   * The search keys of every title (or last name) that starts with {@code prefix}, case
   * ignored: the folded prefix's raw UTF-8 bytes, without the string terminator.
   */
  static KeyRange startsWith(String prefix) {
    return KeyRange.prefix(Key.ofBytes(fold(prefix).getBytes(StandardCharsets.UTF_8)));
  }

  /** item.by_subject: subject, then lower-cased title (subject search lists by title). */
  static Key subjectTitle(String subject, String title) {
    return Key.builder().add(subject).add(fold(title)).build();
  }

  /**
   * item.by_subject_date: subject, publication day descending, then lower-cased title (New
   * Products lists the newest first and the items of one day by title).
   */
  static Key subjectNewest(String subject, long pubDay, String title) {
    return Key.builder().add(subject).add(-pubDay).add(fold(title)).build();
  }

  /**
   * The bound of item.by_subject_date before every item of {@code subject} published on {@code
   * pubDay}: a search key without a title sorts before the keys it prefixes.
   */
  static Key subjectNewest(String subject, long pubDay) {
    return Key.builder().add(subject).add(-pubDay).build();
  }

  /** Every search key of one subject in the two subject indexes. */
  static KeyRange subject(String subject) {
    return KeyRange.prefix(Key.of(subject));
  }

  /** orders.by_customer: customer id, then order id descending (newest order first). */
  static Key customerNewestOrder(long customerId, long orderId) {
    return Key.builder().add(customerId).add(-orderId).build();
  }
}
