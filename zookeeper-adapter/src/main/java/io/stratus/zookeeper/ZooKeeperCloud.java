package io.stratus.zookeeper;

import io.stratus.cloudapi.AdvancedQueueService;
import io.stratus.cloudapi.BadRequestException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.CounterService;
import io.stratus.cloudapi.CounterValues;
import io.stratus.cloudapi.LockService;
import io.stratus.cloudapi.ServiceUnavailableException;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.apache.curator.RetryLoop;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.ACLProvider;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.common.ZKConfig;
import org.apache.zookeeper.data.ACL;

/**
 * The Cloud API's coordination services on one ZooKeeper ensemble: {@link #locks()}, {@link
 * #counters()} and {@link #advancedQueues()}, over one Curator connection.
 *
 * <pre>{@code
 * try (ZooKeeperCloud zk = ZooKeeperCloud.connect(ZooKeeperConfig.builder("zk1:2181,zk2:2181")
 *     .namespace("prod/shop").build())) {
 *   CloudServices cloud = zk.addTo(CloudServices.builder().storage(s3)).build();
 *   ...
 * }
 * }</pre>
 *
 * <p>Connection states: the services fail fast with {@code ServiceUnavailableException} while the
 * connection is {@link Connection#SUSPENDED} or {@link Connection#LOST}, requests in flight fail
 * (a write with {@code OutcomeUnknownException}), and every lock this client was granted before
 * counts as gone (its release answers false). Listeners ({@link #addConnectionListener}) let the
 * protocols react, e.g. stop a checkpoint that relied on a lock.
 *
 * <p>Restarts (paper 000, sections 2.3.5 and 2.3.6): ZooKeeper replicates its state, so a server
 * that fails or restarts loses no lock or counter and nothing is refused. A namespace found empty
 * at {@link #connect} (no {@code meta} znode) is created. When it was never set up before (no
 * {@code initialized} marker beside it) it is a new deployment: no client can hold a lease from
 * it, so nothing is refused. When the marker is there, the namespace was dropped and its locks and
 * counters are lost while clients may still hold leases: the adapter warns and refuses lock and
 * counter requests for {@link ZooKeeperConfig#freshNamespaceRefusal()} (the paper's refusal
 * period), stored in ZooKeeper so that every client obeys it. An ensemble that lost all its data
 * lost the marker too and looks new: whoever brings it back keeps clients away for that period.
 * A fresh namespace starts counters at an epoch
 * taken from the clock (hours since 2000), above the epochs of the lost ensemble unless it was
 * restarted more than once an hour on average.
 *
 * <p>Thread-safe. {@link #close()} closes the connection; the services' own {@code close()} does
 * nothing, so a {@link CloudServices} bundle made by {@link #addTo} closes this object once.
 */
public final class ZooKeeperCloud implements AutoCloseable {
  /**
   * The client's buffer for one reply: ZooKeeper drops the connection on a longer one. 8 MiB lets
   * a receive list about 150,000 messages; data replies are at most one znode anyway.
   */
  static final int CLIENT_MAX_REPLY_BYTES = 8 * 1024 * 1024;

  private static final System.Logger LOG = System.getLogger(ZooKeeperCloud.class.getName());

  /** Where clock-derived epochs of fresh namespaces count from. */
  static final Instant EPOCH_ORIGIN = Instant.parse("2000-01-01T00:00:00Z");

  /** The state of the ZooKeeper connection, as the services see it. */
  public enum Connection {
    /** Requests go through. */
    CONNECTED,
    /** Disconnected; the session may still be alive. Requests fail fast, locks count as gone. */
    SUSPENDED,
    /** The session is presumed expired; Curator keeps trying to connect with a new one. */
    LOST,
    /** {@link #close()} was called. */
    CLOSED
  }

  private final ZooKeeperConfig config;
  private final CuratorFramework curator;
  private final ExecutorService executor;
  private final ConnectionWatch watch;
  private final ZkPaths paths;
  private final ZkLocks locks;
  private final ZkCounters counters;
  private final ZkAdvancedQueues queues;
  private final boolean foundFreshNamespace;
  private final AtomicBoolean closed = new AtomicBoolean();

  private ZooKeeperCloud(
      ZooKeeperConfig config,
      CuratorFramework curator,
      ExecutorService executor,
      ConnectionWatch watch,
      boolean foundFreshNamespace) {
    this.config = config;
    this.curator = curator;
    this.executor = executor;
    this.watch = watch;
    this.paths = new ZkPaths(config.namespace());
    Zk zk = new Zk(curator, watch, executor, config.sessionTimeout(), config.acl());
    this.locks = new ZkLocks(zk, paths, config);
    this.counters = new ZkCounters(zk, paths, config);
    this.queues = new ZkAdvancedQueues(zk, paths, config);
    this.foundFreshNamespace = foundFreshNamespace;
  }

  /**
   * Connects to the ensemble, waiting up to the connection timeout, and creates the namespace's
   * layout if it is missing (see the class comment for what an empty namespace means).
   *
   * @throws ServiceUnavailableException when no connection could be made or the layout not set up
   * @throws BadRequestException when the namespace's ACL does not admit this client's digest
   *     credentials (or the lack of them): retrying cannot help, other credentials can
   */
  public static ZooKeeperCloud connect(ZooKeeperConfig config) {
    Objects.requireNonNull(config, "config");
    ZKClientConfig clientConfig = new ZKClientConfig();
    clientConfig.setProperty(ZKConfig.JUTE_MAXBUFFER, Integer.toString(CLIENT_MAX_REPLY_BYTES));
    CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder();
    if (config.credentials() != null) {
      // Curator adds the authentication to every ZooKeeper handle it makes, also after an expiry.
      builder.authorization(ZooKeeperConfig.DIGEST_SCHEME, config.credentials().authBytes());
    }
    List<ACL> acl = config.acl();
    CuratorFramework curator =
        builder
            .aclProvider(
                new ACLProvider() {
                  @Override
                  public List<ACL> getDefaultAcl() {
                    return acl;
                  }

                  @Override
                  public List<ACL> getAclForPath(String path) {
                    return acl;
                  }
                })
            .connectString(config.connectString())
            .sessionTimeoutMs((int) config.sessionTimeout().toMillis())
            .connectionTimeoutMs((int) config.connectionTimeout().toMillis())
            .retryPolicy(
                new ExponentialBackoffRetry(
                    (int) config.retryBaseSleep().toMillis(), config.retryMaxRetries()))
            .zkClientConfig(clientConfig)
            .threadFactory(daemonThreads("stratus-zk-curator"))
            .build();
    ConnectionWatch watch = new ConnectionWatch();
    curator.getConnectionStateListenable().addListener(watch);
    ExecutorService executor = Executors.newCachedThreadPool(daemonThreads("stratus-zk"));
    curator.start();
    try {
      awaitConnection(watch, config);
      boolean fresh =
          RetryLoop.callWithRetry(
              curator.getZookeeperClient(),
              () -> setUpLayout(curator.getZookeeperClient().getZooKeeper(), config));
      ZooKeeperCloud cloud = new ZooKeeperCloud(config, curator, executor, watch, fresh);
      // The refusal after a restart must cover every default in use, not just the restarter's.
      CompletableFuture.allOf(
              cloud.locks.coordination().noteTimeout(config.defaultLockTimeout()),
              cloud.counters.coordination().noteTimeout(config.defaultCounterTimeout()))
          .get(config.connectionTimeout().toMillis(), TimeUnit.MILLISECONDS);
      return cloud;
    } catch (Exception e) {
      curator.close();
      executor.shutdownNow();
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      Throwable cause = CloudFutures.unwrap(e);
      if (cause instanceof ServiceUnavailableException) {
        throw (ServiceUnavailableException) cause;
      }
      if (cause instanceof BadRequestException) {
        throw (BadRequestException) cause;
      }
      if (Zk.isCode(cause, Code.NOAUTH, Code.AUTHFAILED)) {
        throw namespaceDenied(config, (KeeperException) cause);
      }
      throw new ServiceUnavailableException(
          "could not set up the ZooKeeper services at " + config.connectString() + ": " + cause,
          null,
          cause);
    }
  }

  public LockService locks() {
    return locks;
  }

  public CounterService counters() {
    return counters;
  }

  public AdvancedQueueService advancedQueues() {
    return queues;
  }

  /** Adds the three services to {@code builder}, and this object as a resource to close. */
  public CloudServices.Builder addTo(CloudServices.Builder builder) {
    return builder.locks(locks).counters(counters).advancedQueues(queues).closeWith(this);
  }

  public Connection connectionState() {
    return watch.state();
  }

  /** Calls {@code listener} with every change of the connection state, on Curator's thread. */
  public void addConnectionListener(Consumer<Connection> listener) {
    watch.addListener(Objects.requireNonNull(listener, "listener"));
  }

  public void removeConnectionListener(Consumer<Connection> listener) {
    watch.removeListener(listener);
  }

  public ZooKeeperConfig config() {
    return config;
  }

  /** Closes the connection; requests fail with {@code ServiceUnavailableException} afterwards. */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      watch.publish(Connection.CLOSED);
      curator.close();
      executor.shutdown();
    }
  }

  // ---- for tests and operators' tools in this package ----

  /** Whether {@link #connect} found the namespace empty and created it. */
  boolean foundFreshNamespace() {
    return foundFreshNamespace;
  }

  /** Loses every lock and refuses acquires for the longest timeout (see {@code Coordination}). */
  void restartLockService() {
    CloudFutures.await(locks.simulateRestart());
  }

  /** Loses every counter, refuses for the longest timeout, then continues in the next epoch. */
  void restartCounterService() {
    CloudFutures.await(counters.simulateRestart());
  }

  ZkLocks zkLocks() {
    return locks;
  }

  CuratorFramework curator() {
    return curator;
  }

  // ---- set-up ----

  private static void awaitConnection(ConnectionWatch watch, ZooKeeperConfig config)
      throws Exception {
    try {
      watch.connected().get(config.connectionTimeout().toMillis(), TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.TimeoutException e) {
      throw new ServiceUnavailableException(
          "no connection to ZooKeeper at "
              + config.connectString()
              + " within "
              + config.connectionTimeout(),
          null,
          e);
    }
  }

  /** Why {@link #connect} cannot use the namespace: its ACL admits another identity. */
  private static BadRequestException namespaceDenied(ZooKeeperConfig config, KeeperException e) {
    String who =
        config
            .digestUser()
            .map(u -> "this client authenticates as digest user " + u)
            .orElse("this client has no credentials");
    return new BadRequestException(
        "ZooKeeper denied this client access to the namespace /"
            + config.namespace()
            + " ("
            + e.code()
            + " at "
            + e.getPath()
            + "): the znodes' ACL admits"
            + " another identity and "
            + who
            + "; connect with the digest credentials"
            + " (ZooKeeperConfig.digestCredentials) of the client that created the namespace",
        e);
  }

  /**
   * Creates the namespace's layout in one multi-op unless its {@code meta} node exists; true when
   * this call created it. Idempotent, so Curator may retry it after a connection loss (a retry
   * that finds the nodes made by its own first attempt answers false, which only skips nothing).
   *
   * <p>Why {@code exists} before each create of the namespace's path: the server checks the
   * parent's ACL before it looks for the node, so creating a node that exists under a parent of
   * another identity answers NoAuth rather than NodeExists, where {@code exists} at most asks for
   * READ on the node itself. Why the {@code meta} node is read rather than only tested: reading
   * needs READ, so a client with other credentials learns it here, once, with a clear message.
   */
  private static boolean setUpLayout(ZooKeeper zk, ZooKeeperConfig config) throws Exception {
    ZkPaths paths = new ZkPaths(config.namespace());
    List<ACL> acl = config.acl();
    String path = "";
    for (String part : config.namespace().split("/")) {
      path += "/" + part;
      if (zk.exists(path, false) != null) {
        continue;
      }
      try {
        zk.create(path, new byte[0], acl, org.apache.zookeeper.CreateMode.PERSISTENT);
      } catch (KeeperException.NodeExistsException e) {
        // made meanwhile by another client
      }
    }
    if (zk.exists(paths.meta(), false) != null) {
      zk.getData(paths.meta(), false, null);
      createMarker(zk, paths, acl); // a namespace set up before the marker existed
      return false;
    }
    Instant now = config.clock().instant();
    // Only a namespace that was set up before can have clients holding leases it lost.
    boolean usedBefore = zk.exists(paths.initialized(), false) != null;
    Duration refusal = usedBefore ? config.freshNamespaceRefusal() : Duration.ZERO;
    Instant refuseUntil = refusal.isZero() ? Instant.MIN : TimeoutTable.plus(now, refusal);
    long epoch =
        Math.min(
            CounterValues.MAX_EPOCH, Math.max(0, Duration.between(EPOCH_ORIGIN, now).toHours()));
    byte[] none = new byte[0];
    byte[] noTimeouts = TimeoutTable.EMPTY.encode();
    List<Op> ops = new ArrayList<>();
    ops.add(Zk.createOp(paths.meta(), new Codec.Writer().writeInstant(now).toBytes(), acl));
    ops.add(Zk.createOp(paths.locksDir(), none, acl));
    ops.add(
        Zk.createOp(
            ZkPaths.state(paths.locksDir()), new ServiceState(0, refuseUntil).encode(), acl));
    ops.add(Zk.createOp(ZkPaths.timeouts(paths.locksDir()), noTimeouts, acl));
    ops.add(Zk.createOp(paths.heldDir(), none, acl));
    ops.add(Zk.createOp(paths.countersDir(), none, acl));
    ops.add(
        Zk.createOp(
            ZkPaths.state(paths.countersDir()),
            new ServiceState(epoch, refuseUntil).encode(),
            acl));
    ops.add(Zk.createOp(ZkPaths.timeouts(paths.countersDir()), noTimeouts, acl));
    ops.add(Zk.createOp(paths.valuesDir(), none, acl));
    ops.add(Zk.createOp(paths.queuesDir(), none, acl));
    if (!usedBefore) {
      ops.add(Zk.createOp(paths.initialized(), none, acl));
    }
    try {
      zk.multi(ops);
    } catch (KeeperException.NodeExistsException e) {
      return false; // another client created it first
    }
    if (usedBefore) {
      LOG.log(
          Level.WARNING,
          "the ZooKeeper namespace /"
              + config.namespace()
              + " was used before and is found empty: its locks and counters are lost (the"
              + " namespace was dropped, or the ensemble lost its data), so lock and counter"
              + " requests are refused for "
              + refusal
              + " (ZooKeeperConfig.freshNamespaceRefusal), until every lease it granted has"
              + " ended");
    }
    return true;
  }

  private static void createMarker(ZooKeeper zk, ZkPaths paths, List<ACL> acl) throws Exception {
    if (zk.exists(paths.initialized(), false) != null) {
      return;
    }
    try {
      zk.create(paths.initialized(), new byte[0], acl, org.apache.zookeeper.CreateMode.PERSISTENT);
    } catch (KeeperException.NodeExistsException e) {
      // made meanwhile by another client
    }
  }

  private static ThreadFactory daemonThreads(String name) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, name + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }
}
