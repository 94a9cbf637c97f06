package io.stratus.bench.tpcw.bookstore;

import io.stratus.bench.tpcw.bookstore.CartPage.CartView;
import io.stratus.bench.tpcw.bookstore.CartPage.Contents;
import io.stratus.bench.tpcw.bookstore.Rows.AddressRow;
import io.stratus.bench.tpcw.bookstore.Rows.CcXactRow;
import io.stratus.bench.tpcw.bookstore.Rows.CustomerRow;
import io.stratus.bench.tpcw.bookstore.Rows.ItemRow;
import io.stratus.bench.tpcw.bookstore.Rows.OrderLineRow;
import io.stratus.bench.tpcw.bookstore.Rows.OrderRow;
import io.stratus.core.Key;
import io.stratus.core.Record;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * The ordering interactions (specification clauses 2.6 to 2.12 and 2.14 to 2.16): Shopping Cart
 * ({@link CartPage}), Customer Registration, Buy Request, Buy Confirm, Order Inquiry, Order
 * Display and Admin Confirm ({@link RelatedItems}). Each method is the body of one attempt,
 * reading and writing through {@link Work}.
 *
 * <p><b>Missing records are normal.</b> Under the queue-based protocols a client may not see its
 * own recent writes until a checkpoint applies them: a cart just created, a new customer, the
 * latest order. Every method treats such a record as absent and never fails because of it: an
 * invisible cart is created again under the same id (the queue protocols apply a create of an
 * existing key as an upsert, and the create's duplicate check only sees visible records), so
 * are invisible cart lines; an invisible customer is not updated; an invisible order shows
 * nothing. Reads of the session's own cart and orders are judged against what it committed
 * ({@link OwnWrites}).
 *
 * <p>Stateless apart from the shared {@link RecentOrders} window; thread-safe.
 */
final class OrderInteractions {
  private static final long DAY_MILLIS = 86_400_000L;

  /** Orders whose lines Admin Confirm mines for related items (clause 2.16.3: 10,000). */
  static final int RELATED_ORDERS = 10_000;

  /** Per cent of Buy Confirms that ship to a new address (the specification's emulator: 5). */
  static final int NEW_SHIP_ADDRESS_PERCENT = 5;

  /** An order as Order Display shows it. */
  record OrderView(
      long orderId,
      OrderRow order,
      List<OrderLineRow> lines,
      Optional<CcXactRow> payment,
      Optional<AddressRow> billTo,
      Optional<AddressRow> shipTo) {}

  private final Scale scale;
  private final CartPage cart;
  private final RelatedItems related;

  OrderInteractions(Scale scale, RecentOrders relatedOrders) {
    this.scale = scale;
    this.cart = new CartPage(scale);
    this.related = new RelatedItems(scale, relatedOrders);
  }

  // ---- Shopping Cart ----

  /** Shopping Cart as the session's previous page requests it ({@link CartPage}). */
  CartView shoppingCart(Work w) {
    return cart.shoppingCart(w);
  }

  /** Shopping Cart with the given request. */
  CartView shoppingCart(Work w, CartPage.Action action) {
    return cart.shoppingCart(w, action);
  }

  // ---- Customer Registration and Buy Request ----

  /**
   * Customer Registration: a returning customer is looked up by user name (the form is filled
   * in); a new visitor gets an empty form. Writes nothing: a new customer is created at Buy
   * Request (clause 2.7).
   */
  Optional<Long> customerRegistration(Work w) {
    long returning = w.session.returningCustomerId;
    if (returning == 0) {
      return Optional.empty();
    }
    return customerByUserName(w, DataGenerator.userName(returning)).map(Found::id);
  }

  /** A customer found by user name. */
  private record Found(long id, CustomerRow row) {}

  private static Optional<Found> customerByUserName(Work w, String userName) {
    List<Record> found =
        w.probe(BookstoreSchema.CUSTOMER, BookstoreSchema.CUSTOMER_BY_UNAME, Key.of(userName));
    if (found.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new Found(BookstoreKeys.idOf(found.get(0).key()), w.customer(found.get(0))));
  }

  /**
   * Buy Request: logs the shopper in. A returning (or logged-in) customer is found by user name
   * and gets a new login time and expiration; a new visitor becomes a new customer with a new
   * address. Then the customer's address and country and the cart with its items are read for
   * the order form.
   *
   * @return the customer id the session is logged in as after the commit
   */
  long buyRequest(Work w) {
    BookstoreSession s = w.session;
    long customerId = s.customerId != 0 ? s.customerId : s.returningCustomerId;
    CustomerRow customer = null;
    if (customerId != 0) {
      Optional<Found> found = customerByUserName(w, DataGenerator.userName(customerId));
      if (found.isPresent()) {
        customer = found.get().row();
        CustomerRow next = customer.afterLogin(w.startMillis);
        w.updateCustomer(customerId, next);
        customer = next;
      }
    } else {
      customerId = s.ids.next(w.startMillis);
      long addressId = s.ids.next(w.startMillis);
      w.create(BookstoreSchema.ADDRESS, BookstoreKeys.id(addressId), newAddress(s.random).encode());
      customer = newCustomer(s.random, customerId, addressId, w.startMillis);
      w.create(BookstoreSchema.CUSTOMER, BookstoreKeys.id(customerId), customer.encode());
    }
    if (customer != null) {
      addressWithCountry(w, customer.addressId());
    }
    for (long item : CartPage.read(w).lines().keySet()) {
      w.item(item);
    }
    long loggedIn = customerId;
    w.afterCommit(() -> s.customerId = loggedIn);
    return loggedIn;
  }

  private static AddressRow newAddress(SplittableRandom r) {
    return new AddressRow(
        Text.aString(r, 15, 40),
        Text.aString(r, 15, 40),
        Text.aString(r, 4, 30),
        Text.aString(r, 2, 20),
        Text.aString(r, 5, 10),
        r.nextLong(1, Scale.COUNTRIES + 1));
  }

  private static CustomerRow newCustomer(
      SplittableRandom r, long id, long addressId, long nowMillis) {
    String uname = DataGenerator.userName(id);
    long today = Math.floorDiv(nowMillis, DAY_MILLIS);
    return new CustomerRow(
        0,
        uname,
        BookstoreKeys.fold(uname),
        Text.aString(r, 8, 15),
        Text.aString(r, 8, 15),
        addressId,
        Text.nString(r, 9, 16),
        uname + "@example.com",
        today,
        nowMillis,
        nowMillis,
        nowMillis + 2 * 3_600_000L,
        r.nextInt(0, 5001),
        0,
        0,
        today - r.nextInt(6_000, 30_000),
        Text.words(r, 100, 500));
  }

  private static Optional<AddressRow> addressWithCountry(Work w, long addressId) {
    Optional<AddressRow> address =
        w.read(BookstoreSchema.ADDRESS, addressId).map(AddressRow::decode);
    // The page shows the country's name: the read is the interaction's cost, the row unused.
    address.ifPresent(a -> w.read(BookstoreSchema.COUNTRY, a.countryId()));
    return address;
  }

  // ---- Buy Confirm ----

  /**
   * Buy Confirm: turns the cart into an order. Reads the customer, the cart's lines and their
   * items; writes the order, its lines, the credit-card transaction and every item's stock
   * (restocked by 21 when it would fall below 10), and empties the cart. A cart that is missing
   * or empty (e.g. not yet visible) is ordered as one random item, as Shopping Cart would have
   * filled it; a shopper not logged in orders as its returning identity or a NURand-drawn
   * customer. {@link #NEW_SHIP_ADDRESS_PERCENT} per cent of the orders ship to a new address
   * ({@link #buyConfirm(Work, boolean)}).
   *
   * @return the new order's id
   */
  long buyConfirm(Work w) {
    return buyConfirm(w, shipsToNewAddress(w.session.random));
  }

  /**
   * Whether a Buy Confirm ships to a new address: the specification's emulator fills in the
   * shipping address fields in {@link #NEW_SHIP_ADDRESS_PERCENT} per cent of its requests.
   */
  static boolean shipsToNewAddress(SplittableRandom random) {
    return random.nextInt(100) < NEW_SHIP_ADDRESS_PERCENT;
  }

  /**
   * Buy Confirm, shipping to a new address when {@code newShipAddress}: the address the shopper
   * entered is written as a new ADDRESS row (its country looked up) in the same transaction and
   * becomes the order's shipping address and the payment's country; the bill goes to the
   * customer's address.
   */
  long buyConfirm(Work w, boolean newShipAddress) {
    BookstoreSession s = w.session;
    SplittableRandom random = s.random;
    long customerId =
        s.customerId != 0
            ? s.customerId
            : s.returningCustomerId != 0 ? s.returningCustomerId : s.anyCustomer();
    Optional<CustomerRow> customer = w.customer(customerId);
    long billAddressId =
        customer
            .map(CustomerRow::addressId)
            .orElseGet(() -> random.nextLong(1, scale.addresses() + 1));
    Optional<AddressRow> billAddress = addressWithCountry(w, billAddressId);
    long shipAddressId = billAddressId;
    Optional<AddressRow> shipAddress = billAddress;
    if (newShipAddress) {
      shipAddressId = s.ids.next(w.startMillis);
      AddressRow entered = newAddress(random);
      w.read(BookstoreSchema.COUNTRY, entered.countryId()); // the country the shopper named
      w.create(BookstoreSchema.ADDRESS, BookstoreKeys.id(shipAddressId), entered.encode());
      shipAddress = Optional.of(entered);
    }
    int discount = customer.map(CustomerRow::discountBasisPoints).orElse(0);

    Contents cartRead = CartPage.read(w);
    Map<Long, Integer> cart = new LinkedHashMap<>(cartRead.lines());
    if (cart.isEmpty()) {
      cart.put(random.nextLong(1, scale.items() + 1), 1);
    }
    long orderId = s.ids.next(w.startMillis);
    List<OrderLineRow> lines = new ArrayList<>();
    Map<Long, ItemRow> items = new HashMap<>();
    long subTotal = 0;
    for (Map.Entry<Long, Integer> e : cart.entrySet()) {
      Optional<ItemRow> item = w.item(e.getKey());
      if (item.isEmpty()) {
        continue;
      }
      items.put(e.getKey(), item.get());
      lines.add(
          new OrderLineRow(
              e.getKey(),
              e.getValue(),
              discount,
              Text.words(random, 20, 100),
              item.get().subject()));
      subTotal += e.getValue() * item.get().costCents() * (10_000 - discount) / 10_000;
    }
    long tax = subTotal * 825 / 10_000;
    long total = subTotal + tax + 300 + 100L * lines.size();
    OrderRow order =
        new OrderRow(
            customerId,
            w.startMillis,
            subTotal,
            tax,
            total,
            Text.pick(random, Text.SHIP_TYPES),
            w.startMillis + random.nextLong(1, 8) * DAY_MILLIS,
            billAddressId,
            shipAddressId,
            "PENDING");
    w.create(BookstoreSchema.ORDERS, BookstoreKeys.id(orderId), order.encode());
    for (int i = 0; i < lines.size(); i++) {
      w.create(
          BookstoreSchema.ORDER_LINE,
          BookstoreKeys.orderLine(orderId, i + 1),
          lines.get(i).encode());
    }
    String name =
        customer.map(c -> c.firstName() + " " + c.lastName()).orElse(Text.aString(random, 8, 15));
    w.create(
        BookstoreSchema.CC_XACTS,
        BookstoreKeys.id(orderId),
        new CcXactRow(
                Text.pick(random, Text.CARD_TYPES),
                Text.nString(random, 16, 16),
                name,
                Math.floorDiv(w.startMillis, DAY_MILLIS) + random.nextInt(10, 731),
                Text.aString(random, 15, 15),
                total,
                w.startMillis,
                shipAddress.map(AddressRow::countryId).orElse(1L))
            .encode());
    for (OrderLineRow l : lines) {
      ItemRow read = items.get(l.itemId());
      w.updateItem(l.itemId(), read, read.afterSale(l.quantity()));
    }
    if (cartRead.visible()) {
      Map<Long, Integer> emptied = new LinkedHashMap<>();
      for (long item : cartRead.lines().keySet()) {
        CartPage.setLine(w, s.cartId, item, 0, true, emptied);
      }
      CartPage.write(w, s.cartId, true, customerId, emptied);
    }
    w.afterCommitAt(millis -> s.own.orderCommitted(orderId, customerId, millis));
    return orderId;
  }

  // ---- Order Inquiry and Order Display ----

  /** Order Inquiry: the form asking for the user name, filled in for a known customer. */
  Optional<CustomerRow> orderInquiry(Work w) {
    long customer = w.session.knownCustomer();
    return customer == 0 ? Optional.empty() : w.customer(customer);
  }

  /**
   * Order Display: the customer (by user name; a NURand-drawn loaded one if the shopper is
   * unknown), their most recent order, its lines with items, payment and addresses. Empty when
   * the customer or the order is not visible. The order shown is judged against the orders the
   * session placed for the customer ({@link OwnWrites#latestOrderRead}).
   */
  Optional<OrderView> orderDisplay(Work w) {
    long known = w.session.knownCustomer();
    long customerId = known != 0 ? known : w.session.anyCustomer();
    Optional<Found> found = customerByUserName(w, DataGenerator.userName(customerId));
    List<Record> orders =
        found.isEmpty()
            ? List.of()
            : w.probeRange(
                BookstoreSchema.ORDERS,
                BookstoreSchema.ORDERS_BY_CUSTOMER,
                BookstoreKeys.childrenOf(found.get().id()));
    // newest first: the search key holds the negated order id
    long shown = orders.isEmpty() ? -1 : BookstoreKeys.idOf(orders.get(0).key());
    w.ownRead(w.session.own.latestOrderRead(customerId, shown, w.startMillis));
    if (orders.isEmpty()) {
      return Optional.empty();
    }
    Record latest = orders.get(0);
    long orderId = shown;
    OrderRow order = OrderRow.decode(latest.payload());
    List<OrderLineRow> lines = new ArrayList<>();
    for (Record r : w.scan(BookstoreSchema.ORDER_LINE, BookstoreKeys.childrenOf(orderId))) {
      OrderLineRow line = OrderLineRow.decode(r.payload());
      lines.add(line);
      w.item(line.itemId());
    }
    Optional<CcXactRow> payment = w.read(BookstoreSchema.CC_XACTS, orderId).map(CcXactRow::decode);
    Optional<AddressRow> bill = addressWithCountry(w, order.billAddressId());
    Optional<AddressRow> ship = addressWithCountry(w, order.shipAddressId());
    return Optional.of(new OrderView(orderId, order, lines, payment, bill, ship));
  }

  // ---- Admin Confirm ----

  /**
   * Admin Confirm: changes an item's cost, image, thumbnail and publication date (today), and
   * sets its related items as the specification computes them from the recent orders ({@link
   * RelatedItems}).
   *
   * @return the item's id, or empty when it is not visible
   */
  Optional<Long> adminConfirm(Work w) {
    SplittableRandom random = w.session.random;
    long itemId =
        w.session.lastItemId != 0 ? w.session.lastItemId : random.nextLong(1, scale.items() + 1);
    Optional<ItemRow> item = w.item(itemId);
    if (item.isEmpty()) {
      return Optional.empty();
    }
    long[] relatedItems = related.of(w, itemId);
    long cost = Math.max(1, item.get().srpCents() * random.nextInt(50, 101) / 100);
    ItemRow next =
        item.get()
            .afterAdminChange(
                cost,
                "img"
                    + (itemId % 100)
                    + "/image_"
                    + itemId
                    + "_"
                    + (item.get().version() + 1)
                    + ".gif",
                "img"
                    + (itemId % 100)
                    + "/thumb_"
                    + itemId
                    + "_"
                    + (item.get().version() + 1)
                    + ".gif",
                Math.floorDiv(w.startMillis, DAY_MILLIS),
                relatedItems);
    w.updateItem(itemId, item.get(), next);
    return Optional.of(itemId);
  }
}
