package io.stratus.bench.tpcw.bookstore;

import io.stratus.bench.tpcw.bookstore.Rows.CcXactRow;
import io.stratus.bench.tpcw.bookstore.Rows.CustomerRow;
import io.stratus.bench.tpcw.bookstore.Rows.ItemRow;
import io.stratus.bench.tpcw.bookstore.Rows.OrderLineRow;
import io.stratus.bench.tpcw.bookstore.Rows.OrderRow;
import io.stratus.core.Key;
import io.stratus.core.Transaction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * The one complex customer transaction of paper 001's experiments (section 6.2) on the loaded
 * bookstore: (a) read a customer record, (b) search for six products, (c) order three of them.
 * Customer and products are chosen at random, as in the paper.
 *
 * <p>The paper names the steps but not the rows behind them, so the transaction does what the
 * bookstore's own Buy Confirm does for an order, without the shopping cart: the products are
 * looked up by key (the record manager's read, which probes the primary B-tree), and ordering
 * three of them creates one ORDERS row with three ORDER_LINE rows and its CC_XACTS payment, and
 * decrements the stock of the three ITEM rows (with TPC-W's restock of 21 below ten). Seven
 * records are read and eight written ({@link #RECORDS_READ}, {@link #RECORDS_WRITTEN}); the
 * order also adds its entry to the {@code orders.by_customer} index.
 *
 * <p>One instance per client: it draws the plans and the time-ordered order ids of that client
 * from its seed (not thread-safe). A plan is drawn before the transaction runs, so that a retried
 * attempt repeats the same customer and products; each attempt draws a fresh order id.
 */
public final class ComplexOrder {
  /** Products searched per transaction (paper 001, section 6.2). */
  public static final int SEARCHED = 6;

  /** Products ordered per transaction, out of the searched ones. */
  public static final int ORDERED = 3;

  /** Records one transaction reads: the customer and the six products. */
  public static final int RECORDS_READ = 1 + SEARCHED;

  /** Records one transaction writes: order, lines, payment and the stock of each product. */
  public static final int RECORDS_WRITTEN = 1 + ORDERED + 1 + ORDERED;

  private static final long DAY_MILLIS = 86_400_000L;

  private final Scale scale;
  private final SplittableRandom random;
  private final Ids ids;

  /** A client's transactions on a bookstore of {@code scale}, drawn from {@code seed}. */
  public ComplexOrder(Scale scale, long seed) {
    this.scale = Objects.requireNonNull(scale, "scale");
    this.random = new SplittableRandom(seed);
    this.ids = new Ids(random.nextLong());
  }

  /**
   * What one transaction reads and orders.
   *
   * @param customerId the customer read
   * @param searched six distinct item ids
   * @param ordered the indexes into {@code searched} of the three ordered items
   * @param quantities the quantity of each ordered item, 1 to 5
   */
  public record Plan(long customerId, long[] searched, int[] ordered, int[] quantities) {
    public Plan {
      searched = searched.clone();
      ordered = ordered.clone();
      quantities = quantities.clone();
    }

    /** The ids of the ordered items, in order-line order. */
    public long[] orderedItems() {
      return Arrays.stream(ordered).mapToLong(i -> searched[i]).toArray();
    }

    @Override
    public long[] searched() {
      return searched.clone();
    }
  }

  /**
   * What a committed attempt did.
   *
   * @param orderId the order created (0 when none: no ordered item was visible)
   * @param recordsRead records found by the reads
   * @param recordsWritten records created or updated
   */
  public record Outcome(long orderId, int recordsRead, int recordsWritten) {}

  /** Draws the next plan: a random customer, six distinct random items, three of them ordered. */
  public Plan next() {
    long customer = random.nextLong(1, scale.customers() + 1);
    int searched = (int) Math.min(SEARCHED, scale.items());
    long[] items = new long[searched];
    for (int i = 0; i < searched; i++) {
      long candidate;
      do {
        candidate = random.nextLong(1, scale.items() + 1);
      } while (contains(items, i, candidate));
      items[i] = candidate;
    }
    int[] positions = new int[searched];
    for (int i = 0; i < searched; i++) {
      positions[i] = i;
    }
    for (int i = searched - 1; i > 0; i--) { // Fisher-Yates: the first three are the order
      int j = random.nextInt(i + 1);
      int t = positions[i];
      positions[i] = positions[j];
      positions[j] = t;
    }
    int[] ordered = Arrays.copyOf(positions, Math.min(ORDERED, searched));
    int[] quantities = new int[ordered.length];
    for (int i = 0; i < quantities.length; i++) {
      quantities[i] = random.nextInt(1, 6);
    }
    return new Plan(customer, items, ordered, quantities);
  }

  /**
   * Runs {@code plan} in {@code tx} (without committing it) at {@code nowMillis}: the order is
   * dated then and its id drawn for then.
   */
  public Outcome execute(Transaction tx, Plan plan, long nowMillis) {
    int read = 0;
    Optional<CustomerRow> customer =
        BookstoreSchema.CUSTOMERS.get(tx, BookstoreKeys.id(plan.customerId()));
    if (customer.isPresent()) {
      read++;
    }
    ItemRow[] found = new ItemRow[plan.searched.length];
    for (int i = 0; i < found.length; i++) {
      found[i] = BookstoreSchema.ITEMS.get(tx, BookstoreKeys.id(plan.searched[i])).orElse(null);
      if (found[i] != null) {
        read++;
      }
    }
    long addressId = customer.map(CustomerRow::addressId).orElse(1L);
    int discount = customer.map(CustomerRow::discountBasisPoints).orElse(0);
    List<OrderLineRow> lines = new ArrayList<>();
    List<ItemRow> sold = new ArrayList<>();
    long subTotal = 0;
    for (int k = 0; k < plan.ordered.length; k++) {
      ItemRow item = found[plan.ordered[k]];
      if (item != null) {
        int quantity = plan.quantities[k];
        lines.add(
            new OrderLineRow(
                plan.searched[plan.ordered[k]],
                quantity,
                discount,
                Text.words(random, 20, 100),
                item.subject()));
        sold.add(item.afterSale(quantity));
        subTotal += quantity * item.costCents() * (10_000 - discount) / 10_000;
      }
    }
    if (lines.isEmpty()) {
      return new Outcome(0, read, 0);
    }
    long orderId = ids.next(nowMillis);
    long tax = subTotal * 825 / 10_000;
    long total = subTotal + tax + 300 + 100L * lines.size();
    tx.create(
        BookstoreSchema.ORDERS,
        BookstoreKeys.id(orderId),
        new OrderRow(
                plan.customerId(),
                nowMillis,
                subTotal,
                tax,
                total,
                Text.pick(random, Text.SHIP_TYPES),
                nowMillis + random.nextLong(1, 8) * DAY_MILLIS,
                addressId,
                addressId,
                "PENDING")
            .encode());
    for (int i = 0; i < lines.size(); i++) {
      tx.create(
          BookstoreSchema.ORDER_LINE,
          BookstoreKeys.orderLine(orderId, i + 1),
          lines.get(i).encode());
    }
    String name =
        customer.map(c -> c.firstName() + " " + c.lastName()).orElse(Text.aString(random, 8, 15));
    tx.create(
        BookstoreSchema.CC_XACTS,
        BookstoreKeys.id(orderId),
        new CcXactRow(
                Text.pick(random, Text.CARD_TYPES),
                Text.nString(random, 16, 16),
                name,
                Math.floorDiv(nowMillis, DAY_MILLIS) + random.nextInt(10, 731),
                Text.aString(random, 15, 15),
                total,
                nowMillis,
                random.nextLong(1, Scale.COUNTRIES + 1))
            .encode());
    for (int i = 0; i < lines.size(); i++) {
      BookstoreSchema.ITEMS.update(tx, BookstoreKeys.id(lines.get(i).itemId()), sold.get(i));
    }
    return new Outcome(orderId, read, 2 + 2 * lines.size());
  }

  /** The stock of item {@code itemId} as {@code tx} reads it, or -1 when it is not visible. */
  public static int stock(Transaction tx, long itemId) {
    return BookstoreSchema.ITEMS.get(tx, BookstoreKeys.id(itemId)).map(ItemRow::stock).orElse(-1);
  }

  /** The key of order {@code orderId} in {@link BookstoreSchema#ORDERS} and cc_xacts. */
  public static Key orderKey(long orderId) {
    return BookstoreKeys.id(orderId);
  }

  /** The key of line {@code line} (1-based) of order {@code orderId}. */
  public static Key orderLineKey(long orderId, int line) {
    return BookstoreKeys.orderLine(orderId, line);
  }

  private static boolean contains(long[] values, int n, long v) {
    for (int k = 0; k < n; k++) {
      if (values[k] == v) {
        return true;
      }
    }
    return false;
  }
}
