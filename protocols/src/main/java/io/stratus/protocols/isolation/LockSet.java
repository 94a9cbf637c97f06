package io.stratus.protocols.isolation;

import io.stratus.TransactionConflictException;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.LockGrant;
import io.stratus.cloudapi.LockMode;
import io.stratus.cloudapi.LockService;
import io.stratus.cloudapi.SupportsIntentionLocks;
import io.stratus.cloudapi.SupportsLockStamps;
import io.stratus.cloudapi.SupportsLockStamps.StampedGrant;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The record locks one transaction holds, under an owner of its own (two transactions of one
 * handle never share a lock). Locks are requested in batches, every request of a batch at once;
 * a refused lock aborts the transaction at once — nobody waits, so nobody deadlocks (paper 000,
 * section 5.5).
 *
 * <p><b>Modes.</b> One mode is held per URI. A request for another mode than the one held asks for
 * both ({@link LockMode#and}: shared and intention make exclusive), as the lock service grants it;
 * an insert intention is asked for as an exclusive lock when the service lacks intentions
 * ({@link SupportsIntentionLocks}), which is stricter and so correct.
 *
 * <p><b>Leases.</b> A granted lock lapses at the moment its request was sent plus the timeout the
 * service reported ({@link LockGrant}); {@link #validUntilMillis()} is the earliest such moment of
 * all locks held, which a commit checks before it makes itself durable.
 *
 * <p><b>Stamps.</b> On a lock service with stamps ({@link SupportsLockStamps}), a shared grant
 * reports the stamp of its lock, and a committed transaction releases its exclusive locks with its
 * commit id as their stamp ({@link #releaseCommittedLater}); so a reader learns from the grant
 * the commit id of the record's last writer (see {@link LockedReads}). Without the ability no
 * stamp is ever reported.
 *
 * <p>A lock whose request failed with an unknown outcome may have been granted: it counts as held,
 * so that releasing the set releases it too. Used by one thread at a time, like its transaction.
 */
final class LockSet {
  private static final System.Logger LOG = System.getLogger(LockSet.class.getName());

  private final LockService locks;

  /** {@link #locks} with intentions, or null when the service lacks them. */
  private final @Nullable SupportsIntentionLocks intentions;

  /** How many times a release is sent at most ({@link #resend}). */
  private static final int RELEASE_SENDS = 3;

  /** {@link #locks} with stamps, or null when the service lacks them. */
  private final @Nullable SupportsLockStamps stamps;

  private final Clock clock;
  private final String owner;
  private final String transactionId;
  private final Map<String, LockMode> held = new LinkedHashMap<>();
  private final Consumer<CompletableFuture<?>> inFlight;
  private long validUntil = Long.MAX_VALUE;

  /**
   * @param inFlight told of every release sent without waiting, so that closing the handle can
   *     wait for them (a process that exits right after its last commit must not leave its locks
   *     to lapse)
   */
  LockSet(
      LockService locks,
      Clock clock,
      String owner,
      String transactionId,
      Consumer<CompletableFuture<?>> inFlight) {
    this.inFlight = inFlight;
    this.locks = locks;
    this.intentions = SupportsIntentionLocks.of(locks);
    this.stamps = SupportsLockStamps.of(locks);
    this.clock = clock;
    this.owner = owner;
    this.transactionId = transactionId;
  }

  /** Whether a lock on {@code uri} that gives at least what {@code mode} gives is held. */
  boolean holds(String uri, LockMode mode) {
    LockMode m = held.get(uri);
    return m != null && m.covers(mode);
  }

  /** The earliest moment (this clock) a held lock may lapse; {@code Long.MAX_VALUE} if none. */
  long validUntilMillis() {
    return validUntil;
  }

  /**
   * Acquires {@code mode} on every URI of {@code uris} not yet held that strongly (a shared lock
   * held is upgraded to an exclusive one, and so is one held in the other of shared and
   * intention), all requests at once.
   *
   * @return the stamps reported with the shared grants of this call, by URI: absent for a URI
   *     held already (not asked for), granted in another mode, or whose stamp is unknown
   * @throws TransactionConflictException when another transaction holds a conflicting lock on
   *     one of them (the locks granted meanwhile are held; the caller ends the transaction)
   * @throws CloudException when a request failed (likewise)
   */
  Map<String, Long> acquire(Collection<String> uris, LockMode mode, String what) {
    Map<String, LockMode> modes = new LinkedHashMap<>();
    for (String u : uris) {
      modes.put(u, mode);
    }
    return acquire(modes, what);
  }

  /**
   * {@link #acquire(Collection, LockMode, String)} with a mode per URI, all requests at once.
   */
  Map<String, Long> acquire(Map<String, LockMode> modes, String what) {
    Map<String, LockMode> asks = new LinkedHashMap<>();
    for (Map.Entry<String, LockMode> e : modes.entrySet()) {
      LockMode h = held.get(e.getKey());
      if (h == null || !h.covers(e.getValue())) {
        LockMode ask = h == null ? e.getValue() : h.and(e.getValue());
        asks.put(
            e.getKey(), ask == LockMode.INTENTION && intentions == null ? LockMode.EXCLUSIVE : ask);
      }
    }
    Map<String, Long> stamped = new HashMap<>();
    if (asks.isEmpty()) {
      return stamped;
    }
    List<String> order = new ArrayList<>(asks.keySet());
    long sent = clock.millis();
    List<CompletableFuture<StampedGrant>> grants = new ArrayList<>(order.size());
    for (Map.Entry<String, LockMode> a : asks.entrySet()) { // in the order of `order`
      grants.add(request(a.getKey(), a.getValue()));
    }
    String refused = null;
    CloudException failure = null;
    for (int i = 0; i < order.size(); i++) {
      String u = order.get(i);
      try {
        StampedGrant sg = CloudFutures.await(grants.get(i));
        LockGrant g = sg.grant();
        if (g.granted()) {
          held.put(u, g.mode()); // the mode the service holds for this owner now
          validUntil = Math.min(validUntil, sent + g.validFor().toMillis());
          sg.stamp().ifPresent(s -> stamped.put(u, s));
        } else if (refused == null) {
          refused = u;
        }
      } catch (CloudException e) {
        if (failure == null) {
          failure = e;
        }
        held.putIfAbsent(u, asks.get(u)); // it may have been granted: release it too
        validUntil = Math.min(validUntil, sent);
      }
    }
    if (refused != null) {
      throw new TransactionConflictException(
          "transaction "
              + transactionId
              + ": a concurrent"
              + " transaction holds a lock that conflicts with "
              + what
              + " ("
              + refused
              + ")");
    }
    if (failure != null) {
      throw failure;
    }
    return stamped;
  }

  private CompletableFuture<StampedGrant> request(String uri, LockMode mode) {
    if (mode == LockMode.SHARED && stamps != null) {
      return stamps.acquireSharedStamped(uri, owner);
    }
    CompletableFuture<LockGrant> grant =
        switch (mode) {
          case SHARED -> locks.acquireShared(uri, owner);
          case EXCLUSIVE -> locks.acquireExclusive(uri, owner);
          // acquire asks an exclusive lock instead when the service lacks intentions.
          case INTENTION ->
              intentions == null
                  ? locks.acquireExclusive(uri, owner)
                  : intentions.acquireIntention(uri, owner);
        };
    return grant.thenApply(g -> new StampedGrant(g, OptionalLong.empty()));
  }

  /**
   * Releases every lock and waits for the replies (a release still failing after {@link
   * #RELEASE_SENDS} sends lapses).
   */
  void releaseNow() {
    List<CompletableFuture<Boolean>> releases = new ArrayList<>(held.size());
    for (String u : held.keySet()) {
      releases.add(resend(() -> locks.release(u, owner), RELEASE_SENDS));
    }
    held.clear();
    for (CompletableFuture<Boolean> r : releases) {
      try {
        CloudFutures.await(r);
      } catch (CloudException e) {
        LOG.log(Level.DEBUG, "releasing a record lock failed; it lapses", e);
      }
    }
  }

  /**
   * Releases every lock without waiting for the replies (a release still failing after {@link
   * #RELEASE_SENDS} sends lapses).
   */
  void releaseLater() {
    release(OptionalLong.empty());
  }

  /**
   * Releases every lock of the commit that took {@code commitId} without waiting for the replies
   * (a release still failing after {@link #RELEASE_SENDS} sends lapses), once the commit is
   * archived and its id validated: the exclusive ones with the commit id as their stamp, where
   * the service keeps stamps. The stamp then tells
   * a reader of such a record that every commit that wrote it is at most {@code commitId}.
   */
  void releaseCommittedLater(long commitId) {
    release(OptionalLong.of(commitId));
  }

  private void release(OptionalLong commitId) {
    for (Map.Entry<String, LockMode> h : held.entrySet()) {
      String u = h.getKey();
      SupportsLockStamps stamping = stamps;
      Supplier<CompletableFuture<Boolean>> send =
          stamping != null && commitId.isPresent() && h.getValue() == LockMode.EXCLUSIVE
              ? () -> stamping.releaseStamped(u, owner, commitId.getAsLong())
              : () -> locks.release(u, owner);
      CompletableFuture<Boolean> release = resend(send, RELEASE_SENDS);
      inFlight.accept(
          release.whenComplete(
              (released, failure) -> {
                if (failure != null) {
                  LOG.log(Level.DEBUG, "releasing a record lock failed; it lapses", failure);
                }
              }));
    }
    held.clear();
  }

  /**
   * Sends a release again when it failed, up to {@code sends} times in all. Releasing is
   * idempotent (a lock the owner no longer holds releases nothing), so a refused or lost release
   * is safe to repeat; one that stays failed leaves the lock to lapse, which holds the record from
   * every other transaction for the rest of its lease.
   */
  private static CompletableFuture<Boolean> resend(
      Supplier<CompletableFuture<Boolean>> send, int sends) {
    return send.get()
        .handle(
            (released, failure) ->
                failure == null || sends <= 1
                    ? (failure == null
                        ? CompletableFuture.completedFuture(released)
                        : CompletableFuture.<Boolean>failedFuture(failure))
                    : resend(send, sends - 1))
        .thenCompose(f -> f);
  }

  /**
   * A lock set that holds what this one holds, under the same owner and leases; this one then
   * holds nothing (so ending its transaction releases nothing). For a committed transaction whose
   * locks must outlive it.
   */
  LockSet handOver() {
    LockSet other = new LockSet(locks, clock, owner, transactionId, inFlight);
    other.held.putAll(held);
    other.validUntil = validUntil;
    held.clear();
    return other;
  }

  /**
   * Forgets the locks without releasing them: they lapse by their lease (a commit whose record
   * may have arrived keeps others away until recovery has applied it).
   */
  void leaveToLapse() {
    held.clear();
  }
}
