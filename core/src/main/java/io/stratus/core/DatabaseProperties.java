package io.stratus.core;

import io.stratus.InvalidConfigurationException;
import io.stratus.InvalidRequestException;
import io.stratus.cloudapi.CloudServices;
import io.stratus.protocols.Setting;
import io.stratus.protocols.Settings;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A {@link DatabaseConfig} from string properties, for frameworks that configure libraries from
 * files or the environment. The keys are those of {@link Settings} (docs/using.md lists them with
 * their defaults); a key under {@value #PREFIX} that is not one of them is an error (a misspelt key
 * silently ignored is a setting that silently does not apply), and so is a value that does not
 * parse or that the builder refuses. Keys outside the prefix are ignored, so one properties file
 * can serve several libraries.
 *
 * <p>Durations are written {@code 500ms}, {@code 45s}, {@code 2m}, {@code 1h} or in ISO-8601
 * ({@code PT45S}); sizes in bytes, or with {@code k}, {@code m}, {@code g} (powers of 1,024).
 */
public final class DatabaseProperties {
  /** The prefix of every key. */
  public static final String PREFIX = "stratus.";

  private DatabaseProperties() {}

  /** Every key this class knows: those of {@link Settings}. */
  public static Set<String> keys() {
    return new TreeSet<>(Settings.keys());
  }

  /** {@link #builder(CloudServices, Map)} from {@link Properties}. */
  public static DatabaseConfig.Builder builder(CloudServices services, Properties properties) {
    Map<String, String> m = new TreeMap<>();
    for (String k : properties.stringPropertyNames()) {
      m.put(k, properties.getProperty(k));
    }
    return builder(services, m);
  }

  /**
   * A configuration builder with every {@value #PREFIX} setting of {@code properties} applied;
   * the caller may set more (index extractors, a clock) before building.
   *
   * @throws InvalidConfigurationException for a missing {@link Settings#DATABASE_URI}, an unknown
   *     key under the prefix, or a value that does not parse or is out of range (the message names
   *     the key)
   */
  public static DatabaseConfig.Builder builder(
      CloudServices services, Map<String, String> properties) {
    Args.notNull(services, "services");
    Args.notNull(properties, "properties");
    String uriKey = Settings.DATABASE_URI.key();
    String uri = properties.get(uriKey);
    if (uri == null || uri.isBlank()) {
      throw new InvalidConfigurationException("the property " + uriKey + " is required");
    }
    DatabaseConfig.Builder b;
    try {
      b = DatabaseConfig.builder(services, uri.trim());
    } catch (InvalidRequestException e) {
      throw new InvalidConfigurationException(uriKey + ": " + e.getMessage());
    }
    for (Map.Entry<String, String> e : new TreeMap<>(properties).entrySet()) {
      String key = e.getKey();
      if (!key.startsWith(PREFIX) || key.equals(uriKey)) {
        continue;
      }
      Optional<Setting<?>> setting = Settings.byKey(key);
      if (setting.isEmpty()) {
        throw new InvalidConfigurationException(
            "unknown property "
                + Names.quote(key)
                + "; known: "
                + String.join(", ", new TreeSet<>(Settings.keys())));
      }
      String value = e.getValue() == null ? "" : e.getValue();
      try {
        apply(b, setting.get(), value);
      } catch (InvalidRequestException | IllegalArgumentException | ArithmeticException ex) {
        throw new InvalidConfigurationException(key + ": " + ex.getMessage());
      }
    }
    return b;
  }

  private static <T> void apply(DatabaseConfig.Builder b, Setting<T> setting, String value) {
    b.set(setting, setting.parse(value));
  }
}
