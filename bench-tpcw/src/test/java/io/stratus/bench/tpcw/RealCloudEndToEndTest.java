package io.stratus.bench.tpcw;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.aws.AwsCloud;
import io.stratus.aws.LocalStackFixture;
import io.stratus.cloudapi.CloudServices;
import io.stratus.core.Database;
import io.stratus.core.DatabaseConfig;
import io.stratus.core.Key;
import io.stratus.core.Record;
import io.stratus.core.RecordCursor;
import io.stratus.core.Transaction;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.ProtocolOption;
import io.stratus.zookeeper.ZooKeeperCloud;
import io.stratus.zookeeper.ZooKeeperConfig;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * End to end on real services: storage and simple queues on S3 and SQS (LocalStack, found or
 * started by the AWS adapter's fixture), locks, counters and advanced queues on a real ZooKeeper
 * (curator-test). Two database handles — two clients — run a mixed workload of updates to
 * different records on shared pages, inserts and deletes, committing in interleaved order; then the
 * queue protocols are checkpointed and both clients must read exactly the committed data. The naive
 * protocol is the exception the papers start from: it loses updates, and the test shows it.
 */
class RealCloudEndToEndTest {
  private static final int RECORDS = 120;
  private static final int ROUNDS = 6;

  private static TestingServer zookeeper;
  private static LocalStackFixture localstack;

  @BeforeAll
  static void startServices() throws Exception {
    zookeeper = new TestingServer(true);
    localstack = LocalStackFixture.get();
  }

  @AfterAll
  static void stopServices() throws Exception {
    if (zookeeper != null) {
      zookeeper.close();
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = ProtocolKind.class,
      names = {"NAIVE", "BASIC", "MONOTONIC", "ATOMIC"})
  void twoClientsAgreeOnEveryCommittedChange(ProtocolKind protocol) throws Exception {
    String run = protocol.name().toLowerCase() + "-" + UUID.randomUUID().toString().substring(0, 8);
    try (AwsCloud aws =
            AwsCloud.connect(
                localstack
                    .config()
                    .keyPrefix("e2e/" + run + "/")
                    .queueNamePrefix("e2e-" + run.substring(run.length() - 8))
                    .build());
        ZooKeeperCloud zk =
            ZooKeeperCloud.connect(
                ZooKeeperConfig.builder(zookeeper.getConnectString())
                    .namespace("e2e-" + run)
                    // A namespace this test just made had no earlier lock holders to wait out.
                    .freshNamespaceRefusal(Duration.ZERO)
                    .build())) {
      CloudServices cloud = zk.addTo(aws.addTo(CloudServices.builder())).build();
      ConcurrentLinkedQueue<Runnable> heldBack = new ConcurrentLinkedQueue<>();
      try (Database a = open(cloud, protocol, "client-a", heldBack);
          Database b = open(cloud, protocol, "client-b", heldBack)) {
        a.createCollection("items");
        Map<Long, String> model = new TreeMap<>();
        List<Record> initial = new ArrayList<>();
        for (long k = 0; k < RECORDS; k++) {
          model.put(k, "v0-" + k);
          initial.add(new Record(Key.of(k), bytes("v0-" + k)));
        }
        a.bulkLoad("items", initial);

        for (int round = 1; round <= ROUNDS; round++) {
          Transaction ta = a.begin();
          Transaction tb = b.begin();
          // Different records that share pages: a takes the even keys, b the odd ones. Updates
          // stay below the keys the rounds delete (an update of a record that a committed
          // transaction deleted is dropped by the queue protocols, as it should be).
          for (long k = (round * 7L) % 20; k < RECORDS - 2L * ROUNDS - 2; k += 20) {
            long ka = k - k % 2;
            long kb = ka + 1;
            ta.update("items", Key.of(ka), bytes("r" + round + "-a-" + ka));
            model.put(ka, "r" + round + "-a-" + ka);
            tb.update("items", Key.of(kb), bytes("r" + round + "-b-" + kb));
            model.put(kb, "r" + round + "-b-" + kb);
          }
          long newA = 1000L + round;
          long newB = 2000L + round;
          ta.create("items", Key.of(newA), bytes("new-a-" + round));
          tb.create("items", Key.of(newB), bytes("new-b-" + round));
          model.put(newA, "new-a-" + round);
          model.put(newB, "new-b-" + round);
          long goneA = RECORDS - 2L * round;
          long goneB = RECORDS - 2L * round + 1;
          ta.delete("items", Key.of(goneA));
          tb.delete("items", Key.of(goneB));
          model.remove(goneA);
          model.remove(goneB);
          ta.commit();
          tb.commit();
        }
        if (protocol != ProtocolKind.NAIVE) {
          a.admin().checkpointAll();
        }

        Map<Long, String> seenByA = readAll(a);
        Map<Long, String> seenByB = readAll(b);
        assertThat(seenByA).isEqualTo(seenByB);
        if (protocol == ProtocolKind.NAIVE) {
          // Both clients put their whole copies of shared pages: the later put wins.
          assertThat(seenByA).isNotEqualTo(model);
        } else {
          assertThat(seenByA).isEqualTo(model);
        }
      }
    }
  }

  private static Database open(
      CloudServices cloud,
      ProtocolKind protocol,
      String client,
      ConcurrentLinkedQueue<Runnable> heldBack) {
    DatabaseConfig.Builder b =
        DatabaseConfig.builder(cloud, "db/e2e")
            .protocol(protocol)
            .clientId(client)
            .pageSize(2048)
            .ttl(Duration.ZERO); // every read revalidates: no waiting for caches in this test
    if (protocol.accepts(ProtocolOption.CHECKPOINTS)) {
      b.checkpointExecutor(heldBack::add); // checkpoints run explicitly, by checkpointAll
    }
    return Database.open(b.build());
  }

  private static Map<Long, String> readAll(Database db) {
    Map<Long, String> all = new TreeMap<>();
    try (Transaction tx = db.begin();
        RecordCursor c = tx.scan("items")) {
      while (c.hasNext()) {
        Record r = c.next();
        all.put(r.key().decoder().nextLong(), new String(r.payload(), StandardCharsets.UTF_8));
      }
      tx.commit();
    }
    return all;
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
