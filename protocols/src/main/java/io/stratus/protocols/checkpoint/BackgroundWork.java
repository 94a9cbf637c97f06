package io.stratus.protocols.checkpoint;

import io.stratus.protocols.ProtocolContext;
import java.time.Clock;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * Where a handle's background work runs: the context's checkpoint executor when the embedding
 * hands one in (it then owns the timing: tests run the tasks when they choose), else a pool of
 * daemon threads owned here and shut down by {@link #stop}.
 *
 * <p>Why a part of its own: both engines — the queue engine's {@link CheckpointScheduler} and the
 * isolating engine — need the same three things of it: run a task later unless the handle is
 * closing, skip tasks queued before the close, and let running work finish within the close
 * timeout rather than interrupt it (a checkpoint or clean-up cut short leaves the messages it
 * received hidden for a whole visibility timeout). A task that throws is the caller's to handle:
 * this part neither catches nor logs it.
 *
 * <p>Thread-safe.
 */
public final class BackgroundWork {
  private final Clock clock;
  private final Executor executor;

  /** The pool this part made and shuts down; null when the context handed in an executor. */
  private final @Nullable ExecutorService owned;

  private volatile boolean closed;

  /**
   * @param role names the owned threads ({@code stratus-<role>-...})
   * @param threads how many threads the owned pool has
   */
  public BackgroundWork(ProtocolContext ctx, String role, int threads) {
    this.clock = ctx.clock();
    Executor given = ctx.checkpointExecutor();
    if (given != null) {
      this.executor = given;
      this.owned = null;
    } else {
      ExecutorService pool = ctx.newDaemonPool(role, threads);
      this.owned = pool;
      this.executor = pool;
    }
  }

  /** Whether the threads are this part's own (no executor was handed in). */
  public boolean ownsThreads() {
    return owned != null;
  }

  /** Whether the handle is closing: no task is taken any more. */
  public boolean closed() {
    return closed;
  }

  /**
   * Runs {@code task} on the executor, unless the handle is closing by the time it would start;
   * false when closing or refused, and the task then did not run.
   */
  public boolean execute(Runnable task) {
    if (closed) {
      return false;
    }
    try {
      executor.execute(
          () -> {
            if (!closed) {
              task.run();
            }
          });
      return true;
    } catch (RejectedExecutionException e) {
      return false;
    }
  }

  /** Takes no task from now on; queued tasks that have not started skip themselves. */
  public void stopTaking() {
    closed = true;
  }

  /**
   * {@link #stopTaking}, then lets running work of the owned threads finish until {@code
   * deadlineMillis} (on the handle's clock) and interrupts what still runs. Idempotent.
   *
   * @return false when work was still running at the deadline and was interrupted
   */
  public boolean stop(long deadlineMillis) {
    stopTaking();
    ExecutorService owned = this.owned;
    if (owned == null) {
      return true;
    }
    owned.shutdown();
    try {
      if (owned.awaitTermination(
          Math.max(0, deadlineMillis - clock.millis()), TimeUnit.MILLISECONDS)) {
        return true;
      }
      owned.shutdownNow();
      return false;
    } catch (InterruptedException e) {
      owned.shutdownNow();
      Thread.currentThread().interrupt();
      return true;
    }
  }
}
