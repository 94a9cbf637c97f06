package io.stratus.spring.boot;

import io.micrometer.core.instrument.MeterRegistry;
import io.stratus.InvalidConfigurationException;
import io.stratus.cloudapi.decorate.CloudMeter;
import io.stratus.cloudapi.decorate.PriceTable;
import io.stratus.cloudapi.decorate.PriceTables;
import io.stratus.core.Database;
import io.stratus.micrometer.StratusMetrics;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * The {@link StratusMetrics} binder of the database bean, when Micrometer and {@code
 * stratus-micrometer} are on the class path. Spring Boot Actuator binds every {@link
 * io.micrometer.core.instrument.binder.MeterBinder} bean to every {@link MeterRegistry}, so the
 * meters appear in whatever the application exports to ({@code /actuator/metrics}, Prometheus,
 * ...).
 *
 * <p>Also a {@link CloudMeter} that the auto-configured cloud services report every call to, so
 * the binder can publish requests and their cost per operation ({@code
 * stratus.metrics.cloud-requests=false} leaves the services undecorated).
 */
@AutoConfiguration(after = StratusAutoConfiguration.class)
@ConditionalOnClass({MeterRegistry.class, StratusMetrics.class, Database.class})
@ConditionalOnProperty(
    prefix = "stratus",
    name = {"enabled", "metrics.enabled"},
    matchIfMissing = true)
@EnableConfigurationProperties(StratusProperties.class)
public class StratusMetricsAutoConfiguration {

  /** Made by Spring Boot when it applies the auto-configuration. */
  public StratusMetricsAutoConfiguration() {}

  /** The meter the auto-configured cloud services' calls pass through. */
  @Bean
  @ConditionalOnMissingBean
  @ConditionalOnProperty(prefix = "stratus.metrics", name = "cloud-requests", matchIfMissing = true)
  public CloudMeter stratusCloudMeter() {
    return new CloudMeter();
  }

  /**
   * The binder: the handle's counters, and the cloud meter's calls and cost under {@code
   * stratus.metrics.price-table} when there is a cloud meter.
   */
  @Bean
  @ConditionalOnBean(Database.class)
  @ConditionalOnMissingBean
  public StratusMetrics stratusMetrics(
      Database db, ObjectProvider<CloudMeter> meter, StratusProperties properties) {
    StratusMetrics.Builder b = StratusMetrics.builder(db);
    CloudMeter m = meter.getIfUnique();
    if (m != null) {
      b.cloudMeter(m);
      PriceTable table = priceTable(properties.getMetrics().getPriceTable());
      if (table != null) {
        b.priceTable(table);
      }
    }
    return b.build();
  }

  /** The table named by {@code stratus.metrics.price-table}, or null for none. */
  static @Nullable PriceTable priceTable(@Nullable String name) {
    String n = name == null ? "none" : name.trim().toLowerCase(Locale.ROOT);
    return switch (n) {
      case "aws2026" -> PriceTables.aws2026();
      case "paper2008" -> PriceTables.paper2008();
      case "none", "" -> null;
      default ->
          throw new InvalidConfigurationException(
              "stratus.metrics.price-table: not" + " aws2026, paper2008 or none: '" + name + "'");
    };
  }
}
