package io.stratus.bench.tpcw.bookstore;

import io.stratus.bench.tpcw.bookstore.Rows.AddressRow;
import io.stratus.bench.tpcw.bookstore.Rows.AuthorRow;
import io.stratus.bench.tpcw.bookstore.Rows.CcXactRow;
import io.stratus.bench.tpcw.bookstore.Rows.CountryRow;
import io.stratus.bench.tpcw.bookstore.Rows.CustomerRow;
import io.stratus.bench.tpcw.bookstore.Rows.ItemRow;
import io.stratus.bench.tpcw.bookstore.Rows.OrderLineRow;
import io.stratus.bench.tpcw.bookstore.Rows.OrderRow;
import io.stratus.cloudapi.decorate.MeterSnapshot;
import io.stratus.core.BulkLoadResult;
import io.stratus.core.Database;
import io.stratus.core.Record;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.function.LongConsumer;
import java.util.function.LongFunction;
import java.util.function.LongUnaryOperator;
import java.util.function.Supplier;

/**
 * Populates an empty bookstore with the TPC-W initial database (specification clause 4.7) at a
 * {@link Scale}, loading each table with {@link Database#bulkLoad} (whole pages, one put each).
 *
 * <p><b>Determinism without state.</b> Every row is a pure function of (seed, table, row
 * number): each row draws from its own {@link SplittableRandom} seeded from those three, and the
 * facts other tables need (an item's subject and cost, a customer's name, an order's lines) are
 * derived the same way where they are used. So the tables are generated lazily, one at a time, as
 * the bulk load iterates them: memory holds one table's records (inside the bulk load) and
 * nothing across tables.
 *
 * <p><b>Orders and time.</b> Order dates spread over the 60 days before the generator's clock
 * reads "now", in order-number order, and order ids are time-ordered ({@link Ids}) like the ids of
 * orders created later by {@link StratusBookstore}; the most recent orders are therefore the tail
 * of the key space, which is what Best Sellers scans.
 *
 * <p><b>Cloud usage per table.</b> Given a meter of the database's cloud calls (a supplier of
 * its snapshots), the generator reports what each table's bulk load requested ({@link
 * LoadReport#usagePerTable()}): the papers' Table 4 measures loading the 1,000 products alone.
 * Other calls in flight meanwhile (a background checkpoint of another client) are counted too.
 *
 * <p>Single use per database; not thread-safe (the load runs on the calling thread).
 */
public final class DataGenerator {
  private static final long DAY_MILLIS = 86_400_000L;
  private static final long ORDER_SPAN_MILLIS = 60 * DAY_MILLIS;

  /** The earliest publication date of a loaded item (1930-01-01), in epoch days. */
  static final long FIRST_PUB_DAY = LocalDate.of(1930, 1, 1).toEpochDay();

  private static final int ITEM = 1;
  private static final int ITEM_FACTS = 2;
  private static final int AUTHOR = 3;
  private static final int COUNTRY = 4;
  private static final int CUSTOMER = 5;
  private static final int ADDRESS = 6;
  private static final int ORDER = 7;
  private static final int ORDER_LINES = 8;
  private static final int CC_XACT = 9;
  private static final int ITEM_STOCK = 10;

  private final Database db;
  private final Scale scale;
  private final long seed;
  private final long nowMillis;
  private final long today;
  private final Supplier<MeterSnapshot> meter;
  private final Map<String, Duration> elapsed = new LinkedHashMap<>();
  private final Map<String, MeterSnapshot> usage = new LinkedHashMap<>();

  /**
   * A generator for {@code db} (whose tables must be empty) with dates relative to {@code
   * clock}'s present; it reports no cloud usage.
   */
  public DataGenerator(Database db, Scale scale, long seed, Clock clock) {
    this(db, scale, seed, clock, MeterSnapshot::empty);
  }

  /**
   * A generator that also reports each table's cloud usage: {@code meter} gives a snapshot of
   * the calls of {@code db}'s cloud so far (e.g. {@code cloudMeter::snapshot}).
   */
  public DataGenerator(
      Database db, Scale scale, long seed, Clock clock, Supplier<MeterSnapshot> meter) {
    this.db = Objects.requireNonNull(db, "db");
    this.scale = Objects.requireNonNull(scale, "scale");
    this.seed = seed;
    this.nowMillis = clock.millis();
    this.today = Math.floorDiv(nowMillis, DAY_MILLIS);
    this.meter = Objects.requireNonNull(meter, "meter");
  }

  /** {@link #load(LongConsumer)} without progress reports. */
  public LoadReport load() {
    return load(rows -> {});
  }

  /**
   * Installs the schema ({@link BookstoreSchema#install}) and loads every table.
   *
   * @param progress called after each table with the rows loaded so far (out of {@link
   *     Scale#totalRows()})
   * @throws io.stratus.InvalidRequestException when a table is not empty
   */
  public LoadReport load(LongConsumer progress) {
    Objects.requireNonNull(progress, "progress");
    long started = System.nanoTime();
    BookstoreSchema.install(db);
    Map<String, Long> rows = new LinkedHashMap<>();
    long[] totals = new long[3]; // rows, index entries, pages
    load(BookstoreSchema.ITEM, scale.items(), i -> item(i + 1), rows, totals, progress);
    load(BookstoreSchema.AUTHOR, scale.authors(), a -> author(a + 1), rows, totals, progress);
    load(BookstoreSchema.COUNTRY, scale.countries(), c -> country(c + 1), rows, totals, progress);
    load(BookstoreSchema.CUSTOMER, scale.customers(), c -> customer(c + 1), rows, totals, progress);
    load(BookstoreSchema.ADDRESS, scale.addresses(), a -> address(a + 1), rows, totals, progress);
    load(BookstoreSchema.ORDERS, scale.orders(), this::order, rows, totals, progress);
    loadRecords(BookstoreSchema.ORDER_LINE, this::orderLines, rows, totals, progress);
    load(BookstoreSchema.CC_XACTS, scale.orders(), this::ccXact, rows, totals, progress);
    rows.put(BookstoreSchema.SHOPPING_CART, 0L);
    rows.put(BookstoreSchema.SHOPPING_CART_LINE, 0L);
    return new LoadReport(
        scale,
        rows,
        totals[0],
        totals[1],
        totals[2],
        Duration.ofNanos(System.nanoTime() - started),
        elapsed,
        usage);
  }

  private void load(
      String table,
      long count,
      LongFunction<Record> row,
      Map<String, Long> rows,
      long[] totals,
      LongConsumer progress) {
    loadRecords(
        table,
        () ->
            new Iterator<>() {
              private long next;

              @Override
              public boolean hasNext() {
                return next < count;
              }

              @Override
              public Record next() {
                if (!hasNext()) {
                  throw new NoSuchElementException();
                }
                return row.apply(next++);
              }
            },
        rows,
        totals,
        progress);
  }

  private void loadRecords(
      String table,
      Iterable<Record> records,
      Map<String, Long> rows,
      long[] totals,
      LongConsumer progress) {
    MeterSnapshot before = meter.get();
    long started = System.nanoTime();
    BulkLoadResult r = db.bulkLoad(table, records);
    elapsed.put(table, Duration.ofNanos(System.nanoTime() - started));
    usage.put(table, meter.get().minus(before));
    rows.put(table, r.records());
    totals[0] += r.records();
    totals[1] += r.indexEntries();
    totals[2] += r.pagesWritten();
    progress.accept(totals[0]);
  }

  private SplittableRandom random(int table, long row) {
    return random(seed, table, row);
  }

  private static SplittableRandom random(long seed, int table, long row) {
    return new SplittableRandom(
        seed * 0x9E3779B97F4A7C15L + table * 0xC2B2AE3D27D4EB4FL + row * 0x165667B19E3779F9L);
  }

  /**
   * The stock item {@code i} (1-based) is loaded with by a generator of {@code seed}: 10 to 30
   * (clause 4.7.1). Drawn from a stream of its own, so that the stock audit ({@link StockAudit})
   * can recompute it from the seed alone.
   */
  static int loadedStock(long seed, long i) {
    return random(seed, ITEM_STOCK, i).nextInt(10, 31);
  }

  // ---- items and authors ----

  /** The subject of item {@code i} (1-based); fixed by the seed. */
  String itemSubject(long i) {
    return Text.SUBJECTS.get(random(ITEM_FACTS, i).nextInt(Text.SUBJECTS.size()));
  }

  /** The initial cost of item {@code i}, in cents, and its suggested retail price. */
  long[] itemPrices(long i) {
    SplittableRandom r = random(ITEM_FACTS, i);
    r.nextInt(Text.SUBJECTS.size()); // the subject's draw
    long srp = r.nextLong(100, 1_000_000);
    long cost = srp - srp * r.nextInt(0, 51) / 100; // srp less 0 to 50 per cent
    return new long[] {cost, srp};
  }

  private Record item(long i) {
    SplittableRandom r = random(ITEM, i);
    long authors = scale.authors();
    String title = Text.digSyl(r.nextLong(1, scale.items() + 1)) + " " + Text.words(r, 8, 50);
    long authorId = i <= authors ? i : r.nextLong(1, authors + 1); // every author has a book
    long pubDay = r.nextLong(FIRST_PUB_DAY, today + 1);
    long[] related = new long[5];
    for (int k = 0; k < 5; k++) {
      long candidate;
      do {
        candidate = r.nextLong(1, scale.items() + 1);
      } while (candidate == i || contains(related, k, candidate));
      related[k] = candidate;
    }
    long[] prices = itemPrices(i);
    String dimensions =
        String.format(
            Locale.ROOT,
            "%.2fx%.2fx%.2f",
            r.nextInt(1, 10000) / 100.0,
            r.nextInt(1, 10000) / 100.0,
            r.nextInt(1, 10000) / 100.0);
    ItemRow row =
        new ItemRow(
            0,
            title,
            authorId,
            pubDay,
            Text.aString(r, 14, 60),
            itemSubject(i),
            Text.words(r, 100, 500),
            related,
            "img" + (i % 100) + "/thumb_" + i + ".gif",
            "img" + (i % 100) + "/image_" + i + ".gif",
            prices[1],
            prices[0],
            pubDay + r.nextInt(1, 31),
            loadedStock(seed, i),
            Text.aString(r, 13, 13),
            r.nextInt(20, 10_000),
            Text.pick(r, Text.BACKINGS),
            dimensions);
    return new Record(BookstoreKeys.id(i), row.encode());
  }

  private static boolean contains(long[] values, int n, long v) {
    for (int k = 0; k < n; k++) {
      if (values[k] == v) {
        return true;
      }
    }
    return false;
  }

  private Record author(long a) {
    SplittableRandom r = random(AUTHOR, a);
    String lastName = Text.digSyl(r.nextLong(1, scale.authors() + 1)) + Text.aString(r, 0, 6);
    AuthorRow row =
        new AuthorRow(
            Text.aString(r, 3, 20),
            lastName,
            Text.aString(r, 1, 20),
            r.nextLong(
                LocalDate.of(1800, 1, 1).toEpochDay(), LocalDate.of(1990, 1, 1).toEpochDay()),
            Text.words(r, 125, 500));
    return new Record(BookstoreKeys.id(a), row.encode());
  }

  private Record country(long c) {
    SplittableRandom r = random(COUNTRY, c);
    String name = Text.COUNTRIES.get((int) c - 1);
    CountryRow row = new CountryRow(name, r.nextLong(10_000, 10_000_000), name + " currency");
    return new Record(BookstoreKeys.id(c), row.encode());
  }

  // ---- customers and addresses ----

  /** The user name of a loaded customer: DigSyl of its id, as the specification defines. */
  static String userName(long customerId) {
    return Text.digSyl(customerId);
  }

  /** First and last name of loaded customer {@code c}. */
  private String[] customerNames(long c) {
    SplittableRandom r = random(CUSTOMER, c);
    return new String[] {Text.aString(r, 8, 15), Text.aString(r, 8, 15)};
  }

  private Record customer(long c) {
    SplittableRandom r = random(CUSTOMER, c);
    String first = Text.aString(r, 8, 15);
    String last = Text.aString(r, 8, 15);
    String uname = userName(c);
    long since = today - r.nextInt(1, 731);
    long lastLogin = (since + r.nextInt(0, 61)) * DAY_MILLIS + r.nextLong(DAY_MILLIS);
    CustomerRow row =
        new CustomerRow(
            0,
            uname,
            BookstoreKeys.fold(uname),
            first,
            last,
            r.nextLong(1, scale.addresses() + 1),
            Text.nString(r, 9, 16),
            uname + "@" + Text.aString(r, 2, 9) + ".com",
            since,
            Math.min(lastLogin, nowMillis),
            nowMillis,
            nowMillis + 2 * 3_600_000L,
            r.nextInt(0, 5001),
            0,
            r.nextLong(0, 100_000),
            r.nextLong(LocalDate.of(1880, 1, 1).toEpochDay(), today + 1),
            Text.words(r, 100, 500));
    return new Record(BookstoreKeys.id(c), row.encode());
  }

  private Record address(long a) {
    SplittableRandom r = random(ADDRESS, a);
    AddressRow row =
        new AddressRow(
            Text.aString(r, 15, 40),
            Text.aString(r, 15, 40),
            Text.aString(r, 4, 30),
            Text.aString(r, 2, 20),
            Text.aString(r, 5, 10),
            r.nextLong(1, Scale.COUNTRIES + 1));
    return new Record(BookstoreKeys.id(a), row.encode());
  }

  // ---- orders, lines, payments ----

  /** The id of the order at position {@code j}: its date, in time-ordered id layout. */
  private long orderId(long j) {
    return Ids.floorOf(orderDate(j)) | (j & ((1L << Ids.RANDOM_BITS) - 1));
  }

  /** Order dates rise with the position, spread over the 60 days before now. */
  private long orderDate(long j) {
    long slot = ORDER_SPAN_MILLIS / Math.max(1, scale.orders());
    long jitter = slot > 1 ? random(ORDER, j).nextLong(slot) : 0;
    return nowMillis - ORDER_SPAN_MILLIS + j * slot + Math.min(jitter, slot - 1);
  }

  /** The lines of the order at position {@code j}, with totals (sub-total first). */
  private OrderLineRow[] linesOf(long j) {
    SplittableRandom r = random(ORDER_LINES, j);
    OrderLineRow[] lines = new OrderLineRow[Scale.linesOfOrder(j)];
    for (int k = 0; k < lines.length; k++) {
      long item = r.nextLong(1, scale.items() + 1);
      lines[k] =
          new OrderLineRow(
              item,
              r.nextInt(1, 301),
              r.nextInt(0, 301),
              Text.words(r, 20, 100),
              itemSubject(item));
    }
    return lines;
  }

  /** Sub-total, tax and total in cents of lines (TPC-W: 8.25% tax, $3 plus $1 a line). */
  private static long[] totals(OrderLineRow[] lines, LongUnaryOperator costOfItem) {
    long sub = 0;
    for (OrderLineRow l : lines) {
      sub +=
          l.quantity()
              * costOfItem.applyAsLong(l.itemId())
              * (10_000 - l.discountBasisPoints())
              / 10_000;
    }
    long tax = sub * 825 / 10_000;
    return new long[] {sub, tax, sub + tax + 300 + 100L * lines.length};
  }

  private Record order(long j) {
    SplittableRandom r = random(ORDER, j);
    r.nextLong(); // skipped: orderDate draws the jitter from this row's stream
    long date = orderDate(j);
    long[] t = totals(linesOf(j), i -> itemPrices(i)[0]);
    OrderRow row =
        new OrderRow(
            r.nextLong(1, scale.customers() + 1),
            date,
            t[0],
            t[1],
            t[2],
            Text.pick(r, Text.SHIP_TYPES),
            date + r.nextLong(0, 8) * DAY_MILLIS,
            r.nextLong(1, scale.addresses() + 1),
            r.nextLong(1, scale.addresses() + 1),
            Text.pick(r, Text.ORDER_STATUSES));
    return new Record(BookstoreKeys.id(orderId(j)), row.encode());
  }

  /** Every order's lines, generated order by order. */
  private Iterator<Record> orderLines() {
    return new Iterator<>() {
      private long nextOrder;
      private final ArrayDeque<Record> pending = new ArrayDeque<>();

      @Override
      public boolean hasNext() {
        while (pending.isEmpty() && nextOrder < scale.orders()) {
          long id = orderId(nextOrder);
          OrderLineRow[] lines = linesOf(nextOrder++);
          for (int k = 0; k < lines.length; k++) {
            pending.add(new Record(BookstoreKeys.orderLine(id, k + 1), lines[k].encode()));
          }
        }
        return !pending.isEmpty();
      }

      @Override
      public Record next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        return pending.poll();
      }
    };
  }

  private Record ccXact(long j) {
    SplittableRandom orderRandom = random(ORDER, j);
    orderRandom.nextLong(); // as in order(): then the customer
    long customer = orderRandom.nextLong(1, scale.customers() + 1);
    String[] names = customerNames(customer);
    SplittableRandom r = random(CC_XACT, j);
    long date = orderDate(j);
    long[] t = totals(linesOf(j), i -> itemPrices(i)[0]);
    CcXactRow row =
        new CcXactRow(
            Text.pick(r, Text.CARD_TYPES),
            Text.nString(r, 16, 16),
            names[0] + " " + names[1],
            today + r.nextInt(10, 731),
            Text.aString(r, 15, 15),
            t[2],
            date,
            r.nextLong(1, Scale.COUNTRIES + 1));
    return new Record(BookstoreKeys.id(orderId(j)), row.encode());
  }
}
