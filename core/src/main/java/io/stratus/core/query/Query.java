package io.stratus.core.query;

import io.stratus.InvalidRequestException;
import io.stratus.core.Key;
import io.stratus.core.KeyRange;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * What to read from one collection: the records whose primary key, or whose search key in one
 * secondary index, meets a condition (equal to a key, or in a {@link KeyRange}), in ascending or
 * descending key order, at most {@link #limit()} of them, from the start or after a {@link
 * Continuation}. Immutable: each method returns a new query, so one query can be shared between
 * threads and run in many transactions.
 *
 * <pre>{@code
 * Query newest = Query.onIndex("items", "by_date").range(KeyRange.atLeast(Key.of(day)))
 *     .order(Order.DESCENDING).limit(50);
 * QueryPage<Record> page = db.read(tx -> tx.query(newest));
 * // later, in another transaction:
 * QueryPage<Record> next = db.read(tx -> tx.query(newest.after(page.continuation().get())));
 * }</pre>
 *
 * <p>Results of an index query are ordered by search key, then record key. Arguments are checked
 * where they are given ({@link InvalidRequestException}); the collection and index where the
 * query runs ({@link io.stratus.NoSuchCollectionException}, {@link
 * io.stratus.NoSuchIndexException}).
 */
public final class Query {
  /** The limit of a query that sets none. */
  public static final int DEFAULT_LIMIT = 100;

  /** The largest limit a query may set: a page of results is held in memory whole. */
  public static final int MAX_LIMIT = 10_000;

  private final String collection;
  private final @Nullable String index; // null: the primary key
  private final @Nullable KeyRange range; // null: no condition yet (every key)
  private final Order order;
  private final int limit;
  private final @Nullable Continuation after; // null: from the start

  private Query(
      String collection,
      @Nullable String index,
      @Nullable KeyRange range,
      Order order,
      int limit,
      @Nullable Continuation after) {
    this.collection = collection;
    this.index = index;
    this.range = range;
    this.order = order;
    this.limit = limit;
    this.after = after;
  }

  /** A query over the primary key of {@code collection}: every record, ascending, until refined. */
  public static Query on(String collection) {
    return new Query(
        required(collection, "collection"), null, null, Order.ASCENDING, DEFAULT_LIMIT, null);
  }

  /** A query over secondary index {@code index} of {@code collection}. */
  public static Query onIndex(String collection, String index) {
    return new Query(
        required(collection, "collection"),
        required(index, "index"),
        null,
        Order.ASCENDING,
        DEFAULT_LIMIT,
        null);
  }

  /**
   * The records whose key (search key, for an index query) equals {@code key}.
   *
   * @throws InvalidRequestException when the query already has a condition
   */
  public Query equalTo(Key key) {
    if (key == null) {
      throw new InvalidRequestException("the key of " + this + ".equalTo must not be null");
    }
    return condition(KeyRange.closed(key, key), "equalTo(" + key + ")");
  }

  /**
   * The records whose key (search key, for an index query) lies in {@code range}; its bounds may
   * each be inclusive, exclusive or absent.
   *
   * @throws InvalidRequestException when the query already has a condition, or the range's lower
   *     bound is above its upper bound
   */
  public Query range(KeyRange range) {
    if (range == null) {
      throw new InvalidRequestException("the range of " + this + ".range must not be null");
    }
    if (range.lower().isPresent()
        && range.upper().isPresent()
        && range.lower().get().compareTo(range.upper().get()) > 0) {
      throw new InvalidRequestException(
          "the range "
              + range
              + " of "
              + this
              + " has its lower bound above its upper bound; give the smaller key first");
    }
    return condition(range, "range(" + range + ")");
  }

  private Query condition(KeyRange r, String what) {
    if (range != null) {
      throw new InvalidRequestException(
          this
              + " already has the condition "
              + range
              + "; a query has one condition, so build a new query for "
              + what);
    }
    return new Query(collection, index, r, order, limit, after);
  }

  /** The results in {@code order} of their key (ascending unless set). */
  public Query order(Order order) {
    if (order == null) {
      throw new InvalidRequestException("the order of " + this + " must not be null");
    }
    return new Query(collection, index, range, order, limit, after);
  }

  /**
   * At most {@code limit} results per page ({@link #DEFAULT_LIMIT} unless set).
   *
   * @throws InvalidRequestException unless 1 &lt;= limit &lt;= {@link #MAX_LIMIT}
   */
  public Query limit(int limit) {
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new InvalidRequestException(
          "the limit of "
              + this
              + " is "
              + limit
              + "; give 1 to "
              + MAX_LIMIT
              + " and read further pages with a continuation");
    }
    return new Query(collection, index, range, order, limit, after);
  }

  /**
   * The page after the one that returned {@code continuation}: the results strictly after the last
   * key that page returned. It may be passed to a later transaction; it resumes after that key
   * and holds no snapshot, so what changed in between is seen as that transaction sees it.
   *
   * @throws InvalidRequestException when the continuation was made by another query (another
   *     collection, index, condition or order; the limit may differ)
   */
  public Query after(Continuation continuation) {
    if (continuation == null) {
      throw new InvalidRequestException("the continuation of " + this + " must not be null");
    }
    Query next = new Query(collection, index, range, order, limit, continuation);
    continuation.position(next); // checks that it belongs to this query
    return next;
  }

  /** The collection read. */
  public String collection() {
    return collection;
  }

  /** The secondary index read, or empty for the primary key. */
  public Optional<String> index() {
    return Optional.ofNullable(index);
  }

  /** The keys (search keys, for an index query) that qualify: every key unless a condition is set. */
  public KeyRange range() {
    return range == null ? KeyRange.all() : range;
  }

  /** The order of the results. */
  public Order order() {
    return order;
  }

  /** The most results one page holds. */
  public int limit() {
    return limit;
  }

  /** Where the page starts: after a previous page, or empty for the first page. */
  public Optional<Continuation> continuation() {
    return Optional.ofNullable(after);
  }

  private static String required(@Nullable String value, String what) {
    if (value == null) {
      throw new InvalidRequestException("the " + what + " of a query must not be null");
    }
    return value;
  }

  @Override
  public String toString() {
    return "Query{"
        + collection
        + (index == null ? "" : "." + index)
        + (range == null ? "" : " " + range)
        + " "
        + order
        + " limit "
        + limit
        + (after == null ? "" : " after " + after)
        + "}";
  }
}
