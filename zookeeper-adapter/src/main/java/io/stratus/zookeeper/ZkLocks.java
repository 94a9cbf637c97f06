package io.stratus.zookeeper;

import io.stratus.cloudapi.BadRequestException;
import io.stratus.cloudapi.CloudLimits;
import io.stratus.cloudapi.LockGrant;
import io.stratus.cloudapi.LockMode;
import io.stratus.cloudapi.OutcomeUnknownException;
import io.stratus.cloudapi.ServiceUnavailableException;
import io.stratus.cloudapi.SupportsIntentionLocks;
import io.stratus.cloudapi.SupportsLockStamps;
import io.stratus.cloudapi.SupportsLockStamps.StampedGrant;
import io.stratus.zookeeper.LockRecord.Holder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.zookeeper.Op;
import org.jspecify.annotations.Nullable;

/**
 * The lock service with leases (paper 000, sections 2.3.5 and 6.5) on ZooKeeper, with insert
 * intentions ({@link SupportsIntentionLocks}) and stamps ({@link SupportsLockStamps}): one znode
 * per locked URI holds its holders (client id, mode, grant instant, timeout) and its stamp, see
 * {@link LockRecord}.
 *
 * <p>Why it is safe:
 *
 * <ul>
 *   <li><b>Optimistic concurrency.</b> A request reads the service state, the timeouts and the
 *       URI's node in one multi-read, decides on the injected clock exactly as the in-process
 *       service decides, and writes the new holders in one multi-op that checks the versions of
 *       the state node and of the lock node (or creates it). Another client's write in between
 *       fails the check (BadVersion, NodeExists) and the request starts over, so the decisions on
 *       one URI are serialized by ZooKeeper. A refusal writes nothing.
 *   <li><b>Lock znodes are never deleted</b> while the service runs; releasing the last holder
 *       writes an empty record. A node deleted and created again starts over at version 0, so a
 *       client that read the old node at version 0 (just before a release deleted it) could then
 *       overwrite the new node's grant with its stale decision, an ABA race. Versions of a kept
 *       node only grow (a restart, too, leaves the records of earlier generations in place). The
 *       cost is one small znode per URI ever locked.
 *   <li><b>Leases are judged by time alone</b>, never by sessions: a holder that crashed, or hangs
 *       while its session lives on, loses the lock once its grant instant plus the timeout plus
 *       the clock skew has passed on the deciding client's clock.
 *   <li><b>Connection states.</b> A request that started before the connection was SUSPENDED or
 *       LOST cannot report a grant: it fails with {@link OutcomeUnknownException} if it wrote
 *       (the lock may be held, the caller must not rely on it) and with {@link
 *       ServiceUnavailableException} if it did not. Locks this client was granted before such an
 *       event are gone for it: their release answers false, although the lease in ZooKeeper runs
 *       on until it lapses or is released.
 *   <li><b>Restarts</b> ({@link #simulateRestart}) move to the next generation with a refusal
 *       period; every write checks the state node's version, so no grant straddles a restart.
 *   <li><b>Stamps</b> are written in the same multi-op as the holders they follow: a grant of an
 *       exclusive lock or an intention writes the stamp unknown, an exclusive holder's stamped
 *       release writes its stamp, and every other write keeps the stamp the record had. A URI
 *       without a node is untouched (stamp 0) only while the service never lost its state (no
 *       restart, no namespace found dropped); the records of an earlier generation have unknown
 *       stamps (see {@link LockRecord#stampOf}).
 * </ul>
 *
 * <p>Thread-safe; the only local state is the record of which grants this client got in which
 * connection epoch.
 */
final class ZkLocks implements SupportsIntentionLocks, SupportsLockStamps {
  private final Zk zk;
  private final ZkPaths paths;
  private final Coordination coordination;
  private final CloudLimits limits;
  private final Clock clock;
  private final Duration skew;

  /** (URI, client id) to the grant this client got; forgotten on release or once lapsed. */
  private final ConcurrentHashMap<List<String>, LocalGrant> grants = new ConcurrentHashMap<>();

  private final AtomicInteger grantsSincePrune = new AtomicInteger();

  ZkLocks(Zk zk, ZkPaths paths, ZooKeeperConfig config) {
    this.zk = zk;
    this.paths = paths;
    this.coordination =
        new Coordination(zk, "lock", paths.locksDir(), config, config.defaultLockTimeout());
    this.limits = config.limits();
    this.clock = config.clock();
    this.skew = config.maxClockSkew();
  }

  Coordination coordination() {
    return coordination;
  }

  @Override
  public CompletableFuture<Void> setTimeout(String uriPrefix, Duration timeout) {
    return zk.call(() -> coordination.setTimeout(uriPrefix, timeout));
  }

  @Override
  public CompletableFuture<Duration> timeoutFor(String uri) {
    return zk.call(() -> coordination.timeoutFor(uri));
  }

  @Override
  public CompletableFuture<LockGrant> acquireExclusive(String uri, String clientId) {
    return acquire(uri, clientId, LockMode.EXCLUSIVE);
  }

  @Override
  public CompletableFuture<LockGrant> acquireShared(String uri, String clientId) {
    return acquire(uri, clientId, LockMode.SHARED);
  }

  @Override
  public CompletableFuture<StampedGrant> acquireSharedStamped(String uri, String clientId) {
    return decide(uri, clientId, LockMode.SHARED)
        .thenApply(o -> new StampedGrant(o.grant, o.stamp));
  }

  @Override
  public CompletableFuture<LockGrant> acquireIntention(String uri, String clientId) {
    return acquire(uri, clientId, LockMode.INTENTION);
  }

  @Override
  public CompletableFuture<Boolean> release(String uri, String clientId) {
    return release(uri, clientId, OptionalLong.empty());
  }

  @Override
  public CompletableFuture<Boolean> releaseStamped(String uri, String clientId, long stamp) {
    return release(uri, clientId, OptionalLong.of(stamp));
  }

  /** Releases the lock of {@code clientId}; an exclusive one leaves {@code stamp} when present. */
  private CompletableFuture<Boolean> release(String uri, String clientId, OptionalLong stamp) {
    return zk.call(
        () -> {
          stamp.ifPresent(SupportsLockStamps::checkStamp);
          limits.checkUri(uri);
          checkClientId(clientId);
          LocalGrant local = grants.remove(List.of(uri, clientId));
          // Granted before the connection was suspended: gone for this client, whatever ZooKeeper
          // says.
          boolean lostLocally = local != null && local.connectionEpoch != zk.connection().epoch();
          String path = paths.lock(uri);
          return zk.retrying(path, "release of " + uri, () -> releaseOnce(path, clientId, stamp))
              .thenApply(held -> held && !lostLocally);
        });
  }

  /**
   * Restarts the lock service as if it had failed and lost its locks: the next generation,
   * refused for the longest timeout ever configured.
   */
  CompletableFuture<Long> simulateRestart() {
    return zk.call(coordination::restart);
  }

  // ---- internals ----

  private CompletableFuture<LockGrant> acquire(String uri, String clientId, LockMode mode) {
    return decide(uri, clientId, mode).thenApply(o -> o.grant);
  }

  /** The decision on a request, written when granted. */
  private CompletableFuture<Outcome> decide(String uri, String clientId, LockMode mode) {
    return zk.call(
        () -> {
          limits.checkUri(uri);
          checkClientId(clientId);
          long epoch = zk.connection().epoch();
          String path = paths.lock(uri);
          return zk.retrying(path, "lock on " + uri, () -> acquireOnce(uri, path, clientId, mode))
              .handle(
                  (outcome, e) -> {
                    if (zk.connection().epoch() != epoch) {
                      // The connection was suspended while this request was in flight (see the
                      // header).
                      boolean mayHold =
                          e == null
                              ? outcome.wrote
                              : Zk.toCloud(e) instanceof OutcomeUnknownException;
                      if (mayHold) {
                        throw new OutcomeUnknownException(
                            "the ZooKeeper connection was interrupted "
                                + "while the lock on "
                                + uri
                                + " may have been granted; treat it as not held",
                            e);
                      }
                      throw new ServiceUnavailableException(
                          "the ZooKeeper connection was interrupted "
                              + "during a lock request on "
                              + uri,
                          null,
                          e);
                    }
                    if (e != null) {
                      throw Zk.toCloud(e);
                    }
                    // A granted outcome always carries its lease end.
                    if (outcome.grant.granted() && outcome.leaseEnd != null) {
                      remember(uri, clientId, epoch, outcome.leaseEnd);
                    }
                    return outcome;
                  });
        });
  }

  /** A decision, whether it was written, and the stamp a shared grant reports. */
  private record Outcome(
      LockGrant grant, boolean wrote, @Nullable Instant leaseEnd, OptionalLong stamp) {}

  private CompletableFuture<Outcome> acquireOnce(
      String uri, String path, String clientId, LockMode mode) {
    return zk.read(coordination.statePath(), coordination.timeoutsPath(), path)
        .thenCompose(
            nodes -> {
              Zk.Node stateNode = nodes.get(0);
              Zk.Node lockNode = nodes.get(2);
              ServiceState state = Coordination.state(stateNode);
              Duration timeout =
                  TimeoutTable.decode(nodes.get(1).data())
                      .lookup(uri, coordination.defaultTimeout());
              Instant now = clock.instant();
              if (state.refusing(now)) {
                throw coordination.refusal(state, now);
              }
              LockRecord record = lockNode.exists() ? LockRecord.decode(lockNode.data()) : null;
              List<Holder> live = LockRecord.live(record, state.generation(), now, skew);
              List<Holder> next = new ArrayList<>(live.size() + 1);
              LockGrant grant = decide(live, next, clientId, mode, now, timeout);
              if (!grant.granted()) {
                return CompletableFuture.completedFuture(
                    new Outcome(grant, false, null, OptionalLong.empty()));
              }
              // A writer's grant makes the stamp unknown; a shared one keeps and reports it.
              OptionalLong stamp =
                  grant.mode() == LockMode.SHARED
                      ? LockRecord.stampOf(record, state)
                      : OptionalLong.empty();
              byte[] data = new LockRecord(state.generation(), next, stamp).encode();
              if (data.length > ZooKeeperConfig.MAX_ZNODE_PAYLOAD) {
                throw new ServiceUnavailableException(
                    "the lock on " + uri + " has too many holders");
              }
              return zk.write(
                      List.of(
                          Op.check(coordination.statePath(), stateNode.version()),
                          zk.put(path, lockNode, data)))
                  .thenApply(v -> new Outcome(grant, true, TimeoutTable.plus(now, timeout), stamp));
            });
  }

  /**
   * The in-process service's decision: {@code live} holds the unlapsed holders; on a grant,
   * {@code next} receives the holders to write (the caller's entry renewed from {@code now}).
   */
  private static LockGrant decide(
      List<Holder> live,
      List<Holder> next,
      String clientId,
      LockMode mode,
      Instant now,
      Duration timeout) {
    Holder mine = null;
    for (Holder h : live) {
      if (h.clientId().equals(clientId)) {
        mine = h;
      } else {
        next.add(h);
      }
    }
    // Asking for another mode than the one held asks for both: a fresh grant, a renewal, an
    // upgrade (S->X, I->X, S+I->X), or an exclusive holder keeping its lock, renewed.
    LockMode held = mine == null ? mode : mine.mode().and(mode);
    for (Holder h : next) {
      if (!h.mode().compatibleWith(held)) {
        return LockGrant.refused(mode, timeout);
      }
    }
    next.add(new Holder(clientId, held, now, timeout));
    return LockGrant.granted(held, timeout);
  }

  private CompletableFuture<Boolean> releaseOnce(String path, String clientId, OptionalLong stamp) {
    return zk.read(coordination.statePath(), path)
        .thenCompose(
            nodes -> {
              Zk.Node stateNode = nodes.get(0);
              Zk.Node lockNode = nodes.get(1);
              ServiceState state = Coordination.state(stateNode);
              Instant now = clock.instant();
              if (state.refusing(now) || !lockNode.exists()) {
                return CompletableFuture.completedFuture(false); // a restart lost every lock
              }
              LockRecord record = LockRecord.decode(lockNode.data());
              List<Holder> live = LockRecord.live(record, state.generation(), now, skew);
              List<Holder> rest = new ArrayList<>(live.size());
              boolean held = false;
              boolean exclusive = false;
              for (Holder h : live) {
                if (h.clientId().equals(clientId)) {
                  held = true;
                  exclusive = h.mode() == LockMode.EXCLUSIVE;
                } else {
                  rest.add(h);
                }
              }
              if (!held && rest.size() == record.holders().size()) {
                return CompletableFuture.completedFuture(false); // nothing to change
              }
              // Lapsed holders and those of earlier generations go too. An empty record stays (see
              // the
              // header: a deleted and re-created node would restart its version).
              OptionalLong left =
                  exclusive && stamp.isPresent() ? stamp : LockRecord.stampOf(record, state);
              Op change =
                  Op.setData(
                      path,
                      new LockRecord(state.generation(), rest, left).encode(),
                      lockNode.version());
              boolean answer = held;
              return zk.write(
                      List.of(Op.check(coordination.statePath(), stateNode.version()), change))
                  .thenApply(v -> answer);
            });
  }

  private void remember(String uri, String clientId, long epoch, Instant leaseEnd) {
    grants.put(List.of(uri, clientId), new LocalGrant(epoch, leaseEnd));
    // Forget lapsed grants now and then; the period grows with the map, so the cost per grant
    // stays constant.
    if (grantsSincePrune.incrementAndGet() >= Math.max(1024, grants.size())) {
      grantsSincePrune.set(0);
      Instant now = clock.instant();
      grants.values().removeIf(g -> !now.isBefore(TimeoutTable.plus(g.leaseEnd, skew)));
    }
  }

  /** Local grants not yet forgotten, for tests. */
  int rememberedGrants() {
    return grants.size();
  }

  private void checkClientId(String clientId) {
    if (clientId == null || clientId.isEmpty()) {
      throw new BadRequestException("a client id must be non-empty");
    }
    int bytes = clientId.getBytes(StandardCharsets.UTF_8).length;
    if (bytes > limits.maxUriLength()) {
      throw new BadRequestException(
          "a client id must be at most " + limits.maxUriLength() + " bytes, got " + bytes);
    }
  }

  /** A grant this client got: in which connection epoch, and when its lease ends at the latest. */
  private record LocalGrant(long connectionEpoch, Instant leaseEnd) {}
}
