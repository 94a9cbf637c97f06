package io.stratus.zookeeper;

import io.stratus.cloudapi.BadRequestException;
import io.stratus.cloudapi.CloudLimits;
import io.stratus.cloudapi.ServiceUnavailableException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.zookeeper.Op;

/**
 * What the lock and the counter service share: timeouts per prefix in a {@code timeouts} znode,
 * the restart state in a {@code state} znode, the refusal that follows a restart, and the restart
 * itself (paper 000, sections 2.3.5, 2.3.6, 6.5 and 6.6).
 *
 * <p>What "restart" means on ZooKeeper: the ensemble replicates its state, so a server failing or
 * restarting loses no lock and no counter and needs no refusal. What can lose the state is a
 * namespace found empty (a new or wiped ensemble; see {@code ZooKeeperCloud}) or an operator's
 * decision to drop it, which {@link #restart} models: it moves the service to the next generation
 * (for counters: epoch), which makes every record of an earlier one read as absent, and stores a
 * refusal period of the longest timeout ever configured (plus the clock skew) that every client
 * obeys. The records of earlier generations are not deleted but overwritten in place when their
 * URI is next used: a deleted node would be re-created at version 0, and a client that had read
 * the old node could then overwrite the new one (an ABA race), if the deleting outlasted the
 * refusal period.
 *
 * <p>Thread-safe; all state is in ZooKeeper.
 */
final class Coordination {
  private final Zk zk;
  private final String kind;
  private final String statePath;
  private final String timeoutsPath;
  private final Duration defaultTimeout;
  private final Duration skew;
  private final Clock clock;
  private final CloudLimits limits;

  /**
   * @param kind "lock" or "counter", for messages
   * @param serviceDir the service's directory, {@code /ns/locks} or {@code /ns/counters}
   */
  Coordination(
      Zk zk, String kind, String serviceDir, ZooKeeperConfig config, Duration defaultTimeout) {
    this.zk = zk;
    this.kind = kind;
    this.statePath = ZkPaths.state(serviceDir);
    this.timeoutsPath = ZkPaths.timeouts(serviceDir);
    this.defaultTimeout = defaultTimeout;
    this.skew = config.maxClockSkew();
    this.clock = config.clock();
    this.limits = config.limits();
  }

  String statePath() {
    return statePath;
  }

  String timeoutsPath() {
    return timeoutsPath;
  }

  Duration defaultTimeout() {
    return defaultTimeout;
  }

  /** Sets the timeout of a prefix; allowed while refusing, as timeouts outlive restarts. */
  CompletableFuture<Void> setTimeout(String prefix, Duration timeout) {
    limits.checkPrefix(prefix);
    if (timeout == null || timeout.isNegative() || timeout.isZero()) {
      throw new BadRequestException("a " + kind + " timeout must be positive: " + timeout);
    }
    return updateTimeouts(t -> t.with(prefix, timeout));
  }

  /** Makes the table's longest-ever timeout at least {@code d} (a client's default, at connect). */
  CompletableFuture<Void> noteTimeout(Duration d) {
    return updateTimeouts(t -> t.noting(d));
  }

  CompletableFuture<Duration> timeoutFor(String uri) {
    limits.checkUri(uri);
    return zk.data(timeoutsPath).thenApply(d -> TimeoutTable.decode(d).lookup(uri, defaultTimeout));
  }

  static ServiceState state(Zk.Node node) {
    return node.exists() ? ServiceState.decode(node.data()) : ServiceState.INITIAL;
  }

  /** The refusal of a request at {@code now}, with the rest of the period as retry-after. */
  ServiceUnavailableException refusal(ServiceState s, Instant now) {
    Duration wait = s.remaining(now);
    return new ServiceUnavailableException(
        "the " + kind + " service restarted and refuses requests for another " + wait, wait);
  }

  /**
   * Restarts the service: the next generation, refused for the longest timeout ever configured
   * plus the skew, measured from now. Returns the new generation.
   */
  CompletableFuture<Long> restart() {
    return zk.retrying(
        statePath,
        "restart of the " + kind + " service",
        () ->
            zk.read(statePath, timeoutsPath)
                .thenCompose(
                    nodes -> {
                      ServiceState old = state(nodes.get(0));
                      TimeoutTable t = TimeoutTable.decode(nodes.get(1).data());
                      Duration longest =
                          t.longestEver().compareTo(defaultTimeout) >= 0
                              ? t.longestEver()
                              : defaultTimeout;
                      ServiceState next =
                          new ServiceState(
                              old.generation() + 1,
                              TimeoutTable.plus(TimeoutTable.plus(clock.instant(), longest), skew));
                      // Checking the timeouts' version: a longer timeout set meanwhile must count.
                      return zk.write(
                              List.of(
                                  Op.check(timeoutsPath, nodes.get(1).version()),
                                  zk.put(statePath, nodes.get(0), next.encode())))
                          .thenApply(v -> next.generation());
                    }));
  }

  private interface TableChange {
    TimeoutTable apply(TimeoutTable t);
  }

  private CompletableFuture<Void> updateTimeouts(TableChange change) {
    return zk.retrying(
        timeoutsPath,
        "timeouts of the " + kind + " service",
        () ->
            zk.read(timeoutsPath)
                .thenCompose(
                    nodes -> {
                      Zk.Node n = nodes.get(0);
                      TimeoutTable before = TimeoutTable.decode(n.data());
                      TimeoutTable after = change.apply(before);
                      if (after == before) {
                        return CompletableFuture.<Void>completedFuture(null);
                      }
                      byte[] data = after.encode();
                      if (data.length > ZooKeeperConfig.MAX_ZNODE_PAYLOAD) {
                        throw new BadRequestException("too many " + kind + " timeout prefixes");
                      }
                      return zk.write(List.of(zk.put(timeoutsPath, n, data)));
                    }));
  }
}
