package io.stratus.cloudapi.decorate;

import static io.stratus.cloudapi.Operation.LOCK_ACQUIRE_INTENTION;

import io.stratus.cloudapi.LockGrant;
import io.stratus.cloudapi.SupportsIntentionLocks;
import java.util.concurrent.CompletableFuture;

/**
 * {@link InterceptedLocks} for locks with insert intentions: used exactly when the wrapped locks
 * implement {@link SupportsIntentionLocks}, so that the ability stays detectable by {@code
 * instanceof} through any number of decorators, and intentions meet the same metering, latency and
 * fault plans as the other acquires (as their own operation, {@link
 * io.stratus.cloudapi.Operation#LOCK_ACQUIRE_INTENTION}).
 */
final class InterceptedIntentionLocks extends InterceptedLocks implements SupportsIntentionLocks {
  private final SupportsIntentionLocks intentions;

  InterceptedIntentionLocks(
      SupportsIntentionLocks delegate, InterceptorChain chain, boolean closesDelegate) {
    super(delegate, chain, closesDelegate);
    this.intentions = delegate;
  }

  @Override
  public CompletableFuture<LockGrant> acquireIntention(String uri, String clientId) {
    return route(
        Call.of(LOCK_ACQUIRE_INTENTION, uri, 0), () -> intentions.acquireIntention(uri, clientId));
  }
}
