package io.stratus.core;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;

/** Queues tasks and runs them only when the test says (on the test's thread). */
final class ManualExecutor implements Executor {
  private final ArrayDeque<Runnable> tasks = new ArrayDeque<>();

  @Override
  public synchronized void execute(Runnable task) {
    tasks.add(task);
  }

  synchronized int pending() {
    return tasks.size();
  }

  /** Runs the tasks queued now, not those they queue; returns how many ran. */
  int runQueued() {
    int n;
    synchronized (this) {
      n = tasks.size();
    }
    for (int i = 0; i < n; i++) {
      Runnable r;
      synchronized (this) {
        r = tasks.poll();
      }
      r.run();
    }
    return n;
  }

  /** Runs the queued tasks (and those they queue) until none is left; returns how many ran. */
  int runAll() {
    int n = 0;
    while (true) {
      Runnable r;
      synchronized (this) {
        r = tasks.poll();
      }
      if (r == null) {
        return n;
      }
      r.run();
      n++;
    }
  }
}
