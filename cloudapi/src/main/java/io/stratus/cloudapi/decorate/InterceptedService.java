package io.stratus.cloudapi.decorate;

import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * What every intercepting wrapper shares: the wrapped service, the chain its calls are routed
 * through, and whether closing the wrapper closes the wrapped service. A subclass implements one
 * service interface and forwards each call method as {@code route(Call.of(...), () ->
 * delegate.method(...))}, so that the call's description sits next to the call it describes.
 *
 * <p>{@link #close()} here takes precedence over the interface's default {@code close()} (a class
 * method always wins over a default method), so subclasses need not override it.
 *
 * <p>Immutable; as thread-safe as the wrapped service and the interceptors.
 *
 * @param <S> the wrapped service interface
 */
abstract class InterceptedService<S> {
  final S delegate;
  private final InterceptorChain chain;
  private final @Nullable Runnable closeDelegate;

  /**
   * @param closeDelegate closes {@code delegate} (as {@code delegate::close}) when the wrapper
   *     owns it, else null
   */
  InterceptedService(S delegate, InterceptorChain chain, @Nullable Runnable closeDelegate) {
    this.delegate = delegate;
    this.chain = chain;
    this.closeDelegate = closeDelegate;
  }

  /** Runs {@code call} through the interceptors, then {@code target} (the wrapped service). */
  final <T> CompletableFuture<T> route(Call<T> call, Supplier<CompletableFuture<T>> target) {
    return chain.invoke(call, target);
  }

  public void close() {
    if (closeDelegate != null) {
      closeDelegate.run();
    }
  }

  @Override
  public String toString() {
    return "Intercepted(" + delegate + ")";
  }
}
