package io.stratus.bench.tpcw.harness;

import io.stratus.cloudapi.LockGrant;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.decorate.Call;
import io.stratus.cloudapi.decorate.CallInterceptor;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * Counts lock requests the lock service refused (another holder had the lock), in one client's
 * decorator chain: checkpoint locks another client's checkpoint held and, under the isolating
 * protocols, record locks; with several clients they show checkpoint contention.
 */
final class LockRefusals implements CallInterceptor {
  private final LongAdder refused = new LongAdder();

  @Override
  public <T> CompletableFuture<T> intercept(Call<T> call, Supplier<CompletableFuture<T>> proceed) {
    CompletableFuture<T> result = proceed.get();
    Operation op = call.operation();
    if (op == Operation.LOCK_ACQUIRE_EXCLUSIVE
        || op == Operation.LOCK_ACQUIRE_SHARED
        || op == Operation.LOCK_ACQUIRE_INTENTION) {
      result.thenAccept(
          value -> {
            if (value instanceof LockGrant grant && !grant.granted()) {
              refused.increment();
            }
          });
    }
    return result;
  }

  /** Refusals so far. */
  long refused() {
    return refused.sum();
  }
}
