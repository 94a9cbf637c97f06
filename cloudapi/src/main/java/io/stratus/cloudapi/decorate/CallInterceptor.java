package io.stratus.cloudapi.decorate;

import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Sees every Cloud API call of a bundle wrapped by {@link Decorators}: the one extension point of
 * all decorators (metering, latency, faults, and whatever a test needs).
 *
 * <p>An interceptor decides whether and when to call {@code proceed} (which makes the call, through
 * the interceptors inside this one), and may change the outcome of the future it returns. {@code
 * proceed} never throws: a synchronous exception of the service becomes a failed future. Likewise,
 * an exception this method throws is turned into a failed future by the wrapper.
 *
 * <p>Implementations MUST be thread-safe and SHOULD NOT block: calls arrive from any thread, and
 * waiting belongs on a {@link io.stratus.cloudapi.time.Scheduler}.
 */
public interface CallInterceptor {

  /**
   * Handles one call.
   *
   * @param call what is being called, with its request size and a way to size its result
   * @param proceed makes the call (at most once is the normal use; calling it twice makes it twice)
   * @return the future the caller gets
   */
  <T> CompletableFuture<T> intercept(Call<T> call, Supplier<CompletableFuture<T>> proceed);
}
