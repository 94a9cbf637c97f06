package io.stratus.core.query;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * One page of a query's results, in the query's order, and where the next page starts. A page that
 * holds as many results as the query's limit always has a continuation (the next page may be
 * empty); a shorter page has none: the query's range was read to its end. Immutable.
 *
 * @param <R> the type of a result: a record, a key, a decoded value, a joined pair
 */
public final class QueryPage<R> {
  private final List<R> rows;
  private final @Nullable Continuation continuation; // null: no more

  /** A page of {@code rows} (copied), continued by {@code continuation} when present. */
  public QueryPage(List<R> rows, Optional<Continuation> continuation) {
    this.rows = Collections.unmodifiableList(new ArrayList<>(rows));
    this.continuation = continuation.orElse(null);
  }

  /** The results, in the query's order. */
  public List<R> rows() {
    return rows;
  }

  /** Where the next page starts ({@link Query#after}), or empty after the last page. */
  public Optional<Continuation> continuation() {
    return Optional.ofNullable(continuation);
  }

  /** This page with every result mapped by {@code f}, and the same continuation. */
  public <S> QueryPage<S> map(Function<? super R, ? extends S> f) {
    List<S> out = new ArrayList<>(rows.size());
    for (R r : rows) {
      out.add(f.apply(r));
    }
    return new QueryPage<>(out, continuation());
  }

  @Override
  public String toString() {
    return "QueryPage{" + rows.size() + " rows" + (continuation == null ? "" : ", more") + "}";
  }
}
