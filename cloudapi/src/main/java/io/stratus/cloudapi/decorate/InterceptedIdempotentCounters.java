package io.stratus.cloudapi.decorate;

import static io.stratus.cloudapi.Operation.COUNTER_INCREMENT;

import io.stratus.cloudapi.SupportsIdempotentIncrement;
import java.util.concurrent.CompletableFuture;

/**
 * {@link InterceptedCounters} for counters with idempotent increments: used exactly when the
 * wrapped counters implement {@link SupportsIdempotentIncrement}, so that the ability stays
 * detectable by {@code instanceof} through any number of decorators. An increment under a request
 * id is the same operation as a plain one ({@link io.stratus.cloudapi.Operation#COUNTER_INCREMENT})
 * to metering, latency and fault plans: one request to the same service.
 */
final class InterceptedIdempotentCounters extends InterceptedCounters
    implements SupportsIdempotentIncrement {
  private final SupportsIdempotentIncrement idempotent;

  InterceptedIdempotentCounters(
      SupportsIdempotentIncrement delegate, InterceptorChain chain, boolean closesDelegate) {
    super(delegate, chain, closesDelegate);
    this.idempotent = delegate;
  }

  @Override
  public CompletableFuture<Long> increment(String uri, String requestId) {
    return route(Call.of(COUNTER_INCREMENT, uri, 0), () -> idempotent.increment(uri, requestId));
  }
}
