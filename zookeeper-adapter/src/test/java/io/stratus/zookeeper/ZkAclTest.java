package io.stratus.zookeeper;

import static io.stratus.zookeeper.ZkAclTesting.PASSWORD;
import static io.stratus.zookeeper.ZkAclTesting.READER_PASSWORD;
import static io.stratus.zookeeper.ZkAclTesting.READER_USER;
import static io.stratus.zookeeper.ZkAclTesting.USER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.stratus.cloudapi.BadRequestException;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.CounterValues;
import io.stratus.cloudapi.time.ManualClock;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Digest authentication and ACLs against a real server: what the znodes carry, and how a client
 * without the namespace's credentials, or with a wrong password, is refused.
 */
class ZkAclTest {
  private static TestingServer server;

  private final ManualClock clock = new ManualClock();
  private ZooKeeperCloud owner;
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
  void connectOwner() throws Exception {
    owner =
        ZooKeeperCloud.connect(
            ZkAclTesting.withCredentials(ZkTesting.config(server.getConnectString(), clock))
                .build());
    namespace = owner.config().namespace();
    assertThat(CloudFutures.await(owner.locks().acquireExclusive("lock-a", "T1")).granted())
        .isTrue();
    CloudFutures.await(owner.counters().increment("counter-a"));
    CloudFutures.await(owner.advancedQueues().createQueue("queue-a"));
    CloudFutures.await(owner.advancedQueues().send("queue-a", new byte[] {1, 2, 3}, 7));
  }

  @AfterEach
  void closeOwner() {
    owner.close();
  }

  @Test
  void everyZnodeAdmitsTheUserFullyAndTheExtraReaderForReadingOnly() throws Exception {
    assertThat(ZkAclTesting.znodesWithOtherAcls(owner.curator(), namespace)).isEmpty();
    List<ACL> meta = owner.curator().getACL().forPath(new ZkPaths(namespace).meta());
    assertThat(meta)
        .containsExactly(
            new ACL(ZooDefs.Perms.ALL, ZkAclTesting.digestId(USER, PASSWORD)),
            new ACL(ZooDefs.Perms.READ, ZkAclTesting.digestId(READER_USER, READER_PASSWORD)));
  }

  @Test
  void aSecondClientWithTheCredentialsSharesTheNamespace() throws Exception {
    try (ZooKeeperCloud other =
        ZooKeeperCloud.connect(
            ZkAclTesting.withCredentials(
                    ZkTesting.config(server.getConnectString(), clock, namespace))
                .build())) {
      assertThat(other.foundFreshNamespace()).isFalse();
      assertThat(CloudFutures.await(other.locks().acquireExclusive("lock-a", "T2")).granted())
          .as("T1 holds it")
          .isFalse();
      assertThat(
              CounterValues.sequence(CloudFutures.await(other.counters().increment("counter-a"))))
          .isEqualTo(2);
    }
  }

  @Test
  void aClientWithoutCredentialsIsRefusedWithAClearBadRequest() {
    assertRefused(ZkTesting.config(server.getConnectString(), clock, namespace));
  }

  @Test
  void aClientWithAWrongPasswordIsRefusedWithAClearBadRequest() {
    assertRefused(
        ZkTesting.config(server.getConnectString(), clock, namespace)
            .digestCredentials(USER, PASSWORD + "-wrong"));
  }

  @Test
  void theReadOnlyIdentityConnectsButItsFirstWriteIsRefused() throws Exception {
    try (ZooKeeperCloud reader =
        ZooKeeperCloud.connect(
            ZkTesting.config(server.getConnectString(), clock, namespace)
                .digestCredentials(READER_USER, READER_PASSWORD)
                .build())) {
      assertRequestRefused(() -> reader.counters().increment("counter-a"));
    }
    try (CuratorFramework reader = rawClient(READER_USER + ":" + READER_PASSWORD)) {
      String meta = new ZkPaths(namespace).meta();
      assertThat(reader.getData().forPath(meta)).isNotEmpty();
      assertThatThrownBy(() -> reader.setData().forPath(meta, new byte[0]))
          .isInstanceOf(KeeperException.NoAuthException.class);
    }
  }

  @Test
  void rawClientsWithoutTheCredentialsCanNeitherReadNorWrite() throws Exception {
    ZkPaths paths = new ZkPaths(namespace);
    try (CuratorFramework anonymous = rawClient(null);
        CuratorFramework wrong = rawClient(USER + ":not-" + PASSWORD)) {
      for (CuratorFramework c : List.of(anonymous, wrong)) {
        assertThatThrownBy(() -> c.getData().forPath(paths.meta()))
            .isInstanceOf(KeeperException.NoAuthException.class);
        assertThatThrownBy(() -> c.getChildren().forPath(paths.heldDir()))
            .isInstanceOf(KeeperException.NoAuthException.class);
        assertThatThrownBy(() -> c.create().forPath(paths.queuesDir() + "/x"))
            .isInstanceOf(KeeperException.NoAuthException.class);
        assertThatThrownBy(() -> c.delete().forPath(paths.meta()))
            .isInstanceOf(KeeperException.NoAuthException.class);
      }
    }
  }

  @Test
  void aRequestTheServerRefusesForItsAclFailsAsBadRequestNotAsAKeeperException() throws Exception {
    // An operator hands the locks to another identity while the client is connected.
    ZkPaths paths = new ZkPaths(namespace);
    owner
        .curator()
        .setACL()
        .withACL(List.of(new ACL(ZooDefs.Perms.ALL, ZkAclTesting.digestId("other", "pw"))))
        .forPath(paths.heldDir());
    assertRequestRefused(() -> owner.locks().acquireExclusive("lock-b", "T1"));
  }

  @Test
  void thePasswordIsNeverPrinted() {
    ZooKeeperConfig c = owner.config();
    assertThat(c.toString())
        .contains(USER)
        .doesNotContain(PASSWORD)
        .doesNotContain(READER_PASSWORD);
    assertThat(c.credentials().toString()).contains(USER).doesNotContain(PASSWORD);
    assertThat(c.digestUser()).contains(USER);
    assertThat(c.extraReader())
        .hasValueSatisfying(r -> assertThat(r).startsWith("digest:monitor:"));
  }

  @Test
  void invalidCredentialsAreRejectedByBuildWithoutRepeatingThem() {
    assertThatThrownBy(
            () -> ZooKeeperConfig.builder("h:1").digestCredentials("a:b", PASSWORD).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("user")
        .hasMessageNotContaining(PASSWORD);
    assertThatThrownBy(() -> ZooKeeperConfig.builder("h:1").digestCredentials(USER, "").build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("password");
    assertThatThrownBy(() -> ZooKeeperConfig.builder("h:1").extraReader("ip", "10.0.0.1").build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("digestCredentials");
    assertThat(ZooKeeperConfig.builder("h:1").build().acl()).isEqualTo(ZooDefs.Ids.OPEN_ACL_UNSAFE);
  }

  private void assertRefused(ZooKeeperConfig.Builder config) {
    ZooKeeperConfig c = config.build();
    assertThatThrownBy(() -> ZooKeeperCloud.connect(c))
        .isInstanceOf(BadRequestException.class)
        .hasMessageContaining("denied")
        .hasMessageContaining("digestCredentials")
        .hasMessageNotContaining(READER_PASSWORD)
        .hasMessageContaining("/" + namespace)
        .hasMessageNotContaining(PASSWORD)
        .satisfies(e -> assertThat(((CloudException) e).isRetryable()).isFalse());
    // The refused client changed nothing: the owner's counter is where it was.
    assertThat(CounterValues.sequence(CloudFutures.await(owner.counters().increment("counter-a"))))
        .isEqualTo(2);
  }

  private static void assertRequestRefused(Supplier<CompletableFuture<?>> call) {
    Throwable t = catchThrowable(() -> CloudFutures.await(call.get()));
    assertThat(t)
        .isInstanceOf(BadRequestException.class)
        .hasMessageContaining("NOAUTH")
        .hasMessageContaining("digestCredentials")
        .hasMessageNotContaining(PASSWORD)
        .hasMessageNotContaining(READER_PASSWORD);
    assertThat(((CloudException) t).isRetryable()).isFalse();
  }

  private static CuratorFramework rawClient(String auth) throws Exception {
    CuratorFrameworkFactory.Builder b =
        CuratorFrameworkFactory.builder()
            .connectString(server.getConnectString())
            .retryPolicy(new RetryOneTime(10));
    if (auth != null) {
      b.authorization("digest", auth.getBytes(StandardCharsets.UTF_8));
    }
    CuratorFramework c = b.build();
    c.start();
    c.blockUntilConnected();
    return c;
  }
}
