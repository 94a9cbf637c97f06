package io.stratus.bench.tpcw.rbe;

import io.stratus.cloudapi.decorate.Call;
import io.stratus.cloudapi.decorate.MeteringInterceptor;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Meters each cloud call in the meter that the thread starting it is marked with, and carries the
 * mark to calls chained on its completion: the harness's way of charging a call to the work (a web
 * interaction, a transaction) that made it.
 *
 * <p>Why the carrying: a call chained on another's completion ({@code thenCompose}, {@code
 * exceptionallyCompose}, as the queue sender does to create a missing queue and resend) starts on
 * whichever thread completed the first call (a latency decorator's scheduler, an SDK thread). The
 * future returned for a marked call therefore completes with the mark set on the completing
 * thread, so that the chained call counts where the first did. The owner must sit outermost in
 * the decorator chain, where calls are seen on the thread that starts them. Calls never block
 * here; thread-safe.
 */
public final class ThreadMarkedMetering {
  private final ThreadLocal<MeteringInterceptor> mark = new ThreadLocal<>();

  /** The calling thread's mark, or null. */
  public MeteringInterceptor mark() {
    return mark.get();
  }

  /** Marks the calling thread with {@code meter}; null clears the mark. */
  public void mark(MeteringInterceptor meter) {
    if (meter == null) {
      mark.remove();
    } else {
      mark.set(meter);
    }
  }

  /** Meters {@code call} in the calling thread's mark, or in {@code unmarked} without one. */
  public <T> CompletableFuture<T> intercept(
      Call<T> call, Supplier<CompletableFuture<T>> proceed, MeteringInterceptor unmarked) {
    MeteringInterceptor marked = mark.get();
    CompletableFuture<T> metered = (marked != null ? marked : unmarked).intercept(call, proceed);
    if (metered.isDone() || marked == null) {
      return metered; // later stages run on this thread, or count as unmarked anyway
    }
    CompletableFuture<T> result = new CompletableFuture<>();
    metered.whenComplete(
        (value, failure) -> {
          MeteringInterceptor previous = mark.get();
          mark(marked);
          try {
            if (failure == null) {
              result.complete(value);
            } else {
              result.completeExceptionally(failure);
            }
          } finally {
            mark(previous);
          }
        });
    return result;
  }
}
