package io.stratus.example.bookstore;

import static io.stratus.example.bookstore.Schema.AUTHORS;
import static io.stratus.example.bookstore.Schema.CARTS;
import static io.stratus.example.bookstore.Schema.CUSTOMERS;
import static io.stratus.example.bookstore.Schema.ITEMS;
import static io.stratus.example.bookstore.Schema.ORDERS_TABLE;
import static io.stratus.example.bookstore.Schema.ORDER_LINES;

import io.stratus.core.Database;
import io.stratus.core.Key;
import io.stratus.core.KeyRange;
import io.stratus.core.Sequence;
import io.stratus.core.Transaction;
import io.stratus.core.TypedCollection;
import io.stratus.example.bookstore.ShopException.OutOfStock.Shortage;
import io.stratus.example.bookstore.Views.CartRow;
import io.stratus.example.bookstore.Views.CataloguePage;
import io.stratus.example.bookstore.Views.Listing;
import io.stratus.example.bookstore.Views.Product;
import java.time.Clock;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Service;

/**
 * The shop's transactions. Each request runs one transaction through {@code db.run} (or {@code
 * db.read} when it only reads), which runs it again while a failure says nothing took effect —
 * under snapshot isolation, when a concurrent order of the same book committed first.
 *
 * <p>Why an order cannot oversell: it reads each book's stock, writes the lowered stock, the
 * order and its lines in one transaction, and the database runs an isolating protocol
 * (application.properties sets {@code stratus.protocol=snapshot_isolation}). Of two orders that
 * read the same stock, the second to commit fails and runs again on the new stock. Under the
 * weaker protocols two orders could both take the last copy.
 *
 * <p>Order and customer ids come from sequences ({@link Database#sequence}): unique across
 * threads, instances and restarts. An order's id is drawn once per request, before its
 * transaction, so a retried transaction records the same order.
 */
@Service
public class Bookstore {
  private final Database db;
  private final Clock clock;
  private final Sequence orderIds;
  private final Sequence customerIds;
  private final int pageSize;

  /**
   * Installs the schema and, in a database without books, the catalogue: {@code items} books by
   * {@code authors} authors, {@code stock} copies each, in one transaction (so that of two
   * instances starting together one seeds and the other finds it done).
   */
  public Bookstore(
      Database db,
      Clock clock,
      @Value("${bookstore.items:60}") int items,
      @Value("${bookstore.authors:20}") int authors,
      @Value("${bookstore.initial-stock:25}") int stock,
      @Value("${bookstore.page-size:12}") int pageSize) {
    this.db = db;
    this.clock = clock;
    this.pageSize = pageSize;
    Schema.install(db);
    this.orderIds = db.sequence(Schema.ORDER_IDS);
    this.customerIds = db.sequence(Schema.CUSTOMER_IDS);
    db.run(
        tx -> {
          if (ITEMS.get(tx, Key.of(1L)).isPresent()) {
            return false;
          }
          for (Author a : CatalogueSeed.authors(authors)) {
            AUTHORS.put(tx, Key.of(a.id()), a);
          }
          for (Item i : CatalogueSeed.items(items, authors, stock)) {
            ITEMS.put(tx, Key.of(i.id()), i);
          }
          return true;
        });
  }

  // ---- the catalogue ----

  /** Page {@code page} (from 1) of every book, by id. */
  public CataloguePage catalogue(int page) {
    int p = Math.max(1, page);
    long first = (long) (p - 1) * pageSize + 1;
    return db.read(
        tx -> {
          // One book more than a page shows tells whether a next page exists.
          List<Item> items =
              values(ITEMS.scan(tx, KeyRange.closed(Key.of(first), Key.of(first + pageSize))));
          return page(tx, items, 0, p);
        });
  }

  /**
   * Page {@code page} of the books whose title, or whose author's last name, starts with {@code
   * term} (case and a leading article ignored), by title.
   */
  public CataloguePage search(String term, int page) {
    int p = Math.max(1, page);
    return db.read(
        tx -> {
          Map<Long, Item> found = new LinkedHashMap<>();
          for (Item i :
              values(
                  ITEMS.probeRange(
                      tx, Schema.ITEM_BY_TITLE, Schema.startingWith(Schema.filingTitle(term))))) {
            found.put(i.id(), i);
          }
          for (Author a :
              values(
                  AUTHORS.probeRange(tx, Schema.AUTHOR_BY_LAST_NAME, Schema.startingWith(term)))) {
            for (Item i : byAuthor(tx, a.id())) {
              found.putIfAbsent(i.id(), i);
            }
          }
          List<Item> sorted = new ArrayList<>(found.values());
          sorted.sort(
              Comparator.comparing((Item i) -> Schema.filingTitle(i.title()))
                  .thenComparing(Item::id));
          return page(tx, sorted, (p - 1) * pageSize, p);
        });
  }

  /** Page {@code page} of the books of {@code subject}, by title. */
  public CataloguePage subject(String subject, int page) {
    int p = Math.max(1, page);
    return db.read(
        tx -> {
          List<Item> items =
              values(ITEMS.probeRange(tx, Schema.ITEM_BY_SUBJECT, Schema.under(Key.of(subject))));
          return page(tx, items, (p - 1) * pageSize, p);
        });
  }

  /** A book with its author and up to four more of the author's books. */
  public Product product(long id) {
    return db.read(
        tx -> {
          Item item = item(tx, id);
          List<Item> more = new ArrayList<>();
          for (Item i : byAuthor(tx, item.authorId())) {
            if (i.id() != id && more.size() < 4) {
              more.add(i);
            }
          }
          return new Product(item, author(tx, item.authorId()), more);
        });
  }

  /** A book. */
  public Item item(long id) {
    return db.read(tx -> item(tx, id));
  }

  // ---- the cart ----

  /** The cart with token {@code cartId} (empty when it does not exist). */
  public Views.Cart cart(String cartId) {
    return db.read(tx -> cartView(tx, cart(tx, cartId)));
  }

  /**
   * Adds {@code quantity} copies of a book to the cart (at most {@link
   * ShoppingCart#MAX_QUANTITY} of one book), creating the cart.
   *
   * @throws ShopException.OutOfStock when the book is sold out
   */
  public void addToCart(String cartId, long itemId, int quantity) {
    checkQuantity(quantity, 1);
    db.run(
        tx -> {
          Item item = item(tx, itemId);
          if (item.soldOut()) {
            throw new ShopException.OutOfStock(
                List.of(new Shortage(itemId, item.title(), quantity, 0)));
          }
          ShoppingCart cart = cart(tx, cartId);
          int now = Math.min(ShoppingCart.MAX_QUANTITY, cart.quantityOf(itemId) + quantity);
          CARTS.put(tx, Key.of(cartId), cart.withQuantity(itemId, now, clock.millis()));
          return null;
        });
  }

  /** Sets the copies of a book in the cart; 0 removes it. */
  public void setQuantity(String cartId, long itemId, int quantity) {
    checkQuantity(quantity, 0);
    db.run(
        tx -> {
          ShoppingCart cart = cart(tx, cartId);
          CARTS.put(tx, Key.of(cartId), cart.withQuantity(itemId, quantity, clock.millis()));
          return null;
        });
  }

  /** The customer who last checked out with this cart, if any. */
  public Optional<Customer> customerOf(String cartId) {
    return db.read(
        tx -> {
          long id = cart(tx, cartId).customerId();
          return id == 0 ? Optional.<Customer>empty() : CUSTOMERS.get(tx, Key.of(id));
        });
  }

  // ---- orders ----

  /**
   * Orders what the cart holds, in one transaction: checks and lowers each book's stock, records
   * the order and its lines, makes or updates the cart's customer and empties the cart.
   *
   * @throws ShopException.Invalid when the form has problems (nothing changed)
   * @throws ShopException.EmptyCart when the cart is empty (e.g. the order was placed already)
   * @throws ShopException.OutOfStock when a book has fewer copies left than the cart holds
   * @throws io.stratus.CommitStateUnknownException the order may have been placed: look at the
   *     orders before ordering again
   */
  public PlacedOrder checkout(String cartId, CheckoutForm form) {
    validate(form);
    long orderId = orderIds.next(); // one id per request, however often the transaction runs
    return db.run(
        tx -> {
          ShoppingCart cart = cart(tx, cartId);
          if (cart.lines().isEmpty()) {
            throw new ShopException.EmptyCart();
          }
          long now = clock.millis();
          Customer customer = saveCustomer(tx, cart.customerId(), form, now);
          PlacedOrder placed = place(tx, orderId, customer, form, cart.lines(), now);
          CARTS.put(tx, Key.of(cartId), cart.checkedOut(customer.id(), now));
          return placed;
        });
  }

  /**
   * Orders {@code lines} for a new customer described by {@code form}, without a cart (the JSON
   * API's order), with the checks and the one transaction of {@link #checkout}.
   */
  public PlacedOrder order(CheckoutForm form, List<ShoppingCart.Line> lines) {
    validate(form);
    if (lines == null || lines.isEmpty()) {
      throw new ShopException.Invalid(Map.of("lines", "An order needs at least one book."));
    }
    for (ShoppingCart.Line l : lines) {
      checkQuantity(l.quantity(), 1);
    }
    long orderId = orderIds.next();
    return db.run(
        tx -> {
          long now = clock.millis();
          Customer customer = saveCustomer(tx, 0, form, now);
          return place(tx, orderId, customer, form, lines, now);
        });
  }

  /** One order with its lines. */
  public PlacedOrder order(long id) {
    return db.read(tx -> placed(tx, id));
  }

  /** The orders of a customer, newest first (none for customer 0). */
  public List<Order> ordersOf(long customerId) {
    if (customerId == 0) {
      return List.of();
    }
    return db.read(
        tx ->
            values(
                ORDERS_TABLE.probeRange(
                    tx, Schema.ORDERS_BY_CUSTOMER, Schema.under(Key.of(customerId)))));
  }

  /** Every order with its lines, by id. */
  public List<PlacedOrder> orders() {
    return db.read(
        tx -> {
          Map<Long, List<OrderLine>> lines = new HashMap<>();
          for (OrderLine l : values(ORDER_LINES.scan(tx, KeyRange.all()))) {
            lines.computeIfAbsent(l.orderId(), k -> new ArrayList<>()).add(l);
          }
          List<PlacedOrder> out = new ArrayList<>();
          for (Order o : values(ORDERS_TABLE.scan(tx, KeyRange.all()))) {
            out.add(new PlacedOrder(o, lines.getOrDefault(o.id(), List.of())));
          }
          return out;
        });
  }

  // ---- inside transactions ----

  private PlacedOrder place(
      Transaction tx,
      long orderId,
      Customer customer,
      CheckoutForm form,
      List<ShoppingCart.Line> lines,
      long now) {
    Map<Long, Integer> wanted = new LinkedHashMap<>();
    for (ShoppingCart.Line l : lines) {
      wanted.merge(l.itemId(), l.quantity(), Integer::sum);
    }
    // Every book is checked before anything is written, so that a refusal names all shortages.
    List<Item> items = new ArrayList<>();
    List<Shortage> shortages = new ArrayList<>();
    for (Map.Entry<Long, Integer> w : wanted.entrySet()) {
      Item item = item(tx, w.getKey());
      items.add(item);
      if (item.stock() < w.getValue()) {
        shortages.add(new Shortage(item.id(), item.title(), w.getValue(), item.stock()));
      }
    }
    if (!shortages.isEmpty()) {
      throw new ShopException.OutOfStock(shortages);
    }
    List<OrderLine> written = new ArrayList<>();
    int copies = 0;
    long subtotal = 0;
    for (Item item : items) {
      int quantity = wanted.get(item.id());
      ITEMS.put(tx, Key.of(item.id()), item.withStock(item.stock() - quantity));
      OrderLine line =
          new OrderLine(
              orderId, written.size() + 1, item.id(), item.title(), quantity, item.costCents());
      ORDER_LINES.create(tx, Schema.orderLine(orderId, line.line()), line);
      written.add(line);
      copies += quantity;
      subtotal += line.totalCents();
    }
    Totals t = Totals.of(copies, subtotal);
    String digits = form.cardDigits();
    Order order =
        new Order(
            orderId,
            customer.id(),
            now,
            t.subtotalCents(),
            t.taxCents(),
            t.shipCents(),
            t.totalCents(),
            copies,
            form.shipType(),
            "PENDING",
            form.name(),
            form.address(),
            form.cardType(),
            digits.substring(digits.length() - 4));
    ORDERS_TABLE.create(tx, Key.of(orderId), order);
    return new PlacedOrder(order, written);
  }

  /** The customer {@code id} updated from the form, or a new one when {@code id} is 0. */
  private Customer saveCustomer(Transaction tx, long id, CheckoutForm form, long now) {
    Optional<Customer> known = id == 0 ? Optional.empty() : CUSTOMERS.get(tx, Key.of(id));
    // A new customer's id is drawn inside the transaction: a retry draws another, leaving a gap.
    long customerId = known.map(Customer::id).orElseGet(customerIds::next);
    Customer c =
        new Customer(
            customerId,
            form.firstName().strip(),
            form.lastName().strip(),
            form.email().strip(),
            form.address(),
            known.map(Customer::sinceMillis).orElse(now),
            now);
    CUSTOMERS.put(tx, Key.of(customerId), c);
    return c;
  }

  private PlacedOrder placed(Transaction tx, long id) {
    Order o =
        ORDERS_TABLE
            .get(tx, Key.of(id))
            .orElseThrow(() -> new ShopException.NotFound("order " + id));
    return new PlacedOrder(o, values(ORDER_LINES.scan(tx, Schema.under(Key.of(id)))));
  }

  private Views.Cart cartView(Transaction tx, ShoppingCart cart) {
    List<CartRow> rows = new ArrayList<>();
    int copies = 0;
    long subtotal = 0;
    for (ShoppingCart.Line l : cart.lines()) {
      Optional<Item> found = ITEMS.get(tx, Key.of(l.itemId()));
      if (found.isEmpty()) {
        continue; // a book no longer sold
      }
      Item item = found.get();
      String problem =
          item.soldOut()
              ? "Sold out"
              : item.stock() < l.quantity() ? "Only " + item.stock() + " left" : null;
      rows.add(new CartRow(item, l.quantity(), problem));
      copies += l.quantity();
      subtotal += item.costCents() * l.quantity();
    }
    return new Views.Cart(rows, Totals.of(copies, subtotal));
  }

  private CataloguePage page(Transaction tx, List<Item> items, int from, int page) {
    List<Listing> listings = new ArrayList<>();
    Map<Long, Author> authors = new HashMap<>();
    for (int i = from; i < Math.min(items.size(), from + pageSize); i++) {
      Item item = items.get(i);
      Author a = authors.computeIfAbsent(item.authorId(), id -> author(tx, id));
      listings.add(new Listing(item, a));
    }
    return new CataloguePage(listings, page, items.size() > from + pageSize);
  }

  private static List<Item> byAuthor(Transaction tx, long authorId) {
    return values(ITEMS.probeRange(tx, Schema.ITEM_BY_AUTHOR, Schema.under(Key.of(authorId))));
  }

  private static Item item(Transaction tx, long id) {
    return ITEMS.get(tx, Key.of(id)).orElseThrow(() -> new ShopException.NotFound("book " + id));
  }

  private static Author author(Transaction tx, long id) {
    return AUTHORS.get(tx, Key.of(id)).orElseGet(() -> new Author(id, "Unknown", "author", ""));
  }

  private static ShoppingCart cart(Transaction tx, String cartId) {
    return CARTS.get(tx, Key.of(cartId)).orElseGet(() -> ShoppingCart.empty(cartId));
  }

  private void validate(CheckoutForm form) {
    Map<String, String> problems = form.problems(YearMonth.now(clock));
    if (!problems.isEmpty()) {
      throw new ShopException.Invalid(problems);
    }
  }

  private static void checkQuantity(int quantity, int least) {
    if (quantity < least || quantity > ShoppingCart.MAX_QUANTITY) {
      throw new ShopException.Invalid(
          Map.of(
              "quantity",
              "Choose "
                  + least
                  + " to "
                  + ShoppingCart.MAX_QUANTITY
                  + " copies, not "
                  + quantity
                  + "."));
    }
  }

  private static <T> List<T> values(List<TypedCollection.Entry<T>> entries) {
    List<T> out = new ArrayList<>(entries.size());
    for (TypedCollection.Entry<T> e : entries) {
      out.add(e.value());
    }
    return out;
  }
}
