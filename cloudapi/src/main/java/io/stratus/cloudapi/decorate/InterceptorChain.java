package io.stratus.cloudapi.decorate;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The interceptors of one wrapper, composed so that the first is outermost, and the one place that
 * turns synchronous exceptions (of a service or of an interceptor) and null futures into failed
 * futures: every wrapper method goes through {@link #invoke}, so no caller of a wrapped service
 * ever sees a throw instead of a future.
 *
 * <p>Immutable and thread-safe.
 */
final class InterceptorChain {
  private final CallInterceptor[] interceptors;

  InterceptorChain(List<CallInterceptor> interceptors) {
    for (CallInterceptor i : interceptors) {
      Objects.requireNonNull(i, "interceptor");
    }
    this.interceptors = interceptors.toArray(new CallInterceptor[0]);
  }

  /** Runs {@code call} through every interceptor, then {@code target}. */
  <T> CompletableFuture<T> invoke(Call<T> call, Supplier<CompletableFuture<T>> target) {
    return at(0, call, target);
  }

  private <T> CompletableFuture<T> at(
      int index, Call<T> call, Supplier<CompletableFuture<T>> target) {
    if (index == interceptors.length) {
      return safely(call, target);
    }
    CallInterceptor here = interceptors[index];
    Supplier<CompletableFuture<T>> next = () -> at(index + 1, call, target);
    return safely(call, () -> here.intercept(call, next));
  }

  private static <T> CompletableFuture<T> safely(
      Call<T> call, Supplier<CompletableFuture<T>> step) {
    CompletableFuture<T> f;
    try {
      f = step.get();
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    if (f == null) {
      return CompletableFuture.failedFuture(
          new NullPointerException("a service or interceptor returned no future for " + call));
    }
    return f;
  }
}
