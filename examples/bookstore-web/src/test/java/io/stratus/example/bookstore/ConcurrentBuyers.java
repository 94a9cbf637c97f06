package io.stratus.example.bookstore;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Buyers ordering the same few books at once through the JSON API, each its own HTTP client, and
 * the check that no copy was lost or made up: for every book, the stock before equals the stock
 * after plus the copies in the orders the buyers were told were placed, and the orders the shop
 * holds are exactly those.
 */
final class ConcurrentBuyers {
  /** What a run did. */
  record Result(int placed, int soldOut) {}

  private ConcurrentBuyers() {}

  /**
   * {@code buyers} threads each send {@code ordersEach} orders of 1 to 3 copies of a book drawn
   * from {@code books} (seeded by {@code seed}), then the stock and the orders are checked.
   */
  static Result runAndCheck(URI base, List<Long> books, int buyers, int ordersEach, long seed)
      throws Exception {
    ShopClient auditor = new ShopClient(base);
    Map<Long, Integer> before = auditor.stock();
    Set<Long> earlierOrders = new HashSet<>();
    for (JsonNode o : auditor.json("/api/orders")) {
      earlierOrders.add(o.at("/order/id").asLong());
    }

    Map<Long, Integer> bought = new ConcurrentHashMap<>();
    List<Long> placed = Collections.synchronizedList(new ArrayList<>());
    AtomicInteger soldOut = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(buyers);
    try {
      List<Future<?>> running = new ArrayList<>();
      for (int t = 0; t < buyers; t++) {
        SplittableRandom random = new SplittableRandom(seed + t);
        ShopClient buyer = new ShopClient(base);
        running.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < ordersEach; i++) {
                    long book = books.get(random.nextInt(books.size()));
                    int quantity = 1 + random.nextInt(3);
                    HttpResponse<String> r = buyer.order(book, quantity);
                    if (r.statusCode() == 409) {
                      soldOut.incrementAndGet();
                      continue;
                    }
                    assertThat(r.statusCode()).as("seed %d: %s", seed, r.body()).isEqualTo(201);
                    JsonNode order = ShopClient.parse(r.body());
                    assertThat(order.at("/lines/0/itemId").asLong()).isEqualTo(book);
                    assertThat(order.at("/lines/0/quantity").asInt()).isEqualTo(quantity);
                    bought.merge(book, quantity, Integer::sum);
                    placed.add(order.at("/order/id").asLong());
                  }
                  return null;
                }));
      }
      for (Future<?> f : running) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }

    Map<Long, Integer> after = auditor.stock();
    for (Map.Entry<Long, Integer> b : before.entrySet()) {
      int sold = bought.getOrDefault(b.getKey(), 0);
      assertThat(after.get(b.getKey()))
          .as("seed %d, book %d: stock after = stock before - copies sold", seed, b.getKey())
          .isEqualTo(b.getValue() - sold)
          .isNotNegative();
    }
    assertThat(new HashSet<>(placed))
        .as("seed %d: order ids are unique", seed)
        .hasSize(placed.size());
    Map<Long, Integer> recorded = new HashMap<>();
    Set<Long> newOrders = new HashSet<>();
    for (JsonNode o : auditor.json("/api/orders")) {
      long id = o.at("/order/id").asLong();
      if (earlierOrders.contains(id)) {
        continue;
      }
      newOrders.add(id);
      for (JsonNode l : o.get("lines")) {
        recorded.merge(l.get("itemId").asLong(), l.get("quantity").asInt(), Integer::sum);
      }
    }
    assertThat(newOrders)
        .as("seed %d: the shop holds the orders placed", seed)
        .containsExactlyInAnyOrderElementsOf(placed);
    assertThat(recorded).as("seed %d", seed).isEqualTo(bought);
    return new Result(placed.size(), soldOut.get());
  }
}
