package io.stratus.core.contract;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;

/**
 * Queues a handle's background tasks (checkpoints, propagations, resends) and runs them only when
 * the test says, on the calling thread: schedules replay from their seed.
 */
final class StepExecutor implements Executor {
  private final ArrayDeque<Runnable> tasks = new ArrayDeque<>();

  @Override
  public synchronized void execute(Runnable task) {
    tasks.add(task);
  }

  synchronized int pending() {
    return tasks.size();
  }

  /** Takes the oldest queued task, or null. */
  synchronized Runnable poll() {
    return tasks.poll();
  }

  /**
   * Runs queued tasks, and those they queue, until none is left. A task that fails (an injected
   * fault, a simulated crash) does not stop the others: background work is retried by later
   * passes, and a test asserts on the outcome, not on the task.
   */
  int runAll() {
    int n = 0;
    for (Runnable r = poll(); r != null; r = poll()) {
      try {
        r.run();
      } catch (RuntimeException e) {
        // see above
      }
      n++;
    }
    return n;
  }
}
