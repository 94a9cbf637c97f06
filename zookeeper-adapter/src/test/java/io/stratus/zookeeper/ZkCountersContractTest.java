package io.stratus.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.BadRequestException;
import io.stratus.cloudapi.CounterService;
import io.stratus.cloudapi.CounterValues;
import io.stratus.cloudapi.contract.CounterServiceContract;
import io.stratus.cloudapi.time.ManualClock;
import java.time.Duration;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The counter contract against a real ZooKeeper server (one per class, a fresh namespace per
 * test), validation judged on a {@code ManualClock}, restarts simulated by the adapter; plus exact
 * epochs, the refusal of a namespace found empty, and the compression of validated prefixes.
 */
class ZkCountersContractTest extends CounterServiceContract implements ZkTesting.Clients {
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
  protected CounterService newCounters(long seed) {
    cloud =
        clouds.replace(ZooKeeperCloud.connect(config(server.getConnectString(), clock).build()));
    return cloud.counters();
  }

  @Override
  protected void elapse(Duration d) {
    clock.advance(d);
  }

  @Override
  protected void restartService() {
    cloud.restartCounterService();
  }

  /** The epoch a fresh namespace starts at: hours since 2000 on the clock. */
  private long firstEpoch() {
    return Duration.between(ZooKeeperCloud.EPOCH_ORIGIN, clock.instant()).toHours();
  }

  @Test
  void theCountersHaveIdempotentIncrements() throws Exception {
    assertThat(supportsIdempotentIncrement()).isTrue();
    String c = uri("c");
    String path = new ZkPaths(cloud.config().namespace()).counter(c);
    long v = idem(c, "r");
    CounterRecord stored = CounterRecord.decode(cloud.curator().getData().forPath(path));
    assertThat(stored.sequenceOf("r"))
        .as("kept in the counter's znode")
        .isEqualTo(CounterValues.sequence(v));
  }

  @Test
  void aFreshNamespaceStartsAtAnEpochFromTheClockAndValuesAtOne() {
    assertThat(cloud.foundFreshNamespace()).isTrue();
    long epoch = firstEpoch();
    String c = uri("c");
    assertThat(highest(c)).isEqualTo(CounterValues.of(epoch, 0));
    assertThat(inc(c)).isEqualTo(CounterValues.of(epoch, 1));
    assertThat(inc(c)).isEqualTo(CounterValues.of(epoch, 2));
    assertThat(inc(uri("d"))).isEqualTo(CounterValues.of(epoch, 1));
  }

  @Test
  void aRestartMovesToTheNextEpochAfterExactlyTheLongestTimeout() {
    long epoch = firstEpoch();
    String c = uri("c");
    inc(c);
    inc(c);
    cloud.restartCounterService();
    assertThat(assertRefused(() -> counters.increment(c)).retryAfter())
        .contains(ZooKeeperConfig.DEFAULT_COUNTER_TIMEOUT);
    await(counters.setTimeout(uri("later"), Duration.ofSeconds(5)));
    clock.advance(ZooKeeperConfig.DEFAULT_COUNTER_TIMEOUT.minusMillis(1));
    assertThat(assertRefused(() -> counters.highestValidated(c)).retryAfter())
        .contains(Duration.ofMillis(1));
    clock.advance(Duration.ofMillis(1));

    assertThat(highest(c)).isEqualTo(CounterValues.of(epoch + 1, 0));
    assertThat(inc(c)).isEqualTo(CounterValues.of(epoch + 1, 1));
    validate(c, CounterValues.of(epoch, 2)); // an earlier epoch: no effect
    validate(c, CounterValues.of(epoch, 999));
    assertFails(
        () -> counters.validate(c, CounterValues.of(epoch + 1, 2)), BadRequestException.class);
    assertFails(
        () -> counters.validate(c, CounterValues.of(epoch + 2, 1)), BadRequestException.class);
  }

  /**
   * A namespace that was used and is found empty (dropped by an operator: its locks and counters
   * are lost while clients may still hold leases from it) refuses every client for the period.
   */
  @Test
  void aNamespaceFoundEmptyRefusesEveryClientForTheConfiguredPeriod() throws Exception {
    String ns = "t/fresh-" + seed;
    try (ZooKeeperCloud before =
        ZooKeeperCloud.connect(config(server.getConnectString(), clock, ns).build())) {
      assertThat(await(before.locks().acquireExclusive("l", "A")).granted()).isTrue();
      before.curator().delete().deletingChildrenIfNeeded().forPath("/" + ns);
    }
    try (ZooKeeperCloud first =
            ZooKeeperCloud.connect(
                config(server.getConnectString(), clock, ns)
                    .freshNamespaceRefusal(Duration.ofSeconds(45))
                    .build());
        ZooKeeperCloud second =
            ZooKeeperCloud.connect(config(server.getConnectString(), clock, ns).build())) {
      assertThat(first.foundFreshNamespace()).isTrue();
      assertThat(second.foundFreshNamespace()).isFalse();
      assertThat(assertRefused(() -> second.counters().increment("c")).retryAfter())
          .contains(Duration.ofSeconds(45));
      assertRefused(() -> first.locks().acquireExclusive("l", "A"));
      await(second.locks().setTimeout("l", Duration.ofSeconds(1))); // configuring is allowed
      clock.advance(Duration.ofSeconds(45));
      assertThat(await(second.counters().increment("c"))).isPositive();
      assertThat(await(first.locks().acquireExclusive("l", "A")).granted()).isTrue();
    }
  }

  /**
   * A namespace never used before is a new deployment, not a restart: nothing can hold a lease
   * from it, so nothing is refused, whatever the configured period.
   */
  @Test
  void aNamespaceNeverUsedBeforeRefusesNothing() {
    String ns = "t/new-" + seed;
    try (ZooKeeperCloud first =
            ZooKeeperCloud.connect(
                config(server.getConnectString(), clock, ns)
                    .freshNamespaceRefusal(Duration.ofSeconds(45))
                    .build());
        ZooKeeperCloud second =
            ZooKeeperCloud.connect(config(server.getConnectString(), clock, ns).build())) {
      assertThat(first.foundFreshNamespace()).isTrue();
      assertThat(await(second.counters().increment("c"))).isPositive();
      assertThat(await(first.locks().acquireExclusive("l", "A")).granted()).isTrue();
    }
  }

  @Test
  void validatedPrefixesAreFoldedIntoTheWatermark() throws Exception {
    String c = uri("c");
    String path = new ZkPaths(cloud.config().namespace()).counter(c);
    long first = inc(c);
    for (int i = 0; i < 199; i++) {
      validate(c, inc(c));
    }
    assertThat(pending(path)).as("all held back by the first value").isEqualTo(200);
    validate(c, first);
    assertThat(pending(path)).isZero();
    assertThat(highest(c)).isEqualTo(first + 199);
    for (int i = 0; i < 50; i++) {
      inc(c);
    }
    clock.advance(TIMEOUT);
    assertThat(highest(c)).isEqualTo(first + 249);
    assertThat(pending(path)).as("reads do not write").isEqualTo(50);
    inc(c);
    assertThat(pending(path)).isEqualTo(1);
  }

  private int pending(String path) throws Exception {
    return CounterRecord.decode(cloud.curator().getData().forPath(path)).pending().size();
  }
}
