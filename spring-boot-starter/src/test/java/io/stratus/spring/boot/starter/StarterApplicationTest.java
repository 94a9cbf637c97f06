package io.stratus.spring.boot.starter;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.stratus.codec.jackson.JacksonCodec;
import io.stratus.core.Database;
import io.stratus.core.Key;
import io.stratus.core.TypedCollection;
import io.stratus.micrometer.StratusMetrics;
import io.stratus.spring.boot.StratusHealthIndicator;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.actuate.health.HealthContributorRegistry;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.util.ClassUtils;

/**
 * An application whose only dependency is the starter (and Spring's test support): it boots on the
 * in-process cloud from one property, injects the {@link Database}, stores and reads a typed
 * record through the Jackson codec, and its meters and health contributor are registered by
 * Actuator. Both adapters come with the starter, so other clouds are a matter of properties.
 */
@SpringBootTest(
    classes = StarterApplicationTest.App.class,
    properties = "stratus.database-uri=db/starter")
class StarterApplicationTest {

  /** The whole application. */
  @SpringBootApplication
  static class App {}

  record Book(String title, long priceCents) {}

  private static final TypedCollection<Book> BOOKS =
      TypedCollection.of("books", JacksonCodec.of(Book.class));

  @Autowired Database db;
  @Autowired MeterRegistry registry;
  @Autowired HealthContributorRegistry health;

  @Test
  void theStarterAloneBootsStoresATypedRecordAndExposesTheMetrics() {
    db.createCollection("books");
    long id = db.sequence("bookIds").next();
    db.run(tx -> BOOKS.put(tx, Key.of(id), new Book("Dune", 999)));
    Optional<Book> read = db.read(tx -> BOOKS.get(tx, Key.of(id)));
    assertThat(read).contains(new Book("Dune", 999));

    // Actuator bound the starter's metrics binder to the application's registry.
    assertThat(
            registry
                .get(StratusMetrics.COMMITS)
                .tag("database", "db/starter")
                .functionCounter()
                .count())
        .isEqualTo(db.stats().commits())
        .isPositive();
    assertThat(registry.find(StratusMetrics.CLOUD_REQUESTS).functionCounters()).isNotEmpty();
    assertThat(registry.find(StratusMetrics.CLOUD_COST).functionCounters()).isNotEmpty();
    assertThat(health.getContributor("stratus"))
        .isInstanceOfSatisfying(
            StratusHealthIndicator.class,
            h -> assertThat(h.health().getStatus()).isEqualTo(Status.UP));
  }

  @Test
  void theStarterBringsBothCloudAdapters() {
    ClassLoader loader = getClass().getClassLoader();
    assertThat(ClassUtils.isPresent("io.stratus.aws.AwsCloud", loader)).isTrue();
    assertThat(ClassUtils.isPresent("io.stratus.zookeeper.ZooKeeperCloud", loader)).isTrue();
  }
}
