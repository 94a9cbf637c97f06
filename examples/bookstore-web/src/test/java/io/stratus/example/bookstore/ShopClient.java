package io.stratus.example.bookstore;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.StringJoiner;

/**
 * The shop over HTTP, as a test drives it: the JSON API, and the HTML forms with a cookie jar of
 * their own (one per client, like one browser). Redirects are not followed, so that a test sees
 * each 303.
 */
final class ShopClient {
  /** A checkout form that passes every check. */
  static final Map<String, String> GOOD_FORM =
      Map.ofEntries(
          Map.entry("firstName", "Ada"),
          Map.entry("lastName", "Lovelace"),
          Map.entry("email", "ada@example.com"),
          Map.entry("street", "12 St James's Square"),
          Map.entry("city", "London"),
          Map.entry("zip", "SW1Y 4JH"),
          Map.entry("country", "United Kingdom"),
          Map.entry("shipType", "COURIER"),
          Map.entry("cardType", "VISA"),
          Map.entry("cardNumber", "4111 1111 1111 1111"),
          Map.entry("cardName", "A. Lovelace"),
          Map.entry("cardExpiry", "12/39"));

  private static final ObjectMapper JSON = new ObjectMapper();

  private final URI base;
  private final HttpClient http;

  ShopClient(URI base) {
    this.base = base;
    this.http =
        HttpClient.newBuilder()
            .cookieHandler(new CookieManager())
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();
  }

  /** A request of {@code method} with {@code accept}; body as given (may be null). */
  HttpResponse<String> send(String method, String path, String accept, String type, String body)
      throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path)).header("Accept", accept);
    if (type != null) {
      b.header("Content-Type", type);
    }
    b.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body));
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** GET of JSON, expecting 200. */
  JsonNode json(String path) throws Exception {
    HttpResponse<String> r = send("GET", path, "application/json", null, null);
    assertThat(r.statusCode()).as("GET %s: %s", path, r.body()).isEqualTo(200);
    return JSON.readTree(r.body());
  }

  /** GET of an HTML page as a browser asks for it. */
  HttpResponse<String> page(String path) throws Exception {
    return send("GET", path, "text/html,application/xhtml+xml,*/*;q=0.8", null, null);
  }

  /** POST of an HTML form, as a browser sends it. */
  HttpResponse<String> form(String path, Map<String, String> fields) throws Exception {
    StringJoiner body = new StringJoiner("&");
    fields.forEach(
        (k, v) ->
            body.add(
                URLEncoder.encode(k, StandardCharsets.UTF_8)
                    + "="
                    + URLEncoder.encode(v, StandardCharsets.UTF_8)));
    return send(
        "POST",
        path,
        "text/html,application/xhtml+xml,*/*;q=0.8",
        "application/x-www-form-urlencoded",
        body.toString());
  }

  /** POST /api/orders of {@code quantity} copies of {@code itemId}. */
  HttpResponse<String> order(long itemId, int quantity) throws Exception {
    return order(itemId, quantity, "application/json");
  }

  /** POST /api/orders with the given Accept header. */
  HttpResponse<String> order(long itemId, int quantity, String accept) throws Exception {
    Map<String, Object> request = new HashMap<>();
    request.put("details", GOOD_FORM);
    request.put("lines", new Object[] {Map.of("itemId", itemId, "quantity", quantity)});
    return send(
        "POST", "/api/orders", accept, "application/json", JSON.writeValueAsString(request));
  }

  /** Every book's stock, by id, from the JSON API's pages. */
  Map<Long, Integer> stock() throws Exception {
    Map<Long, Integer> stock = new HashMap<>();
    for (int page = 1; ; page++) {
      JsonNode p = json("/api/items?page=" + page);
      for (JsonNode l : p.get("listings")) {
        stock.put(l.at("/item/id").asLong(), l.at("/item/stock").asInt());
      }
      if (!p.get("hasNext").asBoolean()) {
        return stock;
      }
    }
  }

  static JsonNode parse(String body) throws Exception {
    return JSON.readTree(body);
  }
}
