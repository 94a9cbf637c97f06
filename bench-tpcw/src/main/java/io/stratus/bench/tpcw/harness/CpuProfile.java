package io.stratus.bench.tpcw.harness;

/**
 * Where the CPU of a measurement interval went, per web interaction, in microseconds: Stratus's
 * own code (on the browsers' threads, inside the library's calls, and on its background threads:
 * checkpoints, propagation), the harness (the bookstore's logic, the emulated browsers, the
 * report's meters), the simulated cloud (the in-process storage and queues and the latency
 * decorator), and threads running none of these (the JVM's own, idle pools). Estimated by {@link
 * CpuProfiler}: each thread's CPU time is split by where its stack was when sampled.
 *
 * @param libraryForeground Stratus's code on the browsers' threads
 * @param libraryBackground Stratus's code on other threads
 * @param harness the harness's code on any thread
 * @param cloud the simulated cloud's code on any thread
 * @param other threads in none of these
 * @param process the whole process's CPU time per interaction, which includes what no thread
 *     sample sees: the garbage collector's and the compiler's threads, and the sampling itself
 * @param garbageCollection time the garbage collectors report having spent, per interaction
 * @param compilation time the JIT compiler reports having spent, per interaction
 * @param sampling CPU time of taking the samples, per interaction
 * @param samples stack samples the estimate rests on
 */
public record CpuProfile(
    double libraryForeground,
    double libraryBackground,
    double harness,
    double cloud,
    double other,
    double process,
    double garbageCollection,
    double compilation,
    double sampling,
    long samples) {

  /** Nothing measured. */
  public static final CpuProfile NONE = new CpuProfile(0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

  /** Stratus's code on every thread. */
  public double library() {
    return libraryForeground + libraryBackground;
  }
}
