package io.stratus.protocols.checkpoint;

import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.LockGrant;
import io.stratus.cloudapi.LockService;
import io.stratus.protocols.StorageLayout;
import io.stratus.protocols.lease.ExclusiveLease;
import io.stratus.protocols.log.WriterIds;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * Liveness of monotonic-writes incarnations through the lock service: an open incarnation holds
 * an exclusive lease on {@code <db>/writers/<incarnation>}, renews it (from its checkpoints, and
 * from a timer so an idle handle stays alive), and releases it at a graceful close; a checkpoint
 * that considers retiring a chain asks whether that lease is free ({@link #probe}).
 *
 * <p>A probe takes a shared lock on the writer's URI and gives it back at once: refused means the
 * lease is held ({@link State#ALIVE}); granted means it is free now ({@link State#FREE}); any
 * failure (a lock service refusing every request after a restart, a network error) answers
 * {@link State#UNKNOWN}, which callers treat as alive.
 *
 * <p><b>A free lease is not yet a dead writer.</b> A lock-service restart drops every lease, and
 * the service then refuses every acquire, renewals included, until the longest timeout it was
 * ever configured with has passed ({@link io.stratus.cloudapi.LockService}). When it grants
 * again, the lease of every live writer is free until that writer's next renewal: a probe in that
 * moment finds a live writer's lease free. So one probe never decides: {@link WriteChains} retires
 * a chain only once its writer's lease was found free at probes a whole {@linkplain #deathTime()
 * death time} ({@link #DEATH_FACTOR} lock timeouts) apart with none finding it held or failing in
 * between, and keeps that first sighting in the page's header, so whichever client checkpoints
 * next continues the count. A live writer renews many times within a death time (the lease is one
 * lock timeout, renewed once half of it has passed), so only a writer that stopped renewing, or
 * closed, is found free that long.
 *
 * <p><b>Why the lease is one lock timeout, not a death time.</b> Whatever timeout the lease's
 * URI prefix carries becomes the restart window of the whole lock service, in which every
 * checkpoint lock and atomic-log lock of every client is refused; a lease of ten lock timeouts
 * made each restart stop all checkpoints for ten lock timeouts, long enough for handles that
 * replaced crashed ones to start on pages missing what the crashed ones had committed.
 * Thread-safe.
 */
public final class WriterLeases {
  private static final System.Logger LOG = System.getLogger(WriterLeases.class.getName());

  /** A writer is dead once its lease was found free for this many checkpoint lock timeouts. */
  static final int DEATH_FACTOR = 10;

  /** What a probe found out about an incarnation's lease, now. */
  public enum State {
    /** The lease is held. */
    ALIVE,
    /**
     * The lease is free: the incarnation closed or stopped renewing, or the lock service
     * restarted a moment ago and its renewal has not come yet.
     */
    FREE,
    /** The probe failed: counts as alive. */
    UNKNOWN
  }

  private final LockService locks;
  private final String prefix;
  private final String prober;
  private final Clock clock;
  private final Duration leaseTime;
  private final Duration deathTime;

  /** The incarnation this handle writes as; null while it holds none. */
  private volatile @Nullable String own;

  /** When this handle next renews its own lease (millis on its clock). */
  private volatile long renewAt = Long.MAX_VALUE;

  /**
   * Asks {@link #renewIfDue} now and then while the lease is held, so that a handle that is open
   * but idle (no commits, no checkpoints: a quiet night) is never taken for dead and its chains
   * retired under it; null while no lease is held.
   */
  private volatile @Nullable ScheduledExecutorService renewer;

  public WriterLeases(
      LockService locks, String databaseUri, String clientId, Clock clock, Duration lockTimeout) {
    this.locks = locks;
    this.prefix = new StorageLayout(databaseUri).writerLeasePrefix();
    this.prober = clientId + "/probe";
    this.clock = clock;
    this.leaseTime = lockTimeout;
    this.deathTime = lockTimeout.multipliedBy(DEATH_FACTOR);
  }

  /** How long a writer lease lasts: one checkpoint lock timeout. */
  public Duration leaseTime() {
    return leaseTime;
  }

  /** How long a lease must be found free, probe after probe, before its writer counts as dead. */
  public Duration deathTime() {
    return deathTime;
  }

  /** Takes the lease of {@code incarnation}, this handle's own, and keeps it from now on. */
  public void hold(String incarnation) {
    try {
      CloudFutures.await(locks.setTimeout(prefix, leaseTime));
    } catch (CloudException e) {
      LOG.log(Level.WARNING, "could not set the writer lease timeout: " + e.getMessage());
    }
    own = incarnation;
    renewAt = Long.MIN_VALUE;
    renewIfDue();
    // Checks every eighth of the lease; the clock decides whether a renewal is due, so a test's
    // manual clock keeps control. A failure other than a cloud one (the client killed in a test)
    // ends the task, as death ends a real process's renewals.
    long period = Math.max(1_000, leaseTime.toMillis() / 8);
    ScheduledExecutorService t =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread th = new Thread(r, "stratus-writer-lease-" + incarnation);
              th.setDaemon(true);
              return th;
            });
    t.scheduleWithFixedDelay(this::renewIfDue, period, period, TimeUnit.MILLISECONDS);
    renewer = t;
  }

  /** Renews this handle's lease when half of it has passed (no request otherwise). */
  public void renewIfDue() {
    String me = own;
    long now = clock.millis();
    if (me == null || now < renewAt) {
      return;
    }
    try {
      ExclusiveLease lease = ExclusiveLease.acquire(locks, clock, prefix + me, me);
      if (lease.held()) {
        renewAt = lease.sentAt() + lease.validFor().toMillis() / 2;
      } else {
        // A probe holds it for a moment: try again on the next occasion.
        LOG.log(Level.DEBUG, "writer lease of " + me + " refused; retried later");
      }
    } catch (CloudException e) {
      LOG.log(Level.WARNING, "could not renew the writer lease of " + me + ": " + e.getMessage());
    }
  }

  /** Gives this handle's lease back (a graceful close). */
  public void release() {
    String me = own;
    own = null;
    renewAt = Long.MAX_VALUE;
    ScheduledExecutorService t = renewer;
    renewer = null;
    if (t != null) {
      t.shutdownNow();
    }
    if (me == null) {
      return;
    }
    try {
      CloudFutures.await(locks.release(prefix + me, me));
    } catch (RuntimeException e) {
      // Best effort, whatever went wrong (a dead connection too): the lease lapses by itself.
    }
  }

  /** Whether the incarnation of {@code writer} holds its lease now. */
  public State probe(String writer) {
    String incarnation = WriterIds.incarnationOf(writer);
    if (incarnation.equals(own)) {
      return State.ALIVE;
    }
    String uri = prefix + incarnation;
    try {
      LockGrant g = CloudFutures.await(locks.acquireShared(uri, prober));
      if (!g.granted()) {
        return State.ALIVE;
      }
      try {
        CloudFutures.await(locks.release(uri, prober));
      } catch (CloudException e) {
        // the probe's lock lapses by itself
      }
      return State.FREE;
    } catch (CloudException e) {
      return State.UNKNOWN;
    }
  }
}
