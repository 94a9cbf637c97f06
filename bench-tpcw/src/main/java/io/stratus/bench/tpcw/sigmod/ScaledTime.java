package io.stratus.bench.tpcw.sigmod;

import io.stratus.cloudapi.time.Scheduler;
import io.stratus.cloudapi.time.SystemScheduler;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.CompletableFuture;

/**
 * Simulated time that runs {@code factor} times faster than the wall clock: the clock of the
 * in-process cloud and of the database handles, and the scheduler the latency decorator waits
 * on. A call that the latency profile says takes 450 ms then holds its caller for 45 ms at
 * factor 10, and every timeout, lease, TTL and checkpoint interval passes ten times faster, so a
 * run of minutes of simulated time fits in seconds.
 *
 * <p>What it distorts: CPU time is scaled too (1 ms of computation reads as 10 ms at factor 10
 * on the clock). {@link #threadNanos()} undoes that for what a thread measures about itself: it
 * counts the thread's own CPU time at real speed, and the in-process cloud computes its calls on
 * the calling thread, so a transaction's measured time is its modelled waits plus its real
 * computation. Time a thread spends waiting for a core is still scaled; on a busy machine, use a
 * lower factor.
 */
final class ScaledTime extends Clock implements Scheduler, AutoCloseable {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private final Instant start;
  private final long factor;
  private final long origin = System.nanoTime();
  private final SystemScheduler wall = new SystemScheduler();

  /** Time starting at {@code start}, {@code factor} (at least 1) times faster than real time. */
  ScaledTime(Instant start, int factor) {
    if (factor < 1) {
      throw new IllegalArgumentException("the time scale must be at least 1, got " + factor);
    }
    this.start = start;
    this.factor = factor;
  }

  /** Simulated nanoseconds since this time base was made. */
  long nanos() {
    return (System.nanoTime() - origin) * factor;
  }

  /**
   * A per-thread reading whose differences are the calling thread's simulated time with its own
   * CPU time counted once, not {@code factor} times: {@code factor * wall - (factor - 1) * cpu}.
   * Compare readings of one thread only.
   */
  long threadNanos() {
    long cpu = THREADS.isCurrentThreadCpuTimeSupported() ? THREADS.getCurrentThreadCpuTime() : 0;
    return nanos() - (factor - 1) * Math.max(0, cpu);
  }

  @Override
  public Instant instant() {
    return start.plusNanos(nanos());
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    throw new UnsupportedOperationException("scaled time is always UTC");
  }

  @Override
  public CompletableFuture<Void> after(Duration delay) {
    return wall.after(delay.dividedBy(factor));
  }

  @Override
  public void close() {
    wall.close();
  }
}
