package io.stratus.bench.tpcw.harness;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Splits the CPU time of a run between Stratus's library, the harness and the simulated cloud
 * ({@link CpuProfile}), so that the library's CPU per web interaction can be told apart from the
 * harness's. Every {@link #sample()} reads each live thread's CPU time and stack; the CPU a thread
 * used since its previous sample is charged to the part its stack is in now (or, when it is not
 * running now, where it last was): the innermost frame of a class of {@code io.stratus} decides,
 * so that a library call into the JDK counts as the library's and a harness callback inside a
 * library call as the harness's.
 *
 * <p>{@link #startSampling} samples on a daemon thread every few milliseconds. The estimate is
 * statistical: CPU used between two samples in another part than the second sample shows is
 * misplaced, so it needs many samples (a 20 s interval at 20 ms gives about 1,000 per thread).
 * Thread-safe: samples and totals are taken under the instance's lock.
 */
public final class CpuProfiler implements AutoCloseable {
  /** The parts a stack can be in. */
  enum Part {
    LIBRARY_FOREGROUND,
    LIBRARY_BACKGROUND,
    HARNESS,
    CLOUD,
    OTHER
  }

  /**
   * One thread at one sample.
   *
   * @param id the thread's id
   * @param browser whether it is an emulated browser's thread (the library's foreground)
   * @param running whether it was running (not blocked or waiting)
   * @param innermostStratusClass the class of its innermost {@code io.stratus} frame, or null
   * @param cpuNanos its CPU time so far, negative when unknown
   */
  record ThreadSample(
      long id, boolean browser, boolean running, String innermostStratusClass, long cpuNanos) {}

  /** The name prefix of the emulated browsers' threads. */
  static final String BROWSER_THREAD_PREFIX = "stratus-eb-";

  private static final long SAMPLE_MILLIS = 20;

  private static final String SAMPLER_THREAD = "stratus-cpu-profiler";

  private final Supplier<List<ThreadSample>> threads;
  private final JvmTimes jvm;
  private final Map<Long, long[]> lastSeen = new HashMap<>(); // id -> {cpu, part ordinal}
  private final long[] nanos = new long[Part.values().length];
  private long samples;
  private long samplingNanos;
  private Thread sampler;

  /**
   * What the JVM reports of its own work, each a running total: the process's CPU time, the
   * garbage collectors' time and the JIT compiler's (negative when unknown).
   */
  record JvmTimes(
      LongSupplier processCpuNanos,
      LongSupplier collectionMillis,
      LongSupplier compilationMillis) {}

  /** A profiler of {@code threads} (each call: every live thread now) and of {@code jvm}. */
  CpuProfiler(Supplier<List<ThreadSample>> threads, JvmTimes jvm) {
    this.threads = Objects.requireNonNull(threads, "threads");
    this.jvm = Objects.requireNonNull(jvm, "jvm");
  }

  /** A profiler of this JVM's threads; null when the JVM cannot measure thread CPU time. */
  static CpuProfiler ofThisJvm() {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    if (!mx.isThreadCpuTimeSupported()) {
      return null;
    }
    if (!mx.isThreadCpuTimeEnabled()) {
      mx.setThreadCpuTimeEnabled(true);
    }
    LongSupplier process =
        ManagementFactory.getOperatingSystemMXBean()
                instanceof com.sun.management.OperatingSystemMXBean os
            ? os::getProcessCpuTime
            : () -> -1;
    LongSupplier collection =
        () ->
            ManagementFactory.getGarbageCollectorMXBeans().stream()
                .mapToLong(gc -> Math.max(0, gc.getCollectionTime()))
                .sum();
    CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
    LongSupplier compilation =
        jit != null && jit.isCompilationTimeMonitoringSupported()
            ? jit::getTotalCompilationTime
            : () -> -1;
    return new CpuProfiler(() -> jvmThreads(mx), new JvmTimes(process, collection, compilation));
  }

  private static List<ThreadSample> jvmThreads(ThreadMXBean mx) {
    List<ThreadSample> out = new ArrayList<>();
    for (ThreadInfo info : mx.getThreadInfo(mx.getAllThreadIds(), 64)) {
      if (info == null || info.getThreadName().equals(SAMPLER_THREAD)) {
        continue; // ended meanwhile, or the sampler itself: its CPU is the measurement's
      }
      out.add(
          new ThreadSample(
              info.getThreadId(),
              info.getThreadName().startsWith(BROWSER_THREAD_PREFIX),
              info.getThreadState() == Thread.State.RUNNABLE,
              innermostStratusClass(info.getStackTrace()),
              mx.getThreadCpuTime(info.getThreadId())));
    }
    return out;
  }

  private static String innermostStratusClass(StackTraceElement[] stack) {
    for (StackTraceElement frame : stack) {
      if (frame.getClassName().startsWith("io.stratus.")) {
        return frame.getClassName();
      }
    }
    return null;
  }

  /** The part a thread is in, by its innermost {@code io.stratus} class. */
  static Part partOf(String innermostStratusClass, boolean browser) {
    if (innermostStratusClass == null) {
      return Part.OTHER;
    }
    if (innermostStratusClass.startsWith("io.stratus.bench.")) {
      return Part.HARNESS;
    }
    if (innermostStratusClass.startsWith("io.stratus.cloudapi.inprocess.")
        || innermostStratusClass.startsWith("io.stratus.cloudapi.decorate.")) {
      return Part.CLOUD;
    }
    return browser ? Part.LIBRARY_FOREGROUND : Part.LIBRARY_BACKGROUND;
  }

  /** Takes one sample of every thread and charges the CPU they used since the last. */
  synchronized void sample() {
    samples++;
    for (ThreadSample t : threads.get()) {
      if (t.cpuNanos() < 0) {
        continue;
      }
      long[] last = lastSeen.get(t.id());
      Part now = partOf(t.innermostStratusClass(), t.browser());
      Part charged = t.running() || last == null ? now : Part.values()[(int) last[1]];
      if (last != null) {
        nanos[charged.ordinal()] += Math.max(0, t.cpuNanos() - last[0]);
      }
      lastSeen.put(t.id(), new long[] {t.cpuNanos(), (t.running() ? now : charged).ordinal()});
    }
  }

  /** The totals charged so far, with the JVM's own, for {@link #between}. */
  synchronized Totals totals() {
    return new Totals(
        nanos.clone(),
        jvm.processCpuNanos().getAsLong(),
        jvm.collectionMillis().getAsLong(),
        jvm.compilationMillis().getAsLong(),
        samplingNanos,
        samples);
  }

  /**
   * CPU charged per part, the JVM's running totals, the sampling's own CPU and the samples taken,
   * at one moment.
   */
  record Totals(
      long[] nanos,
      long processNanos,
      long collectionMillis,
      long compilationMillis,
      long samplingNanos,
      long samples) {}

  /** The CPU per interaction between two totals, over {@code interactions} interactions. */
  static CpuProfile between(Totals start, Totals end, long interactions) {
    if (interactions <= 0) {
      return CpuProfile.NONE;
    }
    double[] micros = new double[Part.values().length];
    for (Part p : Part.values()) {
      micros[p.ordinal()] =
          (end.nanos()[p.ordinal()] - start.nanos()[p.ordinal()]) / 1000.0 / interactions;
    }
    return new CpuProfile(
        micros[Part.LIBRARY_FOREGROUND.ordinal()],
        micros[Part.LIBRARY_BACKGROUND.ordinal()],
        micros[Part.HARNESS.ordinal()],
        micros[Part.CLOUD.ordinal()],
        micros[Part.OTHER.ordinal()],
        perInteraction(start.processNanos(), end.processNanos(), 1e-3, interactions),
        perInteraction(start.collectionMillis(), end.collectionMillis(), 1e3, interactions),
        perInteraction(start.compilationMillis(), end.compilationMillis(), 1e3, interactions),
        (end.samplingNanos() - start.samplingNanos()) / 1000.0 / interactions,
        end.samples() - start.samples());
  }

  /** A running total's growth in microseconds per interaction; NaN when it is unknown. */
  private static double perInteraction(long start, long end, double toMicros, long interactions) {
    return start < 0 || end < 0 ? Double.NaN : (end - start) * toMicros / interactions;
  }

  /** Samples every {@value #SAMPLE_MILLIS} ms on a daemon thread until closed. */
  synchronized void startSampling() {
    if (sampler != null) {
      return;
    }
    sampler =
        new Thread(
            () -> {
              ThreadMXBean mx = ManagementFactory.getThreadMXBean();
              while (!Thread.currentThread().isInterrupted()) {
                long before = mx.getCurrentThreadCpuTime();
                sample();
                long cost = mx.getCurrentThreadCpuTime() - before;
                synchronized (this) {
                  samplingNanos += Math.max(0, cost);
                }
                try {
                  Thread.sleep(SAMPLE_MILLIS);
                } catch (InterruptedException e) {
                  return;
                }
              }
            },
            SAMPLER_THREAD);
    sampler.setDaemon(true);
    sampler.start();
  }

  /** Stops sampling. */
  @Override
  public void close() {
    Thread t;
    synchronized (this) {
      t = sampler;
      sampler = null;
    }
    if (t != null) {
      t.interrupt();
    }
  }
}
