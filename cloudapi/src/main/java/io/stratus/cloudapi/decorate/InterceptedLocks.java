package io.stratus.cloudapi.decorate;

import static io.stratus.cloudapi.Operation.LOCK_ACQUIRE_EXCLUSIVE;
import static io.stratus.cloudapi.Operation.LOCK_ACQUIRE_SHARED;
import static io.stratus.cloudapi.Operation.LOCK_GET_TIMEOUT;
import static io.stratus.cloudapi.Operation.LOCK_RELEASE;
import static io.stratus.cloudapi.Operation.LOCK_SET_TIMEOUT;

import io.stratus.cloudapi.LockGrant;
import io.stratus.cloudapi.LockService;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/** Locks whose every call goes through an {@link InterceptorChain}. */
class InterceptedLocks extends InterceptedService<LockService> implements LockService {
  InterceptedLocks(LockService delegate, InterceptorChain chain, boolean closesDelegate) {
    super(delegate, chain, closesDelegate ? delegate::close : null);
  }

  @Override
  public CompletableFuture<Void> setTimeout(String uriPrefix, Duration timeout) {
    return route(
        Call.of(LOCK_SET_TIMEOUT, uriPrefix, 0), () -> delegate.setTimeout(uriPrefix, timeout));
  }

  @Override
  public CompletableFuture<LockGrant> acquireExclusive(String uri, String clientId) {
    return route(
        Call.of(LOCK_ACQUIRE_EXCLUSIVE, uri, 0), () -> delegate.acquireExclusive(uri, clientId));
  }

  @Override
  public CompletableFuture<LockGrant> acquireShared(String uri, String clientId) {
    return route(Call.of(LOCK_ACQUIRE_SHARED, uri, 0), () -> delegate.acquireShared(uri, clientId));
  }

  @Override
  public CompletableFuture<Boolean> release(String uri, String clientId) {
    return route(Call.of(LOCK_RELEASE, uri, 0), () -> delegate.release(uri, clientId));
  }

  @Override
  public CompletableFuture<Duration> timeoutFor(String uri) {
    return route(Call.of(LOCK_GET_TIMEOUT, uri, 0), () -> delegate.timeoutFor(uri));
  }
}
