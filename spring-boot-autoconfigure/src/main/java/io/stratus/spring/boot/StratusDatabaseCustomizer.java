package io.stratus.spring.boot;

import io.stratus.core.DatabaseConfig;

/**
 * Adjusts the configuration of the auto-configured {@link io.stratus.core.Database} after the
 * {@code stratus.*} properties are applied and before it is built: for what properties cannot
 * carry, such as index key extractors, a clock or a keyring. Every bean of this type is applied,
 * in {@link org.springframework.core.annotation.Order} order; the builder checks the result once,
 * when it builds.
 */
@FunctionalInterface
public interface StratusDatabaseCustomizer {
  /** Changes {@code builder}; called once, on the thread creating the context. */
  void customize(DatabaseConfig.Builder builder);
}
