package io.stratus.core.query;

import io.stratus.InvalidRequestException;
import io.stratus.core.IndexKeyExtractor;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A foreign-key equi-join: each record of an outer {@link Query}'s page with the records of an
 * inner collection whose primary key ({@link #onKey}), or whose search key in one of its indexes
 * ({@link #onIndex}), equals the outer record's foreign key. The foreign key is computed from the
 * outer record like an index's search key ({@link IndexKeyExtractor}; {@link
 * io.stratus.core.TypedCollection#index} makes one from decoded values); an outer record without
 * one, or without a match, joins nothing.
 *
 * <p>The join runs client-side in a transaction that has not written ({@link
 * io.stratus.core.Transaction#join}): the outer page first, then the inner records for a batch of
 * {@link #batchSize()} outer records at a time, each distinct foreign key looked up once, in key
 * order. It is bounded: a page that would give more than {@link #maxRows()} joined rows fails
 * instead of growing without end. Its continuation is the outer query's. Immutable.
 */
public final class Join {
  /** The bound on joined rows of a join that sets none. */
  public static final int DEFAULT_MAX_ROWS = 1_000;

  /** The outer records per batch of a join that sets none. */
  public static final int DEFAULT_BATCH_SIZE = 100;

  private final Query outer;
  private final IndexKeyExtractor foreignKey;
  private final String inner;
  private final @Nullable String innerIndex; // null: the inner collection's primary key
  private final int maxRows;
  private final int batchSize;

  private Join(
      Query outer,
      IndexKeyExtractor foreignKey,
      String inner,
      @Nullable String innerIndex,
      int maxRows,
      int batchSize) {
    this.outer = outer;
    this.foreignKey = foreignKey;
    this.inner = inner;
    this.innerIndex = innerIndex;
    this.maxRows = maxRows;
    this.batchSize = batchSize;
  }

  /**
   * Joins each record of {@code outer}'s page to the record of {@code inner} whose key is its
   * foreign key (at most one: a many-to-one join, e.g. order lines to items).
   */
  public static Join onKey(Query outer, IndexKeyExtractor foreignKey, String inner) {
    return new Join(
        required(outer, "outer query"),
        required(foreignKey, "foreign key"),
        required(inner, "inner collection"),
        null,
        DEFAULT_MAX_ROWS,
        DEFAULT_BATCH_SIZE);
  }

  /**
   * Joins each record of {@code outer}'s page to the records of {@code inner} whose search key in
   * {@code innerIndex} is its foreign key, in record-key order (one-to-many, e.g. authors to their
   * items).
   */
  public static Join onIndex(
      Query outer, IndexKeyExtractor foreignKey, String inner, String innerIndex) {
    return new Join(
        required(outer, "outer query"),
        required(foreignKey, "foreign key"),
        required(inner, "inner collection"),
        required(innerIndex, "inner index"),
        DEFAULT_MAX_ROWS,
        DEFAULT_BATCH_SIZE);
  }

  /**
   * At most {@code maxRows} joined rows per page ({@link #DEFAULT_MAX_ROWS} unless set); a page
   * that would give more fails with {@link InvalidRequestException}.
   *
   * @throws InvalidRequestException unless 1 &lt;= maxRows &lt;= {@link Query#MAX_LIMIT}
   */
  public Join maxRows(int maxRows) {
    return new Join(outer, foreignKey, inner, innerIndex, bounded(maxRows, "maxRows"), batchSize);
  }

  /**
   * {@code batchSize} outer records per batch of inner look-ups ({@link #DEFAULT_BATCH_SIZE}
   * unless set).
   *
   * @throws InvalidRequestException unless 1 &lt;= batchSize &lt;= {@link Query#MAX_LIMIT}
   */
  public Join batchSize(int batchSize) {
    return new Join(outer, foreignKey, inner, innerIndex, maxRows, bounded(batchSize, "batchSize"));
  }

  /** The page of this join after the one that returned {@code continuation} ({@link Query#after}). */
  public Join after(Continuation continuation) {
    return new Join(outer.after(continuation), foreignKey, inner, innerIndex, maxRows, batchSize);
  }

  /** The outer query. */
  public Query outer() {
    return outer;
  }

  /** The outer record's foreign key. */
  public IndexKeyExtractor foreignKey() {
    return foreignKey;
  }

  /** The inner collection. */
  public String inner() {
    return inner;
  }

  /** The inner collection's index the foreign key matches, or empty for its primary key. */
  public Optional<String> innerIndex() {
    return Optional.ofNullable(innerIndex);
  }

  /** The most joined rows a page may give. */
  public int maxRows() {
    return maxRows;
  }

  /** Outer records per batch of inner look-ups. */
  public int batchSize() {
    return batchSize;
  }

  private int bounded(int n, String what) {
    if (n < 1 || n > Query.MAX_LIMIT) {
      throw new InvalidRequestException(
          what + " of " + this + " is " + n + "; give 1 to " + Query.MAX_LIMIT);
    }
    return n;
  }

  private static <T> T required(@Nullable T value, String what) {
    if (value == null) {
      throw new InvalidRequestException("the " + what + " of a join must not be null");
    }
    return value;
  }

  @Override
  public String toString() {
    return "Join{"
        + outer
        + " to "
        + inner
        + (innerIndex == null ? "" : "." + innerIndex)
        + " maxRows "
        + maxRows
        + "}";
  }
}
