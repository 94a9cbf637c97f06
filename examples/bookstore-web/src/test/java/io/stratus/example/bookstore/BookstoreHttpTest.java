package io.stratus.example.bookstore;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

/** The shop over HTTP: the JSON API, the HTML forms as a browser posts them, and the failures. */
@InProcessShop
class BookstoreHttpTest {
  @LocalServerPort int port;

  private URI base;
  private ShopClient client;

  @BeforeEach
  void connect() {
    base = URI.create("http://localhost:" + port);
    client = new ShopClient(base);
  }

  @Test
  void theJsonApiListsSearchesAndRefusesWhatItCannotTake() throws Exception {
    JsonNode first = client.json("/api/items");
    assertThat(first.get("listings")).hasSize(12);
    assertThat(first.get("hasNext").asBoolean()).isTrue();
    JsonNode second = client.json("/api/items?page=2");
    assertThat(second.get("listings")).hasSize(12);
    assertThat(second.get("hasNext").asBoolean()).isFalse();

    Item five = CatalogueSeed.items(24, 20, 12).get(4);
    assertThat(client.json("/api/items/5").get("title").asText()).isEqualTo(five.title());
    assertThat(ids(client.json("/api/items?q=" + encode(five.title())))).contains(5L);
    // Titles are filed without a leading article: "The Quiet Harbor" under "quiet".
    Item article =
        CatalogueSeed.items(24, 20, 12).stream()
            .filter(i -> i.title().startsWith("The "))
            .findFirst()
            .orElseThrow();
    String word = article.title().split(" ")[1].substring(0, 3).toUpperCase(Locale.ROOT);
    assertThat(ids(client.json("/api/items?q=" + word))).contains(article.id());
    assertThat(ids(client.json("/api/items?q=" + encode("the " + word)))).contains(article.id());
    JsonNode subject = client.json("/api/items?subject=" + five.subject());
    assertThat(subject.get("listings").findValues("subject"))
        .isNotEmpty()
        .allSatisfy(s -> assertThat(s.asText()).isEqualTo(five.subject()));

    HttpResponse<String> missing =
        client.send("GET", "/api/items/999", "application/json", null, null);
    assertThat(missing.statusCode()).isEqualTo(404);
    assertThat(ShopClient.parse(missing.body()).get("error").asText()).contains("book 999");
    HttpResponse<String> none = client.order(5, 0);
    assertThat(none.statusCode()).isEqualTo(400);
    assertThat(ShopClient.parse(none.body()).at("/problems/quantity").asText()).contains("1 to 10");
  }

  private static List<Long> ids(JsonNode page) {
    return page.get("listings").findValues("item").stream().map(i -> i.get("id").asLong()).toList();
  }

  private static String encode(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  @Test
  void anOrderThatAcceptsNoJsonIsRefusedBeforeAnythingIsOrdered() throws Exception {
    int stockBefore = client.json("/api/items/6").get("stock").asInt();
    int ordersBefore = client.json("/api/orders").size();

    HttpResponse<String> html = client.order(6, 1, "text/html");

    assertThat(html.statusCode()).isEqualTo(406);
    assertThat(client.json("/api/items/6").get("stock").asInt()).isEqualTo(stockBefore);
    assertThat(client.json("/api/orders").size()).isEqualTo(ordersBefore);
    // The pages, likewise, are HTML only.
    assertThat(client.send("GET", "/", "application/json", null, null).statusCode()).isEqualTo(406);
  }

  @Test
  void theHtmlFormsPostThenRedirectAndAnOrderIsPlacedOnce() throws Exception {
    int stockBefore = client.json("/api/items/7").get("stock").asInt();

    HttpResponse<String> added = client.form("/cart", Map.of("itemId", "7", "quantity", "2"));
    assertThat(added.statusCode()).isEqualTo(303);
    assertThat(added.headers().firstValue("Location"))
        .hasValueSatisfying(l -> assertThat(l).endsWith("/cart?added=7"));
    assertThat(added.headers().firstValue("Set-Cookie"))
        .hasValueSatisfying(
            c -> assertThat(c).startsWith("cart=").contains("HttpOnly", "SameSite=Lax"));
    assertThat(client.page("/cart").body()).contains("id=\"line-7\"", "Check out");

    Map<String, String> badEmail = new HashMap<>(ShopClient.GOOD_FORM);
    badEmail.put("email", "ada-at-example");
    HttpResponse<String> refused = client.form("/checkout", badEmail);
    assertThat(refused.statusCode()).isEqualTo(422);
    assertThat(refused.body())
        .contains("id=\"email-problem\"", "value=\"Lovelace\"")
        .doesNotContain("4111 1111 1111 1111"); // a card number is never sent back

    HttpResponse<String> placed = client.form("/checkout", ShopClient.GOOD_FORM);
    assertThat(placed.statusCode()).isEqualTo(303);
    String confirmation = placed.headers().firstValue("Location").orElseThrow();
    assertThat(confirmation).matches(".*/orders/\\d+\\?placed");
    HttpResponse<String> page = client.page(URI.create(confirmation).getPath() + "?placed");
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.body()).contains("Your order is placed", "VISA ending 1111");

    // The same form sent again (a double click, a reload) finds the cart empty.
    HttpResponse<String> again = client.form("/checkout", ShopClient.GOOD_FORM);
    assertThat(again.statusCode()).isEqualTo(303);
    assertThat(again.headers().firstValue("Location"))
        .hasValueSatisfying(l -> assertThat(l).endsWith("/cart"));
    assertThat(client.json("/api/items/7").get("stock").asInt()).isEqualTo(stockBefore - 2);
    assertThat(client.page("/orders").body()).contains(URI.create(confirmation).getPath());

    // Another browser does not see the order; unknown pages are friendly.
    HttpResponse<String> other = new ShopClient(base).page(URI.create(confirmation).getPath());
    assertThat(other.statusCode()).isEqualTo(404);
    assertThat(other.body()).contains("We could not find that", "Back to the books");
    HttpResponse<String> nowhere = client.page("/no/such/page");
    assertThat(nowhere.statusCode()).isEqualTo(404);
    assertThat(nowhere.body()).contains("We could not find that page").doesNotContain("Whitelabel");
  }

  @Test
  void aBookThatSellsOutWhileInACartIsNotOrdered() throws Exception {
    assertThat(client.form("/cart", Map.of("itemId", "9", "quantity", "3")).statusCode())
        .isEqualTo(303);
    int left = client.json("/api/items/9").get("stock").asInt();
    ShopClient other = new ShopClient(base);
    while (left > 0) { // another customer buys every copy left
      int n = Math.min(left, 10);
      assertThat(other.order(9, n).statusCode()).isEqualTo(201);
      left -= n;
    }

    HttpResponse<String> checkout = client.form("/checkout", ShopClient.GOOD_FORM);
    assertThat(checkout.headers().firstValue("Location"))
        .hasValueSatisfying(l -> assertThat(l).endsWith("/cart?soldout"));
    assertThat(client.page("/cart?soldout").body())
        .contains("Nothing was ordered", "Sold out")
        .doesNotContain("id=\"checkout\"");
    assertThat(client.json("/api/items/9").get("stock").asInt()).isZero();
    HttpResponse<String> api = other.order(9, 1);
    assertThat(api.statusCode()).isEqualTo(409);
    assertThat(ShopClient.parse(api.body()).at("/shortages/0/left").asInt()).isZero();
    HttpResponse<String> add = client.form("/cart", Map.of("itemId", "9", "quantity", "1"));
    assertThat(add.statusCode()).isEqualTo(409);
    assertThat(add.body()).contains("is sold out");
    assertThat(client.page("/items/9").body()).contains("disabled>Sold out</button>");
  }

  @Test
  void concurrentBuyersNeitherLoseNorMakeUpCopies() throws Exception {
    long seed = System.nanoTime();
    System.out.println("BookstoreHttpTest seed " + seed);
    ConcurrentBuyers.Result r = ConcurrentBuyers.runAndCheck(base, List.of(20L, 21L), 6, 8, seed);
    // 2 books of 12 copies, about 96 asked for: both sell out.
    assertThat(r.soldOut()).as("seed %d", seed).isPositive();

    JsonNode health = client.json("/actuator/health");
    assertThat(health.at("/components/stratus/status").asText()).isEqualTo("UP");
    assertThat(health.at("/components/stratus/details/protocol").asText())
        .isEqualTo("snapshot_isolation");
    assertThat(
            client.json("/actuator/metrics/stratus.commits").at("/measurements/0/value").asDouble())
        .isGreaterThanOrEqualTo(r.placed());
    System.out.printf(
        "%d orders placed, %d refused as sold out, %.0f transaction retries%n",
        r.placed(),
        r.soldOut(),
        client.json("/actuator/metrics/stratus.retries").at("/measurements/0/value").asDouble());
  }
}
