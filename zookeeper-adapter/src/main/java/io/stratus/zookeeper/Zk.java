package io.stratus.zookeeper;

import io.stratus.cloudapi.BadRequestException;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.ConflictException;
import io.stratus.cloudapi.OutcomeUnknownException;
import io.stratus.cloudapi.ServiceUnavailableException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;

/**
 * Asynchronous ZooKeeper operations as futures, with the mapping of ZooKeeper's failures onto the
 * Cloud API's exception hierarchy.
 *
 * <p>Why the raw ZooKeeper handle rather than Curator's operation builders: Curator retries every
 * operation after a ConnectionLoss, and a write retried blindly can apply twice (a second
 * sequential message, a counter value skipped) or report a conflict with its own first attempt.
 * Here Curator only keeps the connection (and replaces the handle after a session expiry); every
 * operation runs once, and its failure says what is known:
 *
 * <ul>
 *   <li>A read that fails for the connection had no effect: {@link ServiceUnavailableException}.
 *   <li>A write that fails for the connection may have been applied: {@link
 *       OutcomeUnknownException}.
 *   <li>NoAuth (the znode's ACL does not admit this client's credentials) is {@link
 *       BadRequestException}: no retry helps, only the right credentials.
 *   <li>NoNode, NodeExists, BadVersion and NotEmpty are answers, not failures: they stay {@link
 *       KeeperException}s for the caller to act on (a compare-and-set retries, see {@link
 *       #retrying}); one that reaches the caller unhandled becomes a {@link ConflictException}.
 * </ul>
 *
 * <p>Why results are delivered on an executor ({@link #call}): ZooKeeper completes callbacks on its
 * single event thread, and a caller that blocked in a dependent stage there would stall every
 * other reply of the session, its own included.
 *
 * <p>Thread-safe.
 */
final class Zk {
  /** Compare-and-set attempts before a request gives up with {@link ConflictException}. */
  static final int MAX_CAS_ATTEMPTS = 100;

  private final CuratorFramework curator;
  private final ConnectionWatch connection;
  private final Executor executor;
  private final long opTimeoutMillis;
  private final Sequencer sequencer;
  private final List<ACL> acl;

  /** {@code acl}: the ACL of every znode this object creates (see {@link ZooKeeperConfig}). */
  Zk(
      CuratorFramework curator,
      ConnectionWatch connection,
      Executor executor,
      Duration opTimeout,
      List<ACL> acl) {
    this.curator = curator;
    this.acl = acl;
    this.connection = connection;
    this.executor = executor;
    this.opTimeoutMillis = opTimeout.toMillis();
    this.sequencer = new Sequencer(executor);
  }

  ConnectionWatch connection() {
    return connection;
  }

  /**
   * Whether a node exists, its data (empty when it has none or does not exist) and its version.
   */
  record Node(boolean exists, byte[] data, int version) {
    static final Node ABSENT = new Node(false, new byte[0], -1);
  }

  // ---- reads ----

  /** The nodes at {@code paths}, read atomically in one multi-read. */
  CompletableFuture<List<Node>> read(String... paths) {
    List<Op> ops = new ArrayList<>(paths.length);
    for (String p : paths) {
      ops.add(Op.getData(p));
    }
    String what = Arrays.toString(paths);
    return op(
        false,
        what,
        (zk, f) ->
            zk.multi(
                ops,
                (rc, path, ctx, results) -> {
                  if (results == null || results.size() != paths.length) {
                    f.completeExceptionally(failure(Code.get(rc), what, false));
                    return;
                  }
                  List<Node> out = new ArrayList<>(paths.length);
                  for (int i = 0; i < paths.length; i++) {
                    OpResult r = results.get(i);
                    if (r instanceof OpResult.GetDataResult) {
                      OpResult.GetDataResult g = (OpResult.GetDataResult) r;
                      out.add(
                          new Node(
                              true,
                              g.getData() == null ? new byte[0] : g.getData(),
                              g.getStat().getVersion()));
                    } else {
                      int err = ((OpResult.ErrorResult) r).getErr();
                      if (err != Code.NONODE.intValue()) {
                        f.completeExceptionally(failure(Code.get(err), paths[i], false));
                        return;
                      }
                      out.add(Node.ABSENT);
                    }
                  }
                  f.complete(out);
                },
                null));
  }

  /** The children's names; fails with {@link KeeperException.NoNodeException} when absent. */
  CompletableFuture<List<String>> children(String path) {
    return op(
        false,
        path,
        (zk, f) ->
            zk.getChildren(
                path,
                false,
                (rc, p, ctx, names) -> {
                  if (rc == Code.OK.intValue()) {
                    f.complete(names);
                  } else {
                    f.completeExceptionally(failure(Code.get(rc), path, false));
                  }
                },
                null));
  }

  /** The node's stat, or null when it does not exist. */
  CompletableFuture<Stat> exists(String path) {
    return op(
        false,
        path,
        (zk, f) ->
            zk.exists(
                path,
                false,
                (rc, p, ctx, stat) -> {
                  if (rc == Code.OK.intValue() || rc == Code.NONODE.intValue()) {
                    f.complete(stat);
                  } else {
                    f.completeExceptionally(failure(Code.get(rc), path, false));
                  }
                },
                null));
  }

  /** The node's data, or null when it does not exist. */
  CompletableFuture<byte[]> data(String path) {
    return op(
        false,
        path,
        (zk, f) ->
            zk.getData(
                path,
                false,
                (rc, p, ctx, data, stat) -> {
                  if (rc == Code.OK.intValue()) {
                    f.complete(data == null ? new byte[0] : data);
                  } else if (rc == Code.NONODE.intValue()) {
                    f.complete(null);
                  } else {
                    f.completeExceptionally(failure(Code.get(rc), path, false));
                  }
                },
                null));
  }

  /**
   * Makes the connected server catch up with the leader, so that reads issued after this
   * completes see every write completed before it was issued, by any client (ZooKeeper's reads
   * are otherwise only sequentially consistent).
   */
  CompletableFuture<Void> sync(String path) {
    return op(
        false,
        path,
        (zk, f) ->
            zk.sync(
                path,
                (rc, p, ctx) -> {
                  if (rc == Code.OK.intValue()) {
                    f.complete(null);
                  } else {
                    f.completeExceptionally(failure(Code.get(rc), path, false));
                  }
                },
                null));
  }

  // ---- writes ----

  /** Applies {@code ops} atomically. */
  CompletableFuture<Void> write(List<Op> ops) {
    String what = ops.isEmpty() ? "[]" : ops.get(ops.size() - 1).getPath();
    return op(
        true,
        what,
        (zk, f) ->
            zk.multi(
                ops,
                (rc, path, ctx, results) -> {
                  if (rc == Code.OK.intValue()) {
                    f.complete(null);
                  } else {
                    f.completeExceptionally(failure(Code.get(rc), what, true));
                  }
                },
                null));
  }

  /** Creates a node; returns the created path (with its sequence, for sequential modes). */
  CompletableFuture<String> create(String path, byte[] data, CreateMode mode) {
    return op(
        true,
        path,
        (zk, f) ->
            zk.create(
                path,
                data,
                acl,
                mode,
                (rc, p, ctx, name) -> {
                  if (rc == Code.OK.intValue()) {
                    f.complete(name);
                  } else {
                    f.completeExceptionally(failure(Code.get(rc), path, true));
                  }
                },
                null));
  }

  /** Deletes a node at {@code version} (-1: any); NoNode and BadVersion stay KeeperExceptions. */
  CompletableFuture<Void> delete(String path, int version) {
    return op(
        true,
        path,
        (zk, f) ->
            zk.delete(
                path,
                version,
                (rc, p, ctx) -> {
                  if (rc == Code.OK.intValue()) {
                    f.complete(null);
                  } else {
                    f.completeExceptionally(failure(Code.get(rc), path, true));
                  }
                },
                null));
  }

  /** An operation that creates a persistent node with this object's ACL. */
  Op createOp(String path, byte[] data) {
    return createOp(path, data, acl);
  }

  static Op createOp(String path, byte[] data, List<ACL> acl) {
    return Op.create(path, data, acl, CreateMode.PERSISTENT);
  }

  /** Writes {@code data} at {@code path}: a create when {@code node} is absent, else a set. */
  Op put(String path, Node node, byte[] data) {
    return node.exists() ? Op.setData(path, data, node.version()) : createOp(path, data);
  }

  // ---- composition ----

  /**
   * Runs {@code attempt} until it completes without a compare-and-set conflict (BadVersion,
   * NodeExists, NoNode: another client changed the node between this one's read and write), at
   * most {@link #MAX_CAS_ATTEMPTS} times. An attempt that fails otherwise ends the loop. The
   * loops of this client on {@code node} run one at a time ({@link Sequencer}).
   */
  <T> CompletableFuture<T> retrying(
      String node, String what, Supplier<CompletableFuture<T>> attempt) {
    return sequencer.run(node, () -> retrying(what, attempt, 1));
  }

  private static <T> CompletableFuture<T> retrying(
      String what, Supplier<CompletableFuture<T>> attempt, int n) {
    return start(attempt)
        .handle(
            (v, e) -> {
              if (e == null) {
                return CompletableFuture.completedFuture(v);
              }
              Throwable t = CloudFutures.unwrap(e);
              if (!isCode(t, Code.BADVERSION, Code.NODEEXISTS, Code.NONODE)) {
                return CompletableFuture.<T>failedFuture(t);
              }
              if (n >= MAX_CAS_ATTEMPTS) {
                return CompletableFuture.<T>failedFuture(
                    new ConflictException(
                        what + ": lost " + n + " compare-and-set races in a row", t));
              }
              return retrying(what, attempt, n + 1);
            })
        .thenCompose(f -> f);
  }

  /**
   * The public face of every service call: runs {@code body} (a throw becomes a failed future),
   * turns every failure into a {@link CloudException}, and completes the returned future on the
   * executor rather than on ZooKeeper's event thread.
   */
  <T> CompletableFuture<T> call(Supplier<CompletableFuture<T>> body) {
    CompletableFuture<T> out = new CompletableFuture<>();
    start(body)
        .whenComplete(
            (v, e) -> {
              Runnable deliver =
                  () -> {
                    if (e == null) {
                      out.complete(v);
                    } else {
                      out.completeExceptionally(toCloud(e));
                    }
                  };
              try {
                executor.execute(deliver);
              } catch (RejectedExecutionException closed) {
                deliver.run();
              }
            });
    return out;
  }

  static <T> CompletableFuture<T> start(Supplier<CompletableFuture<T>> body) {
    try {
      return body.get();
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  static boolean isCode(Throwable t, Code... codes) {
    if (t instanceof KeeperException) {
      Code c = ((KeeperException) t).code();
      for (Code want : codes) {
        if (c == want) {
          return true;
        }
      }
    }
    return false;
  }

  /** Any failure as a Cloud API exception (see the class comment). */
  static CloudException toCloud(Throwable e) {
    Throwable t = CloudFutures.unwrap(e);
    if (t instanceof CloudException) {
      return (CloudException) t;
    }
    if (t instanceof KeeperException) {
      return new ConflictException(
          "ZooKeeper answered "
              + ((KeeperException) t).code()
              + " for "
              + ((KeeperException) t).getPath(),
          t);
    }
    // A bug or a record this version cannot read: nothing says whether a write took place.
    return new OutcomeUnknownException("unexpected failure in the ZooKeeper adapter: " + t, t);
  }

  // ---- internals ----

  private interface Issue<T> {
    void on(ZooKeeper zk, CompletableFuture<T> result);
  }

  /**
   * Issues one asynchronous operation on the current handle. Fails fast while the connection is
   * down; gives up after the operation time-out (a reply ZooKeeper never delivered).
   */
  private <T> CompletableFuture<T> op(boolean write, String what, Issue<T> issue) {
    CompletableFuture<T> f = new CompletableFuture<>();
    try {
      connection.checkUsable();
      issue.on(curator.getZookeeperClient().getZooKeeper(), f);
    } catch (CloudException e) {
      f.completeExceptionally(e);
    } catch (Exception e) {
      // Not connected, or closed: nothing was sent.
      f.completeExceptionally(
          new ServiceUnavailableException("no ZooKeeper connection: " + e, null, e));
    }
    CompletableFuture<T> out = new CompletableFuture<>();
    f.orTimeout(opTimeoutMillis, TimeUnit.MILLISECONDS)
        .whenComplete(
            (v, e) -> {
              Throwable t = e == null ? null : CloudFutures.unwrap(e);
              if (t == null) {
                out.complete(v);
              } else if (t instanceof TimeoutException) {
                out.completeExceptionally(
                    write
                        ? new OutcomeUnknownException(
                            "no reply from ZooKeeper for a write of " + what, t)
                        : new ServiceUnavailableException(
                            "no reply from ZooKeeper for " + what, null, t));
              } else {
                out.completeExceptionally(t);
              }
            });
    return out;
  }

  /**
   * The failure for a request the server refused for this client's identity. Not retryable: the
   * znodes' ACLs admit another identity, and only other credentials help.
   */
  static BadRequestException accessDenied(String path, Code code) {
    return new BadRequestException(
        "ZooKeeper denied this client access to "
            + path
            + " ("
            + code
            + "): the znode's ACL does not admit the client's identity; every client of a"
            + " namespace must use the digest credentials (ZooKeeperConfig.digestCredentials) of the"
            + " client that created it");
  }

  /** The failure for a ZooKeeper result code (see the class comment). */
  static Throwable failure(Code code, String path, boolean write) {
    switch (code) {
      case NONODE:
      case NODEEXISTS:
      case BADVERSION:
      case NOTEMPTY:
        return KeeperException.create(code, path);
      case BADARGUMENTS:
      case MARSHALLINGERROR:
      case INVALIDACL:
      case UNIMPLEMENTED:
        return new BadRequestException("ZooKeeper rejected the request for " + path + ": " + code);
      case NOAUTH:
      case AUTHFAILED:
        return accessDenied(path, code);
      case NOTREADONLY:
      case THROTTLEDOP:
      case QUOTAEXCEEDED:
      case NEWCONFIGNOQUORUM:
      case RECONFIGINPROGRESS:
      case SESSIONCLOSEDREQUIRESASLAUTH:
        // Refused by the server before it acted.
        return new ServiceUnavailableException(
            "ZooKeeper refused the request for " + path + ": " + code);
      default:
        // ConnectionLoss, OperationTimeout, SessionExpired, SessionMoved, RequestTimeout, and
        // server errors: the request may have reached the leader.
        KeeperException cause = KeeperException.create(code, path);
        return write
            ? new OutcomeUnknownException(
                "ZooKeeper write of " + path + " ended with " + code, cause)
            : new ServiceUnavailableException(
                "ZooKeeper read of " + path + " failed: " + code, null, cause);
    }
  }
}
