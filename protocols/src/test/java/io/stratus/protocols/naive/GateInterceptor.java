package io.stratus.protocols.naive;

import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.decorate.Call;
import io.stratus.cloudapi.decorate.CallInterceptor;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Holds every storage put (plain or on a version) until the test releases it, so a test can see which puts a commit has
 * issued at once and that it issues no more until those complete. Other calls pass through.
 */
final class GateInterceptor implements CallInterceptor {
  /** One held put. */
  static final class Held {
    final String uri;
    private final Runnable release;

    Held(String uri, Runnable release) {
      this.uri = uri;
      this.release = release;
    }

    void release() {
      release.run();
    }
  }

  private final LinkedBlockingQueue<Held> held = new LinkedBlockingQueue<>();

  @Override
  public <T> CompletableFuture<T> intercept(Call<T> call, Supplier<CompletableFuture<T>> proceed) {
    if (call.operation() != Operation.STORAGE_PUT
        && call.operation() != Operation.STORAGE_PUT_IF_VERSION) {
      return proceed.get();
    }
    CompletableFuture<T> out = new CompletableFuture<>();
    held.add(
        new Held(
            call.target(),
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
                        })));
    return out;
  }

  /** The next held put, waiting for the commit thread to issue it (bounded, so a bug fails). */
  Held next() throws InterruptedException {
    Held h = held.poll(10, TimeUnit.SECONDS);
    if (h == null) {
      throw new AssertionError("no put was issued within 10 s");
    }
    return h;
  }

  /** Whether a put is waiting now (no waiting). */
  boolean anyWaiting() {
    return !held.isEmpty();
  }
}
