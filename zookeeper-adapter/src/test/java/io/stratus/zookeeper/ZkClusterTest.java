package io.stratus.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.LockGrant;
import io.stratus.cloudapi.LockMode;
import io.stratus.cloudapi.OutcomeUnknownException;
import io.stratus.cloudapi.ServiceUnavailableException;
import io.stratus.cloudapi.SupportsIntentionLocks;
import io.stratus.cloudapi.time.ManualClock;
import io.stratus.zookeeper.ZooKeeperCloud.Connection;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;
import org.junit.jupiter.api.Test;

/**
 * Safety while the ensemble fails under load: two clients with their own connections to a
 * three-server ensemble hammer a few locks and one counter, and the server the first client is
 * connected to is killed mid-run and later restarted.
 *
 * <p>What must hold throughout: no lock is held by two clients at once as the clients themselves
 * judge it (from the grant's arrival until the request's send time plus validFor, or until they
 * send the release), and no counter value is issued twice or goes backwards for a thread. Time
 * runs on one {@code ManualClock} that the workers advance, so leases lapse without sleeping; the
 * test waits only for connection events, and every loop is bounded in count and wall time.
 */
class ZkClusterTest {
  static {
    // A killed quorum server's listener thread may fail to re-bind its election port and then
    // asks ZooKeeper to exit the JVM (exit code 14), which would take the test JVM down with it.
    org.apache.zookeeper.util.ServiceUtils.setSystemExitProcedure(
        org.apache.zookeeper.util.ServiceUtils.LOG_ONLY);
  }

  private static final Duration LOCK_TIMEOUT = Duration.ofSeconds(2);
  private static final int OPS_PER_WORKER = 300;
  private static final Duration WALL_LIMIT = Duration.ofSeconds(60);

  /**
   * One client's belief that it held a lock: [from, until) in clock millis. A release ends every
   * use the client has of the URI (a client holds one entry per URI, renewed by each grant), so
   * {@code until} is cut at the release's send time.
   */
  private static final class Use {
    final String uri;
    final String client;
    final LockMode mode;
    final long from;
    volatile long until;

    Use(String uri, String client, LockMode mode, long from, long until) {
      this.uri = uri;
      this.client = client;
      this.mode = mode;
      this.from = from;
      this.until = until;
    }

    @Override
    public String toString() {
      return client + " " + mode + " on " + uri + " [" + from + ", " + until + ")";
    }
  }

  private final ManualClock clock = new ManualClock();
  private final ConcurrentLinkedQueue<Use> uses = new ConcurrentLinkedQueue<>();
  private final Set<Long> values = ConcurrentHashMap.newKeySet();
  private final Map<String, AtomicInteger> outcomes = new ConcurrentHashMap<>();
  private final AtomicInteger done = new AtomicInteger();
  private final AtomicInteger doneAfterKill = new AtomicInteger();
  private volatile boolean killed;

  @Test
  void locksAndCountersStaySafeWhileAServerIsKilledAndRestarted() throws Exception {
    try (TestingCluster cluster = new TestingCluster(threeServers())) {
      cluster.start();
      String ns = "cluster/" + UUID.randomUUID();
      ZooKeeperCloud first = connect(cluster, ns);
      ZooKeeperCloud second = connect(cluster, ns);
      ExecutorService pool = Executors.newFixedThreadPool(4);
      try {
        CloudFutures.await(first.locks().setTimeout("L/", LOCK_TIMEOUT));
        CloudFutures.await(first.counters().setTimeout("C/", LOCK_TIMEOUT));
        CountDownLatch warmedUp = new CountDownLatch(100);
        CountDownLatch progressedAfterKill = new CountDownLatch(100);
        long deadline = System.nanoTime() + WALL_LIMIT.toNanos();
        List<Future<?>> workers = new ArrayList<>();
        for (int w = 0; w < 4; w++) {
          ZooKeeperCloud cloud = w < 2 ? first : second;
          String client = (w < 2 ? "first-" : "second-") + w;
          long seed = w * 7919L + 1;
          workers.add(
              pool.submit(
                  () -> {
                    work(cloud, client, new Random(seed), deadline, warmedUp, progressedAfterKill);
                    return null;
                  }));
        }

        // Registered before the kill: the reconnection may be over before the kill returns.
        CompletableFuture<Void> suspended = new CompletableFuture<>();
        CompletableFuture<Void> reconnected = new CompletableFuture<>();
        first.addConnectionListener(
            s -> {
              if (s == Connection.SUSPENDED) {
                suspended.complete(null);
              } else if (s == Connection.CONNECTED && suspended.isDone()) {
                reconnected.complete(null);
              }
            });
        assertThat(warmedUp.await(WALL_LIMIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        InstanceSpec victim =
            cluster.findConnectionInstance(first.curator().getZookeeperClient().getZooKeeper());
        assertThat(cluster.killServer(victim)).isTrue();
        killed = true;
        // The first client notices and moves to one of the two other servers.
        reconnected.get(ZkTesting.NETWORK_EVENT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(progressedAfterKill.await(WALL_LIMIT.toMillis(), TimeUnit.MILLISECONDS))
            .as("the clients work on after the kill")
            .isTrue();
        assertThat(cluster.restartServer(victim)).isTrue();
        for (Future<?> w : workers) {
          w.get(WALL_LIMIT.toMillis() * 2, TimeUnit.MILLISECONDS);
        }
      } finally {
        pool.shutdownNow();
        first.close();
        second.close();
      }
    }
    System.out.println(
        "cluster test: "
            + done.get()
            + " operations ("
            + doneAfterKill.get()
            + " after the kill), outcomes "
            + new java.util.TreeMap<>(outcomes)
            + ", "
            + uses.size()
            + " lock uses, "
            + values.size()
            + " counter values");
    assertNoConflictingUses();
    assertThat(uses.size()).as("locks were granted").isGreaterThan(50);
    assertThat(values.size()).as("values were issued").isGreaterThan(50);
  }

  /**
   * Three server specs on nine distinct free ports: Curator picks each port by opening and closing
   * a socket, which can hand out one port twice.
   */
  private static InstanceSpec[] threeServers() throws IOException {
    List<ServerSocket> sockets = new ArrayList<>();
    try {
      for (int i = 0; i < 9; i++) {
        sockets.add(new ServerSocket(0));
      }
    } finally {
      for (ServerSocket s : sockets) {
        s.close();
      }
    }
    InstanceSpec[] specs = new InstanceSpec[3];
    for (int i = 0; i < 3; i++) {
      specs[i] =
          new InstanceSpec(
              null,
              sockets.get(3 * i).getLocalPort(),
              sockets.get(3 * i + 1).getLocalPort(),
              sockets.get(3 * i + 2).getLocalPort(),
              true,
              i + 1);
    }
    return specs;
  }

  private ZooKeeperCloud connect(TestingCluster cluster, String ns) {
    return ZooKeeperCloud.connect(
        ZkTesting.config(cluster.getConnectString(), clock, ns)
            .sessionTimeout(Duration.ofSeconds(15))
            .connectionTimeout(Duration.ofSeconds(15))
            .build());
  }

  /** One worker: random lock and counter operations, each result recorded as the client saw it. */
  private void work(
      ZooKeeperCloud cloud,
      String client,
      Random rnd,
      long deadline,
      CountDownLatch warmedUp,
      CountDownLatch progressedAfterKill) {
    long lastValue = Long.MIN_VALUE;
    long lastHighest = Long.MIN_VALUE;
    Map<String, List<Use>> mine = new java.util.HashMap<>(); // this client's uses not released
    for (int op = 0; op < OPS_PER_WORKER && System.nanoTime() < deadline; op++) {
      try {
        if (rnd.nextInt(3) > 0) {
          lockOnce(cloud, client, rnd, mine);
        } else {
          long v = CloudFutures.await(cloud.counters().increment("C/x"));
          assertThat(v).as(client + ": values increase").isGreaterThan(lastValue);
          assertThat(values.add(v)).as("value " + v + " issued twice").isTrue();
          lastValue = v;
          if (rnd.nextBoolean()) {
            CloudFutures.await(cloud.counters().validate("C/x", v));
          }
          long h = CloudFutures.await(cloud.counters().highestValidated("C/x"));
          assertThat(h)
              .as(client + ": highest validated never goes down")
              .isGreaterThanOrEqualTo(lastHighest);
          lastHighest = h;
        }
        count("ok");
      } catch (ServiceUnavailableException | OutcomeUnknownException e) {
        count(e.getClass().getSimpleName());
        if (cloud.connectionState() != Connection.CONNECTED) {
          ZkTesting.awaitState(cloud, Connection.CONNECTED);
        }
      } catch (CloudException e) {
        count(e.getClass().getSimpleName());
      }
      clock.advance(Duration.ofMillis(rnd.nextInt(150)));
      done.incrementAndGet();
      warmedUp.countDown();
      if (killed) {
        doneAfterKill.incrementAndGet();
        progressedAfterKill.countDown();
      }
    }
  }

  private void lockOnce(
      ZooKeeperCloud cloud, String client, Random rnd, Map<String, List<Use>> mine) {
    String uri = "L/" + rnd.nextInt(3);
    int draw = rnd.nextInt(10);
    Instant sent = clock.instant();
    LockGrant g =
        CloudFutures.await(
            draw < 6
                ? cloud.locks().acquireExclusive(uri, client)
                : draw < 8
                    ? cloud.locks().acquireShared(uri, client)
                    : ((SupportsIntentionLocks) cloud.locks()).acquireIntention(uri, client));
    if (!g.granted()) {
      return;
    }
    Use use =
        new Use(uri, client, g.mode(), clock.millis(), sent.plus(g.validFor()).toEpochMilli());
    uses.add(use);
    mine.computeIfAbsent(uri, k -> new ArrayList<>()).add(use);
    clock.advance(Duration.ofMillis(rnd.nextInt(300))); // work under the lock
    if (rnd.nextBoolean()) {
      long releaseSent = clock.millis();
      for (Use u : mine.remove(uri)) {
        u.until = Math.min(u.until, releaseSent);
      }
      CloudFutures.await(cloud.locks().release(uri, client));
    }
  }

  private void count(String outcome) {
    outcomes.computeIfAbsent(outcome, k -> new AtomicInteger()).incrementAndGet();
  }

  /** Two clients' uses of one URI overlap only when both are shared or both intentions. */
  private void assertNoConflictingUses() {
    List<Use> all = new ArrayList<>(uses);
    for (int i = 0; i < all.size(); i++) {
      for (int j = i + 1; j < all.size(); j++) {
        Use a = all.get(i);
        Use b = all.get(j);
        boolean overlap = a.from < b.until && b.from < a.until;
        if (a.uri.equals(b.uri)
            && !a.client.equals(b.client)
            && overlap
            && !a.mode.compatibleWith(b.mode)) {
          throw new AssertionError("conflicting locks: " + a + " and " + b);
        }
      }
    }
  }
}
