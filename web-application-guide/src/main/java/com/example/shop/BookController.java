package com.example.shop;

import io.stratus.codec.jackson.JacksonCodec;
import io.stratus.core.Database;
import io.stratus.core.Key;
import io.stratus.core.Sequence;
import io.stratus.core.TypedCollection;
import java.net.URI;
import java.util.Optional;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

@RestController
public class BookController {
  private static final TypedCollection<Book> BOOKS =
      TypedCollection.of("books", JacksonCodec.of(Book.class));

  private final Database db;
  private final Sequence bookIds;

  public BookController(Database db) {
    this.db = db;
    db.createCollection("books"); // at start-up; idempotent, so every instance may do it
    this.bookIds = db.sequence("bookIds");
  }

  @PostMapping("/books")
  public ResponseEntity<Book> add(@RequestBody Book book) {
    long id = bookIds.next();
    db.run(tx -> BOOKS.put(tx, Key.of(id), book)); // one transaction, retried while safe
    return ResponseEntity.created(URI.create("/books/" + id)).body(book);
  }

  @GetMapping("/books/{id}")
  public ResponseEntity<Book> get(@PathVariable("id") long id) {
    Optional<Book> book = db.read(tx -> BOOKS.get(tx, Key.of(id))); // a read-only transaction
    return ResponseEntity.of(book); // 404 when absent
  }
}
