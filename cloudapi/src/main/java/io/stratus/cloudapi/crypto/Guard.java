package io.stratus.cloudapi.crypto;

import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/** Turns a synchronous exception of a call into its failed future, as the Cloud API requires. */
final class Guard {
  private Guard() {}

  static <T> CompletableFuture<T> call(Supplier<CompletableFuture<T>> call) {
    try {
      return call.get();
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }
}
