package io.stratus.example.bookstore;

import io.stratus.codec.jackson.JacksonCodec;
import io.stratus.core.Database;
import io.stratus.core.Key;
import io.stratus.core.KeyRange;
import io.stratus.core.Sequence;
import io.stratus.core.TypedCollection;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Service;

/**
 * The store's transactions. Each request runs in its own transaction through {@code db.run} /
 * {@code db.read}, which run it again while a failure says nothing took effect (under snapshot
 * isolation: when a concurrent purchase of the same book committed first).
 *
 * <p>Why a purchase cannot oversell: it reads the book and writes the lowered stock and the order
 * in one transaction, and the database runs an isolating protocol (application.properties sets
 * {@code stratus.protocol=snapshot_isolation}); of two purchases that read the same stock, the
 * second to commit fails and runs again on the new stock. Under the weaker protocols two purchases
 * could both read 1 copy left and both succeed.
 */
@Service
public class Bookstore {
  static final String BOOKS = "books";
  static final String ORDERS = "orders";

  private final Database db;
  private final TypedCollection<Book> books =
      TypedCollection.of(BOOKS, JacksonCodec.of(Book.class));
  private final TypedCollection<Order> orders =
      TypedCollection.of(ORDERS, JacksonCodec.of(Order.class));
  private final Sequence orderIds;

  /** Thrown when a book has fewer copies than asked for; nothing was bought. */
  public static final class OutOfStockException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    OutOfStockException(Book b, int quantity) {
      super("only " + b.stock() + " of \"" + b.title() + "\" left, " + quantity + " asked for");
    }
  }

  /** Thrown for a book or order id that does not exist. */
  public static final class NotFoundException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NotFoundException(String what) {
      super(what + " not found");
    }
  }

  /**
   * Creates the collections and, in a database without books, the catalogue of {@code books}
   * titles with {@code stock} copies each (in one transaction, so that of two instances starting
   * together one seeds and the other finds it done).
   */
  public Bookstore(
      Database db,
      @Value("${bookstore.books:12}") int titles,
      @Value("${bookstore.initial-stock:50}") int stock) {
    this.db = db;
    db.createCollection(BOOKS);
    db.createCollection(ORDERS);
    this.orderIds = db.sequence("order-ids");
    db.run(
        tx -> {
          if (books.get(tx, Key.of(1L)).isEmpty()) {
            for (int i = 1; i <= titles; i++) {
              books.put(
                  tx,
                  Key.of(i),
                  new Book(i, "Volume " + i, "Author " + (1 + i % 5), 500 + 100L * i, stock));
            }
          }
          return null;
        });
  }

  /** Every book, by id. */
  public List<Book> books() {
    return db.read(tx -> values(books.scan(tx, KeyRange.all())));
  }

  /** One book. */
  public Book book(long id) {
    Optional<Book> b = db.read(tx -> books.get(tx, Key.of(id)));
    return b.orElseThrow(() -> new NotFoundException("book " + id));
  }

  /**
   * Buys {@code quantity} copies: lowers the stock and records the order in one transaction.
   *
   * @throws OutOfStockException when fewer copies are left (nothing changed)
   * @throws NotFoundException when there is no such book
   * @throws io.stratus.CommitStateUnknownException the purchase may have been recorded: look at
   *     the orders before buying again
   */
  public Order buy(long bookId, int quantity) {
    if (quantity < 1 || quantity > 10) {
      throw new IllegalArgumentException("quantity must be 1 to 10, got " + quantity);
    }
    long orderId = orderIds.next(); // one id per request, however often the transaction runs
    return db.run(
        tx -> {
          Book b =
              books
                  .get(tx, Key.of(bookId))
                  .orElseThrow(() -> new NotFoundException("book " + bookId));
          if (b.stock() < quantity) {
            throw new OutOfStockException(b, quantity);
          }
          books.put(tx, Key.of(bookId), b.withStock(b.stock() - quantity));
          Order o = new Order(orderId, bookId, b.title(), quantity, quantity * b.priceCents());
          orders.create(tx, Key.of(orderId), o);
          return o;
        });
  }

  /** One order. */
  public Order order(long id) {
    Optional<Order> o = db.read(tx -> orders.get(tx, Key.of(id)));
    return o.orElseThrow(() -> new NotFoundException("order " + id));
  }

  /** Every order, by id. */
  public List<Order> orders() {
    return db.read(tx -> values(orders.scan(tx, KeyRange.all())));
  }

  private static <T> List<T> values(List<TypedCollection.Entry<T>> entries) {
    List<T> out = new ArrayList<>(entries.size());
    for (TypedCollection.Entry<T> e : entries) {
      out.add(e.value());
    }
    return out;
  }
}
