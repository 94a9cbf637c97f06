package io.stratus.bench.tpcw.harness;

import io.stratus.cloudapi.decorate.Call;
import io.stratus.cloudapi.decorate.CallInterceptor;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The simulated latency of a run's profile, which the harness turns off once nothing is measured
 * any more: the drain after the measurement interval and the stock audit make thousands of calls
 * one after another (every queue checkpointed in turn), whose count and price the report needs
 * but whose time it does not. With the latency on, the drain of a 21-second interval took close to
 * a minute; its calls are metered and charged the same either way.
 */
final class LatencySwitch implements CallInterceptor {
  private final CallInterceptor latency;
  private volatile boolean on = true;

  /** Switches {@code latency}; null for a run without simulated latency. */
  LatencySwitch(CallInterceptor latency) {
    this.latency = latency;
  }

  @Override
  public <T> CompletableFuture<T> intercept(Call<T> call, Supplier<CompletableFuture<T>> proceed) {
    return on && latency != null ? latency.intercept(call, proceed) : proceed.get();
  }

  /** Calls from now on pass without the simulated latency. */
  void off() {
    on = false;
  }
}
