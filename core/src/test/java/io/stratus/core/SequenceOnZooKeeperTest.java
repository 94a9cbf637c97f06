package io.stratus.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.cloudapi.time.ManualClock;
import io.stratus.zookeeper.ZooKeeperCloud;
import io.stratus.zookeeper.ZooKeeperConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Sequences on the documented AWS set-up: storage and queues from one provider (the in-process
 * cloud stands in for S3 and SQS), locks, counters and advanced queues from ZooKeeper (an in-JVM
 * server). A fresh ZooKeeper namespace starts its counters at an epoch taken from the clock.
 */
@ExtendWith(SeedExtension.class)
class SequenceOnZooKeeperTest {
  /** The largest integer a JSON client (an IEEE double) represents exactly: 2^53 - 1. */
  private static final long JSON_SAFE = (1L << 53) - 1;

  private static TestingServer server;

  private final ManualClock clock = new ManualClock();
  private final List<AutoCloseable> opened = new ArrayList<>();

  @BeforeAll
  static void startZooKeeper() throws Exception {
    // The server's log need not survive the JVM: skip fsync, which dominates writes.
    System.setProperty("zookeeper.forceSync", "no");
    System.setProperty("zookeeper.admin.enableServer", "false");
    server = new TestingServer(true);
  }

  @AfterAll
  static void stopZooKeeper() throws Exception {
    server.close();
  }

  @AfterEach
  void closeEverything() throws Exception {
    for (int i = opened.size() - 1; i >= 0; i--) {
      opened.get(i).close();
    }
  }

  @Test
  void theFirstIdOnAFreshNamespaceIsPositiveAndSafeForJson(@Seed long seed) {
    InProcessCloud cloud = cloud(seed);
    Database db = open(cloud, namespace());
    long first = db.sequence("order-ids").next();
    long second = db.sequence("order-ids").next();
    assertThat(first).isBetween(1L, JSON_SAFE);
    assertThat(second).isGreaterThan(first).isLessThanOrEqualTo(JSON_SAFE);
  }

  @Test
  void aReopenedHandleRepeatsNoIdOnTheSameNamespaceNorOnAWipedOne(@Seed long seed) {
    InProcessCloud cloud = cloud(seed);
    String namespace = namespace();
    Set<Long> ids = new HashSet<>();
    // The ensemble keeps its data, then loses it within the same hour: its counters start again
    // at the same clock-derived epoch.
    for (String ns : List.of(namespace, namespace, namespace())) {
      Database db = open(cloud, ns);
      for (int i = 0; i < 150; i++) {
        long id = db.sequence("order-ids", 10).next();
        assertThat(ids.add(id)).as("id %d handed out again", id).isTrue();
        assertThat(id).isBetween(1L, JSON_SAFE);
      }
      db.close();
    }
  }

  @Test
  void twoHandlesWithTheirOwnConnectionsGetDisjointIds(@Seed long seed) throws Exception {
    InProcessCloud cloud = cloud(seed);
    String namespace = namespace();
    List<Sequence> sequences =
        List.of(
            open(cloud, namespace).sequence("order-ids", 3),
            open(cloud, namespace).sequence("order-ids", 3));
    ExecutorService threads = Executors.newFixedThreadPool(2);
    try {
      List<Future<List<Long>>> results = new ArrayList<>();
      for (Sequence s : sequences) {
        Callable<List<Long>> take =
            () -> {
              List<Long> mine = new ArrayList<>();
              for (int i = 0; i < 300; i++) {
                mine.add(s.next());
              }
              return mine;
            };
        results.add(threads.submit(take));
      }
      Set<Long> all = new HashSet<>();
      for (Future<List<Long>> r : results) {
        for (long id : r.get()) {
          assertThat(all.add(id)).as("id %d handed out twice", id).isTrue();
          assertThat(id).isBetween(1L, JSON_SAFE);
        }
      }
      assertThat(all).hasSize(600);
    } finally {
      threads.shutdownNow();
    }
  }

  private InProcessCloud cloud(long seed) {
    return InProcessCloud.builder().clock(clock).seed(seed).build();
  }

  private static String namespace() {
    return "t/" + UUID.randomUUID();
  }

  /** A handle on {@code cloud}'s storage and queues and ZooKeeper namespace {@code namespace}. */
  private Database open(InProcessCloud cloud, String namespace) {
    ZooKeeperCloud zk =
        ZooKeeperCloud.connect(
            ZooKeeperConfig.builder(server.getConnectString())
                .namespace(namespace)
                .clock(clock)
                .maxClockSkew(Duration.ZERO)
                .freshNamespaceRefusal(Duration.ZERO)
                .sessionTimeout(Duration.ofSeconds(10))
                .connectionTimeout(Duration.ofSeconds(10))
                .build());
    opened.add(zk);
    CloudServices services =
        zk.addTo(
                CloudServices.builder()
                    .storage(cloud.services().storage())
                    .simpleQueues(cloud.services().simpleQueues()))
            .build();
    Database db = Database.open(DatabaseConfig.builder(services, Fixture.DB).clock(clock).build());
    opened.add(db);
    return db;
  }
}
