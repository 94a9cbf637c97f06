package io.stratus.bench.tpcw.harness;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.TimeUnit;

/**
 * Decides when the JIT compiler has settled: when, after at least a given time, it spent at most
 * {@link #QUIET_SHARE} of the last {@link #WINDOW_MILLIS} compiling. Fed with readings of the
 * compiler's running total (a {@code CompilationMXBean}'s) at times on one clock; a total that is
 * unknown (negative) never settles, so the caller waits its longest time. Not thread-safe.
 */
final class JitSettling {
  /** The shortest warming of the warm pass. */
  static final long WARM_PASS_MIN_MILLIS = 2_000;

  /** The span over which the compiler's work is judged. */
  static final long WINDOW_MILLIS = 1_000;

  /** The share of that span the compiler may have been busy and still count as quiet. */
  static final double QUIET_SHARE = 0.05;

  private record Reading(long atMillis, long compileMillis) {}

  private final Deque<Reading> readings = new ArrayDeque<>();
  private final long minMillis;
  private long startMillis = -1;

  /** Settles no sooner than {@code minMillis} after the first reading. */
  JitSettling(long minMillis) {
    this.minMillis = minMillis;
  }

  /**
   * Waits, reading this JVM's compiler every 100 ms, until it has settled (with no minimum) or
   * {@code maxMillis} have passed; returns whether it settled. The warm pass calls it once its
   * browsers have stopped, so that the compilations they queued do not run beside the first
   * measured run.
   */
  static boolean awaitThisJvm(long maxMillis) {
    CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
    if (jit == null || !jit.isCompilationTimeMonitoringSupported()) {
      return false;
    }
    JitSettling settling = new JitSettling(0);
    long start = System.nanoTime();
    while (true) {
      long now = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      if (settling.settledAfter(now, jit.getTotalCompilationTime())) {
        return true;
      }
      if (now >= maxMillis) {
        return false;
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
  }

  /**
   * Records that the compiler had worked {@code compileMillis} in all at {@code atMillis}, and
   * returns whether it has settled.
   */
  boolean settledAfter(long atMillis, long compileMillis) {
    if (startMillis < 0) {
      startMillis = atMillis;
    }
    if (compileMillis < 0) {
      return false;
    }
    readings.addLast(new Reading(atMillis, compileMillis));
    // keep the newest reading at least a window old as the window's start
    while (readings.size() > 2) {
      Reading second = readings.stream().skip(1).findFirst().orElseThrow();
      if (atMillis - second.atMillis() < WINDOW_MILLIS) {
        break;
      }
      readings.removeFirst();
    }
    Reading oldest = readings.peekFirst();
    long span = atMillis - oldest.atMillis();
    return atMillis - startMillis >= minMillis
        && span >= WINDOW_MILLIS
        && compileMillis - oldest.compileMillis() <= QUIET_SHARE * span;
  }
}
