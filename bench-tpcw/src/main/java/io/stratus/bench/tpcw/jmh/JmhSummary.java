package io.stratus.bench.tpcw.jmh;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;

/**
 * A JMH run's throughputs as spread and ratios: for each benchmark (and parameter set) the lowest,
 * median and highest measurement iteration over all forks in operations per second, the median in
 * operations per CPU second ({@link CpuTimeProfiler}, when it ran), and — when the run has them —
 * how many times the {@code floor} benchmark's median is this one's (the cost of one operation
 * over the floor's: lower is better) and this median over the {@code mvStore} benchmark's (above 1
 * is faster than MVStore), each by CPU second when measured, else by wall-clock second.
 */
public final class JmhSummary {
  private static final String FLOOR = "floor";
  private static final String MV_STORE = "mvStore";

  /** One benchmark's measurement iterations, ops/s and ops per CPU second, each sorted. */
  record Row(String name, List<Double> scores, List<Double> perCpuSecond) {
    /** The median by CPU second when measured, else by wall-clock second. */
    double reference() {
      return perCpuSecond.isEmpty() ? median(scores) : median(perCpuSecond);
    }
  }

  private final List<Row> rows;

  JmhSummary(List<Row> rows) {
    this.rows = List.copyOf(rows);
  }

  /** The summary of a run's results. */
  public static JmhSummary of(Collection<RunResult> results) {
    List<Row> rows = new ArrayList<>();
    for (RunResult r : results) {
      List<Double> scores = new ArrayList<>();
      List<Double> perCpu = new ArrayList<>();
      for (BenchmarkResult fork : r.getBenchmarkResults()) {
        for (IterationResult it : fork.getIterationResults()) {
          scores.add(it.getPrimaryResult().getScore());
          Result cpu = it.getSecondaryResults().get(CpuTimeProfiler.OPS_PER_CPU_SECOND);
          if (cpu != null) {
            perCpu.add(cpu.getScore());
          }
        }
      }
      if (!scores.isEmpty()) {
        Collections.sort(scores);
        Collections.sort(perCpu);
        rows.add(new Row(name(r.getParams()), scores, perCpu));
      }
    }
    return new JmhSummary(rows);
  }

  /** Benchmark method name, then its parameters' values. */
  private static String name(BenchmarkParams p) {
    String full = p.getBenchmark();
    StringBuilder name = new StringBuilder(full.substring(full.lastIndexOf('.') + 1));
    for (String key : p.getParamsKeys()) {
      name.append(' ').append(p.getParam(key));
    }
    return name.toString();
  }

  /** Prints one line per result: iterations, spread, the median per CPU second, the ratios. */
  public void print(PrintWriter out) {
    Optional<Row> floor = find(FLOOR);
    Optional<Row> mv = find(MV_STORE);
    out.printf(
        "%n%-40s %5s %12s %12s %12s %14s %8s %10s%n",
        "benchmark", "iters", "min ops/s", "median", "max", "ops/cpu-s", "x floor", "vs MVStore");
    for (Row r : rows) {
      out.printf(
          Locale.ROOT,
          "%-40s %5d %12.0f %12.0f %12.0f %14s %8s %10s%n",
          r.name(),
          r.scores().size(),
          r.scores().get(0),
          median(r.scores()),
          r.scores().get(r.scores().size() - 1),
          r.perCpuSecond().isEmpty()
              ? "-"
              : String.format(Locale.ROOT, "%.0f", median(r.perCpuSecond())),
          floor.map(f -> ratio(f.reference() / r.reference())).orElse("-"),
          mv.map(m -> ratio(r.reference() / m.reference())).orElse("-"));
    }
    out.flush();
  }

  private Optional<Row> find(String method) {
    return rows.stream().filter(r -> r.name().equals(method)).findFirst();
  }

  private static double median(List<Double> sorted) {
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  private static String ratio(double r) {
    return String.format(Locale.ROOT, "%.2f", r);
  }

  List<Row> rows() {
    return rows;
  }
}
