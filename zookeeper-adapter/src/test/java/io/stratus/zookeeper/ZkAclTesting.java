package io.stratus.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.server.auth.DigestAuthenticationProvider;
import org.junit.jupiter.api.AfterEach;

/** Digest credentials for the ACL-enabled variants of the contract tests, and ACL checks. */
final class ZkAclTesting {
  static final String USER = "stratus-app";
  static final String PASSWORD = "zk-secret-7f3a9c";

  /** An identity with read access only, as an operator's monitoring tool would have. */
  static final String READER_USER = "monitor";

  static final String READER_PASSWORD = "monitor-secret-51be";

  private ZkAclTesting() {}

  /** {@code user:base64(sha1(user:password))}: how ZooKeeper names a digest identity. */
  static Id digestId(String user, String password) throws Exception {
    return new Id("digest", DigestAuthenticationProvider.generateDigest(user + ":" + password));
  }

  /** The ACL every znode of an adapter configured by {@link Secured} must carry. */
  static List<ACL> expectedAcl() throws Exception {
    return List.of(
        new ACL(ZooDefs.Perms.ALL, digestId(USER, PASSWORD)),
        new ACL(ZooDefs.Perms.READ, digestId(READER_USER, READER_PASSWORD)));
  }

  /** Adds the test credentials and the read-only monitor to {@code b}. */
  static ZooKeeperConfig.Builder withCredentials(ZooKeeperConfig.Builder b) throws Exception {
    return b.digestCredentials(USER, PASSWORD)
        .extraReader("digest", digestId(READER_USER, READER_PASSWORD).getId());
  }

  /**
   * Every znode of {@code namespace}, its ancestors included, and their ACLs, read through {@code
   * curator} (which needs READ on each).
   */
  static List<String> znodesWithOtherAcls(CuratorFramework curator, String namespace)
      throws Exception {
    List<ACL> want = expectedAcl();
    List<String> wrong = new ArrayList<>();
    Deque<String> todo = new ArrayDeque<>();
    String path = "";
    String[] parts = namespace.split("/");
    for (int i = 0; i < parts.length - 1; i++) {
      path += "/" + parts[i];
      check(curator, path, want, wrong);
    }
    todo.push("/" + namespace);
    int seen = 0;
    while (!todo.isEmpty()) {
      String p = todo.pop();
      seen++;
      check(curator, p, want, wrong);
      for (String child : curator.getChildren().forPath(p)) {
        todo.push(p + "/" + child);
      }
    }
    assertThat(seen).as("the namespace and its layout").isGreaterThan(5);
    return wrong;
  }

  private static void check(
      CuratorFramework curator, String path, List<ACL> want, List<String> wrong) throws Exception {
    List<ACL> acl = curator.getACL().forPath(path);
    if (!acl.equals(want)) {
      wrong.add(path + " " + acl);
    }
  }

  /**
   * Makes a contract test class connect every client with the test credentials, and checks after
   * each test that every znode of the test's namespace carries exactly the configured ACL.
   */
  interface Secured extends ZkTesting.Clients {
    @Override
    default ZooKeeperConfig.Builder secured(ZooKeeperConfig.Builder b) {
      try {
        return withCredentials(b);
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }

    @AfterEach
    default void everyZnodeOfTheNamespaceCarriesTheAcl() throws Exception {
      ZooKeeperCloud cloud = cloud();
      assertThat(cloud.config().digestUser()).contains(USER);
      assertThat(znodesWithOtherAcls(cloud.curator(), cloud.config().namespace())).isEmpty();
    }
  }
}
