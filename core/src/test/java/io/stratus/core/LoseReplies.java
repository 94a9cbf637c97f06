package io.stratus.core;

import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.OutcomeUnknownException;
import io.stratus.cloudapi.decorate.Call;
import io.stratus.cloudapi.decorate.CallInterceptor;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Loses the replies of the next {@link #remaining} queue sends to queues under a prefix: the send
 * happens, the caller gets "outcome unknown". Test-thread use only.
 */
final class LoseReplies implements CallInterceptor {
  private final String prefix;
  int remaining;

  LoseReplies(String prefix) {
    this.prefix = prefix;
  }

  @Override
  public <T> CompletableFuture<T> intercept(Call<T> call, Supplier<CompletableFuture<T>> proceed) {
    if (call.operation() != Operation.QUEUE_SEND_BATCH
        || !call.target().startsWith(prefix)
        || remaining == 0) {
      return proceed.get();
    }
    remaining--;
    return proceed
        .get()
        .thenCompose(
            r -> CompletableFuture.failedFuture(new OutcomeUnknownException("reply lost")));
  }
}
