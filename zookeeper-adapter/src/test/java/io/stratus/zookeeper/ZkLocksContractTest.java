package io.stratus.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.LockGrant;
import io.stratus.cloudapi.LockMode;
import io.stratus.cloudapi.LockService;
import io.stratus.cloudapi.contract.LockServiceContract;
import io.stratus.cloudapi.time.ManualClock;
import java.time.Duration;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The lock contract against a real ZooKeeper server (one per class, a fresh namespace per test),
 * with leases judged on a {@code ManualClock} and restarts simulated by the adapter; plus what the
 * adapter adds: the exact refusal period, several clients sharing one namespace, and the cleanup
 * of released locks.
 */
class ZkLocksContractTest extends LockServiceContract implements ZkTesting.Clients {
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
  protected LockService newLocks(long seed) {
    cloud =
        clouds.replace(ZooKeeperCloud.connect(config(server.getConnectString(), clock).build()));
    return cloud.locks();
  }

  @Override
  protected void elapse(Duration d) {
    clock.advance(d);
  }

  @Override
  protected void restartService() {
    cloud.restartLockService();
  }

  @Test
  void refusalLastsExactlyTheLongestTimeoutEverConfigured() {
    String u = uri("r");
    await(locks.setTimeout(uri("long"), Duration.ofSeconds(90)));
    await(locks.setTimeout(uri("long"), Duration.ofSeconds(20))); // the 90 s still count
    assertThat(x(u, "A").granted()).isTrue();

    cloud.restartLockService();
    assertThat(assertRefused(() -> locks.acquireExclusive(u, "B")).retryAfter())
        .contains(Duration.ofSeconds(90));
    clock.advance(Duration.ofSeconds(30));
    assertThat(assertRefused(() -> locks.acquireShared(u, "B")).retryAfter())
        .contains(Duration.ofSeconds(60));
    assertThat(release(u, "A")).as("the restart lost A's lock").isFalse();
    clock.advance(Duration.ofSeconds(60).minusMillis(1));
    assertRefused(() -> locks.acquireShared(u, "B"));
    clock.advance(Duration.ofMillis(1));
    assertThat(x(u, "B").granted()).isTrue();
  }

  @Test
  void clientsOfOneNamespaceShareLocksTimeoutsAndRestarts() {
    try (ZooKeeperCloud other =
        ZooKeeperCloud.connect(
            config(server.getConnectString(), clock, cloud.config().namespace()).build())) {
      assertThat(other.foundFreshNamespace()).isFalse();
      LockService mine = locks;
      LockService theirs = other.locks();
      String u = uri("shared");
      assertThat(await(mine.acquireExclusive(u, "A")).granted()).isTrue();
      assertThat(await(theirs.acquireShared(u, "B")).granted()).isFalse();
      await(theirs.setTimeout(uri("t/"), Duration.ofSeconds(3)));
      assertThat(await(mine.timeoutFor(uri("t/x")))).isEqualTo(Duration.ofSeconds(3));

      other.restartLockService();
      assertRefused(() -> mine.acquireExclusive(uri("any"), "A"));
      assertThat(await(mine.release(u, "A"))).isFalse();
    }
  }

  @Test
  void defaultTimeoutsOfEveryClientCountForTheRefusal() {
    try (ZooKeeperCloud other =
        ZooKeeperCloud.connect(
            config(server.getConnectString(), clock, cloud.config().namespace())
                .defaultLockTimeout(Duration.ofMinutes(7))
                .build())) {
      String unset = "unset-" + seed; // outside the prefix the suite configured
      assertThat(await(other.locks().timeoutFor(unset))).isEqualTo(Duration.ofMinutes(7));
      assertThat(await(locks.timeoutFor(unset))).isEqualTo(Duration.ofSeconds(60));
      cloud.restartLockService(); // by the client whose own default is 60 s
      assertThat(assertRefused(() -> locks.acquireExclusive(uri("a"), "A")).retryAfter())
          .contains(Duration.ofMinutes(7));
    }
  }

  @Test
  void releasedLocksKeepTheirZnodeWithGrowingVersions() throws Exception {
    String u = uri("kept");
    String path = new ZkPaths(cloud.config().namespace()).lock(u);
    assertThat(s(u, "A").granted()).isTrue();
    assertThat(s(u, "B").granted()).isTrue();
    assertThat(release(u, "A")).isTrue();
    assertThat(release(u, "B")).isTrue();
    Stat stat = new Stat();
    LockRecord empty =
        LockRecord.decode(cloud.curator().getData().storingStatIn(stat).forPath(path));
    assertThat(empty.holders()).isEmpty();
    assertThat(stat.getVersion()).as("never re-created, so never back to version 0").isEqualTo(3);

    assertThat(x(u, "A").granted()).isTrue();
    clock.advance(TIMEOUT);
    LockGrant g = s(u, "B");
    assertThat(g.granted()).isTrue();
    assertThat(g.mode()).isEqualTo(LockMode.SHARED);
    assertThat(cloud.zkLocks().rememberedGrants()).isEqualTo(2);

    cloud.restartLockService();
    clock.advance(ZooKeeperConfig.DEFAULT_LOCK_TIMEOUT);
    assertThat(x(u, "C").granted()).as("the old generation's holders are gone").isTrue();
    cloud.curator().getData().storingStatIn(stat).forPath(path);
    assertThat(stat.getVersion()).as("overwritten in place").isEqualTo(6);
  }

  @Test
  void urisNeedNotBePathsAndNeverCollide() {
    String[] tricky = {
      uri("a/b"), uri("a%2Fb"), uri("a"), uri("a/"), uri(".."), uri("ü/€"), uri("x y:z?q=1#f")
    };
    for (String u : tricky) {
      assertThat(x(u, "A").granted()).as(u).isTrue();
    }
    for (String u : tricky) {
      assertThat(x(u, "B").granted()).as(u).isFalse();
      assertThat(release(u, "A")).as(u).isTrue();
    }
  }
}
