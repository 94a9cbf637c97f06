package io.stratus.zookeeper;

import io.stratus.cloudapi.BadRequestException;
import io.stratus.cloudapi.CloudLimits;
import io.stratus.cloudapi.CounterValues;
import io.stratus.cloudapi.LimitExceededException;
import io.stratus.cloudapi.ServiceUnavailableException;
import io.stratus.cloudapi.SupportsIdempotentIncrement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.zookeeper.Op;
import org.jspecify.annotations.Nullable;

/**
 * Advanced counters (paper 000, sections 2.3.6 and 6.6) on ZooKeeper: one znode per counter holds
 * its {@link CounterRecord}; values are {@code CounterValues.of(epoch, sequence)} with the epoch
 * kept in the service's state node.
 *
 * <p>Why it is safe:
 *
 * <ul>
 *   <li><b>Unique, increasing values.</b> An increment reads the state, the timeouts and the
 *       counter in one multi-read and writes the next record in one multi-op that checks the
 *       versions of the state node and the counter node. Of two concurrent increments one fails
 *       the check and starts over, so no sequence is issued twice, and a restart (a new epoch)
 *       cannot interleave. A write whose reply is lost fails with {@code OutcomeUnknownException};
 *       it is not retried here, because a second attempt would issue another value while the
 *       first might already hold one (a value issued and never returned delays the highest
 *       validated value by its timeout).
 *   <li><b>Idempotent increments</b> ({@link SupportsIdempotentIncrement}) keep the request id
 *       with its sequence in the same record, written by the same compare-and-set as the value,
 *       so an id is remembered exactly when its value was issued. A retry reads the record and,
 *       finding the id, returns the value without writing; a read that lags behind the leader
 *       may miss the id, but then its write fails the version check and the attempt starts over,
 *       so no second value is ever issued for a remembered id.
 *   <li><b>Validation by time</b> is judged on the injected clock, with the clock skew added: a
 *       value issued at i with timeout t validates on its own once {@code i + t + skew <= now}.
 *       {@link #highestValidated} computes the watermark without writing; increments and
 *       validations fold it into the record, which so stays bounded by the values in flight.
 *   <li><b>Restarts</b> ({@link #simulateRestart}) move to the next epoch with a refusal period of
 *       the longest timeout; a record of an earlier epoch reads as a fresh counter at {@code
 *       CounterValues.of(epoch, 0)}, above every earlier value.
 * </ul>
 *
 * <p>A counter's node holds 13 bytes per value in flight (plus 12 and the request id's length for
 * one issued under a request id, and the same for the last {@value
 * SupportsIdempotentIncrement#REMEMBERED} such values), so about 75,000 values may await
 * validation at once (about 15,000 under 40-character request ids); beyond that an increment is
 * refused until the oldest validate.
 *
 * <p>Thread-safe; all state is in ZooKeeper.
 */
final class ZkCounters implements SupportsIdempotentIncrement {
  private final Zk zk;
  private final ZkPaths paths;
  private final Coordination coordination;
  private final CloudLimits limits;
  private final Clock clock;
  private final Duration skew;

  ZkCounters(Zk zk, ZkPaths paths, ZooKeeperConfig config) {
    this.zk = zk;
    this.paths = paths;
    this.coordination =
        new Coordination(
            zk, "counter", paths.countersDir(), config, config.defaultCounterTimeout());
    this.limits = config.limits();
    this.clock = config.clock();
    this.skew = config.maxClockSkew();
  }

  Coordination coordination() {
    return coordination;
  }

  @Override
  public CompletableFuture<Void> setTimeout(String uriPrefix, Duration timeout) {
    // Allowed during the refusal period: timeouts live outside the lost state.
    return zk.call(() -> coordination.setTimeout(uriPrefix, timeout));
  }

  @Override
  public CompletableFuture<Long> increment(String uri) {
    return zk.call(
        () -> {
          limits.checkUri(uri);
          String path = paths.counter(uri);
          return zk.retrying(path, "increment of " + uri, () -> incrementOnce(uri, path, null));
        });
  }

  @Override
  public CompletableFuture<Long> increment(String uri, String requestId) {
    return zk.call(
        () -> {
          limits.checkUri(uri);
          SupportsIdempotentIncrement.checkRequestId(requestId);
          String path = paths.counter(uri);
          return zk.retrying(
              path, "increment of " + uri, () -> incrementOnce(uri, path, requestId));
        });
  }

  @Override
  public CompletableFuture<Void> validate(String uri, long value) {
    return zk.call(
        () -> {
          limits.checkUri(uri);
          String path = paths.counter(uri);
          return zk.retrying(path, "validation on " + uri, () -> validateOnce(uri, path, value));
        });
  }

  @Override
  public CompletableFuture<Long> highestValidated(String uri) {
    return zk.call(
        () -> {
          limits.checkUri(uri);
          return zk.read(coordination.statePath(), paths.counter(uri))
              .thenApply(
                  nodes -> {
                    ServiceState state = Coordination.state(nodes.get(0));
                    Instant now = clock.instant();
                    if (state.refusing(now)) {
                      throw coordination.refusal(state, now);
                    }
                    CounterRecord c = current(nodes.get(1), state);
                    // A missing counter is not created: reading must not make the service hold
                    // state.
                    long watermark = c == null ? 0 : c.advance(now, skew).watermark();
                    return CounterValues.of(state.generation(), watermark);
                  });
        });
  }

  /**
   * Restarts the counter service as if it had failed and lost its counters: the next epoch,
   * refused for the longest timeout ever configured.
   */
  CompletableFuture<Long> simulateRestart() {
    return zk.call(coordination::restart);
  }

  // ---- internals ----

  /** One attempt; {@code requestId} null for a plain increment. */
  private CompletableFuture<Long> incrementOnce(
      String uri, String path, @Nullable String requestId) {
    return zk.read(coordination.statePath(), coordination.timeoutsPath(), path)
        .thenCompose(
            nodes -> {
              Zk.Node stateNode = nodes.get(0);
              Zk.Node counterNode = nodes.get(2);
              ServiceState state = Coordination.state(stateNode);
              Instant now = clock.instant();
              if (state.refusing(now)) {
                throw coordination.refusal(state, now);
              }
              Duration timeout =
                  TimeoutTable.decode(nodes.get(1).data())
                      .lookup(uri, coordination.defaultTimeout());
              CounterRecord c = current(counterNode, state);
              if (c == null) {
                c = CounterRecord.fresh(state.generation());
              }
              Long known = requestId == null ? null : c.sequenceOf(requestId);
              if (known != null) {
                return CompletableFuture.completedFuture(
                    CounterValues.of(state.generation(), known));
              }
              if (c.lastIssued() == CounterValues.MAX_SEQUENCE) {
                throw new LimitExceededException(
                    "counter sequence", c.lastIssued() + 1, CounterValues.MAX_SEQUENCE);
              }
              CounterRecord next =
                  c.issue(TimeoutTable.plus(now, timeout), requestId).advance(now, skew);
              byte[] data = next.encode();
              if (data.length > ZooKeeperConfig.MAX_ZNODE_PAYLOAD) {
                // The values in flight fill the node, so the first is due (null: none is, and
                // there is no time to name).
                Instant due = c.firstDue();
                Duration wait =
                    due == null ? null : Duration.between(now, TimeoutTable.plus(due, skew));
                throw new ServiceUnavailableException(
                    "counter " + uri + " has " + c.pending().size() + " values awaiting validation",
                    wait);
              }
              long value = CounterValues.of(state.generation(), next.lastIssued());
              return zk.write(
                      List.of(
                          Op.check(coordination.statePath(), stateNode.version()),
                          zk.put(path, counterNode, data)))
                  .thenApply(v -> value);
            });
  }

  private CompletableFuture<Void> validateOnce(String uri, String path, long value) {
    return zk.read(coordination.statePath(), path)
        .thenCompose(
            nodes -> {
              Zk.Node stateNode = nodes.get(0);
              Zk.Node counterNode = nodes.get(1);
              ServiceState state = Coordination.state(stateNode);
              Instant now = clock.instant();
              if (state.refusing(now)) {
                throw coordination.refusal(state, now);
              }
              if (value < 0) {
                throw new BadRequestException("counter values are not negative: " + value);
              }
              long valueEpoch = CounterValues.epoch(value);
              if (valueEpoch < state.generation()) {
                // Issued before a restart: validated on its own during the refusal period.
                return CompletableFuture.<Void>completedFuture(null);
              }
              long seq = CounterValues.sequence(value);
              CounterRecord c = current(counterNode, state);
              if (valueEpoch > state.generation()
                  || c == null
                  || seq == 0
                  || seq > c.lastIssued()) {
                throw new BadRequestException(
                    "counter "
                        + uri
                        + " never issued value "
                        + value
                        + " (epoch "
                        + valueEpoch
                        + ", sequence "
                        + seq
                        + "; current epoch "
                        + state.generation()
                        + ")");
              }
              CounterRecord.Pending p = c.pendingOf(seq);
              if (p == null || p.validated()) {
                return CompletableFuture.<Void>completedFuture(null); // validated before
              }
              CounterRecord next = c.validate(seq).advance(now, skew);
              return zk.write(
                  List.of(
                      Op.check(coordination.statePath(), stateNode.version()),
                      Op.setData(path, next.encode(), counterNode.version())));
            });
  }

  /** The counter's record in the current epoch, or null when it has none. */
  private static @Nullable CounterRecord current(Zk.Node node, ServiceState state) {
    if (!node.exists()) {
      return null;
    }
    CounterRecord c = CounterRecord.decode(node.data());
    return c.epoch() == state.generation() ? c : null;
  }
}
