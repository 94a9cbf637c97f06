package io.stratus.zookeeper;

import io.stratus.zookeeper.ZooKeeperCloud.Connection;
import java.time.Clock;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.curator.test.TestingServer;

/**
 * What the ZooKeeper tests share: an in-JVM server started fast, configurations with a fresh
 * namespace and the test's clock, and waiting for connection events (real network events, the only
 * thing these tests ever wait for; leases and validation run on a {@code ManualClock}).
 */
final class ZkTesting {
  /** How long a test waits for a connection event before it fails. */
  static final Duration NETWORK_EVENT_TIMEOUT = Duration.ofSeconds(30);

  static {
    // The servers' transaction logs need not survive the JVM: skip fsync, which dominates writes.
    System.setProperty("zookeeper.forceSync", "no");
    System.setProperty("zookeeper.admin.enableServer", "false");
  }

  private ZkTesting() {}

  static TestingServer startServer() throws Exception {
    return new TestingServer(true);
  }

  /** A configuration for a namespace no other test uses, on {@code clock}, with no skew. */
  static ZooKeeperConfig.Builder config(String connectString, Clock clock) {
    return config(connectString, clock, "t/" + UUID.randomUUID());
  }

  static ZooKeeperConfig.Builder config(String connectString, Clock clock, String namespace) {
    return ZooKeeperConfig.builder(connectString)
        .namespace(namespace)
        .clock(clock)
        .maxClockSkew(Duration.ZERO)
        .freshNamespaceRefusal(Duration.ZERO)
        .sessionTimeout(Duration.ofSeconds(10))
        .connectionTimeout(Duration.ofSeconds(10))
        .retry(Duration.ofMillis(50), 3);
  }

  /**
   * Waits until {@code cloud} reports {@code state} (now or later).
   *
   * @throws AssertionError when it does not within {@link #NETWORK_EVENT_TIMEOUT}
   */
  static void awaitState(ZooKeeperCloud cloud, Connection state) {
    CompletableFuture<Void> reached = new CompletableFuture<>();
    Consumer<Connection> listener =
        s -> {
          if (s == state) {
            reached.complete(null);
          }
        };
    cloud.addConnectionListener(listener);
    try {
      if (cloud.connectionState() == state) {
        return;
      }
      reached.get(NETWORK_EVENT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (Exception e) {
      throw new AssertionError(
          "the connection did not become "
              + state
              + " within "
              + NETWORK_EVENT_TIMEOUT
              + "; it is "
              + cloud.connectionState(),
          e);
    } finally {
      cloud.removeConnectionListener(listener);
    }
  }

  /**
   * How a test class connects its clients: every configuration goes through {@link #secured}, so
   * that a subclass implementing {@link ZkAclTesting.Secured} runs the same tests with digest
   * credentials and ACLs.
   */
  interface Clients {
    /** The cloud of the current test. */
    ZooKeeperCloud cloud();

    /** The configuration every client of the test gets; unchanged here. */
    default ZooKeeperConfig.Builder secured(ZooKeeperConfig.Builder b) {
      return b;
    }

    default ZooKeeperConfig.Builder config(String connectString, Clock clock) {
      return secured(ZkTesting.config(connectString, clock));
    }

    default ZooKeeperConfig.Builder config(String connectString, Clock clock, String namespace) {
      return secured(ZkTesting.config(connectString, clock, namespace));
    }
  }

  /**
   * Keeps one cloud per test open until the next test's (or the class's end): the contract suites
   * still use their service in their own tear-down, which runs after the subclass's.
   */
  static final class OneAtATime {
    private ZooKeeperCloud current;

    ZooKeeperCloud replace(ZooKeeperCloud next) {
      closeCurrent();
      current = next;
      return next;
    }

    void closeCurrent() {
      if (current != null) {
        current.close();
        current = null;
      }
    }
  }
}
