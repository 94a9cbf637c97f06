package io.stratus.protocols.lease;

import io.stratus.cloudapi.LockService;
import java.time.Clock;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The passes of one kind that this process runs, each under an owner of its own: {@code
 * <ownerPrefix><n>}, {@code n} counting the passes. The lock service takes a second acquire by an
 * owner that holds the lock for a renewal; with one owner for all passes, a pass that began while
 * another (of this process, or an earlier one whose lease had not ended) held the lock was let in
 * beside it.
 *
 * <p>Thread-safe.
 */
public final class ExclusivePasses {
  private final LockService locks;
  private final Clock clock;
  private final String ownerPrefix;
  private final AtomicLong passes = new AtomicLong();

  /**
   * @param ownerPrefix what every owner of these passes starts with; it must differ from every
   *     other process's (a client id alone does not: a restarted process may reuse it)
   */
  public ExclusivePasses(LockService locks, Clock clock, String ownerPrefix) {
    this.locks = locks;
    this.clock = clock;
    this.ownerPrefix = ownerPrefix;
  }

  /**
   * Passes whose owners are {@code <clientId>/<nonce>/<n>}: the nonce, drawn here, tells this
   * process's owners from those of a restarted process with the same client id.
   */
  public static ExclusivePasses ofProcess(LockService locks, Clock clock, String clientId) {
    return new ExclusivePasses(
        locks, clock, clientId + "/" + UUID.randomUUID().toString().substring(0, 8) + "/");
  }

  /**
   * Asks for the exclusive lock of {@code uri} for a new pass, under the pass's own owner.
   *
   * @throws io.stratus.cloudapi.CloudException when the lock service fails
   */
  public ExclusiveLease acquire(String uri) {
    return ExclusiveLease.acquire(locks, clock, uri, ownerPrefix + passes.incrementAndGet());
  }
}
