package io.stratus.protocols.engine;

import io.stratus.protocols.checkpoint.CheckpointScheduler;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Background work that many callers ask for and one run serves: at most one run is scheduled or
 * running on the checkpoint executor at a time, and it repeats while requests arrived during it.
 * So a burst of commits costs one run (one batched propagation, one clean-up pass) instead of
 * one per commit, and the executor's other threads stay free for checkpoints. A run that throws
 * does not stop later requests from scheduling runs. Thread-safe.
 */
public final class CoalescingTask {
  private final CheckpointScheduler scheduler;
  private final Runnable work;

  /** Requests since the running run started; 0 when none is scheduled or running. */
  private final AtomicInteger requests = new AtomicInteger();

  public CoalescingTask(CheckpointScheduler scheduler, Runnable work) {
    this.scheduler = scheduler;
    this.work = work;
  }

  /** Asks for a run; schedules one unless one is scheduled or running. */
  public void request() {
    if (requests.getAndIncrement() == 0 && !scheduler.execute(this::drain)) {
      requests.set(0); // closed: nothing runs any more
    }
  }

  private void drain() {
    int seen;
    do {
      seen = requests.get();
      try {
        work.run();
      } catch (RuntimeException | Error e) {
        // The failed run served the requests it saw; left counted, they kept every later request
        // from scheduling a run, and the work stopped for good. Those that came during it get a
        // run of their own (a failure that persists stops when requests stop).
        if (requests.getAndSet(0) > seen) {
          request();
        }
        throw e;
      }
    } while (requests.addAndGet(-seen) != 0);
  }
}
