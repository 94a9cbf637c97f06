package io.stratus.example.bookstore;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The example application as a user meets it: started on a random port with its own
 * application.properties (the in-process cloud, snapshot isolation), driven over HTTP only.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {"bookstore.books=6", "bookstore.initial-stock=20"})
class BookstoreWebTest {
  private static final int THREADS = 8;
  private static final int BUYS_PER_THREAD = 12;

  @LocalServerPort int port;

  private final HttpClient http = HttpClient.newHttpClient();
  private final ObjectMapper json = new ObjectMapper();

  private HttpResponse<String> send(String method, String path) throws Exception {
    HttpRequest req =
        HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
            .method(method, HttpRequest.BodyPublishers.noBody())
            .build();
    return http.send(req, HttpResponse.BodyHandlers.ofString());
  }

  private JsonNode get(String path) throws Exception {
    HttpResponse<String> r = send("GET", path);
    assertThat(r.statusCode()).as("GET %s: %s", path, r.body()).isEqualTo(200);
    return json.readTree(r.body());
  }

  private Map<Long, Integer> stock() throws Exception {
    Map<Long, Integer> stock = new HashMap<>();
    for (JsonNode b : get("/books")) {
      stock.put(b.get("id").asLong(), b.get("stock").asInt());
    }
    return stock;
  }

  @Test
  void browseThenBuyConcurrentlyAndTheStockIsConserved() throws Exception {
    // Browse: the list, a book, the HTML page, a book that does not exist.
    Map<Long, Integer> before = stock();
    assertThat(before).hasSize(6).allSatisfy((id, n) -> assertThat(n).isEqualTo(20));
    assertThat(get("/books/3").get("title").asText()).isEqualTo("Volume 3");
    HttpResponse<String> page = send("GET", "/");
    assertThat(page.body()).contains("Stratus bookstore", "Volume 6", "id=\"stock-6\">20<");
    assertThat(send("GET", "/books/99").statusCode()).isEqualTo(404);
    assertThat(send("POST", "/books/1/buy?quantity=0").statusCode()).isEqualTo(400);

    // Buy concurrently: THREADS clients, mostly the two hottest books, so that purchases
    // conflict and some find the book sold out.
    long seed = System.nanoTime();
    System.out.println("BookstoreWebTest seed " + seed);
    Map<Long, Integer> bought = new ConcurrentHashMap<>();
    List<Long> orderIds = java.util.Collections.synchronizedList(new ArrayList<>());
    AtomicInteger soldOut = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      List<Future<?>> clients = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        SplittableRandom random = new SplittableRandom(seed + t);
        clients.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < BUYS_PER_THREAD; i++) {
                    long book =
                        random.nextInt(4) < 3 ? 1 + random.nextInt(2) : 1 + random.nextInt(6);
                    int quantity = 1 + random.nextInt(3);
                    HttpResponse<String> r =
                        send("POST", "/books/" + book + "/buy?quantity=" + quantity);
                    if (r.statusCode() == 409) {
                      soldOut.incrementAndGet();
                      continue;
                    }
                    assertThat(r.statusCode()).as("seed %d: %s", seed, r.body()).isEqualTo(201);
                    JsonNode order = json.readTree(r.body());
                    assertThat(order.get("bookId").asLong()).isEqualTo(book);
                    assertThat(order.get("quantity").asInt()).isEqualTo(quantity);
                    bought.merge(book, quantity, Integer::sum);
                    orderIds.add(order.get("id").asLong());
                  }
                  return null;
                }));
      }
      for (Future<?> f : clients) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }

    // Conserved: every copy is either still in stock or in exactly one order the client saw.
    Map<Long, Integer> after = stock();
    for (long id = 1; id <= 6; id++) {
      int sold = bought.getOrDefault(id, 0);
      assertThat(after.get(id))
          .as("seed %d, book %d", seed, id)
          .isEqualTo(20 - sold)
          .isNotNegative();
    }
    JsonNode orders = get("/orders");
    assertThat(orders.size()).as("seed %d", seed).isEqualTo(orderIds.size());
    Map<Long, Integer> recorded = new HashMap<>();
    for (JsonNode o : orders) {
      recorded.merge(o.get("bookId").asLong(), o.get("quantity").asInt(), Integer::sum);
    }
    assertThat(recorded).as("seed %d", seed).isEqualTo(bought);
    assertThat(get("/orders/" + orderIds.get(0)).get("id").asLong()).isEqualTo(orderIds.get(0));
    // The two hot books (40 copies, about 140 asked for) sold out.
    assertThat(soldOut.get()).as("seed %d", seed).isPositive();

    // Health and metrics, as an operator sees them.
    JsonNode health = get("/actuator/health");
    assertThat(health.at("/components/stratus/status").asText()).isEqualTo("UP");
    assertThat(health.at("/components/stratus/details/protocol").asText())
        .isEqualTo("snapshot_isolation");
    JsonNode commits = get("/actuator/metrics/stratus.commits");
    assertThat(commits.at("/measurements/0/value").asDouble())
        .isGreaterThanOrEqualTo(orderIds.size());
    JsonNode cost = get("/actuator/metrics/stratus.cloud.cost");
    assertThat(cost.at("/measurements/0/value").asDouble()).isPositive();
    System.out.printf(
        "%d orders, %d sold out, %.0f transaction retries, $%.6f of requests%n",
        orderIds.size(),
        soldOut.get(),
        get("/actuator/metrics/stratus.retries").at("/measurements/0/value").asDouble(),
        cost.at("/measurements/0/value").asDouble());
  }
}
