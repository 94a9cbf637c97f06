package com.example.shop;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.codec.jackson.JacksonCodec;
import io.stratus.core.Database;
import io.stratus.core.IndexKeyExtractor;
import io.stratus.core.Key;
import io.stratus.core.KeyRange;
import io.stratus.core.TypedCollection;
import io.stratus.core.TypedCollection.Entry;
import io.stratus.core.query.Continuation;
import io.stratus.core.query.Join;
import io.stratus.core.query.Joined;
import io.stratus.core.query.Order;
import io.stratus.core.query.Query;
import io.stratus.core.query.QueryPage;
import io.stratus.junit.StratusTest;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@StratusTest
class BookQueryTest {
  record Book(String title, long authorId, int year) {}

  record Author(String name) {}

  static final TypedCollection<Book> BOOKS =
      TypedCollection.of("books", JacksonCodec.of(Book.class));
  static final TypedCollection<Author> AUTHORS =
      TypedCollection.of("authors", JacksonCodec.of(Author.class));
  static final IndexKeyExtractor BY_YEAR = BOOKS.index((key, b) -> Optional.of(Key.of(b.year())));
  static final IndexKeyExtractor AUTHOR =
      BOOKS.index((key, b) -> Optional.of(Key.of(b.authorId())));

  @BeforeEach
  void load(Database db) {
    db.createCollection("books");
    db.createCollection("authors");
    db.createIndex("books", "byYear", BY_YEAR);
    db.run(
        tx -> {
          AUTHORS.put(tx, Key.of(1L), new Author("Herbert"));
          AUTHORS.put(tx, Key.of(2L), new Author("Lem"));
          AUTHORS.put(tx, Key.of(3L), new Author("Gibson"));
          BOOKS.put(tx, Key.of(10L), new Book("Dune", 1, 1965));
          BOOKS.put(tx, Key.of(11L), new Book("Solaris", 2, 1961));
          BOOKS.put(tx, Key.of(12L), new Book("Neuromancer", 3, 1984));
          return BOOKS.put(tx, Key.of(13L), new Book("Frankenstein", 0, 1818));
        });
  }

  @Test
  void theNewestBooksPageByPageWithTheirAuthors(Database db) {
    Query newest =
        Query.onIndex("books", "byYear")
            .range(KeyRange.atLeast(Key.of(1950)))
            .order(Order.DESCENDING)
            .limit(2);
    QueryPage<Entry<Book>> first = db.read(tx -> BOOKS.query(tx, newest));
    assertThat(first.rows())
        .extracting(e -> e.value().title())
        .containsExactly("Neuromancer", "Dune");

    String next = first.continuation().orElseThrow().toString(); // e.g. in a "next" link
    Query page2 = newest.after(Continuation.parse(next)); // in a later transaction
    assertThat(db.read(tx -> BOOKS.query(tx, page2)).rows())
        .extracting(e -> e.value().title())
        .containsExactly("Solaris");

    Join withAuthors = Join.onKey(newest, AUTHOR, "authors"); // book.authorId -> author's key
    QueryPage<Joined<Entry<Book>, Entry<Author>>> joined =
        db.read(tx -> BOOKS.join(tx, withAuthors, AUTHORS));
    assertThat(joined.rows())
        .extracting(j -> j.outer().value().title() + " by " + j.inner().value().name())
        .containsExactly("Neuromancer by Gibson", "Dune by Herbert");
  }
}
