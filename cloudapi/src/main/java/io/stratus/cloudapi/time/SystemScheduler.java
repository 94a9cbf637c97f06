package io.stratus.cloudapi.time;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * A {@link Scheduler} in real time: one daemon timer thread for all waiters, which hands each
 * completion to an executor so that the work chained on a future never runs on (and never delays)
 * the timer thread. Thread-safe; close it to stop the timer thread.
 */
public final class SystemScheduler implements Scheduler, AutoCloseable {
  private final ScheduledThreadPoolExecutor timer;
  private final Executor completions;

  /** A scheduler that completes futures on the common fork-join pool. */
  public SystemScheduler() {
    this(ForkJoinPool.commonPool());
  }

  /** A scheduler that completes futures on {@code completions}. */
  public SystemScheduler(Executor completions) {
    this.completions = Objects.requireNonNull(completions, "completions");
    this.timer =
        new ScheduledThreadPoolExecutor(
            1,
            r -> {
              Thread t = new Thread(r, "stratus-scheduler");
              t.setDaemon(true);
              return t;
            });
    this.timer.setRemoveOnCancelPolicy(true);
  }

  @Override
  public CompletableFuture<Void> after(Duration delay) {
    long nanos = delay.toNanos();
    if (nanos <= 0) {
      return CompletableFuture.completedFuture(null);
    }
    CompletableFuture<Void> f = new CompletableFuture<>();
    timer.schedule(() -> completions.execute(() -> f.complete(null)), nanos, TimeUnit.NANOSECONDS);
    return f;
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
