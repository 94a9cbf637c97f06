package io.stratus.example.bookstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.openqa.selenium.support.ui.ExpectedConditions.urlContains;
import static org.openqa.selenium.support.ui.ExpectedConditions.urlMatches;

import io.stratus.aws.LocalStackFixture;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The shop on the documented LocalStack + ZooKeeper setup, configured by properties alone as
 * {@code bin/stratus-example} is: S3 and SQS on LocalStack (found or started by the AWS adapter's
 * fixture, {@code bin/localstack}), locks, counters and advanced queues on ZooKeeper (an in-JVM
 * server), under snapshot isolation. One order in a real browser (headless Chromium, screenshots
 * under {@code target/screenshots/localstack/}), then concurrent buyers through the JSON API: order ids come from the database's sequence on S3, and the stock is
 * conserved.
 */
class BookstoreOnLocalStackTest {

  @Test
  void theShopTakesOrdersOnLocalStackAndZooKeeper() throws Exception {
    LocalStackFixture localstack = LocalStackFixture.get();
    String endpoint = localstack.config().build().endpoint().orElseThrow().toString();
    try (TestingServer zookeeper = new TestingServer(true);
        ConfigurableApplicationContext app =
            new SpringApplicationBuilder(BookstoreApplication.class)
                .run(
                    "--server.port=0",
                    "--stratus.cloud.kind=localstack",
                    "--stratus.cloud.endpoint=" + endpoint,
                    "--stratus.cloud.bucket=" + localstack.bucket(),
                    "--stratus.cloud.zookeeper.connect-string=" + zookeeper.getConnectString(),
                    "--stratus.cloud.zookeeper.fresh-namespace-refusal=0s", // a new deployment
                    "--stratus.database-uri=shop-" + UUID.randomUUID().toString().substring(0, 8),
                    "--bookstore.items=12",
                    "--bookstore.initial-stock=8")) {
      URI base =
          URI.create("http://localhost:" + app.getEnvironment().getProperty("local.server.port"));
      ShopClient http = new ShopClient(base);

      // One customer in a real browser: a book into the cart, the checkout form, the order.
      try (Chromium chromium = Chromium.start(Path.of("target", "screenshots", "localstack"))) {
        WebDriver d = chromium.driver;
        WebDriverWait wait = new WebDriverWait(d, Duration.ofSeconds(30));
        d.get(base + "/items/1");
        assertThat(d.getTitle()).endsWith("· Stratus Books");
        chromium.screenshot("product");
        new Select(d.findElement(By.id("quantity"))).selectByValue("2");
        d.findElement(By.id("add-to-cart")).click();
        wait.until(urlContains("/cart"));
        d.findElement(By.id("checkout")).click();
        wait.until(urlContains("/checkout"));
        for (Map.Entry<String, String> f : ShopClient.GOOD_FORM.entrySet()) {
          WebElement e = d.findElement(By.name(f.getKey()));
          if ("select".equals(e.getTagName())) {
            new Select(e).selectByValue(f.getValue());
          } else {
            e.clear();
            e.sendKeys(f.getValue());
          }
        }
        d.findElement(By.id("place-order")).click();
        wait.until(urlMatches(".*/orders/\\d+\\?placed$"));
        assertThat(d.findElement(By.id("placed-notice")).getText()).contains("Thank you");
        chromium.screenshot("confirmation");
      }
      assertThat(http.json("/api/items/1").get("stock").asInt()).isEqualTo(6);

      long seed = System.nanoTime();
      System.out.println("BookstoreOnLocalStackTest seed " + seed);
      ConcurrentBuyers.Result r = ConcurrentBuyers.runAndCheck(base, List.of(2L, 3L), 3, 4, seed);
      assertThat(r.placed()).as("seed %d", seed).isPositive();
      System.out.printf(
          "on LocalStack + ZooKeeper: %d orders placed, %d refused as sold out%n",
          r.placed(), r.soldOut());
    }
  }
}
