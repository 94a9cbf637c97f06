package io.stratus.spring.boot;

import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.decorate.CloudMeter;
import io.stratus.cloudapi.decorate.Decorators;
import io.stratus.cloudapi.decorate.MeteringInterceptor;
import io.stratus.core.Database;
import io.stratus.core.DatabaseConfig;
import io.stratus.core.DatabaseProperties;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.io.ResourceLoader;

/**
 * A {@link Database} bean, and the {@link CloudServices} it runs on, from the {@code stratus.*}
 * properties ({@link StratusProperties}).
 *
 * <p>Each bean backs off when the application defines its own: a {@code CloudServices} bean of the
 * application's (for a cloud these properties cannot describe) is used as it is, and a {@code
 * Database} bean replaces this one. The database is closed with the context, before the services
 * it uses (it depends on them), and the services after it; both are the context's, so the
 * application must not close them. Opening reads the catalog: a cloud that cannot be reached
 * fails the start-up, with the cause.
 */
@AutoConfiguration
@ConditionalOnClass(Database.class)
@ConditionalOnProperty(prefix = "stratus", name = "enabled", matchIfMissing = true)
@EnableConfigurationProperties(StratusProperties.class)
public class StratusAutoConfiguration {

  /** Made by Spring Boot when it applies the auto-configuration. */
  public StratusAutoConfiguration() {}

  /**
   * The cloud named by {@code stratus.cloud.*}; its calls pass through the {@link CloudMeter} bean
   * when there is one (the metrics auto-configuration makes it), so they can be counted.
   */
  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  public CloudServices stratusCloudServices(
      StratusProperties properties, ObjectProvider<CloudMeter> meter, ResourceLoader context) {
    CloudServices services = StratusClouds.open(properties.getCloud(), context.getClassLoader());
    CloudMeter m = meter.getIfUnique();
    return m == null ? services : Decorators.wrap(services, new MeteringInterceptor(m));
  }

  /**
   * The database handle, configured by {@link DatabaseProperties} from the {@code stratus.*}
   * settings, then by every {@link StratusDatabaseCustomizer} bean.
   *
   * @throws io.stratus.InvalidConfigurationException (failing the start-up) for a missing {@code
   *     stratus.database-uri}, or a value that does not parse or that the protocol does not take
   */
  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  public Database stratusDatabase(
      CloudServices services,
      StratusProperties properties,
      ObjectProvider<StratusDatabaseCustomizer> customizers) {
    DatabaseConfig.Builder builder =
        DatabaseProperties.builder(services, properties.databaseSettings());
    customizers.orderedStream().forEach(c -> c.customize(builder));
    return Database.open(builder.build());
  }
}
