package io.stratus.example.bookstore;

import io.stratus.CommitStateUnknownException;
import io.stratus.StratusException;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The shop as JSON, under {@code /api}, beside the HTML pages.
 *
 * <p>Every route produces {@code application/json} only, and Spring matches that against the
 * request's {@code Accept} header before it calls the method: a client that accepts no JSON gets
 * 406 and nothing is ordered (an answer's format must be settled before a transaction commits).
 *
 * <p>Statuses: 201 and the order for an order placed; 400 with the problems of each field; 404
 * for an unknown book or order; 409 when too few copies are left (nothing ordered); 503 with
 * Retry-After when a transient failure outlasted the retries (nothing ordered, the client may
 * send it again); 500 saying so when the commit's outcome is unknown (look at the orders before
 * ordering again).
 */
@RestController
@RequestMapping(path = "/api", produces = MediaType.APPLICATION_JSON_VALUE)
public class ApiController {
  private final Bookstore store;

  public ApiController(Bookstore store) {
    this.store = store;
  }

  /** An order by the API: the customer's details and the books. */
  public record OrderRequest(CheckoutForm details, List<ShoppingCart.Line> lines) {}

  /** A page of books: every book, a subject's ({@code subject}) or a search ({@code q}). */
  @GetMapping("/items")
  public Views.CataloguePage items(
      @RequestParam(name = "q", required = false) String q,
      @RequestParam(name = "subject", required = false) String subject,
      @RequestParam(name = "page", defaultValue = "1") int page) {
    if (q != null && !q.isBlank()) {
      return store.search(q, page);
    }
    return subject != null ? store.subject(subject, page) : store.catalogue(page);
  }

  /** A book. */
  @GetMapping("/items/{id}")
  public Item item(@PathVariable("id") long id) {
    return store.item(id);
  }

  /** Places an order; 201 with the order and its address. */
  @PostMapping(path = "/orders", consumes = MediaType.APPLICATION_JSON_VALUE)
  public ResponseEntity<PlacedOrder> order(@RequestBody OrderRequest request) {
    if (request.details() == null) {
      throw new ShopException.Invalid(Map.of("details", "An order needs the customer's details."));
    }
    PlacedOrder placed = store.order(request.details(), request.lines());
    return ResponseEntity.created(URI.create("/api/orders/" + placed.order().id())).body(placed);
  }

  /** Every order with its lines. */
  @GetMapping("/orders")
  public List<PlacedOrder> orders() {
    return store.orders();
  }

  /** One order with its lines. */
  @GetMapping("/orders/{id}")
  public PlacedOrder order(@PathVariable("id") long id) {
    return store.order(id);
  }

  @ExceptionHandler(ShopException.NotFound.class)
  ResponseEntity<Map<String, Object>> notFound(ShopException.NotFound e) {
    return error(HttpStatus.NOT_FOUND, e.getMessage(), Map.of());
  }

  @ExceptionHandler(ShopException.OutOfStock.class)
  ResponseEntity<Map<String, Object>> outOfStock(ShopException.OutOfStock e) {
    return error(
        HttpStatus.CONFLICT,
        "nothing was ordered: " + e.getMessage(),
        Map.of("shortages", e.shortages()));
  }

  @ExceptionHandler(ShopException.Invalid.class)
  ResponseEntity<Map<String, Object>> invalid(ShopException.Invalid e) {
    return error(HttpStatus.BAD_REQUEST, e.getMessage(), Map.of("problems", e.problems()));
  }

  @ExceptionHandler(CommitStateUnknownException.class)
  ResponseEntity<Map<String, Object>> unknown(CommitStateUnknownException e) {
    return error(
        HttpStatus.INTERNAL_SERVER_ERROR,
        "the order may or may not have been placed: look at the orders before ordering again ("
            + e.getMessage()
            + ")",
        Map.of());
  }

  @ExceptionHandler(StratusException.class)
  ResponseEntity<Map<String, Object>> failed(StratusException e) {
    if (e.isRetryable()) {
      return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
          .header("Retry-After", "1")
          .contentType(MediaType.APPLICATION_JSON)
          .body(Map.of("error", "busy, nothing was changed: try again (" + e.getMessage() + ")"));
    }
    return error(HttpStatus.INTERNAL_SERVER_ERROR, e.getMessage(), Map.of());
  }

  private static ResponseEntity<Map<String, Object>> error(
      HttpStatus status, String message, Map<String, Object> more) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("error", String.valueOf(message));
    body.putAll(more);
    return ResponseEntity.status(status).contentType(MediaType.APPLICATION_JSON).body(body);
  }
}
