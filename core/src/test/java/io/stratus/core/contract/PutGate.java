package io.stratus.core.contract;

import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.decorate.Call;
import io.stratus.cloudapi.decorate.CallInterceptor;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Holds the storage puts (plain and conditional) of one named thread, from its {@code holdFrom}-th put on, until the test
 * opens the gate: the held puts have not happened, and the thread waits for them. Everything else
 * passes. Lets a test run another client's work between two puts of one checkpoint.
 */
final class PutGate implements CallInterceptor {
  private static final Set<Operation> PUTS =
      EnumSet.of(
          Operation.STORAGE_PUT, Operation.STORAGE_PUT_IF_ABSENT, Operation.STORAGE_PUT_IF_VERSION);

  private final String threadName;
  private final int holdFrom;
  private final List<Runnable> held = new ArrayList<>();
  private int puts;
  private boolean open;

  PutGate(String threadName, int holdFrom) {
    this.threadName = threadName;
    this.holdFrom = holdFrom;
  }

  @Override
  public <T> CompletableFuture<T> intercept(Call<T> call, Supplier<CompletableFuture<T>> proceed) {
    if (!PUTS.contains(call.operation()) || !Thread.currentThread().getName().equals(threadName)) {
      return proceed.get();
    }
    synchronized (this) {
      puts++;
      if (open || puts < holdFrom) {
        return proceed.get();
      }
      CompletableFuture<T> out = new CompletableFuture<>();
      held.add(
          () ->
              proceed
                  .get()
                  .whenComplete(
                      (v, e) -> {
                        if (e != null) {
                          out.completeExceptionally(e);
                        } else {
                          out.complete(v);
                        }
                      }));
      notifyAll();
      return out;
    }
  }

  /**
   * Waits until a put is held or {@code worker} has finished (it made fewer puts); true if a put
   * is held. Bounded, so a hang fails the test.
   */
  boolean awaitHeldOrDone(CompletableFuture<?> worker) throws InterruptedException {
    worker.whenComplete(
        (v, e) -> {
          synchronized (this) {
            notifyAll();
          }
        });
    return awaitHeld(worker);
  }

  private synchronized boolean awaitHeld(CompletableFuture<?> worker) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (held.isEmpty() && !worker.isDone()) {
      long left = end - System.nanoTime();
      if (left <= 0) {
        throw new AssertionError(threadName + " neither put nor finished within 20 s");
      }
      wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
    }
    return !held.isEmpty();
  }

  /** The puts of the named thread so far, held ones included. */
  synchronized int puts() {
    return puts;
  }

  /** Lets the held puts happen, and every later one pass. */
  void open() {
    List<Runnable> go;
    synchronized (this) {
      open = true;
      go = List.copyOf(held);
      held.clear();
    }
    go.forEach(Runnable::run);
  }
}
