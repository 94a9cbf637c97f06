package io.stratus.cloudapi;

import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A query of an {@link IndexService} domain: the items whose value of one attribute lies in a range
 * (or equals a value), ordered by that value and then by item name, one page at a time.
 *
 * <p>Immutable; each {@code with}-style method returns a copy. Start with {@link #on(String)}, which
 * selects every item that has the attribute, in ascending order, {@link #DEFAULT_LIMIT} per page.
 * The checks against a service's {@link IndexLimits} are made by the service when the query runs.
 */
public final class IndexQuery {
  /** Items per page unless {@link #limit(int)} says otherwise. */
  public static final int DEFAULT_LIMIT = 100;

  /** Which way a query walks the attribute's values. */
  public enum Order {
    /** Smallest value first; among equal values, smallest item name first. */
    ASCENDING,
    /** Largest value first; among equal values, largest item name first. */
    DESCENDING
  }

  /**
   * One end of a range.
   *
   * @param value the boundary value
   * @param inclusive whether an item whose value equals the boundary is in the range
   */
  public record Bound(String value, boolean inclusive) {
    public Bound {
      Objects.requireNonNull(value, "value");
    }

    /** Values at {@code value} belong to the range. */
    public static Bound inclusive(String value) {
      return new Bound(value, true);
    }

    /** Values at {@code value} do not belong to the range. */
    public static Bound exclusive(String value) {
      return new Bound(value, false);
    }
  }

  private final String attribute;
  private final @Nullable Bound lower;
  private final @Nullable Bound upper;
  private final Order order;
  private final int limit;
  private final @Nullable String after;

  private IndexQuery(
      String attribute,
      @Nullable Bound lower,
      @Nullable Bound upper,
      Order order,
      int limit,
      @Nullable String after) {
    this.attribute = Objects.requireNonNull(attribute, "attribute");
    this.lower = lower;
    this.upper = upper;
    this.order = Objects.requireNonNull(order, "order");
    this.limit = limit;
    this.after = after;
  }

  /** Every item that has {@code attribute}, ascending, {@link #DEFAULT_LIMIT} per page. */
  public static IndexQuery on(String attribute) {
    return new IndexQuery(attribute, null, null, Order.ASCENDING, DEFAULT_LIMIT, null);
  }

  /** Only items whose value is at or above (inclusive) or above (exclusive) {@code bound}. */
  public IndexQuery from(Bound bound) {
    return new IndexQuery(
        attribute, Objects.requireNonNull(bound, "bound"), upper, order, limit, after);
  }

  /** Only items whose value is at or below (inclusive) or below (exclusive) {@code bound}. */
  public IndexQuery to(Bound bound) {
    return new IndexQuery(
        attribute, lower, Objects.requireNonNull(bound, "bound"), order, limit, after);
  }

  /** Only items whose value equals {@code value}: both bounds inclusive at it. */
  public IndexQuery equalTo(String value) {
    return from(Bound.inclusive(value)).to(Bound.inclusive(value));
  }

  /** Walks the values in {@code order}. */
  public IndexQuery order(Order order) {
    return new IndexQuery(attribute, lower, upper, order, limit, after);
  }

  /** At most {@code limit} items per page (1 to {@link IndexLimits#maxPageSize()}). */
  public IndexQuery limit(int limit) {
    return new IndexQuery(attribute, lower, upper, order, limit, after);
  }

  /**
   * Continues after the last item of an earlier page of the same query: {@code token} is that
   * page's {@link IndexPage#nextToken()}.
   */
  public IndexQuery after(String token) {
    return new IndexQuery(
        attribute, lower, upper, order, limit, Objects.requireNonNull(token, "token"));
  }

  /** The same query from its first page. */
  public IndexQuery fromStart() {
    return new IndexQuery(attribute, lower, upper, order, limit, null);
  }

  public String attribute() {
    return attribute;
  }

  public Optional<Bound> lower() {
    return Optional.ofNullable(lower);
  }

  public Optional<Bound> upper() {
    return Optional.ofNullable(upper);
  }

  public Order order() {
    return order;
  }

  public int limit() {
    return limit;
  }

  /** The continuation token, absent for a first page. */
  public Optional<String> continuation() {
    return Optional.ofNullable(after);
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof IndexQuery)) {
      return false;
    }
    IndexQuery q = (IndexQuery) o;
    return attribute.equals(q.attribute)
        && Objects.equals(lower, q.lower)
        && Objects.equals(upper, q.upper)
        && order == q.order
        && limit == q.limit
        && Objects.equals(after, q.after);
  }

  @Override
  public int hashCode() {
    return Objects.hash(attribute, lower, upper, order, limit, after);
  }

  @Override
  public String toString() {
    return "IndexQuery{"
        + attribute
        + (lower == null ? "" : (lower.inclusive() ? " >= " : " > ") + lower.value())
        + (upper == null ? "" : (upper.inclusive() ? " <= " : " < ") + upper.value())
        + ", "
        + order
        + ", limit "
        + limit
        + (after == null ? "" : ", after a token")
        + '}';
  }
}
