package io.stratus.spring.boot;

import io.stratus.core.Database;
import org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * The {@code stratus} health contributor ({@link StratusHealthIndicator}) of the database bean,
 * when Spring Boot Actuator is on the class path; {@code management.health.stratus.enabled=false}
 * turns it off.
 */
@AutoConfiguration(after = StratusAutoConfiguration.class)
@ConditionalOnClass({
  HealthIndicator.class,
  ConditionalOnEnabledHealthIndicator.class,
  Database.class
})
@ConditionalOnBean(Database.class)
@ConditionalOnEnabledHealthIndicator("stratus")
public class StratusHealthAutoConfiguration {

  /** Made by Spring Boot when it applies the auto-configuration. */
  public StratusHealthAutoConfiguration() {}

  /** Named so that the contributor is {@code stratus} in {@code /actuator/health}. */
  @Bean
  @ConditionalOnMissingBean(name = "stratusHealthIndicator")
  public StratusHealthIndicator stratusHealthIndicator(Database db) {
    return new StratusHealthIndicator(db);
  }
}
