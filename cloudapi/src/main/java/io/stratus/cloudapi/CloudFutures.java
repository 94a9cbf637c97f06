package io.stratus.cloudapi;

import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.function.IntConsumer;

/**
 * The synchronous convenience over the asynchronous Cloud API: {@link #await} waits for a future
 * and rethrows the {@link CloudException} it failed with, unwrapped, so that synchronous callers
 * can catch the hierarchy's types directly.
 */
public final class CloudFutures {
  private CloudFutures() {}

  /**
   * Waits for {@code future} and returns its value.
   *
   * @throws CloudException the failure of the call, unwrapped from {@link CompletionException}
   * @throws OutcomeUnknownException when the waiting thread is interrupted: the call may still
   *     complete (the interrupt flag is restored)
   */
  public static <T> T await(CompletionStage<T> future) {
    try {
      return future.toCompletableFuture().get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new OutcomeUnknownException("interrupted while waiting for a cloud call", e);
    } catch (ExecutionException e) {
      // get() always wraps the failure as the cause; the exception itself stands in otherwise.
      Throwable cause = e.getCause();
      throw rethrow(cause == null ? e : cause);
    } catch (CancellationException e) {
      throw new OutcomeUnknownException("the cloud call was cancelled", e);
    }
  }

  /**
   * Waits for every call, telling {@code succeeded} the index of each that completed normally, in
   * order; then throws the first cloud failure among them with the others suppressed in it. So no
   * call is still in flight when a cloud failure is thrown (a caller about to hand back what the
   * calls touched needs that). A failure that is not a {@link CloudException} propagates at once.
   *
   * @throws CloudException the first cloud failure, after every call ended
   */
  public static void awaitEach(List<? extends CompletionStage<?>> calls, IntConsumer succeeded) {
    CloudException failure = null;
    for (int i = 0; i < calls.size(); i++) {
      try {
        await(calls.get(i));
        succeeded.accept(i);
      } catch (CloudException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  /** A future already failed with {@code failure}: for implementations that reject a call early. */
  public static <T> CompletableFuture<T> failed(Throwable failure) {
    return CompletableFuture.failedFuture(failure);
  }

  /** The cause that a future's machinery wrapped, e.g. in {@link CompletionException}. */
  public static Throwable unwrap(Throwable t) {
    Throwable cur = t;
    while ((cur instanceof CompletionException || cur instanceof ExecutionException)
        && cur.getCause() != null) {
      cur = cur.getCause();
    }
    return cur;
  }

  private static RuntimeException rethrow(Throwable cause) {
    Throwable t = unwrap(cause);
    if (t instanceof RuntimeException) {
      return (RuntimeException) t;
    }
    if (t instanceof Error) {
      throw (Error) t;
    }
    return new OutcomeUnknownException("cloud call failed unexpectedly: " + t, t);
  }
}
