package io.stratus.cloudapi.decorate;

import static io.stratus.cloudapi.Operation.COUNTER_HIGHEST_VALIDATED;
import static io.stratus.cloudapi.Operation.COUNTER_INCREMENT;
import static io.stratus.cloudapi.Operation.COUNTER_SET_TIMEOUT;
import static io.stratus.cloudapi.Operation.COUNTER_VALIDATE;

import io.stratus.cloudapi.CounterService;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/** Counters whose every call goes through an {@link InterceptorChain}. */
class InterceptedCounters extends InterceptedService<CounterService> implements CounterService {
  InterceptedCounters(CounterService delegate, InterceptorChain chain, boolean closesDelegate) {
    super(delegate, chain, closesDelegate ? delegate::close : null);
  }

  @Override
  public CompletableFuture<Void> setTimeout(String uriPrefix, Duration timeout) {
    return route(
        Call.of(COUNTER_SET_TIMEOUT, uriPrefix, 0), () -> delegate.setTimeout(uriPrefix, timeout));
  }

  @Override
  public CompletableFuture<Long> increment(String uri) {
    return route(Call.of(COUNTER_INCREMENT, uri, 0), () -> delegate.increment(uri));
  }

  @Override
  public CompletableFuture<Void> validate(String uri, long value) {
    return route(Call.of(COUNTER_VALIDATE, uri, 0), () -> delegate.validate(uri, value));
  }

  @Override
  public CompletableFuture<Long> highestValidated(String uri) {
    return route(Call.of(COUNTER_HIGHEST_VALIDATED, uri, 0), () -> delegate.highestValidated(uri));
  }
}
