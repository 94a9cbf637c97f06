package io.stratus.example.bookstore;

import io.stratus.CommitStateUnknownException;
import io.stratus.StratusException;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.util.HtmlUtils;

/**
 * The store over HTTP: JSON under {@code /books} and {@code /orders}, and one HTML page at
 * {@code /} to browse and buy from a browser.
 *
 * <p>How failures map to statuses: a purchase that cannot be made is 409 (out of stock) or 404;
 * a transient failure that outlasted {@code db.run}'s retries is 503, and the client may try
 * again; a commit whose outcome is unknown is 500 with a message saying so, since trying again
 * could buy twice.
 */
@RestController
public class BookstoreController {
  private final Bookstore store;

  public BookstoreController(Bookstore store) {
    this.store = store;
  }

  @GetMapping("/books")
  public List<Book> books() {
    return store.books();
  }

  @GetMapping("/books/{id}")
  public Book book(@PathVariable("id") long id) {
    return store.book(id);
  }

  @PostMapping("/books/{id}/buy")
  public ResponseEntity<Order> buy(
      @PathVariable("id") long id,
      @RequestParam(name = "quantity", defaultValue = "1") int quantity) {
    return ResponseEntity.status(HttpStatus.CREATED).body(store.buy(id, quantity));
  }

  @GetMapping("/orders")
  public List<Order> orders() {
    return store.orders();
  }

  @GetMapping("/orders/{id}")
  public Order order(@PathVariable("id") long id) {
    return store.order(id);
  }

  @GetMapping(value = "/", produces = MediaType.TEXT_HTML_VALUE)
  public String index() {
    StringBuilder html =
        new StringBuilder(
            "<!DOCTYPE html><html><head><meta charset=\"utf-8\">"
                + "<title>Stratus bookstore</title></head><body><h1>Stratus bookstore</h1><table>"
                + "<tr><th>title</th><th>author</th><th>price</th><th>stock</th><th></th></tr>");
    for (Book b : store.books()) {
      html.append("<tr><td><a href=\"/books/")
          .append(b.id())
          .append("\">")
          .append(HtmlUtils.htmlEscape(b.title()))
          .append("</a></td><td>")
          .append(HtmlUtils.htmlEscape(b.author()))
          .append("</td><td>")
          .append(String.format("$%d.%02d", b.priceCents() / 100, b.priceCents() % 100))
          .append("</td><td id=\"stock-")
          .append(b.id())
          .append("\">")
          .append(b.stock())
          .append("</td><td><form method=\"post\" action=\"/books/")
          .append(b.id())
          .append("/buy\"><button>buy one</button></form></td></tr>");
    }
    return html.append(
            "</table><p><a href=\"/orders\">orders</a> · "
                + "<a href=\"/actuator/health\">health</a></p></body></html>")
        .toString();
  }

  @ExceptionHandler(Bookstore.NotFoundException.class)
  ResponseEntity<Map<String, String>> notFound(Bookstore.NotFoundException e) {
    return error(HttpStatus.NOT_FOUND, e.getMessage());
  }

  @ExceptionHandler(Bookstore.OutOfStockException.class)
  ResponseEntity<Map<String, String>> outOfStock(Bookstore.OutOfStockException e) {
    return error(HttpStatus.CONFLICT, e.getMessage());
  }

  @ExceptionHandler(IllegalArgumentException.class)
  ResponseEntity<Map<String, String>> badRequest(IllegalArgumentException e) {
    return error(HttpStatus.BAD_REQUEST, e.getMessage());
  }

  @ExceptionHandler(CommitStateUnknownException.class)
  ResponseEntity<Map<String, String>> unknown(CommitStateUnknownException e) {
    return error(
        HttpStatus.INTERNAL_SERVER_ERROR,
        "the purchase may or may not have been"
            + " recorded: look at your orders before buying again ("
            + e.getMessage()
            + ")");
  }

  @ExceptionHandler(StratusException.class)
  ResponseEntity<Map<String, String>> failed(StratusException e) {
    return e.isRetryable()
        ? ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
            .header("Retry-After", "1")
            .body(Map.of("error", "busy, nothing was changed: try again (" + e.getMessage() + ")"))
        : error(HttpStatus.INTERNAL_SERVER_ERROR, e.getMessage());
  }

  private static ResponseEntity<Map<String, String>> error(HttpStatus status, String message) {
    return ResponseEntity.status(status).body(Map.of("error", String.valueOf(message)));
  }
}
