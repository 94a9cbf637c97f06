package io.stratus.core;

import io.stratus.InvalidRequestException;
import io.stratus.core.query.Join;
import io.stratus.core.query.Joined;
import io.stratus.core.query.Query;
import io.stratus.core.query.QueryPage;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A collection seen through a {@link Codec}: the record operations of {@link Transaction} taking
 * and returning the application's values instead of payload bytes. A view holds no state but the
 * collection's name and the codec, so one instance serves every thread and transaction:
 *
 * <pre>{@code
 * TypedCollection<Book> books = TypedCollection.of("books", bookCodec);
 * Optional<Book> b = db.read(tx -> books.get(tx, Key.of(42L)));
 * db.run(tx -> books.put(tx, Key.of(42L), b.get().withPrice(10)));
 * }</pre>
 *
 * @param <T> the value type
 */
public final class TypedCollection<T> {
  /** A record of a typed collection: its key and decoded value. */
  public record Entry<T>(Key key, T value) {}

  private final String name;
  private final Codec<T> codec;

  private TypedCollection(String name, Codec<T> codec) {
    this.name = Names.check("collection", name);
    this.codec = Args.notNull(codec, "codec");
  }

  /**
   * The view of collection {@code name} through {@code codec}.
   *
   * @throws io.stratus.InvalidRequestException for an invalid collection name
   */
  public static <T> TypedCollection<T> of(String name, Codec<T> codec) {
    return new TypedCollection<>(name, codec);
  }

  /** The collection's name. */
  public String name() {
    return name;
  }

  /** The codec. */
  public Codec<T> codec() {
    return codec;
  }

  /** The value with {@code key}, or empty. */
  public Optional<T> get(Transaction tx, Key key) {
    return tx.read(name, key).map(codec::decode);
  }

  /** Creates or replaces the record (an upsert); true when it created it. */
  public boolean put(Transaction tx, Key key, T value) {
    return tx.put(name, key, codec.encode(value));
  }

  /**
   * Creates the record.
   *
   * @throws io.stratus.DuplicateKeyException when the key exists
   */
  public void create(Transaction tx, Key key, T value) {
    tx.create(name, key, codec.encode(value));
  }

  /** Replaces the value of an existing record; false, changing nothing, when there is none. */
  public boolean update(Transaction tx, Key key, T value) {
    return tx.update(name, key, codec.encode(value));
  }

  /** Deletes the record; false when there was none. */
  public boolean delete(Transaction tx, Key key) {
    return tx.delete(name, key);
  }

  /** The records whose keys lie in {@code range}, in key order, decoded. */
  public List<Entry<T>> scan(Transaction tx, KeyRange range) {
    List<Entry<T>> out = new ArrayList<>();
    try (RecordCursor c = tx.scan(name, range)) {
      while (c.hasNext()) {
        Record r = c.next();
        out.add(new Entry<>(r.key(), codec.decode(r.payload())));
      }
    }
    return out;
  }

  /** The records whose search key in {@code index} equals {@code searchKey}, decoded. */
  public List<Entry<T>> probe(Transaction tx, String index, Key searchKey) {
    return decode(tx.probe(name, index, searchKey));
  }

  /** The records whose search key in {@code index} lies in {@code searchKeys}, decoded. */
  public List<Entry<T>> probeRange(Transaction tx, String index, KeyRange searchKeys) {
    return decode(tx.probeRange(name, index, searchKeys));
  }

  /**
   * A page of {@code query}'s records, decoded ({@link Transaction#query}).
   *
   * @throws InvalidRequestException when the query reads another collection
   */
  public QueryPage<Entry<T>> query(Transaction tx, Query query) {
    Args.notNull(query, "query");
    reads(query.collection(), query);
    return tx.query(query).map(this::decode);
  }

  /**
   * A page of {@code join} from this collection's records to {@code inner}'s, both decoded
   * ({@link Transaction#join}).
   *
   * @throws InvalidRequestException when the join's outer query reads another collection than
   *     this one, or its inner collection is not {@code inner}'s
   */
  public <I> QueryPage<Joined<Entry<T>, Entry<I>>> join(
      Transaction tx, Join join, TypedCollection<I> inner) {
    Args.notNull(join, "join");
    Args.notNull(inner, "inner");
    reads(join.outer().collection(), join);
    inner.reads(join.inner(), join);
    return tx.join(join).map(j -> new Joined<>(decode(j.outer()), inner.decode(j.inner())));
  }

  private void reads(String collection, Object what) {
    if (!name.equals(collection)) {
      throw new InvalidRequestException(
          what + " reads collection " + collection + ", not " + name + "; run it on its view");
    }
  }

  private Entry<T> decode(Record r) {
    return new Entry<>(r.key(), codec.decode(r.payload()));
  }

  /**
   * An index extractor that reads the typed value: {@code searchKey} gives the search key of a
   * record from its key and decoded value, or empty to leave it out of the index.
   */
  public IndexKeyExtractor index(TypedIndexKey<T> searchKey) {
    Args.notNull(searchKey, "searchKey");
    return (key, payload) ->
        searchKey.of(Key.ofBytes(key), codec.decode(payload)).map(Key::toBytes);
  }

  private List<Entry<T>> decode(List<Record> records) {
    List<Entry<T>> out = new ArrayList<>(records.size());
    for (Record r : records) {
      out.add(decode(r));
    }
    return out;
  }

  /** The search key of a typed record in a secondary index. */
  @FunctionalInterface
  public interface TypedIndexKey<T> {
    /** The search key of the record with {@code key} and {@code value}, or empty for none. */
    Optional<Key> of(Key key, T value);
  }

  @Override
  public String toString() {
    return "TypedCollection{" + name + "}";
  }
}
