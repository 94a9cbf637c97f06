package io.stratus.bench.tpcw.jmh;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * Throughput per second of CPU: the iteration's operations over the CPU time JMH's worker threads
 * (those that call the benchmark method) used meanwhile, beside the share of a core they got. On a
 * machine shared with other work a thread waits for a core, which lowers operations per wall-clock
 * second by however long it waited; operations per CPU second leave the wait out, so they compare
 * runs made under different loads far better (a loaded machine's cold caches still slow them
 * some). Work the measured code hands to other threads, the garbage collector's and the JIT's are
 * not counted.
 *
 * <p>For throughput benchmarks whose output unit is operations per second. Used by {@code
 * stratus-bench jmh}, or with JMH's {@code -prof io.stratus.bench.tpcw.jmh.CpuTimeProfiler}.
 */
public final class CpuTimeProfiler implements InternalProfiler {
  /** The secondary result's label: operations per CPU second. */
  static final String OPS_PER_CPU_SECOND = "ops/cpu-s";

  /** The secondary result's label: CPU seconds the workers used per wall-clock second. */
  static final String CPU_SHARE = "cpu-share";

  private static final String WORKER = "-jmh-worker-";

  private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
  private Map<Long, Long> cpuStart = Map.of();
  private long wallStart;

  @Override
  public String getDescription() {
    return "Operations per CPU second of the benchmark's threads, and the CPU share they got";
  }

  @Override
  public void beforeIteration(BenchmarkParams benchmark, IterationParams iteration) {
    cpuStart = workerCpu();
    wallStart = System.nanoTime();
  }

  @Override
  public Collection<? extends Result> afterIteration(
      BenchmarkParams benchmark, IterationParams iteration, IterationResult result) {
    long wall = System.nanoTime() - wallStart;
    long cpu = 0;
    // A worker started during the iteration spent all its CPU time in it.
    for (Map.Entry<Long, Long> e : workerCpu().entrySet()) {
      cpu += e.getValue() - cpuStart.getOrDefault(e.getKey(), 0L);
    }
    if (cpu <= 0 || wall <= 0 || result.getRawPrimaryResults().isEmpty()) {
      // No CPU measured, or the iteration failed: JMH reports the failure itself.
      return List.of();
    }
    double share = (double) cpu / wall;
    // The primary score is operations per wall-clock second over the same window.
    double perCpuSecond = result.getPrimaryResult().getScore() / share;
    return List.of(
        new ScalarResult(OPS_PER_CPU_SECOND, perCpuSecond, "ops/cpu-s", AggregationPolicy.AVG),
        new ScalarResult(CPU_SHARE, share, "cpu/wall", AggregationPolicy.AVG));
  }

  /** CPU nanoseconds so far of every live JMH worker thread, by thread id. */
  private Map<Long, Long> workerCpu() {
    Map<Long, Long> cpu = new HashMap<>();
    for (ThreadInfo t : threads.getThreadInfo(threads.getAllThreadIds())) {
      if (t != null && t.getThreadName().contains(WORKER)) {
        long nanos = threads.getThreadCpuTime(t.getThreadId());
        if (nanos >= 0) {
          cpu.put(t.getThreadId(), nanos);
        }
      }
    }
    return cpu;
  }
}
