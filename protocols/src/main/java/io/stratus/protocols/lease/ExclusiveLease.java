package io.stratus.protocols.lease;

import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.LockGrant;
import io.stratus.cloudapi.LockService;
import io.stratus.cloudapi.decorate.SimulatedCrashException;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * One request for an exclusive lock of the lock service, and the lease it got: what every pass
 * that must run alone among all clients takes (a checkpoint of a pending-update queue or of a
 * snapshot tree, a pass over an ATOMIC queue, the recovery of the shared ATOMIC COMMIT queue), and
 * what a writer incarnation renews to show it is alive.
 *
 * <p>Why one class: each of those passes has to get the same things right, and each got them
 * right on its own, five times over:
 *
 * <ul>
 *   <li>the lease counts from when the request was <em>sent</em> ({@link LockGrant}): a slow reply
 *       shortens it, never lengthens it ({@link #deadline()});
 *   <li>the owner names one pass ({@link ExclusivePasses}): the lock service takes a second
 *       acquire by the same owner for a renewal, so an owner shared by two passes lets both in;
 *   <li>a pass that dies of a simulated crash releases nothing ({@link #run}): a dead process
 *       sends no release, and a test must see its lock lapse as a crashed client's does;
 *   <li>a release that fails is left to lapse ({@link #release()}): the lease ends by itself.
 * </ul>
 *
 * <p>Used by the one thread that runs the pass.
 */
public final class ExclusiveLease {
  private static final System.Logger LOG = System.getLogger(ExclusiveLease.class.getName());

  private final LockService locks;
  private final String uri;
  private final String owner;
  private final long sentAt;
  private final LockGrant grant;

  private ExclusiveLease(
      LockService locks, String uri, String owner, long sentAt, LockGrant grant) {
    this.locks = locks;
    this.uri = uri;
    this.owner = owner;
    this.sentAt = sentAt;
    this.grant = grant;
  }

  /**
   * Asks for the exclusive lock of {@code uri} as {@code owner}, noting on {@code clock} when the
   * request went out; {@link #held()} tells whether it was granted (or renewed, when {@code owner}
   * held it already).
   *
   * @throws CloudException when the lock service fails
   */
  public static ExclusiveLease acquire(LockService locks, Clock clock, String uri, String owner) {
    long sentAt = clock.millis();
    LockGrant grant = CloudFutures.await(locks.acquireExclusive(uri, owner));
    return new ExclusiveLease(locks, uri, owner, sentAt, grant);
  }

  /** Whether the lock was granted: false when another owner holds it. */
  public boolean held() {
    return grant.granted();
  }

  /** Who holds (or asked for) the lock. */
  public String owner() {
    return owner;
  }

  /** When the request was sent, in millis on the clock given to {@link #acquire}. */
  public long sentAt() {
    return sentAt;
  }

  /** The lock timeout that applies to the URI (the lease, when {@link #held()}). */
  public Duration validFor() {
    return grant.validFor();
  }

  /** When the lease ends, at the latest, for the holder: the request's sending plus the lease. */
  public long deadline() {
    return sentAt + grant.validFor().toMillis();
  }

  /**
   * Gives the lock back. A release the lock service fails is left alone: the lease lapses by
   * itself, and the next pass waits for that at most.
   */
  public void release() {
    try {
      CloudFutures.await(locks.release(uri, owner));
    } catch (CloudException e) {
      LOG.log(Level.DEBUG, "releasing the lock of " + uri + " failed; its lease lapses", e);
    }
  }

  /**
   * Runs the pass {@code body} under the lock, then {@code finish}, which ends the pass (hands back
   * what the pass holds, and releases this lock or lets it lapse): after {@code body} returns, and
   * also after it throws, before the exception goes on — unless it died of a {@link
   * SimulatedCrashException}. A dead process finishes nothing: its lock lapses with its lease.
   *
   * @throws IllegalStateException when the lock is not {@link #held()}
   */
  public <T> T run(Supplier<T> body, Runnable finish) {
    if (!held()) {
      throw new IllegalStateException("the lock of " + uri + " is held by another owner");
    }
    T result;
    try {
      result = body.get();
    } catch (SimulatedCrashException e) {
      throw e;
    } catch (RuntimeException | Error e) {
      finish.run();
      throw e;
    }
    finish.run();
    return result;
  }

  /** {@link #run(Supplier, Runnable)} with a finish that releases the lock. */
  public <T> T runThenRelease(Supplier<T> body) {
    return run(body, this::release);
  }
}
