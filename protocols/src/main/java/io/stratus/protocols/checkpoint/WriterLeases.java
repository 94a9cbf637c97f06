package io.stratus.protocols.checkpoint;

import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.LockGrant;
import io.stratus.cloudapi.LockService;
import io.stratus.protocols.log.WriterIds;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Liveness of monotonic-writes incarnations through the lock service: an open incarnation holds
 * an exclusive lease on {@code <db>/writers/<incarnation>}, renews it (from its checkpoints, and
 * from a timer so an idle handle stays alive), and releases it at a graceful close; a checkpoint
 * that considers retiring a chain asks whether that lease is free ({@link #probe}).
 *
 * <p>A probe takes a shared lock on the writer's URI and gives it back at once: refused means the
 * lease is held ({@link State#ALIVE}); any failure (a lock service refusing every request after a
 * restart, a network error) answers {@link State#UNKNOWN}; granted means the lease is free now.
 * Callers treat every answer but {@link State#DEAD} as alive.
 *
 * <p><b>Why a free lease is not yet a dead writer.</b> A lock-service restart drops every lease,
 * and the service then refuses every acquire, renewals included, until the longest timeout it was
 * ever configured with has passed ({@link io.stratus.cloudapi.LockService}). When it grants again,
 * the lease of every live writer is free until that writer's next renewal: a probe in that moment
 * would take a live writer for dead, retire its chains, and its later records would wait forever
 * or be skipped as leftovers of a dead writer. So a probe answers {@link State#DEAD} only when
 * this handle found the lease free at a probe at least a {@linkplain #deathTime() death time}
 * ({@link #DEATH_FACTOR} lock timeouts) before and at every probe since; a probe that finds it
 * held, or fails, starts the count again. A live writer renews many times within a death time
 * (the lease is one lock timeout, renewed once half of it has passed), so only a writer that
 * stopped renewing, or closed, stays free that long.
 *
 * <p><b>Why the lease is one lock timeout, not a death time.</b> Whatever timeout the lease's
 * URI prefix carries becomes the restart window of the whole lock service, in which every
 * checkpoint lock and atomic-log lock of every client is refused; a lease of ten lock timeouts
 * made each restart stop all checkpoints for ten lock timeouts, long enough for handles that
 * replaced crashed ones to start on pages missing what the crashed ones had committed. Thread-safe.
 */
public final class WriterLeases {
  private static final System.Logger LOG = System.getLogger(WriterLeases.class.getName());
  /** A writer is dead once its lease was found free for this many checkpoint lock timeouts. */
  static final int DEATH_FACTOR = 10;
  /**
   * How many incarnations a handle remembers as found free; beyond it the memory starts over,
   * which only delays retirements.
   */
  static final int FREE_KEPT = 4096;

  /** What a probe found out about an incarnation. */
  public enum State {
    /** Its lease is held. */
    ALIVE,
    /** Its lease was found free at every probe for a whole death time: closed, or gone. */
    DEAD,
    /**
     * Its lease is free now, but was not found free for a whole death time (a live writer's lease
     * is free for a moment after a lock-service restart): counts as alive.
     */
    LAPSED,
    /** The probe failed: counts as alive. */
    UNKNOWN
  }

  private final LockService locks;
  private final String prefix;
  private final String prober;
  private final Clock clock;
  private final Duration leaseTime;
  private final Duration deathTime;
  /**
   * Per incarnation whose lease the last probe found free: when a probe first found it free
   * (millis on this handle's clock, taken before the request).
   */
  private final ConcurrentHashMap<String, Long> freeSince = new ConcurrentHashMap<>();
  /** The incarnation this handle writes as; null while it holds none. */
  private volatile String own;
  /** When this handle next renews its own lease (millis on its clock). */
  private volatile long renewAt = Long.MAX_VALUE;
  /**
   * Asks {@link #renewIfDue} now and then while the lease is held, so that a handle that is open
   * but idle (no commits, no checkpoints: a quiet night) is never taken for dead and its chains
   * retired under it; null while no lease is held.
   */
  private ScheduledExecutorService renewer;

  public WriterLeases(LockService locks, String databaseUri, String clientId, Clock clock,
      Duration lockTimeout) {
    this.locks = locks;
    this.prefix = databaseUri + "/writers/";
    this.prober = clientId + "/probe";
    this.clock = clock;
    this.leaseTime = lockTimeout;
    this.deathTime = lockTimeout.multipliedBy(DEATH_FACTOR);
  }

  /** How long a writer lease lasts: one checkpoint lock timeout. */
  public Duration leaseTime() {
    return leaseTime;
  }

  /** How long a lease must be found free before its writer counts as dead. */
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
    ScheduledExecutorService t = Executors.newSingleThreadScheduledExecutor(r -> {
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
      LockGrant g = CloudFutures.await(locks.acquireExclusive(prefix + me, me));
      if (g.granted()) {
        renewAt = now + g.validFor().toMillis() / 2;
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

  /**
   * Whether the incarnation of {@code writer} is alive: {@link State#DEAD} only once its lease was
   * found free at every probe of this handle for a whole death time.
   */
  public State probe(String writer) {
    String incarnation = WriterIds.incarnationOf(writer);
    if (incarnation.equals(own)) {
      return State.ALIVE;
    }
    String uri = prefix + incarnation;
    long sentAt = clock.millis();
    try {
      LockGrant g = CloudFutures.await(locks.acquireShared(uri, prober));
      if (!g.granted()) {
        freeSince.remove(incarnation);
        return State.ALIVE;
      }
      try {
        CloudFutures.await(locks.release(uri, prober));
      } catch (CloudException e) {
        // the probe's lock lapses by itself
      }
    } catch (CloudException e) {
      // Refused as unavailable: the service may have just restarted, after which live writers'
      // leases are free for a moment. Whatever was seen free before proves nothing now.
      freeSince.remove(incarnation);
      return State.UNKNOWN;
    }
    if (freeSince.size() >= FREE_KEPT && !freeSince.containsKey(incarnation)) {
      freeSince.clear();
    }
    long first = freeSince.merge(incarnation, sentAt, Math::min);
    return sentAt - first >= deathTime.toMillis() ? State.DEAD : State.LAPSED;
  }
}
