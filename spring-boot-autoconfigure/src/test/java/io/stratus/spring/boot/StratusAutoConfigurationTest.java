package io.stratus.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.stratus.InvalidConfigurationException;
import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.decorate.CloudMeter;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.core.Database;
import io.stratus.core.DatabaseProperties;
import io.stratus.core.Key;
import io.stratus.micrometer.StratusMetrics;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.Settings;
import java.beans.PropertyDescriptor;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.springframework.beans.BeanWrapper;
import org.springframework.beans.BeanWrapperImpl;
import org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The auto-configuration in real Spring contexts, on the in-process cloud. */
class StratusAutoConfigurationTest {
  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(
                  StratusAutoConfiguration.class,
                  StratusMetricsAutoConfiguration.class,
                  StratusHealthAutoConfiguration.class))
          .withPropertyValues("stratus.database-uri=db/spring");

  private static void putAndRead(Database db) {
    db.createCollection("books");
    db.run(tx -> tx.put("books", Key.of(1L), "Dune".getBytes(StandardCharsets.UTF_8)));
    Optional<byte[]> read = db.read(tx -> tx.read("books", Key.of(1L)));
    assertThat(read).isPresent();
  }

  @Test
  void aDatabaseOnTheInProcessCloudIsClosedWithTheContext() {
    Database[] seen = new Database[1];
    runner.run(
        ctx -> {
          assertThat(ctx).hasSingleBean(Database.class).hasSingleBean(CloudServices.class);
          Database db = ctx.getBean(Database.class);
          assertThat(db.config().databaseUri()).isEqualTo("db/spring");
          assertThat(db.config().protocol()).isEqualTo(Settings.PROTOCOL.defaultValue());
          putAndRead(db);
          seen[0] = db;
        });
    assertThat(seen[0].isClosed()).isTrue();
  }

  @Test
  void theDatabaseSettingsReachTheConfiguration() {
    runner
        .withPropertyValues(
            "stratus.protocol=snapshot_isolation",
            "stratus.page-size=16k",
            "stratus.ttl=3s",
            "stratus.checkpoint.interval=5s",
            "stratus.client-id=web-1",
            "stratus.isolation.transaction-timeout=20s")
        .run(
            ctx -> {
              Database db = ctx.getBean(Database.class);
              assertThat(db.config().protocol()).isEqualTo(ProtocolKind.SNAPSHOT_ISOLATION);
              assertThat(db.config().pageSize()).isEqualTo(16 * 1024);
              assertThat(db.config().ttl()).isEqualTo(Duration.ofSeconds(3));
              assertThat(db.config().checkpointInterval()).isEqualTo(Duration.ofSeconds(5));
              assertThat(db.config().clientId()).isEqualTo("web-1");
              putAndRead(db);
            });
  }

  @Test
  void everyDatabasePropertiesKeyHasAProperty() {
    Map<String, String> all = new TreeMap<>();
    for (String key : DatabaseProperties.keys()) {
      all.put(key, "1"); // a string, a number and a boolean all bind from "1"
    }
    StratusProperties p =
        new Binder(new MapConfigurationPropertySource(all))
            .bind("stratus", StratusProperties.class)
            .get();
    assertThat(p.databaseSettings()).containsOnlyKeys(DatabaseProperties.keys());
  }

  @Test
  void everyDatabasePropertyIsASetting() {
    Set<String> database = new TreeSet<>();
    BeanWrapper root = new BeanWrapperImpl(new StratusProperties());
    for (PropertyDescriptor d : root.getPropertyDescriptors()) {
      String name = d.getName();
      if (Set.of("class", "enabled", "cloud", "metrics").contains(name)) {
        continue; // the application's own, not the database's
      }
      Object nested = root.getPropertyValue(name);
      if (d.getWriteMethod() != null) {
        database.add(name);
        continue;
      }
      for (PropertyDescriptor n : new BeanWrapperImpl(nested).getPropertyDescriptors()) {
        if (!n.getName().equals("class")) {
          database.add(name + "." + n.getName());
        }
      }
    }
    Set<String> settings = new TreeSet<>();
    for (String key : Settings.keys()) {
      settings.add(StratusProperties.propertyPath(key));
    }
    assertThat(database).isEqualTo(settings);
  }

  @Test
  void aMissingUriAMisspeltKeyAndABadValueFailTheStartUp() {
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(StratusAutoConfiguration.class))
        .run(
            ctx ->
                assertThat(ctx)
                    .getFailure()
                    .rootCause()
                    .isInstanceOf(InvalidConfigurationException.class)
                    .hasMessageContaining(Settings.DATABASE_URI.key()));
    runner
        .withPropertyValues("stratus.page-sise=16k")
        .run(ctx -> assertThat(ctx).getFailure().hasStackTraceContaining("page-sise"));
    runner
        .withPropertyValues("stratus.ttl=soon")
        .run(
            ctx ->
                assertThat(ctx)
                    .getFailure()
                    .rootCause()
                    .isInstanceOf(InvalidConfigurationException.class)
                    .hasMessageContaining(Settings.TTL.key()));
    runner
        .withPropertyValues("stratus.cloud.kind=aws")
        .run(
            ctx ->
                assertThat(ctx)
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining("stratus.cloud.bucket"));
    runner
        .withPropertyValues("stratus.cloud.kind=localstack", "stratus.cloud.bucket=b")
        .run(
            ctx ->
                assertThat(ctx)
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining("stratus.cloud.endpoint"));
    runner
        .withPropertyValues("stratus.metrics.price-table=cheap")
        .run(ctx -> assertThat(ctx).getFailure().rootCause().hasMessageContaining("price-table"));
  }

  @Test
  void withoutTheAwsAdapterTheErrorNamesTheArtifact() {
    runner
        .withClassLoader(new FilteredClassLoader("io.stratus.aws."))
        .withPropertyValues("stratus.cloud.kind=aws", "stratus.cloud.bucket=b")
        .run(
            ctx ->
                assertThat(ctx)
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining("stratus-aws-adapter"));
  }

  @Test
  void theApplicationsOwnBeansWinAndCustomizersApply() {
    CloudServices own = InProcessCloud.create().services();
    runner
        .withBean(CloudServices.class, () -> own)
        .withBean(StratusDatabaseCustomizer.class, () -> b -> b.clientId("custom"))
        .run(
            ctx -> {
              Database db = ctx.getBean(Database.class);
              assertThat(ctx.getBean(CloudServices.class)).isSameAs(own);
              assertThat(db.config().services()).isSameAs(own);
              assertThat(db.config().clientId()).isEqualTo("custom");
            });
  }

  @Test
  void theMetricsReachTheRegistry() {
    runner
        .withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class))
        .withBean(SimpleMeterRegistry.class, SimpleMeterRegistry::new)
        .run(
            ctx -> {
              assertThat(ctx).hasSingleBean(StratusMetrics.class).hasSingleBean(CloudMeter.class);
              Database db = ctx.getBean(Database.class);
              putAndRead(db);
              MeterRegistry registry = ctx.getBean(MeterRegistry.class);
              assertThat(
                      registry
                          .get(StratusMetrics.COMMITS)
                          .tag("database", "db/spring")
                          .functionCounter()
                          .count())
                  .isEqualTo(db.stats().commits())
                  .isPositive();
              // The handle's background work may make a call while the counters are read, so
              // the registry's sum lies between the meter's count before and after.
              CloudMeter meter = ctx.getBean(CloudMeter.class);
              long before = meter.calls();
              double requests =
                  registry.find(StratusMetrics.CLOUD_REQUESTS).functionCounters().stream()
                      .mapToDouble(FunctionCounter::count)
                      .sum();
              long after = meter.calls();
              assertThat(requests).isBetween((double) before, (double) after).isPositive();
              assertThat(
                      registry
                          .find(StratusMetrics.CLOUD_COST)
                          .tag("price.table", "aws 2026")
                          .functionCounters())
                  .isNotEmpty();
            });
  }

  @Test
  void metricsCanBeTurnedOff() {
    runner
        .withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class))
        .withBean(SimpleMeterRegistry.class, SimpleMeterRegistry::new)
        .withPropertyValues("stratus.metrics.enabled=false")
        .run(
            ctx -> {
              assertThat(ctx)
                  .doesNotHaveBean(StratusMetrics.class)
                  .doesNotHaveBean(CloudMeter.class);
              assertThat(ctx.getBean(MeterRegistry.class).find(StratusMetrics.COMMITS).meters())
                  .isEmpty();
            });
    runner
        .withClassLoader(new FilteredClassLoader(StratusMetrics.class))
        .run(
            ctx -> assertThat(ctx).hasSingleBean(Database.class).doesNotHaveBean(CloudMeter.class));
  }

  @Test
  void theHealthIsUpWhileTheHandleIsOpenAndDownOnceClosed() {
    runner.run(
        ctx -> {
          StratusHealthIndicator health = ctx.getBean(StratusHealthIndicator.class);
          assertThat(health.health().getStatus()).isEqualTo(Status.UP);
          assertThat(health.health().getDetails())
              .containsEntry("database", "db/spring")
              .containsKeys("unknownCommits", "backgroundFailures", "corruptPages");
          ctx.getBean(Database.class).close();
          assertThat(health.health().getStatus()).isEqualTo(Status.DOWN);
        });
    runner
        .withPropertyValues("management.health.stratus.enabled=false")
        .run(ctx -> assertThat(ctx).doesNotHaveBean(StratusHealthIndicator.class));
  }

  @Test
  void theWholeThingCanBeTurnedOff() {
    runner
        .withPropertyValues("stratus.enabled=false")
        .run(
            ctx ->
                assertThat(ctx)
                    .doesNotHaveBean(Database.class)
                    .doesNotHaveBean(CloudServices.class)
                    .doesNotHaveBean(StratusMetrics.class));
  }
}
