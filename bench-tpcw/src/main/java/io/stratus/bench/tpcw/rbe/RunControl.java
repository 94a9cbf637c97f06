package io.stratus.bench.tpcw.rbe;

import java.util.List;
import java.util.function.LongSupplier;

/**
 * The phases of one run on the emulator's clock, and its stop signal, shared by the emulator's
 * thread and every browser thread.
 *
 * <p>The run starts at {@code startNanos}; interactions that start before {@code warmUpEnd} are
 * warm-up, those that start before {@code measureEnd} are measured, and none starts later. An
 * interaction belongs to the phase it starts in, whenever it ends; its cloud calls follow it.
 * Whoever first reads the clock past a boundary (a browser or the emulator's thread) moves the
 * background phase of every client's attribution forward, so background calls change meter within one
 * interaction's time of the boundary.
 *
 * <p>Thread-safe: the boundaries are final, {@code stopping} is volatile.
 */
final class RunControl {
  private final LongSupplier nanoTime;
  private final List<InteractionAttribution> attributions;
  private final long startNanos;

  /** Warm-up end, as nanoseconds after the start (offsets, so nanoTime's origin never matters). */
  private final long warmUpEnd;

  /** Measurement end, as nanoseconds after the start. */
  private final long measureEnd;

  /** Windows the measurement interval is split into (at least one). */
  private final int windows;

  private volatile boolean stopping;

  RunControl(
      LongSupplier nanoTime,
      List<InteractionAttribution> attributions,
      long startNanos,
      long warmUpNanos,
      long measureNanos,
      int windows) {
    if (windows < 1) {
      throw new IllegalArgumentException("windows must be positive, not " + windows);
    }
    this.nanoTime = nanoTime;
    this.attributions = List.copyOf(attributions);
    this.startNanos = startNanos;
    this.warmUpEnd = warmUpNanos;
    this.measureEnd = saturatedAdd(warmUpEnd, measureNanos);
    this.windows = windows;
  }

  long now() {
    return nanoTime.getAsLong();
  }

  long startNanos() {
    return startNanos;
  }

  /** Nanoseconds from the start to {@code nanos}. */
  long elapsed(long nanos) {
    return nanos - startNanos;
  }

  /** When the warm-up ends, in nanoseconds after the start. */
  long warmUpEnd() {
    return warmUpEnd;
  }

  /** When the measurement interval ends, in nanoseconds after the start. */
  long measureEnd() {
    return measureEnd;
  }

  /** Windows the measurement interval is split into. */
  int windows() {
    return windows;
  }

  /**
   * When window {@code w} of the measurement interval starts, in nanoseconds after the start;
   * {@code w == windows()} gives the interval's end. The windows are equally long.
   */
  long windowStart(int w) {
    if (w >= windows) {
      return measureEnd;
    }
    return warmUpEnd + (long) ((double) (measureEnd - warmUpEnd) * w / windows);
  }

  /**
   * The window of an interaction of the measurement interval starting at {@code nanos}, a reading
   * of the clock: 0 to {@code windows() - 1}.
   */
  int windowAt(long nanos) {
    long elapsed = elapsed(nanos);
    int w = 0;
    while (w < windows - 1 && elapsed >= windowStart(w + 1)) {
      w++;
    }
    return w;
  }

  /**
   * The phase of an interaction starting at {@code nanos}, a reading of the clock ({@link
   * InteractionAttribution#WARM_UP}, {@code MEASURE} or {@code AFTER}); also moves the background
   * phase forward to it.
   */
  int phaseAt(long nanos) {
    long elapsed = elapsed(nanos);
    int phase;
    if (elapsed < warmUpEnd) {
      phase = InteractionAttribution.WARM_UP;
    } else if (elapsed < measureEnd) {
      phase = InteractionAttribution.MEASURE;
    } else {
      phase = InteractionAttribution.AFTER;
    }
    for (InteractionAttribution a : attributions) {
      a.advance(phase);
    }
    return phase;
  }

  /** Asks every browser to stop after its current interaction. */
  void stop() {
    stopping = true;
  }

  boolean isStopping() {
    return stopping;
  }

  private static long saturatedAdd(long a, long b) {
    long sum = a + b;
    return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
  }
}
