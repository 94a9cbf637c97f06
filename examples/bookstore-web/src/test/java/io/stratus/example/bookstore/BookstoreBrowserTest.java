package io.stratus.example.bookstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.openqa.selenium.support.ui.ExpectedConditions.titleContains;
import static org.openqa.selenium.support.ui.ExpectedConditions.urlContains;
import static org.openqa.selenium.support.ui.ExpectedConditions.urlMatches;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * A customer in a real browser (headless Chromium, see {@link Chromium}): browses the catalogue,
 * searches, opens a book, adds two copies to the cart, checks out (first with a mistake in the
 * form), sees the confirmation and the order history, then finds a sold-out book and an unknown
 * page. Each step is saved as a screenshot under {@code target/screenshots/} for review.
 */
@InProcessShop
class BookstoreBrowserTest {
  /** Book 2 is bought here, book 3 sold out; other test classes use other books. */
  private static final long BOOK = 2;

  private static final long SOLD_OUT = 3;

  @LocalServerPort int port;

  @Test
  void aCustomerBrowsesBuysAndFindsTheOrderInABrowser() throws Exception {
    String base = "http://localhost:" + port;
    ShopClient http = new ShopClient(URI.create(base));
    int stockBefore = http.json("/api/items/" + BOOK).get("stock").asInt();
    Item book = CatalogueSeed.items(24, 20, 12).get((int) BOOK - 1);

    try (Chromium chromium = Chromium.start(Path.of("target", "screenshots"))) {
      WebDriver d = chromium.driver;
      WebDriverWait wait = new WebDriverWait(d, Duration.ofSeconds(20));

      // The catalogue, styled by the shop's style sheet, a page at a time.
      d.get(base + "/");
      assertThat(d.getTitle()).isEqualTo("All books · Stratus Books");
      assertThat(d.findElements(By.cssSelector(".grid .card"))).hasSize(12);
      assertThat(d.findElement(By.cssSelector("header.top")).getCssValue("background-color"))
          .isEqualTo("rgba(31, 78, 121, 1)");
      assertThat(d.findElement(By.cssSelector("link[rel=icon]")).getDomAttribute("href"))
          .isEqualTo("/favicon.svg");
      chromium.screenshot("catalogue");
      d.findElement(By.id("next-page")).click();
      wait.until(urlContains("page=2"));
      assertThat(d.findElements(By.cssSelector(".grid .card"))).hasSize(12);
      assertThat(d.findElements(By.id("next-page"))).isEmpty();

      // Search by title, then open the book.
      WebElement search = d.findElement(By.name("q"));
      search.sendKeys(book.title());
      search.submit();
      wait.until(titleContains("Books starting with"));
      chromium.screenshot("search");
      d.findElement(By.cssSelector("a.title[href='/items/" + BOOK + "']")).click();
      wait.until(urlContains("/items/" + BOOK));
      assertThat(d.findElement(By.tagName("h1")).getText()).isEqualTo(book.title());
      assertThat(d.findElement(By.id("price")).getText())
          .isEqualTo(new Formats(java.time.Clock.systemUTC()).money(book.costCents()));
      chromium.screenshot("product");

      // Two copies into the cart.
      new Select(d.findElement(By.id("quantity"))).selectByValue("2");
      d.findElement(By.id("add-to-cart")).click();
      wait.until(urlContains("/cart"));
      assertThat(d.findElement(By.id("added-notice")).getText()).contains(book.title());
      assertThat(
              d.findElement(By.cssSelector("#line-" + BOOK + " input[name=quantity]"))
                  .getDomProperty("value"))
          .isEqualTo("2");
      assertThat(d.findElement(By.cssSelector("#nav-cart .count")).getText()).isEqualTo("2");
      String cartTotal = d.findElement(By.id("cart-total")).getText();
      chromium.screenshot("cart");

      // Check out: a mistake first, shown beside its field; then the order.
      d.findElement(By.id("checkout")).click();
      wait.until(urlContains("/checkout"));
      Map<String, String> form = new java.util.HashMap<>(ShopClient.GOOD_FORM);
      form.put("email", "ada.example.com");
      fill(d, form);
      d.findElement(By.id("place-order")).click();
      wait.until(d2 -> !d2.findElements(By.id("email-problem")).isEmpty());
      assertThat(d.findElement(By.id("form-problems")).getText()).contains("correct");
      chromium.screenshot("checkout-problem");
      fill(d, Map.of("email", "ada@example.com", "cardNumber", "4111 1111 1111 1111"));
      d.findElement(By.id("place-order")).click();
      wait.until(urlMatches(".*/orders/\\d+\\?placed$"));
      String orderId = d.findElement(By.id("order-id")).getText();
      assertThat(d.findElement(By.id("placed-notice")).getText())
          .contains("Thank you, Ada Lovelace");
      assertThat(d.findElement(By.id("order-total")).getText()).isEqualTo(cartTotal);
      chromium.screenshot("confirmation");

      // The order history; the cart is empty again.
      d.findElement(By.id("all-orders")).click();
      wait.until(urlMatches(".*/orders$"));
      assertThat(d.findElement(By.id("order-" + orderId)).getText()).contains("#" + orderId);
      assertThat(d.findElements(By.cssSelector("#nav-cart .count"))).isEmpty();
      chromium.screenshot("order-history");

      // A book another customer bought out: its button is disabled.
      int left = http.json("/api/items/" + SOLD_OUT).get("stock").asInt();
      for (; left > 0; left -= Math.min(left, 10)) {
        assertThat(http.order(SOLD_OUT, Math.min(left, 10)).statusCode()).isEqualTo(201);
      }
      d.get(base + "/items/" + SOLD_OUT);
      WebElement soldOut = d.findElement(By.id("add-to-cart"));
      assertThat(soldOut.isEnabled()).isFalse();
      assertThat(soldOut.getText()).isEqualTo("Sold out");
      chromium.screenshot("sold-out");

      // Unknown pages are the shop's own.
      d.get(base + "/items/999");
      assertThat(d.findElement(By.id("error-title")).getText()).isEqualTo("We could not find that");
      d.get(base + "/no/such/page");
      assertThat(d.findElement(By.id("error-title")).getText())
          .isEqualTo("We could not find that page");
      chromium.screenshot("not-found");
    }

    // What the browser bought left the stock.
    assertThat(http.json("/api/items/" + BOOK).get("stock").asInt()).isEqualTo(stockBefore - 2);
  }

  /** Types each value into the form field of that name, replacing what it held. */
  private static void fill(WebDriver d, Map<String, String> fields) {
    for (Map.Entry<String, String> f : fields.entrySet()) {
      WebElement e = d.findElement(By.name(f.getKey()));
      if ("select".equals(e.getTagName())) {
        new Select(e).selectByValue(f.getValue());
      } else {
        e.clear();
        e.sendKeys(f.getValue());
      }
    }
  }
}
