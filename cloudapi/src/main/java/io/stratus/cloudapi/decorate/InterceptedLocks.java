package io.stratus.cloudapi.decorate;

import static io.stratus.cloudapi.Operation.LOCK_ACQUIRE_EXCLUSIVE;
import static io.stratus.cloudapi.Operation.LOCK_ACQUIRE_INTENTION;
import static io.stratus.cloudapi.Operation.LOCK_ACQUIRE_SHARED;
import static io.stratus.cloudapi.Operation.LOCK_GET_TIMEOUT;
import static io.stratus.cloudapi.Operation.LOCK_RELEASE;
import static io.stratus.cloudapi.Operation.LOCK_SET_TIMEOUT;

import io.stratus.cloudapi.LockGrant;
import io.stratus.cloudapi.LockService;
import io.stratus.cloudapi.SupportsIntentionLocks;
import io.stratus.cloudapi.SupportsLockStamps;
import io.stratus.cloudapi.SupportsLockStamps.StampedGrant;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * Locks whose every call goes through an {@link InterceptorChain}.
 *
 * <p>Optional abilities: {@link #of} picks the subclass that implements exactly the abilities of
 * the wrapped locks ({@link SupportsIntentionLocks}, {@link SupportsLockStamps}, both or neither),
 * so that they stay detectable by {@code instanceof} through any number of decorators. The methods
 * of both abilities are written once, here, and routed like every call; intentions as their own
 * operation ({@link io.stratus.cloudapi.Operation#LOCK_ACQUIRE_INTENTION}), a stamped acquire or
 * release as the plain one (the same request with a number more). A subclass only declares the
 * interfaces whose methods it thereby has; they are called only through those interfaces, so the
 * casts to the wrapped locks' abilities hold.
 */
class InterceptedLocks extends InterceptedService<LockService> implements LockService {
  InterceptedLocks(LockService delegate, InterceptorChain chain, boolean closesDelegate) {
    super(delegate, chain, closesDelegate ? delegate::close : null);
  }

  /** {@code locks} intercepted, with exactly their optional abilities. */
  static LockService of(LockService locks, InterceptorChain chain, boolean closesDelegate) {
    boolean intentions = locks instanceof SupportsIntentionLocks;
    boolean stamps = locks instanceof SupportsLockStamps;
    if (intentions && stamps) {
      return new Full(locks, chain, closesDelegate);
    }
    if (intentions) {
      return new WithIntentions(locks, chain, closesDelegate);
    }
    if (stamps) {
      return new WithStamps(locks, chain, closesDelegate);
    }
    return new InterceptedLocks(locks, chain, closesDelegate);
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

  /** {@link SupportsIntentionLocks#acquireIntention}, for the subclasses with the ability. */
  public CompletableFuture<LockGrant> acquireIntention(String uri, String clientId) {
    return route(
        Call.of(LOCK_ACQUIRE_INTENTION, uri, 0),
        () -> ((SupportsIntentionLocks) delegate).acquireIntention(uri, clientId));
  }

  /** {@link SupportsLockStamps#acquireSharedStamped}, for the subclasses with the ability. */
  public CompletableFuture<StampedGrant> acquireSharedStamped(String uri, String clientId) {
    return route(
        Call.of(LOCK_ACQUIRE_SHARED, uri, 0),
        () -> ((SupportsLockStamps) delegate).acquireSharedStamped(uri, clientId));
  }

  /** {@link SupportsLockStamps#releaseStamped}, for the subclasses with the ability. */
  public CompletableFuture<Boolean> releaseStamped(String uri, String clientId, long stamp) {
    return route(
        Call.of(LOCK_RELEASE, uri, 0),
        () -> ((SupportsLockStamps) delegate).releaseStamped(uri, clientId, stamp));
  }

  /** Locks with insert intentions (and without stamps). */
  private static final class WithIntentions extends InterceptedLocks
      implements SupportsIntentionLocks {
    WithIntentions(LockService delegate, InterceptorChain chain, boolean closesDelegate) {
      super(delegate, chain, closesDelegate);
    }
  }

  /** Locks with stamps (and without insert intentions). */
  private static final class WithStamps extends InterceptedLocks implements SupportsLockStamps {
    WithStamps(LockService delegate, InterceptorChain chain, boolean closesDelegate) {
      super(delegate, chain, closesDelegate);
    }
  }

  /** Locks with both abilities. */
  private static final class Full extends InterceptedLocks
      implements SupportsIntentionLocks, SupportsLockStamps {
    Full(LockService delegate, InterceptorChain chain, boolean closesDelegate) {
      super(delegate, chain, closesDelegate);
    }
  }
}
