package io.stratus.core;

import io.stratus.InvalidRequestException;
import io.stratus.btree.SecondaryKeys;
import io.stratus.btree.TreeCursor;
import io.stratus.core.Catalog.CollectionDef;
import io.stratus.core.Catalog.IndexDef;
import io.stratus.core.query.Continuation;
import io.stratus.core.query.Join;
import io.stratus.core.query.Joined;
import io.stratus.core.query.Order;
import io.stratus.core.query.Query;
import io.stratus.core.query.QueryPage;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Runs {@link Query queries} and {@link Join joins} in one transaction, reading through its read
 * path: index entries and records come from {@link IndexSource}s and the transaction's record
 * reads, so each protocol's read guarantees hold for them as for {@link Transaction#read}.
 *
 * <p>An index query reads index entries a piece at a time and resolves each to its record in the
 * primary tree, dropping entries whose record is gone or no longer has that search key (stale
 * entries cannot mislead a query), until the page is full or the range ends.
 */
final class QueryRunner {
  private final Transaction tx;

  QueryRunner(Transaction tx) {
    this.tx = tx;
  }

  /** A page of {@code query}'s records. */
  QueryPage<Record> run(Query query) {
    CollectionDef c = tx.collection(query.collection());
    Optional<IndexDef> index = query.index().map(i -> tx.index(c, i));
    io.stratus.btree.KeyRange range = Transaction.toTree(query.range());
    if (index.isPresent()) {
      range = SecondaryKeys.forSearchRange(range);
    }
    Optional<Continuation> from = query.continuation();
    if (from.isPresent()) {
      range = after(range, from.get().position(query).toBytes(), query.order());
    }
    Rows rows = read(c, index, range, query.order(), query.limit());
    byte[] last = rows.lastPosition; // set on every full page: a limit is at least 1
    Optional<Continuation> next =
        rows.records.size() == query.limit() && last != null
            ? Optional.of(Continuation.of(query, Key.wrap(last)))
            : Optional.empty();
    return new QueryPage<>(rows.records, next);
  }

  /** Records read and the key (of the source: primary or index entry) of the last one. */
  private record Rows(List<Record> records, byte @Nullable [] lastPosition) {}

  private Rows read(
      CollectionDef c,
      Optional<IndexDef> index,
      io.stratus.btree.KeyRange range,
      Order order,
      int limit) {
    IndexSource source = tx.source(c, index);
    IndexKeyExtractor f = index.map(d -> tx.extractorOf(c, d)).orElse(null);
    List<Record> out = new ArrayList<>();
    byte[] last = null;
    io.stratus.btree.KeyRange rest = range;
    while (true) {
      IndexSource.Piece piece = source.read(rest, order, limit - out.size());
      for (TreeCursor.Entry e : piece.entries()) {
        Optional<Record> r =
            index.isEmpty()
                ? Optional.of(Record.wrap(Key.wrap(e.keyUnsafe()), e.valueUnsafe()))
                : resolve(tx, c, f, e.keyUnsafe());
        if (r.isPresent()) {
          out.add(r.get());
          last = e.keyUnsafe();
        }
      }
      if (out.size() == limit || piece.resumeAfter().isEmpty()) {
        return new Rows(out, last);
      }
      rest = after(rest, piece.resumeAfter().get(), order);
    }
  }

  /** Every record whose entry of {@code index} lies in {@code range}, in the index's order. */
  List<Record> all(CollectionDef c, IndexDef index, io.stratus.btree.KeyRange range) {
    return read(c, Optional.of(index), range, Order.ASCENDING, Integer.MAX_VALUE).records;
  }

  /**
   * The record an index entry names, read through the transaction; empty when it is gone or, with
   * {@code extractor} attached, no longer has the entry's search key.
   */
  static Optional<Record> resolve(
      Transaction tx, CollectionDef c, @Nullable IndexKeyExtractor extractor, byte[] composite) {
    byte[] recordKey = SecondaryKeys.recordKey(composite);
    Optional<byte[]> payload = tx.readRecord(c.primary, recordKey);
    if (payload.isEmpty()) {
      return Optional.empty();
    }
    if (extractor != null) {
      Optional<byte[]> now = extractor.extract(recordKey.clone(), payload.get().clone());
      if (now.isEmpty() || !Arrays.equals(now.get(), SecondaryKeys.searchKey(composite))) {
        return Optional.empty();
      }
    }
    return Optional.of(Record.wrap(Key.wrap(recordKey), payload.get()));
  }

  /** The part of {@code range} strictly after {@code key} in {@code order}. */
  static io.stratus.btree.KeyRange after(io.stratus.btree.KeyRange range, byte[] key, Order order) {
    if (order == Order.ASCENDING) {
      Optional<byte[]> lo = range.lowerBound();
      if (lo.isPresent() && Arrays.compareUnsigned(lo.get(), key) > 0) {
        return range;
      }
      return io.stratus.btree.KeyRange.of(
          key, false, range.upperBound().orElse(null), range.isUpperInclusive());
    }
    Optional<byte[]> hi = range.upperBound();
    if (hi.isPresent() && Arrays.compareUnsigned(hi.get(), key) < 0) {
      return range;
    }
    return io.stratus.btree.KeyRange.of(
        range.lowerBound().orElse(null), range.isLowerInclusive(), key, false);
  }

  // ---- joins ----

  /** A page of {@code join}: the outer query's page, each record with its inner matches. */
  QueryPage<Joined<Record, Record>> join(Join join) {
    if (tx.hasChanges()) {
      throw new InvalidRequestException(
          "transaction "
              + tx.id()
              + " has written, and "
              + join
              + " runs only in a transaction that has not, so that it reads one state of both"
              + " collections; run it in its own transaction (db.read) or before the writes");
    }
    CollectionDef inner = tx.collection(join.inner());
    Optional<IndexDef> innerIndex = join.innerIndex().map(i -> tx.index(inner, i));
    QueryPage<Record> outer = run(join.outer());
    List<Record> rows = outer.rows();
    List<Joined<Record, Record>> out = new ArrayList<>();
    for (int from = 0; from < rows.size(); from += join.batchSize()) {
      List<Record> batch = rows.subList(from, Math.min(rows.size(), from + join.batchSize()));
      List<byte[]> keys = new ArrayList<>(batch.size());
      Map<byte[], List<Record>> matches = new TreeMap<>(Arrays::compareUnsigned);
      for (Record r : batch) {
        byte[] fk = join.foreignKey().extract(r.key().toBytes(), r.payload()).orElse(null);
        keys.add(fk);
        if (fk != null) {
          matches.put(fk, List.of());
        }
      }
      int budget = join.maxRows() - out.size();
      for (Map.Entry<byte[], List<Record>> m : matches.entrySet()) {
        List<Record> found = lookUp(inner, innerIndex, m.getKey(), budget + 1);
        budget -= found.size();
        if (budget < 0) {
          throw tooMany(join, rows.size());
        }
        m.setValue(found);
      }
      for (int i = 0; i < batch.size(); i++) {
        byte[] fk = keys.get(i);
        for (Record r : fk == null ? List.<Record>of() : matches.getOrDefault(fk, List.of())) {
          if (out.size() == join.maxRows()) {
            throw tooMany(join, rows.size());
          }
          out.add(new Joined<>(batch.get(i), r));
        }
      }
    }
    return new QueryPage<>(out, outer.continuation());
  }

  private List<Record> lookUp(
      CollectionDef inner, Optional<IndexDef> index, byte[] key, int limit) {
    if (index.isEmpty()) {
      return tx.readRecord(inner.primary, key)
          .map(p -> List.of(Record.wrap(Key.wrap(key), p)))
          .orElse(List.of());
    }
    return read(inner, index, SecondaryKeys.forSearchKey(key), Order.ASCENDING, limit).records;
  }

  private static InvalidRequestException tooMany(Join join, int outerRows) {
    return new InvalidRequestException(
        join
            + " gives more than "
            + join.maxRows()
            + " joined rows for a page of "
            + outerRows
            + " outer records; lower the outer query's limit or raise the join's maxRows");
  }
}
