package io.stratus.cloudapi.inprocess;

import io.stratus.cloudapi.BadRequestException;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.CloudLimits;
import io.stratus.cloudapi.LockGrant;
import io.stratus.cloudapi.LockMode;
import io.stratus.cloudapi.SupportsIntentionLocks;
import io.stratus.cloudapi.SupportsLockStamps;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The lock service with leases of paper 000, sections 2.3.5 and 6.5, as one fail-over server in
 * memory: shared, exclusive and insert-intention locks ({@link SupportsIntentionLocks}) per URI,
 * held by client ids, lapsing after the timeout of the URI's longest configured prefix, with the
 * stamps of {@link SupportsLockStamps}.
 *
 * <p>Invariants and why:
 *
 * <ul>
 *   <li><b>Leases are judged by the clock, never by a timer.</b> Each holder records the instant
 *       its lease ends (grant time plus the URI's timeout at that grant); a holder whose end is not
 *       after now is treated as absent by every call, and dropped when its URI is next touched or
 *       by an occasional sweep. So a {@code ManualClock} fully controls expiry, and nothing runs
 *       in the background.
 *   <li><b>One URI, one critical section.</b> Every decision about a URI runs inside {@link
 *       ConcurrentHashMap#compute} on that URI's entry, so grants on one URI are serialized while
 *       different URIs proceed in parallel.
 *   <li><b>Restarts are atomic.</b> Calls that read or change locks are admitted by the {@link
 *       RefusalWindow}, which {@link #restart()} closes, so no call straddles a restart. After it,
 *       acquires are refused until the restart time plus the longest timeout ever configured: every
 *       lease granted before ended by then, which is the paper's whole safety argument.
 *       Configured timeouts and that maximum survive restarts (the paper keeps them persistently,
 *       see {@link PrefixTimeouts}).
 *   <li><b>Stamps are changed only inside their URI's compute</b> (a writer's grant clears one, an
 *       exclusive release sets it), so a shared grant reads the stamp its decision saw. A URI
 *       without an entry is untouched, stamp 0, only while {@link #stampsComplete}: a restart, or
 *       more than {@link #stampsKept} entries, forgets every entry and turns that off for good
 *       (every stamp unknown until set again), which is the one way to forget that never reports
 *       a wrong stamp.
 * </ul>
 *
 * <p>Thread-safe. Every call completes its future before it returns; bad input fails the future.
 */
final class InProcessLocks implements SupportsIntentionLocks, SupportsLockStamps {
  /** Stamp entries kept at most by default; beyond, all are forgotten (every stamp unknown). */
  static final int STAMPS_KEPT = 1 << 20;

  /** The entry of a URI whose stamp is unknown. */
  private static final long UNKNOWN = -1;

  private final CloudLimits limits;
  private final PrefixTimeouts timeouts;

  /** Admits every call that looks at locks; closed for a while by {@link #restart()}. */
  private final RefusalWindow window;

  /** URI to (client id to holder); a map is only touched inside compute on its URI. */
  private final ConcurrentHashMap<String, Map<String, Holder>> locks = new ConcurrentHashMap<>();

  /**
   * URI to its stamp, or {@link #UNKNOWN}, for every URI a writer held since the stamps were
   * complete; an entry is only touched inside the compute of its URI in {@link #locks}.
   */
  private final ConcurrentHashMap<String, Long> stamps = new ConcurrentHashMap<>();

  /** Whether a URI without a stamp entry is untouched (stamp 0), else unknown. */
  private volatile boolean stampsComplete = true;

  /** Stamp entries kept at most; beyond, all are forgotten. */
  private final int stampsKept;

  /** Calls since the last sweep of lapsed leases. */
  private final AtomicInteger callsSinceSweep = new AtomicInteger();

  InProcessLocks(Clock clock, CloudLimits limits, Duration defaultTimeout) {
    this(clock, limits, defaultTimeout, STAMPS_KEPT);
  }

  /** With at most {@code stampsKept} stamp entries (a test's small bound). */
  InProcessLocks(Clock clock, CloudLimits limits, Duration defaultTimeout, int stampsKept) {
    this.stampsKept = stampsKept;
    this.limits = Objects.requireNonNull(limits, "limits");
    this.timeouts = new PrefixTimeouts("lock", defaultTimeout);
    this.window =
        new RefusalWindow(clock, timeouts, "the lock service restarted and refuses acquires");
  }

  /**
   * Simulates a crash and fail-over: every lock is lost, and acquires are refused for the longest
   * timeout ever configured, measured from now.
   */
  void restart() {
    window.restart(
        () -> {
          locks.clear();
          forgetStamps();
        });
  }

  @Override
  public CompletableFuture<Void> setTimeout(String uriPrefix, Duration timeout) {
    return call(
        () -> {
          limits.checkPrefix(uriPrefix);
          timeouts.set(uriPrefix, timeout);
          return null;
        });
  }

  @Override
  public CompletableFuture<LockGrant> acquireExclusive(String uri, String clientId) {
    return acquire(uri, clientId, LockMode.EXCLUSIVE);
  }

  @Override
  public CompletableFuture<LockGrant> acquireShared(String uri, String clientId) {
    return acquire(uri, clientId, LockMode.SHARED);
  }

  @Override
  public CompletableFuture<StampedGrant> acquireSharedStamped(String uri, String clientId) {
    return call(() -> decideAndStamp(uri, clientId, LockMode.SHARED));
  }

  @Override
  public CompletableFuture<LockGrant> acquireIntention(String uri, String clientId) {
    return acquire(uri, clientId, LockMode.INTENTION);
  }

  @Override
  public CompletableFuture<Boolean> release(String uri, String clientId) {
    return call(() -> releaseLeaving(uri, clientId, OptionalLong.empty()));
  }

  @Override
  public CompletableFuture<Boolean> releaseStamped(String uri, String clientId, long stamp) {
    return call(
        () -> {
          SupportsLockStamps.checkStamp(stamp);
          return releaseLeaving(uri, clientId, OptionalLong.of(stamp));
        });
  }

  /** Releases the lock of {@code clientId}; an exclusive one leaves {@code stamp} when present. */
  private boolean releaseLeaving(String uri, String clientId, OptionalLong stamp) {
    limits.checkUri(uri);
    checkClientId(clientId);
    // While refusing: the restart lost every lock, so the caller holds none.
    return window.admitOr(
        false,
        now -> {
          boolean[] held = {false};
          locks.computeIfPresent(
              uri,
              (u, holders) -> {
                Holder mine = holders.remove(clientId);
                held[0] = mine != null && !mine.lapsedAt(now);
                if (mine != null
                    && held[0]
                    && mine.mode == LockMode.EXCLUSIVE
                    && stamp.isPresent()) {
                  stamps.put(u, stamp.getAsLong());
                }
                holders.values().removeIf(h -> h.lapsedAt(now));
                return holders.isEmpty() ? null : holders;
              });
          maybeSweep(now);
          return held[0];
        });
  }

  @Override
  public CompletableFuture<Duration> timeoutFor(String uri) {
    return call(
        () -> {
          limits.checkUri(uri);
          return timeouts.lookup(uri);
        });
  }

  /** URIs with at least one lock entry (possibly lapsed, not yet swept), for tests. */
  int lockedUriCount() {
    return locks.size();
  }

  // ---- internals ----

  private CompletableFuture<LockGrant> acquire(String uri, String clientId, LockMode mode) {
    return call(() -> decideAndStamp(uri, clientId, mode).grant());
  }

  /**
   * The grant decision on {@code uri} and, for a shared grant, the stamp it saw; a grant of a
   * writer's mode clears the stamp.
   */
  private StampedGrant decideAndStamp(String uri, String clientId, LockMode mode) {
    limits.checkUri(uri);
    checkClientId(clientId);
    return window.admit(
        now -> {
          Duration timeout = timeouts.lookup(uri);
          StampedGrant[] result = new StampedGrant[1];
          locks.compute(
              uri,
              (u, holders) -> {
                Map<String, Holder> h = holders == null ? new HashMap<>() : holders;
                h.values().removeIf(x -> x.lapsedAt(now));
                LockGrant g = decide(h, clientId, mode, now, timeout);
                OptionalLong stamp = OptionalLong.empty();
                if (g.granted() && g.mode() == LockMode.SHARED) {
                  stamp = stampOf(u);
                } else if (g.granted()) {
                  stamps.put(u, UNKNOWN);
                }
                result[0] = new StampedGrant(g, stamp);
                return h.isEmpty() ? null : h;
              });
          if (stamps.size() > stampsKept) {
            forgetStamps();
          }
          maybeSweep(now);
          return result[0];
        });
  }

  /** The stamp of {@code uri}; called inside its compute. */
  private OptionalLong stampOf(String uri) {
    Long s = stamps.get(uri);
    if (s == null) {
      // Forgetting turns completeness off before it drops entries, so an entry found dropped
      // here reads as unknown, never as untouched.
      return stampsComplete ? OptionalLong.of(0) : OptionalLong.empty();
    }
    return s == UNKNOWN ? OptionalLong.empty() : OptionalLong.of(s);
  }

  /** Every stamp unknown from now on, until set again. */
  private void forgetStamps() {
    stampsComplete = false; // before the clear: a URI without an entry is unknown from here on
    stamps.clear();
  }

  /**
   * The grant decision for one URI; {@code holders} holds only unlapsed leases. Runs inside the
   * URI's compute, so it is the only code looking at {@code holders}.
   */
  private static LockGrant decide(
      Map<String, Holder> holders, String clientId, LockMode mode, Instant now, Duration timeout) {
    Holder mine = holders.get(clientId);
    // Asking for another mode than the one held asks for both: a fresh grant, a renewal, an
    // upgrade (S->X, I->X, S+I->X), or an exclusive holder keeping its lock, renewed.
    LockMode result = mine == null ? mode : mine.mode.and(mode);
    for (Map.Entry<String, Holder> e : holders.entrySet()) {
      if (!e.getKey().equals(clientId) && !e.getValue().mode.compatibleWith(result)) {
        return LockGrant.refused(mode, timeout);
      }
    }
    holders.put(clientId, new Holder(result, PrefixTimeouts.endOf(now, timeout)));
    return LockGrant.granted(result, timeout);
  }

  /**
   * Drops lapsed leases of URIs nobody touches any more. Runs once per max(1024, URIs held) calls,
   * so its cost per call stays constant however many URIs are locked.
   */
  private void maybeSweep(Instant now) {
    int calls = callsSinceSweep.incrementAndGet();
    if (calls < Math.max(1024, locks.size())) {
      return;
    }
    callsSinceSweep.set(0);
    for (String uri : locks.keySet()) {
      locks.computeIfPresent(
          uri,
          (u, holders) -> {
            holders.values().removeIf(h -> h.lapsedAt(now));
            return holders.isEmpty() ? null : holders;
          });
    }
  }

  private static void checkClientId(String clientId) {
    if (clientId == null || clientId.isEmpty()) {
      throw new BadRequestException("a client id must be non-empty");
    }
  }

  /** Runs a call on the caller's thread; a rejected request becomes a failed future. */
  private static <T> CompletableFuture<T> call(Supplier<T> body) {
    try {
      return CompletableFuture.completedFuture(body.get());
    } catch (CloudException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /** One client's lease on one URI; immutable, replaced on renewal. */
  private static final class Holder {
    final LockMode mode;
    final Instant until;

    Holder(LockMode mode, Instant until) {
      this.mode = mode;
      this.until = until;
    }

    /** A lease granted at g with timeout t has lapsed once g + t <= now. */
    boolean lapsedAt(Instant now) {
      return !now.isBefore(until);
    }
  }
}
