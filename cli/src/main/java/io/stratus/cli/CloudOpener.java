package io.stratus.cli;

import io.stratus.cloudapi.CloudServices;
import java.time.Clock;

/**
 * Opens the cloud services a command works on. The command line uses {@link RealClouds}; tests
 * inject a prepared in-process cloud, so that every command runs in the test's JVM against
 * exactly the state the test made.
 */
@FunctionalInterface
public interface CloudOpener {
  /**
   * The services for {@code options}; the caller closes them.
   *
   * @throws IllegalArgumentException when the options do not describe a reachable cloud
   */
  CloudServices open(ConnectionOptions options);

  /**
   * The value of environment variable {@code name}, or null when it is not set: where key
   * material may come from ({@code --keyring-env}). The process environment; tests give theirs.
   */
  default String environment(String name) {
    return System.getenv(name);
  }

  /** The clock of the database's clients, which ages are measured on; the system clock. */
  default Clock clock() {
    return Clock.systemUTC();
  }
}
