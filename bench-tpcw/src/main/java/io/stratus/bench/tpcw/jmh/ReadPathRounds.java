package io.stratus.bench.tpcw.jmh;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.function.IntSupplier;

/**
 * The point-read benchmark's forms ({@link PointReadBenchmark}: each protocol, the floor, MVStore)
 * measured in interleaved rounds, for a machine whose speed drifts while it measures.
 *
 * <p>Why: on a shared virtual machine the CPU time one read takes moved by 2 × within minutes
 * (other tenants' load on the caches and cores, which the guest cannot see), and a JMH run measures
 * its forms one after the other over several minutes, so one form could be measured on a fast
 * stretch and its reference on a slow one: the same build's ratio to the floor measured 1.4 in one
 * run and 2.4 in the next. Here each form runs in JVMs of its own (so the JIT compiles each read
 * path for itself alone, as a JMH fork does; several, since one JVM's compilation may come out a
 * little faster or slower than another's for good) and is warmed up once; then, round after round,
 * the JVMs take turns, one at a time, each running reads for a short burst (the others wait, idle)
 * and reporting the reads and the CPU time they took ({@link #WARM_UP_ROUNDS} rounds first, not
 * counted). A form's ratio to the floor and to MVStore
 * is taken within each round, between bursts a second or two apart, and the median over the
 * rounds is reported with its interquartile range. The order of the forms in a round is drawn
 * anew each round from a seeded random, so no form always follows another.
 */
public final class ReadPathRounds {
  /**
   * Rounds run before the counted ones: a worker's setup warms its read path as JMH's does, yet on
   * a loaded machine the JIT may still be compiling when the first bursts run.
   */
  static final int WARM_UP_ROUNDS = 3;

  /** The forms besides the protocols. */
  static final String FLOOR = "floor";

  static final String MV_STORE = "mvStore";

  private final List<String> forms;
  private final int forks;
  private final int rounds;
  private final long burstMillis;
  private final long seed;

  /**
   * @param protocols the protocols to measure (names of {@code ProtocolKind})
   * @param forks JVMs per form: a JVM's JIT may compile a read path a little better or worse than
   *     another's, for good, which rounds in one JVM cannot average out
   * @param rounds rounds of one burst per form and JVM
   * @param burstMillis how long each burst runs reads
   * @param seed draws each round's order
   */
  public ReadPathRounds(
      List<String> protocols, int forks, int rounds, long burstMillis, long seed) {
    if (forks < 1) {
      throw new IllegalArgumentException("forks must be at least 1, not " + forks);
    }
    if (rounds < 3) {
      throw new IllegalArgumentException("rounds must be at least 3, not " + rounds);
    }
    if (burstMillis < 10) {
      throw new IllegalArgumentException("a burst must last at least 10 ms, not " + burstMillis);
    }
    List<String> all = new ArrayList<>(protocols);
    all.add(FLOOR);
    all.add(MV_STORE);
    this.forms = List.copyOf(all);
    this.forks = forks;
    this.rounds = rounds;
    this.burstMillis = burstMillis;
    this.seed = seed;
  }

  /** Starts one worker per form, runs the rounds, prints the table to {@code out}. */
  public void run(PrintWriter out) throws IOException, InterruptedException {
    List<Worker> workers = new ArrayList<>();
    try {
      for (String form : forms) {
        for (int f = 0; f < forks; f++) {
          workers.add(Worker.start(form));
        }
      }
      for (Worker w : workers) {
        w.awaitReady();
      }
      // Per form, per round: the CPU nanoseconds per read, summed over its JVMs' bursts.
      Map<String, List<Double>> nanosPerRead = new LinkedHashMap<>();
      forms.forEach(f -> nanosPerRead.put(f, new ArrayList<>()));
      Random random = new Random(seed);
      List<Worker> order = new ArrayList<>(workers);
      for (int round = -WARM_UP_ROUNDS; round < rounds; round++) {
        Collections.shuffle(order, random);
        Map<String, Double> sums = new LinkedHashMap<>();
        for (Worker w : order) {
          sums.merge(w.form, w.burst(burstMillis), Double::sum);
        }
        if (round >= 0) {
          sums.forEach((form, ns) -> nanosPerRead.get(form).add(ns / forks));
        }
      }
      print(out, nanosPerRead);
    } finally {
      for (Worker w : workers) {
        w.close();
      }
    }
  }

  private void print(PrintWriter out, Map<String, List<Double>> nanosPerRead) {
    List<Double> floor = nanosPerRead.get(FLOOR);
    List<Double> mvStore = nanosPerRead.get(MV_STORE);
    out.printf(
        Locale.ROOT,
        "%d rounds of a %d ms burst per form and JVM (%d JVMs per form), order drawn from seed %d;"
            + " per round: CPU ns per read, its ratio to the floor's, MVStore's over it (above 1:"
            + " faster than MVStore)%n",
        rounds,
        burstMillis,
        forks,
        seed);
    out.printf(
        Locale.ROOT,
        "%-24s %16s %22s %22s%n",
        "form",
        "ns/read median",
        "x floor median [IQR]",
        "vs MVStore med. [IQR]");
    for (Map.Entry<String, List<Double>> e : nanosPerRead.entrySet()) {
      List<Double> ns = e.getValue();
      double[] overFloor = new double[rounds];
      double[] vsMvStore = new double[rounds];
      for (int r = 0; r < rounds; r++) {
        overFloor[r] = ns.get(r) / floor.get(r);
        vsMvStore[r] = mvStore.get(r) / ns.get(r);
      }
      out.printf(
          Locale.ROOT,
          "%-24s %16.0f %22s %22s%n",
          e.getKey(),
          quantile(ns.stream().mapToDouble(Double::doubleValue).toArray(), 0.5),
          spread(overFloor),
          spread(vsMvStore));
    }
    out.flush();
  }

  private static String spread(double[] values) {
    return String.format(
        Locale.ROOT,
        "%.2f [%.2f-%.2f]",
        quantile(values, 0.5),
        quantile(values, 0.25),
        quantile(values, 0.75));
  }

  /** The {@code q} quantile by linear interpolation between the closest ranks. */
  static double quantile(double[] values, double q) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    double at = q * (sorted.length - 1);
    int below = (int) Math.floor(at);
    int above = Math.min(sorted.length - 1, below + 1);
    return sorted[below] + (at - below) * (sorted[above] - sorted[below]);
  }

  /** A form's JVM, driven over its standard input and output, one line per request. */
  private static final class Worker implements AutoCloseable {
    private final String form;
    private final Process process;
    private final BufferedReader from;
    private final PrintStream to;

    private Worker(String form, Process process) {
      this.form = form;
      this.process = process;
      this.from =
          new BufferedReader(
              new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
      this.to = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
    }

    static Worker start(String form) throws IOException {
      String java = ProcessHandle.current().info().command().orElse("java");
      String classPath;
      try {
        classPath =
            Path.of(
                    ReadPathRounds.class
                        .getProtectionDomain()
                        .getCodeSource()
                        .getLocation()
                        .toURI())
                .toString();
      } catch (java.net.URISyntaxException e) {
        throw new IOException("cannot tell where the benchmark's classes are", e);
      }
      Process p =
          new ProcessBuilder(java, "-cp", classPath, WorkerMain.class.getName(), form)
              .redirectError(ProcessBuilder.Redirect.INHERIT)
              .start();
      return new Worker(form, p);
    }

    void awaitReady() throws IOException {
      String line = from.readLine();
      if (!"ready".equals(line)) {
        throw new IOException("the worker of " + form + " did not start: " + line);
      }
    }

    /** Runs one burst; the CPU nanoseconds per read it took. */
    double burst(long millis) throws IOException {
      to.println(millis);
      String line = from.readLine();
      if (line == null) {
        throw new IOException("the worker of " + form + " ended");
      }
      String[] parts = line.split(" ");
      return Double.parseDouble(parts[1]) / Long.parseLong(parts[0]);
    }

    @Override
    public void close() {
      to.close();
      process.destroy();
    }
  }

  /**
   * A worker's entry point: sets its form up (and warms it, as the JMH benchmark's setup does),
   * says "ready", then for every line it reads (a burst's milliseconds) runs reads that long and
   * answers "reads cpu-nanoseconds"; ends at the end of its input.
   */
  public static final class WorkerMain {
    private WorkerMain() {}

    public static void main(String[] args) throws IOException {
      IntSupplier read = form(args[0]);
      ThreadMXBean threads = ManagementFactory.getThreadMXBean();
      BufferedReader in =
          new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      System.out.println("ready");
      System.out.flush();
      int sink = 0;
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        long until = System.nanoTime() + Long.parseLong(line.trim()) * 1_000_000;
        long cpu = threads.getCurrentThreadCpuTime();
        long reads = 0;
        do {
          for (int i = 0; i < 1024; i++) {
            sink += read.getAsInt();
          }
          reads += 1024;
        } while (System.nanoTime() < until);
        cpu = threads.getCurrentThreadCpuTime() - cpu;
        System.out.println(reads + " " + cpu);
        System.out.flush();
      }
      if (sink == 42) {
        System.err.println(); // keeps the reads' results alive
      }
    }

    private static IntSupplier form(String form) {
      return switch (form) {
        case FLOOR -> {
          PointReadBenchmark.Floor f = new PointReadBenchmark.Floor();
          f.open();
          yield () -> PointReadBenchmark.use(PointReadBenchmark.lookUp(f));
        }
        case MV_STORE -> {
          PointReadBenchmark.MvStoreMap m = new PointReadBenchmark.MvStoreMap();
          m.open();
          yield () -> PointReadBenchmark.use(PointReadBenchmark.get(m));
        }
        default -> {
          PointReadBenchmark.Stratus s = new PointReadBenchmark.Stratus();
          s.protocol = form;
          s.open();
          yield () -> PointReadBenchmark.use(PointReadBenchmark.read(s).orElseThrow());
        }
      };
    }
  }
}
