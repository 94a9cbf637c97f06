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
final class InterceptedLocks implements LockService {
  private final LockService delegate;
  private final InterceptorChain chain;
  private final boolean closesDelegate;

  InterceptedLocks(LockService delegate, InterceptorChain chain, boolean closesDelegate) {
    this.delegate = delegate;
    this.chain = chain;
    this.closesDelegate = closesDelegate;
  }

  @Override
  public CompletableFuture<Void> setTimeout(String uriPrefix, Duration timeout) {
    return chain.invoke(
        Call.of(LOCK_SET_TIMEOUT, uriPrefix, 0), () -> delegate.setTimeout(uriPrefix, timeout));
  }

  @Override
  public CompletableFuture<LockGrant> acquireExclusive(String uri, String clientId) {
    return chain.invoke(
        Call.of(LOCK_ACQUIRE_EXCLUSIVE, uri, 0), () -> delegate.acquireExclusive(uri, clientId));
  }

  @Override
  public CompletableFuture<LockGrant> acquireShared(String uri, String clientId) {
    return chain.invoke(
        Call.of(LOCK_ACQUIRE_SHARED, uri, 0), () -> delegate.acquireShared(uri, clientId));
  }

  @Override
  public CompletableFuture<Boolean> release(String uri, String clientId) {
    return chain.invoke(Call.of(LOCK_RELEASE, uri, 0), () -> delegate.release(uri, clientId));
  }

  @Override
  public CompletableFuture<Duration> timeoutFor(String uri) {
    return chain.invoke(Call.of(LOCK_GET_TIMEOUT, uri, 0), () -> delegate.timeoutFor(uri));
  }

  @Override
  public void close() {
    if (closesDelegate) {
      delegate.close();
    }
  }

  @Override
  public String toString() {
    return "Intercepted(" + delegate + ")";
  }
}
