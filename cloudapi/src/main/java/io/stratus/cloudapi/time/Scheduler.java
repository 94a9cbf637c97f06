package io.stratus.cloudapi.time;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * Completes futures after a delay without holding a thread per waiter: what the latency decorator
 * and any time-based background work wait on. {@link SystemScheduler} waits in real time; {@link
 * ManualClock} in test time, firing when a test advances it, so that tests never sleep.
 */
public interface Scheduler {

  /**
   * A future that completes (normally, with null) once {@code delay} has passed. A zero or negative
   * delay MAY complete at once.
   */
  CompletableFuture<Void> after(Duration delay);
}
