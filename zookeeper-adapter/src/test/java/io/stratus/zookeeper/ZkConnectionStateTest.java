package io.stratus.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.LockService;
import io.stratus.cloudapi.OutcomeUnknownException;
import io.stratus.cloudapi.ServiceUnavailableException;
import io.stratus.cloudapi.time.ManualClock;
import io.stratus.zookeeper.ZooKeeperCloud.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * How the services behave when the connection to ZooKeeper breaks: the server is stopped and
 * restarted (same data, within the session timeout), and the tests wait for the connection events
 * this causes, never for time to pass.
 */
class ZkConnectionStateTest {
  private static TestingServer server;
  private static boolean serverDown;

  private final ManualClock clock = new ManualClock();
  private final List<ZooKeeperCloud> clouds = new ArrayList<>();
  private String namespace;

  @BeforeAll
  static void startServer() throws Exception {
    server = ZkTesting.startServer();
  }

  @AfterAll
  static void stopServer() throws Exception {
    server.close();
  }

  @BeforeEach
  void freshNamespace() {
    namespace = "t/" + UUID.randomUUID();
  }

  @AfterEach
  void restoreServer() throws Exception {
    for (ZooKeeperCloud c : clouds) {
      c.close();
    }
    if (serverDown) {
      server.restart();
      serverDown = false;
    }
  }

  private ZooKeeperCloud connect() {
    ZooKeeperCloud c =
        ZooKeeperCloud.connect(
            ZkTesting.config(server.getConnectString(), clock, namespace)
                .sessionTimeout(Duration.ofSeconds(30))
                .build());
    clouds.add(c);
    return c;
  }

  private void stopServer(ZooKeeperCloud... watching) throws Exception {
    server.stop();
    serverDown = true;
    for (ZooKeeperCloud c : watching) {
      ZkTesting.awaitState(c, Connection.SUSPENDED);
    }
  }

  private void restartServer(ZooKeeperCloud... watching) throws Exception {
    server.restart();
    serverDown = false;
    for (ZooKeeperCloud c : watching) {
      ZkTesting.awaitState(c, Connection.CONNECTED);
    }
  }

  @Test
  void whileSuspendedRequestsFailFastAndEarlierLocksCountAsGoneForTheirHolder() throws Exception {
    ZooKeeperCloud a = connect();
    ZooKeeperCloud b = connect();
    List<Connection> seen = new CopyOnWriteArrayList<>();
    a.addConnectionListener(seen::add);
    LockService locks = a.locks();
    assertThat(CloudFutures.await(locks.acquireExclusive("u", "A")).granted()).isTrue();

    stopServer(a, b);
    assertThat(a.connectionState()).isEqualTo(Connection.SUSPENDED);
    assertThat(catchThrowable(() -> CloudFutures.await(locks.acquireExclusive("v", "A"))))
        .isInstanceOf(ServiceUnavailableException.class);
    assertThat(catchThrowable(() -> CloudFutures.await(a.counters().increment("c"))))
        .isInstanceOf(ServiceUnavailableException.class);
    assertThat(catchThrowable(() -> CloudFutures.await(a.advancedQueues().listQueues(""))))
        .isInstanceOf(ServiceUnavailableException.class);

    restartServer(a, b);
    assertThat(seen).containsSubsequence(Connection.SUSPENDED, Connection.CONNECTED);
    assertThat(CloudFutures.await(b.locks().acquireExclusive("u", "B")).granted())
        .as("the lease itself lives on in ZooKeeper")
        .isFalse();
    assertThat(CloudFutures.await(locks.release("u", "A")))
        .as("but its holder was cut off and must not rely on it")
        .isFalse();
    assertThat(CloudFutures.await(b.locks().acquireExclusive("u", "B")).granted())
        .as("the release still freed it")
        .isTrue();
    assertThat(CloudFutures.await(locks.acquireExclusive("w", "A")).granted()).isTrue();
    assertThat(CloudFutures.await(locks.release("w", "A"))).as("granted after the event").isTrue();
  }

  @Test
  void requestsInFlightWhenTheConnectionDropsFailAsUnknownOrUnavailable() throws Exception {
    ZooKeeperCloud a = connect();
    CloudFutures.await(a.advancedQueues().createQueue("q"));
    List<CompletableFuture<?>> inFlight = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      inFlight.add(a.locks().acquireExclusive("l" + i, "A"));
      inFlight.add(a.counters().increment("c"));
      inFlight.add(a.advancedQueues().send("q", new byte[100], i));
    }
    stopServer(a);
    Map<String, Integer> outcomes = new TreeMap<>();
    for (CompletableFuture<?> f : inFlight) {
      Throwable t =
          catchThrowable(
              () -> f.get(ZkTesting.NETWORK_EVENT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS));
      Throwable cause = t == null ? null : CloudFutures.unwrap(t);
      assertThat(cause)
          .as("every request completes, as success or as a cloud failure of the " + "right kind")
          .satisfiesAnyOf(
              c -> assertThat(c).isNull(),
              c -> assertThat(c).isInstanceOf(ServiceUnavailableException.class),
              c -> assertThat(c).isInstanceOf(OutcomeUnknownException.class));
      outcomes.merge(cause == null ? "ok" : cause.getClass().getSimpleName(), 1, Integer::sum);
    }
    System.out.println("requests in flight when the server stopped: " + outcomes);
    restartServer(a);
    assertThat(CloudFutures.await(a.counters().increment("c"))).isPositive();
  }

  @Test
  void aClosedCloudRefusesRequests() {
    ZooKeeperCloud a = connect();
    a.close();
    assertThat(a.connectionState()).isEqualTo(Connection.CLOSED);
    assertThat(catchThrowable(() -> CloudFutures.await(a.locks().acquireShared("u", "A"))))
        .isInstanceOf(ServiceUnavailableException.class);
    a.close(); // idempotent
  }
}
