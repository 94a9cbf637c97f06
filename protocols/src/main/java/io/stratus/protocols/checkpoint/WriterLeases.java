package io.stratus.protocols.checkpoint;

import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.LockGrant;
import io.stratus.cloudapi.LockService;
import io.stratus.protocols.log.WriterIds;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Liveness of monotonic-writes incarnations through the lock service: an open incarnation holds
 * an exclusive lease on {@code <db>/writers/<incarnation>}, renews it (from its checkpoints, and
 * from a timer so an idle handle stays alive), and releases it at a graceful close; a checkpoint that considers retiring a chain
 * asks whether that lease is free ({@link #probe}).
 *
 * <p>A probe takes a shared lock on the writer's URI and gives it back at once: granted means no
 * one holds the lease (the incarnation closed, or its process stopped renewing for a whole lease);
 * refused means it is held; any failure (a lock service refusing every request after a restart,
 * a network error) answers {@link State#UNKNOWN}, which callers treat as alive. The writer lease
 * is {@link #LEASE_FACTOR} lock timeouts long and renewed once half of it has passed, so a probe
 * of a handle that runs checkpoints never finds it free. Thread-safe.
 */
public final class WriterLeases {
  private static final System.Logger LOG = System.getLogger(WriterLeases.class.getName());
  /** The writer lease is this many checkpoint lock timeouts long. */
  static final int LEASE_FACTOR = 10;

  /** What a probe found out about an incarnation. */
  public enum State { ALIVE, DEAD, UNKNOWN }

  private final LockService locks;
  private final String prefix;
  private final String prober;
  private final Clock clock;
  private final Duration leaseTime;
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
    this.leaseTime = lockTimeout.multipliedBy(LEASE_FACTOR);
  }

  /** How long a writer lease lasts. */
  public Duration leaseTime() {
    return leaseTime;
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
      return State.DEAD;
    } catch (CloudException e) {
      return State.UNKNOWN;
    }
  }
}
