package io.stratus.protocols;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * How a handle waits between polls of other clients' progress: a commit counter that has not
 * validated an earlier commit yet, a close that finds the queues it owes held by another client's
 * checkpoint. Implementations MUST return after at most about the given time (earlier is allowed:
 * every caller polls again and bounds its polls) and MUST NOT throw; an interrupt is left set on
 * the thread. The default parks the thread; tests on a manual clock replace it so that no test
 * waits for real time.
 */
@FunctionalInterface
public interface Pause {
  /** Parks the calling thread for the time given (or until it is interrupted). */
  Pause PARK = d -> LockSupport.parkNanos(d.toNanos());

  /** Waits for about {@code duration}. */
  void pause(Duration duration);
}
