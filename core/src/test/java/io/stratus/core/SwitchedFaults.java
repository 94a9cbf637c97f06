package io.stratus.core;

import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.decorate.Call;
import io.stratus.cloudapi.decorate.CallInterceptor;
import io.stratus.cloudapi.decorate.FaultInterceptor;
import io.stratus.cloudapi.decorate.InjectedFault;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * A fault interceptor that acts only while switched on: a test injects faults while its
 * transactions run, not while it loads the database or checks the end state.
 */
public final class SwitchedFaults implements CallInterceptor {
  private final FaultInterceptor faults;
  private volatile boolean on;

  public SwitchedFaults(FaultInterceptor faults) {
    this.faults = faults;
  }

  /** Switches the faults on or off. */
  public void switchTo(boolean on) {
    this.on = on;
  }

  /** Faults injected so far. */
  public int injected() {
    return faults.injectedFaults().size();
  }

  /** Faults injected so far on calls of {@code operation}. */
  public long injected(Operation operation) {
    return faults.injectedFaults().stream().filter(f -> f.operation() == operation).count();
  }

  /** Faults injected so far that {@code which} selects. */
  public long injected(Predicate<InjectedFault> which) {
    return faults.injectedFaults().stream().filter(which).count();
  }

  @Override
  public <T> CompletableFuture<T> intercept(Call<T> call, Supplier<CompletableFuture<T>> proceed) {
    return on ? faults.intercept(call, proceed) : proceed.get();
  }
}
