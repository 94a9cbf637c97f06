package io.stratus.bench.tpcw.bookstore;

import io.stratus.bench.tpcw.bookstore.Rows.AuthorRow;
import io.stratus.bench.tpcw.bookstore.Rows.CustomerRow;
import io.stratus.bench.tpcw.bookstore.Rows.ItemRow;
import io.stratus.bench.tpcw.bookstore.Rows.OrderRow;
import io.stratus.core.Codec;
import io.stratus.core.Database;
import io.stratus.core.DatabaseConfig;
import io.stratus.core.IndexKeyExtractor;
import io.stratus.core.IndexPlacement;
import io.stratus.core.Key;
import io.stratus.core.RecordCursor;
import io.stratus.core.Transaction;
import io.stratus.core.TypedCollection;
import java.util.List;
import java.util.Optional;

/**
 * The TPC-W schema on Stratus: ten collections and the secondary indexes the interactions probe.
 *
 * <p>Indexes (each extractor yields one search key per record, built in {@link BookstoreKeys}):
 *
 * <ul>
 *   <li>{@code item.by_title}: lower-cased title (title search: prefix range);
 *   <li>{@code item.by_author}: author id (author search: author by last name, then this);
 *   <li>{@code item.by_subject}: subject, lower-cased title (subject search, sorted by title);
 *   <li>{@code item.by_subject_date}: subject, publication day descending, lower-cased title
 *       (New Products);
 *   <li>{@code author.by_last_name}: lower-cased last name;
 *   <li>{@code customer.by_uname}: user name;
 *   <li>{@code orders.by_customer}: customer id, order id descending (latest order first).
 * </ul>
 *
 * <p>Best Sellers needs no index: order ids grow with time and order lines are keyed by (order
 * id, line), so the lines of the recent orders are a key-range scan of {@code order_line}.
 *
 * <p>Extractors are pure functions of the payload, so every process may attach the same ones;
 * {@link #install} is idempotent and is what each process of the harness calls after opening the
 * database (creating the collections and indexes on first use, attaching the extractors always).
 */
public final class BookstoreSchema {
  public static final String ITEM = "item";
  public static final String AUTHOR = "author";
  public static final String CUSTOMER = "customer";
  public static final String ADDRESS = "address";
  public static final String COUNTRY = "country";
  public static final String ORDERS = "orders";
  public static final String ORDER_LINE = "order_line";
  public static final String CC_XACTS = "cc_xacts";
  public static final String SHOPPING_CART = "shopping_cart";
  public static final String SHOPPING_CART_LINE = "shopping_cart_line";

  /** Every table, in load order. */
  public static final List<String> TABLES =
      List.of(
          ITEM,
          AUTHOR,
          COUNTRY,
          CUSTOMER,
          ADDRESS,
          ORDERS,
          ORDER_LINE,
          CC_XACTS,
          SHOPPING_CART,
          SHOPPING_CART_LINE);

  /** The tables whose rows interactions read and write as values (the tracked rows). */
  static final TypedCollection<ItemRow> ITEMS =
      TypedCollection.of(ITEM, Codec.of(ItemRow::encode, ItemRow::decode));

  static final TypedCollection<CustomerRow> CUSTOMERS =
      TypedCollection.of(CUSTOMER, Codec.of(CustomerRow::encode, CustomerRow::decode));
  static final TypedCollection<AuthorRow> AUTHORS =
      TypedCollection.of(AUTHOR, Codec.of(AuthorRow::encode, AuthorRow::decode));

  static final String ITEM_BY_TITLE = "by_title";
  static final String ITEM_BY_AUTHOR = "by_author";
  static final String ITEM_BY_SUBJECT = "by_subject";
  static final String ITEM_BY_SUBJECT_DATE = "by_subject_date";
  static final String AUTHOR_BY_LAST_NAME = "by_last_name";
  static final String CUSTOMER_BY_UNAME = "by_uname";
  static final String ORDERS_BY_CUSTOMER = "by_customer";

  private record IndexSpec(String collection, String index, IndexKeyExtractor extractor) {}

  private static final List<IndexSpec> INDEXES =
      List.of(
          new IndexSpec(
              ITEM,
              ITEM_BY_TITLE,
              (k, p) -> key(BookstoreKeys.titleSearch(ItemRow.decode(p).title()))),
          new IndexSpec(
              ITEM, ITEM_BY_AUTHOR, (k, p) -> key(BookstoreKeys.id(ItemRow.decode(p).authorId()))),
          new IndexSpec(
              ITEM,
              ITEM_BY_SUBJECT,
              (k, p) -> {
                ItemRow i = ItemRow.decode(p);
                return key(BookstoreKeys.subjectTitle(i.subject(), i.title()));
              }),
          new IndexSpec(
              ITEM,
              ITEM_BY_SUBJECT_DATE,
              (k, p) -> {
                ItemRow i = ItemRow.decode(p);
                return key(BookstoreKeys.subjectNewest(i.subject(), i.pubDay(), i.title()));
              }),
          new IndexSpec(
              AUTHOR,
              AUTHOR_BY_LAST_NAME,
              (k, p) -> key(BookstoreKeys.titleSearch(AuthorRow.decode(p).lastName()))),
          new IndexSpec(
              CUSTOMER, CUSTOMER_BY_UNAME, (k, p) -> key(Key.of(CustomerRow.decode(p).userName()))),
          new IndexSpec(
              ORDERS,
              ORDERS_BY_CUSTOMER,
              (k, p) ->
                  key(
                      BookstoreKeys.customerNewestOrder(
                          OrderRow.decode(p).customerId(), BookstoreKeys.idOf(Key.ofBytes(k))))));

  private BookstoreSchema() {}

  private static Optional<byte[]> key(Key k) {
    return Optional.of(k.toBytes());
  }

  /**
   * Registers the bookstore's index extractors in a configuration, so that a database opened
   * with it can write the tables at once. Optional: {@link #install} attaches them too.
   */
  public static DatabaseConfig.Builder configure(DatabaseConfig.Builder config) {
    for (IndexSpec s : INDEXES) {
      config.indexExtractor(s.collection(), s.index(), s.extractor());
    }
    return config;
  }

  /**
   * {@link #install(Database, IndexPlacement)} with missing indexes created as client-side
   * B-trees.
   */
  public static void install(Database db) {
    install(db, IndexPlacement.CLIENT_TREE);
  }

  /**
   * Creates the ten collections and, where missing, their indexes held where {@code placement}
   * says, and attaches every extractor in this process; an existing index is attached as it is,
   * wherever it lives. Idempotent and cheap when the schema exists; call it in every process
   * before loading or running. Create the schema from one process before others use it (index
   * creation is not isolated from concurrent writers; see {@link Database#createIndex}).
   */
  public static void install(Database db, IndexPlacement placement) {
    for (String table : TABLES) {
      db.createCollection(table);
    }
    for (IndexSpec s : INDEXES) {
      if (db.indexes(s.collection()).contains(s.index())) {
        db.attachIndex(s.collection(), s.index(), s.extractor());
      } else {
        db.createIndex(s.collection(), s.index(), s.extractor(), placement);
      }
    }
  }

  /** Whether every table is empty (as this handle sees it): a load may start. */
  public static boolean isEmpty(Database db) {
    try (Transaction tx = db.begin()) {
      for (String table : TABLES) {
        try (RecordCursor c = tx.scan(table)) {
          if (c.hasNext()) {
            return false;
          }
        }
      }
      return true;
    }
  }
}
