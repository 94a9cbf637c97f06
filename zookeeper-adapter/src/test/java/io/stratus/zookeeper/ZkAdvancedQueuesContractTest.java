package io.stratus.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.AdvancedMessage;
import io.stratus.cloudapi.AdvancedQueueService;
import io.stratus.cloudapi.CloudLimits;
import io.stratus.cloudapi.contract.AdvancedQueueServiceContract;
import io.stratus.cloudapi.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The advanced-queue contract against a real ZooKeeper server (one per class, a fresh namespace
 * per test), enqueue instants on a {@code ManualClock}; plus what the ZooKeeper queues fix: ids
 * from 1, a recreated queue is new, URIs of any shape, and the payload limit of one znode.
 */
class ZkAdvancedQueuesContractTest extends AdvancedQueueServiceContract
    implements ZkTesting.Clients {
  /** Small, so that the limit test sends small payloads. */
  private static final int MAX_MESSAGE = 4096;

  private static TestingServer server;
  private static final ZkTesting.OneAtATime clouds = new ZkTesting.OneAtATime();

  private final ManualClock clock = new ManualClock();
  private ZooKeeperCloud cloud;

  @Override
  public ZooKeeperCloud cloud() {
    return cloud;
  }

  @BeforeAll
  static void startServer() throws Exception {
    server = ZkTesting.startServer();
  }

  @AfterAll
  static void stopServer() throws Exception {
    clouds.closeCurrent();
    server.close();
  }

  @Override
  protected AdvancedQueueService newQueues(long seed) {
    cloud =
        clouds.replace(
            ZooKeeperCloud.connect(
                config(server.getConnectString(), clock)
                    .limits(CloudLimits.builder().maxAdvancedMessageSize(MAX_MESSAGE).build())
                    .build()));
    return cloud.advancedQueues();
  }

  @Override
  protected void elapse(Duration d) {
    clock.advance(d);
  }

  @Test
  void idsCountFromOneAndEnqueuedAtIsTheClock() {
    String q = queue("q");
    Instant t0 = clock.instant();
    assertThat(await(queues.send(q, bytes("a"), 1))).isEqualTo(1);
    clock.advance(Duration.ofSeconds(3));
    assertThat(await(queues.send(q, bytes("b"), 1))).isEqualTo(2);
    List<AdvancedMessage> all = await(queues.receiveAfterId(q, 10, 0));
    assertThat(all.get(0).enqueuedAt()).isEqualTo(t0);
    assertThat(all.get(1).enqueuedAt()).isEqualTo(t0.plusSeconds(3));
  }

  @Test
  void aRecreatedQueueIsANewQueue() {
    String q = queue("q");
    await(queues.send(q, bytes("a"), 1));
    await(queues.send(q, bytes("b"), 1));
    await(queues.deleteQueue(q));
    await(queues.createQueue(q));
    assertThat(await(queues.receiveAfterId(q, 10, 0))).isEmpty();
    assertThat(await(queues.send(q, bytes("c"), 1))).isEqualTo(1);
  }

  @Test
  void queueUrisOfAnyShapeAreListedAsGiven() {
    List<String> names =
        List.of(uri("a/b"), uri("a%2Fb"), uri("a"), uri("a/"), uri("ü €"), uri("q?x=1&y=..#z"));
    for (String q : names) {
      await(queues.createQueue(q));
      await(queues.send(q, bytes(q), 1));
    }
    assertThat(await(queues.listQueues(uri(""))))
        .containsExactlyElementsOf(names.stream().sorted().toList());
    assertThat(await(queues.listQueues(uri("a/")))).containsExactly(uri("a/"), uri("a/b"));
    for (String q : names) {
      assertThat(text(await(queues.receiveAfterId(q, 1, 0)).get(0))).isEqualTo(q);
    }
  }

  @Test
  void extremeKeysAndEmptyPayloadsSurviveTheNodeName() {
    String q = queue("q");
    long[] keys = {Long.MIN_VALUE, -1, 0, Long.MAX_VALUE};
    for (long k : keys) {
      await(queues.send(q, new byte[0], k));
    }
    assertThat(keys(await(queues.receiveAfterId(q, 10, 0))))
        .containsExactly(Long.MIN_VALUE, -1L, 0L, Long.MAX_VALUE);
    assertThat(keys(await(queues.receiveByKey(q, 10, Long.MIN_VALUE, Long.MAX_VALUE))))
        .containsExactly(-1L, 0L);
  }

  @Test
  void limitsAreTheConfiguredOnesButNeverAboveOneZnode() {
    assertThat(queues.limits().maxAdvancedMessageSize()).isEqualTo(MAX_MESSAGE);
    ZooKeeperConfig defaults = ZooKeeperConfig.builder("localhost:1").build();
    assertThat(defaults.limits().maxAdvancedMessageSize())
        .isEqualTo(ZooKeeperConfig.MAX_ZNODE_PAYLOAD);
  }
}
