package io.stratus.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.DuplicateKeyException;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Typed views: values in, values out, index extractors over the typed value; and upserts. */
@ExtendWith(SeedExtension.class)
class TypedCollectionTest {
  record Book(String title, int price) {}

  /** Price (4 bytes) then the title in UTF-8. */
  static final Codec<Book> BOOKS =
      new Codec<>() {
        @Override
        public byte[] encode(Book b) {
          byte[] t = b.title().getBytes(StandardCharsets.UTF_8);
          return ByteBuffer.allocate(4 + t.length).putInt(b.price()).put(t).array();
        }

        @Override
        public Book decode(byte[] payload) {
          ByteBuffer in = ByteBuffer.wrap(payload);
          int price = in.getInt();
          byte[] t = new byte[in.remaining()];
          in.get(t);
          return new Book(new String(t, StandardCharsets.UTF_8), price);
        }
      };

  private static final TypedCollection<Book> BOOKS_VIEW = TypedCollection.of("books", BOOKS);
  private static final IndexKeyExtractor BY_PRICE =
      BOOKS_VIEW.index(
          (key, book) -> book.price() > 0 ? Optional.of(Key.of(book.price())) : Optional.empty());

  @Test
  void valuesGoInAndComeOutTyped(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database db = f.open(f.config().indexExtractor("books", "byPrice", BY_PRICE));
      db.createCollection("books");
      db.createIndex("books", "byPrice", BY_PRICE);
      db.run(
          tx -> {
            BOOKS_VIEW.create(tx, Key.of(1L), new Book("Dune", 10));
            BOOKS_VIEW.create(tx, Key.of(2L), new Book("Emma", 7));
            return BOOKS_VIEW.put(tx, Key.of(3L), new Book("Free", 0)); // not in the index
          });

      Optional<Book> emma = db.read(tx -> BOOKS_VIEW.get(tx, Key.of(2L)));
      assertThat(emma).contains(new Book("Emma", 7));
      List<TypedCollection.Entry<Book>> all = db.read(tx -> BOOKS_VIEW.scan(tx, KeyRange.all()));
      assertThat(all).extracting(e -> e.value().title()).containsExactly("Dune", "Emma", "Free");
      List<TypedCollection.Entry<Book>> ten =
          db.read(tx -> BOOKS_VIEW.probe(tx, "byPrice", Key.of(10)));
      assertThat(ten).extracting(TypedCollection.Entry::key).containsExactly(Key.of(1L));

      boolean created = db.run(tx -> BOOKS_VIEW.put(tx, Key.of(1L), new Book("Dune", 12)));
      assertThat(created).isFalse();
      ten = db.read(tx -> BOOKS_VIEW.probe(tx, "byPrice", Key.of(10)));
      assertThat(ten).isEmpty();
      List<TypedCollection.Entry<Book>> priced =
          db.read(
              tx ->
                  BOOKS_VIEW.probeRange(tx, "byPrice", KeyRange.halfOpen(Key.of(1), Key.of(100))));
      assertThat(priced).extracting(e -> e.value().price()).containsExactly(7, 12);

      assertThatThrownBy(
              () ->
                  db.run(
                      tx -> {
                        BOOKS_VIEW.create(tx, Key.of(2L), new Book("again", 1));
                        return null;
                      }))
          .isInstanceOf(DuplicateKeyException.class);
      boolean deleted = db.run(tx -> BOOKS_VIEW.delete(tx, Key.of(2L)));
      assertThat(deleted).isTrue();
      emma = db.read(tx -> BOOKS_VIEW.get(tx, Key.of(2L)));
      assertThat(emma).isEmpty();
    }
  }

  @Test
  void putCreatesOrReplaces(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database db = f.open();
      db.createCollection("items");
      TypedCollection<String> items = TypedCollection.of("items", Codec.utf8());
      boolean first = db.run(tx -> items.put(tx, Key.of(1L), "one"));
      boolean second = db.run(tx -> items.put(tx, Key.of(1L), "uno"));
      Optional<String> now = db.read(tx -> items.get(tx, Key.of(1L)));
      assertThat(first).isTrue();
      assertThat(second).isFalse();
      assertThat(now).contains("uno");
    }
  }
}
