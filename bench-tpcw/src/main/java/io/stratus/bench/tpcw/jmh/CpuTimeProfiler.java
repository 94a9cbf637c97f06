package io.stratus.bench.tpcw.jmh;

import java.lang.management.ManagementFactory;
import java.util.Collection;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * Throughput per second of CPU: the iteration's operations over the CPU time the forked JVM used
 * meanwhile (the benchmark thread, and whatever the measured code runs in the background, the
 * garbage collector and the JIT), beside the CPU share the fork got. On a machine shared with other
 * work a thread waits for a core, which lowers ops per wall-clock second by however long it waited;
 * ops per CPU second leave that wait out, so they compare runs made under different loads far
 * better (a loaded core's caches still slow them some).
 *
 * <p>For throughput benchmarks whose output unit is operations per second. Used by {@code
 * stratus-bench jmh}, or with JMH's {@code -prof
 * io.stratus.bench.tpcw.jmh.CpuTimeProfiler}.
 */
public final class CpuTimeProfiler implements InternalProfiler {
  /** The secondary result's label: operations per CPU second. */
  static final String OPS_PER_CPU_SECOND = "ops/cpu-s";

  /** The secondary result's label: CPU seconds the fork used per wall-clock second. */
  static final String CPU_SHARE = "cpu-share";

  private final com.sun.management.OperatingSystemMXBean os =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
  private long cpuStart;
  private long wallStart;

  @Override
  public String getDescription() {
    return "Operations per CPU second of the forked JVM, and the CPU share it got";
  }

  @Override
  public void beforeIteration(BenchmarkParams benchmark, IterationParams iteration) {
    wallStart = System.nanoTime();
    cpuStart = os.getProcessCpuTime();
  }

  @Override
  public Collection<? extends Result> afterIteration(
      BenchmarkParams benchmark, IterationParams iteration, IterationResult result) {
    long cpu = os.getProcessCpuTime() - cpuStart;
    long wall = System.nanoTime() - wallStart;
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
}
