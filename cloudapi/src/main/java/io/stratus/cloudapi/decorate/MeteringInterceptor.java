package io.stratus.cloudapi.decorate;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Counts every call that passes it into a {@link CloudMeter} when the call completes: its request
 * bytes always, its response bytes when it succeeded, and a failure when it failed. Where it sits
 * among the interceptors decides what "a call" is: inside a {@link FaultInterceptor} it counts the
 * calls that reached the service, outside it every attempt. Failed calls are billed like successful
 * ones (providers charge for most error responses).
 *
 * <p>The future it returns completes only after the call has been counted, so a caller that has
 * seen a call complete also sees it in the next snapshot. Thread-safe.
 */
public final class MeteringInterceptor implements CallInterceptor {
  private final CloudMeter meter;

  public MeteringInterceptor(CloudMeter meter) {
    this.meter = Objects.requireNonNull(meter, "meter");
  }

  public CloudMeter meter() {
    return meter;
  }

  @Override
  public <T> CompletableFuture<T> intercept(Call<T> call, Supplier<CompletableFuture<T>> proceed) {
    return proceed
        .get()
        .whenComplete(
            (result, failure) -> {
              if (failure == null) {
                meter.record(
                    call.operation(), call.requestBytes(), call.responseBytes(result), false);
              } else {
                meter.record(call.operation(), call.requestBytes(), 0, true);
              }
            });
  }
}
