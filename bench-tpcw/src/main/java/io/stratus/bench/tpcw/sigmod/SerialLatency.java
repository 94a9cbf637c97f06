package io.stratus.bench.tpcw.sigmod;

import io.stratus.cloudapi.decorate.Call;
import io.stratus.cloudapi.decorate.CallInterceptor;
import io.stratus.cloudapi.decorate.LatencyModel;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * Adds up, per transaction, the latency the profile gives each of its calls: how long the
 * transaction would wait if every call waited for the one before, as paper 001's client made them
 * ("the messages are sent one by one", section 6.3). Stratus sends a commit's messages and puts
 * at once, so its measured time is shorter; this sum is the paper's way of spending the same
 * calls.
 *
 * <p>Only calls started on a thread inside {@link #measure} count; the returned future completes
 * after the call's latency has been added, so a transaction that has joined its calls has its
 * whole sum. Thread-safe.
 */
final class SerialLatency implements CallInterceptor {
  private final LatencyModel model;
  private final ThreadLocal<LongAdder> current = new ThreadLocal<>();

  SerialLatency(LatencyModel model) {
    this.model = Objects.requireNonNull(model, "model");
  }

  /** Runs {@code work}, adding the modelled nanoseconds of the calls it starts to {@code sum}. */
  <T> T measure(LongAdder sum, Supplier<T> work) {
    current.set(sum);
    try {
      return work.get();
    } finally {
      current.remove();
    }
  }

  @Override
  public <T> CompletableFuture<T> intercept(Call<T> call, Supplier<CompletableFuture<T>> proceed) {
    LongAdder sum = current.get();
    if (sum == null) {
      return proceed.get();
    }
    return proceed
        .get()
        .whenComplete(
            (value, failure) ->
                sum.add(
                    model
                        .latency(
                            call.operation(),
                            call.requestBytes(),
                            failure == null ? call.responseBytes(value) : 0)
                        .toNanos()));
  }
}
