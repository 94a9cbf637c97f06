package io.stratus.bench.tpcw.bookstore;

import io.stratus.bench.tpcw.bookstore.RowCodec.Reader;
import io.stratus.bench.tpcw.bookstore.RowCodec.Writer;

/**
 * The rows of the ten TPC-W tables (specification clause 1.3) as immutable records, each with its
 * own binary encoding ({@link RowCodec}) and a distinct format byte. The primary key is not in the
 * payload: it is the record key (see {@link BookstoreKeys}).
 *
 * <p>Representation choices: money in cents, dates as epoch days, times as epoch milliseconds,
 * discounts in basis points (1/100 of a per cent). Rows whose freshness the harness reports
 * ({@link ItemRow}, {@link CustomerRow}, {@link CartRow}) carry a {@code version} that every
 * update increments, so that a read can be told which committed version it saw ({@link
 * StalenessTracker}, {@link OwnWrites}).
 */
final class Rows {
  private Rows() {}

  static final int ITEM_FORMAT = 0x11;
  static final int AUTHOR_FORMAT = 0x12;
  static final int CUSTOMER_FORMAT = 0x13;
  static final int ADDRESS_FORMAT = 0x14;
  static final int COUNTRY_FORMAT = 0x15;
  static final int ORDER_FORMAT = 0x16;
  static final int ORDER_LINE_FORMAT = 0x17;
  static final int CC_XACT_FORMAT = 0x18;
  static final int CART_FORMAT = 0x19;
  static final int CART_LINE_FORMAT = 0x1A;

  /** ITEM: a book. {@code related} holds five item ids. */
  record ItemRow(
      long version,
      String title,
      long authorId,
      long pubDay,
      String publisher,
      String subject,
      String description,
      long[] related,
      String thumbnail,
      String image,
      long srpCents,
      long costCents,
      long availDay,
      int stock,
      String isbn,
      int pages,
      String backing,
      String dimensions) {

    byte[] encode() {
      return new Writer(ITEM_FORMAT)
          .putLong(version)
          .putString(title)
          .putLong(authorId)
          .putLong(pubDay)
          .putString(publisher)
          .putString(subject)
          .putString(description)
          .putLongs(related)
          .putString(thumbnail)
          .putString(image)
          .putLong(srpCents)
          .putLong(costCents)
          .putLong(availDay)
          .putInt(stock)
          .putString(isbn)
          .putInt(pages)
          .putString(backing)
          .putString(dimensions)
          .toBytes();
    }

    static ItemRow decode(byte[] payload) {
      Reader r = new Reader(payload, ITEM_FORMAT, "item");
      return new ItemRow(
          r.getLong(),
          r.getString(),
          r.getLong(),
          r.getLong(),
          r.getString(),
          r.getString(),
          r.getString(),
          r.getLongs(),
          r.getString(),
          r.getString(),
          r.getLong(),
          r.getLong(),
          r.getLong(),
          r.getInt(),
          r.getString(),
          r.getInt(),
          r.getString(),
          r.getString());
    }

    /** The next version after a purchase of {@code quantity}: TPC-W restocks by 21 below 10. */
    ItemRow afterSale(int quantity) {
      int left = stock - quantity;
      int newStock = left < 10 ? left + 21 : left;
      return new ItemRow(
          version + 1,
          title,
          authorId,
          pubDay,
          publisher,
          subject,
          description,
          related,
          thumbnail,
          image,
          srpCents,
          costCents,
          availDay,
          newStock,
          isbn,
          pages,
          backing,
          dimensions);
    }

    /** The next version after Admin Confirm's changes. */
    ItemRow afterAdminChange(
        long newCostCents,
        String newImage,
        String newThumbnail,
        long newPubDay,
        long[] newRelated) {
      return new ItemRow(
          version + 1,
          title,
          authorId,
          newPubDay,
          publisher,
          subject,
          description,
          newRelated.clone(),
          newThumbnail,
          newImage,
          srpCents,
          newCostCents,
          availDay,
          stock,
          isbn,
          pages,
          backing,
          dimensions);
    }
  }

  /** AUTHOR. */
  record AuthorRow(
      String firstName, String lastName, String middleName, long birthDay, String bio) {
    byte[] encode() {
      return new Writer(AUTHOR_FORMAT)
          .putString(firstName)
          .putString(lastName)
          .putString(middleName)
          .putLong(birthDay)
          .putString(bio)
          .toBytes();
    }

    static AuthorRow decode(byte[] payload) {
      Reader r = new Reader(payload, AUTHOR_FORMAT, "author");
      return new AuthorRow(r.getString(), r.getString(), r.getString(), r.getLong(), r.getString());
    }
  }

  /** CUSTOMER. */
  record CustomerRow(
      long version,
      String userName,
      String password,
      String firstName,
      String lastName,
      long addressId,
      String phone,
      String email,
      long sinceDay,
      long lastLoginMillis,
      long loginMillis,
      long expirationMillis,
      int discountBasisPoints,
      long balanceCents,
      long ytdPaymentCents,
      long birthDay,
      String data) {

    byte[] encode() {
      return new Writer(CUSTOMER_FORMAT)
          .putLong(version)
          .putString(userName)
          .putString(password)
          .putString(firstName)
          .putString(lastName)
          .putLong(addressId)
          .putString(phone)
          .putString(email)
          .putLong(sinceDay)
          .putLong(lastLoginMillis)
          .putLong(loginMillis)
          .putLong(expirationMillis)
          .putInt(discountBasisPoints)
          .putLong(balanceCents)
          .putLong(ytdPaymentCents)
          .putLong(birthDay)
          .putString(data)
          .toBytes();
    }

    static CustomerRow decode(byte[] payload) {
      Reader r = new Reader(payload, CUSTOMER_FORMAT, "customer");
      return new CustomerRow(
          r.getLong(),
          r.getString(),
          r.getString(),
          r.getString(),
          r.getString(),
          r.getLong(),
          r.getString(),
          r.getString(),
          r.getLong(),
          r.getLong(),
          r.getLong(),
          r.getLong(),
          r.getInt(),
          r.getLong(),
          r.getLong(),
          r.getLong(),
          r.getString());
    }

    /** The next version after a login at {@code nowMillis}: the session lasts two hours. */
    CustomerRow afterLogin(long nowMillis) {
      return new CustomerRow(
          version + 1,
          userName,
          password,
          firstName,
          lastName,
          addressId,
          phone,
          email,
          sinceDay,
          loginMillis,
          nowMillis,
          nowMillis + 2 * 3_600_000L,
          discountBasisPoints,
          balanceCents,
          ytdPaymentCents,
          birthDay,
          data);
    }
  }

  /** ADDRESS. */
  record AddressRow(
      String street1, String street2, String city, String state, String zip, long countryId) {
    byte[] encode() {
      return new Writer(ADDRESS_FORMAT)
          .putString(street1)
          .putString(street2)
          .putString(city)
          .putString(state)
          .putString(zip)
          .putLong(countryId)
          .toBytes();
    }

    static AddressRow decode(byte[] payload) {
      Reader r = new Reader(payload, ADDRESS_FORMAT, "address");
      return new AddressRow(
          r.getString(), r.getString(), r.getString(), r.getString(), r.getString(), r.getLong());
    }
  }

  /** COUNTRY; the exchange rate in millionths of a US dollar. */
  record CountryRow(String name, long exchangeMicros, String currency) {
    byte[] encode() {
      return new Writer(COUNTRY_FORMAT)
          .putString(name)
          .putLong(exchangeMicros)
          .putString(currency)
          .toBytes();
    }

    static CountryRow decode(byte[] payload) {
      Reader r = new Reader(payload, COUNTRY_FORMAT, "country");
      return new CountryRow(r.getString(), r.getLong(), r.getString());
    }
  }

  /** ORDERS. */
  record OrderRow(
      long customerId,
      long dateMillis,
      long subTotalCents,
      long taxCents,
      long totalCents,
      String shipType,
      long shipDateMillis,
      long billAddressId,
      long shipAddressId,
      String status) {
    byte[] encode() {
      return new Writer(ORDER_FORMAT)
          .putLong(customerId)
          .putLong(dateMillis)
          .putLong(subTotalCents)
          .putLong(taxCents)
          .putLong(totalCents)
          .putString(shipType)
          .putLong(shipDateMillis)
          .putLong(billAddressId)
          .putLong(shipAddressId)
          .putString(status)
          .toBytes();
    }

    static OrderRow decode(byte[] payload) {
      Reader r = new Reader(payload, ORDER_FORMAT, "orders");
      return new OrderRow(
          r.getLong(),
          r.getLong(),
          r.getLong(),
          r.getLong(),
          r.getLong(),
          r.getString(),
          r.getLong(),
          r.getLong(),
          r.getLong(),
          r.getString());
    }
  }

  /**
   * ORDER_LINE. Carries its item's subject (denormalised; TPC-W never changes a subject) so that
   * Best Sellers can filter the recent lines by subject without reading every item.
   */
  record OrderLineRow(
      long itemId, int quantity, int discountBasisPoints, String comments, String itemSubject) {
    byte[] encode() {
      return new Writer(ORDER_LINE_FORMAT)
          .putLong(itemId)
          .putInt(quantity)
          .putInt(discountBasisPoints)
          .putString(comments)
          .putString(itemSubject)
          .toBytes();
    }

    static OrderLineRow decode(byte[] payload) {
      Reader r = new Reader(payload, ORDER_LINE_FORMAT, "order_line");
      return new OrderLineRow(r.getLong(), r.getInt(), r.getInt(), r.getString(), r.getString());
    }

    /**
     * Only what the scans of recent orders use (item, quantity, subject), without decoding the
     * comment: Best Sellers and Admin Confirm read thousands of lines per call.
     */
    static Sold decodeSold(byte[] payload) {
      Reader r = new Reader(payload, ORDER_LINE_FORMAT, "order_line");
      long itemId = r.getLong();
      int quantity = r.getInt();
      r.getInt(); // discount
      r.skipString(); // comments
      return new Sold(itemId, quantity, r.getString());
    }
  }

  /** The fields of an order line that the recent-order scans use. */
  record Sold(long itemId, int quantity, String itemSubject) {}

  /** CC_XACTS: the credit-card payment of one order (keyed by the order id). */
  record CcXactRow(
      String type,
      String number,
      String name,
      long expireDay,
      String authId,
      long amountCents,
      long dateMillis,
      long countryId) {
    byte[] encode() {
      return new Writer(CC_XACT_FORMAT)
          .putString(type)
          .putString(number)
          .putString(name)
          .putLong(expireDay)
          .putString(authId)
          .putLong(amountCents)
          .putLong(dateMillis)
          .putLong(countryId)
          .toBytes();
    }

    static CcXactRow decode(byte[] payload) {
      Reader r = new Reader(payload, CC_XACT_FORMAT, "cc_xacts");
      return new CcXactRow(
          r.getString(),
          r.getString(),
          r.getString(),
          r.getLong(),
          r.getString(),
          r.getLong(),
          r.getLong(),
          r.getLong());
    }
  }

  /**
   * SHOPPING_CART; {@code customerId} 0 while the shopper is anonymous. {@code version} counts the
   * cart's changes (0 when created): only its session writes a cart, and it compares the version
   * it reads back with the ones it committed ({@link OwnWrites}).
   */
  record CartRow(long version, long timeMillis, long customerId) {
    byte[] encode() {
      return new Writer(CART_FORMAT)
          .putLong(version)
          .putLong(timeMillis)
          .putLong(customerId)
          .toBytes();
    }

    static CartRow decode(byte[] payload) {
      Reader r = new Reader(payload, CART_FORMAT, "shopping_cart");
      return new CartRow(r.getLong(), r.getLong(), r.getLong());
    }
  }

  /** SHOPPING_CART_LINE (keyed by cart id and item id). */
  record CartLineRow(int quantity) {
    byte[] encode() {
      return new Writer(CART_LINE_FORMAT).putInt(quantity).toBytes();
    }

    static CartLineRow decode(byte[] payload) {
      return new CartLineRow(new Reader(payload, CART_LINE_FORMAT, "shopping_cart_line").getInt());
    }
  }
}
