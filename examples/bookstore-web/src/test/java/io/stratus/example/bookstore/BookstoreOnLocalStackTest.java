package io.stratus.example.bookstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.aws.LocalStackFixture;
import java.net.URI;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The shop on the documented LocalStack + ZooKeeper setup, configured by properties alone as
 * {@code bin/stratus-example} is: S3 and SQS on LocalStack (found or started by the AWS adapter's
 * fixture, {@code bin/localstack}), locks, counters and advanced queues on ZooKeeper (an in-JVM
 * server), under snapshot isolation. One order through the HTML forms, then concurrent buyers
 * through the JSON API: order ids come from the database's sequence on S3, and the stock is
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
      ShopClient browser = new ShopClient(base);

      assertThat(browser.page("/").body()).contains("Stratus Books", "id=\"add-1\"");
      assertThat(browser.form("/cart", Map.of("itemId", "1", "quantity", "2")).statusCode())
          .isEqualTo(303);
      HttpResponse<String> placed = browser.form("/checkout", ShopClient.GOOD_FORM);
      assertThat(placed.statusCode()).as(placed.body()).isEqualTo(303);
      String confirmation =
          URI.create(placed.headers().firstValue("Location").orElseThrow()).getPath();
      assertThat(browser.page(confirmation).body()).contains("VISA ending 1111");
      assertThat(browser.json("/api/items/1").get("stock").asInt()).isEqualTo(6);

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
