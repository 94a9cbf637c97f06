package io.stratus.zookeeper;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Supplier;

/**
 * Runs the asynchronous read-modify-write operations of one client on one znode one after
 * another, in arrival order.
 *
 * <p>Why: the threads of one client share one ZooKeeper session, and their compare-and-set
 * attempts on one node (four threads incrementing one counter) would otherwise keep invalidating
 * each other, every failed attempt costing two round trips, until one of them starves. In order,
 * each attempt sees the previous one's write and succeeds at once; only other clients can still
 * make it retry. Operations on different nodes do not wait for each other.
 *
 * <p>Thread-safe and non-blocking: an operation waits by chaining onto its predecessor's future.
 * A successor starts on the executor, so a long queue of operations that fail at once cannot nest
 * deeply on one stack.
 */
final class Sequencer {
  private final ConcurrentHashMap<String, CompletableFuture<Void>> tails =
      new ConcurrentHashMap<>();
  private final Executor executor;

  Sequencer(Executor executor) {
    this.executor = executor;
  }

  /** Runs {@code op} once every operation on {@code key} queued before it has completed. */
  <T> CompletableFuture<T> run(String key, Supplier<CompletableFuture<T>> op) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    CompletableFuture<Void> previous = tails.put(key, done);
    CompletableFuture<T> result = new CompletableFuture<>();
    Runnable start =
        () ->
            Zk.start(op)
                .whenComplete(
                    (v, e) -> {
                      // Hand the node to the next operation before this one's caller continues.
                      tails.remove(key, done);
                      done.complete(null);
                      if (e == null) {
                        result.complete(v);
                      } else {
                        result.completeExceptionally(e);
                      }
                    });
    if (previous == null) {
      start.run();
    } else {
      previous.whenComplete(
          (v, e) -> {
            try {
              executor.execute(start);
            } catch (RejectedExecutionException closed) {
              start.run();
            }
          });
    }
    return result;
  }

  /** Keys with operations queued or running, for tests. */
  int busyKeys() {
    return tails.size();
  }
}
