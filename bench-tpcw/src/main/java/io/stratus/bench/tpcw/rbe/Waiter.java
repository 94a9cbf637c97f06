package io.stratus.bench.tpcw.rbe;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * How an emulated browser waits: its think time between interactions and the end-user round trip
 * after each. Injected so that tests replace waiting by recording (and, with a fake ticker, by
 * advancing time); the emulator's own bookkeeping never waits through it.
 *
 * <p>Implementations MUST be thread-safe (every browser thread calls the same waiter) and MUST
 * return early with {@link InterruptedException} when the calling thread is interrupted: that is
 * how the emulator ends a long think time when the run stops.
 */
@FunctionalInterface
public interface Waiter {
  /** Waits {@code duration} (positive). */
  void pause(Duration duration) throws InterruptedException;

  /** Waits in real time by sleeping the calling thread. */
  static Waiter sleeping() {
    return duration -> TimeUnit.NANOSECONDS.sleep(duration.toNanos());
  }
}
