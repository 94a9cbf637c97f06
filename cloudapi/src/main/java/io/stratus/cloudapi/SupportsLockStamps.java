package io.stratus.cloudapi;

import java.util.Objects;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * The optional ability to leave a stamp on a lock: a number the last exclusive holder of a URI
 * left when it released the lock, reported with later shared grants, in the same round trip.
 *
 * <p>Why: a reader that takes a shared lock and then must look elsewhere to learn whether what the
 * lock guards changed since it last looked pays two round trips, one after the other. A writer
 * that releases its exclusive lock with a stamp saying what it did (two-phase locking: the commit
 * id of the commit that wrote the record) lets the reader answer that question from the grant.
 *
 * <p>Every URI has a stamp, which is a non-negative number or <em>unknown</em>. Guarantees every
 * implementation MUST give, in addition to {@link LockService}'s:
 *
 * <ul>
 *   <li><b>Untouched URIs.</b> The stamp of a URI on which the service has granted no exclusive
 *       lock and no insert intention ({@link SupportsIntentionLocks}) since its state began is 0.
 *   <li><b>Writers clear it.</b> Every grant after which the client holds an exclusive lock or an
 *       insert intention on a URI (a new lock, a renewal, an upgrade) makes the URI's stamp
 *       unknown. So such a lock that lapses, or is released with {@link #release}, leaves the
 *       stamp unknown.
 *   <li><b>Release with a stamp.</b> {@link #releaseStamped} releases like {@link #release}; when
 *       the client held an unexpired exclusive lock on the URI, the URI's stamp becomes the one
 *       given. Released from any other mode, or by a client that held nothing, it leaves the stamp
 *       as it was.
 *   <li><b>Reported with shared grants.</b> {@link #acquireSharedStamped} acquires exactly as
 *       {@link #acquireShared} does and, when it grants, reports the URI's stamp as it was at the
 *       grant (empty when unknown); a refusal reports no stamp.
 *   <li><b>Forgetting.</b> A service may make any stamp unknown at any time, and a restart that
 *       loses the locks makes every stamp unknown, those of untouched URIs included; it MUST never
 *       report a stamp other than the one these rules give.
 * </ul>
 *
 * <p>So a stamp {@code s} reported with a grant means: either no writer ever held the URI while
 * the service kept its state ({@code s = 0}), or the last exclusive lock or intention granted on
 * it was exclusive and its holder released it with {@code s}. A caller that is unsure what a stamp
 * means treats it as unknown.
 *
 * <p>Use: check with {@code instanceof} (or {@link #of(LockService)}), and look where the stamp
 * would have answered when the ability is missing.
 *
 * <p>Implementations MUST be thread-safe.
 */
public interface SupportsLockStamps extends LockService {

  /**
   * Acquires (or renews) a shared lock on {@code uri} for {@code clientId}, as {@link
   * #acquireShared}, and reports the URI's stamp with the grant.
   */
  CompletableFuture<StampedGrant> acquireSharedStamped(String uri, String clientId);

  /**
   * Releases whatever lock {@code clientId} holds on {@code uri}, as {@link #release}; when it was
   * an unexpired exclusive lock, leaves {@code stamp} as the URI's stamp.
   *
   * @param stamp at least 0, else the future fails with {@link BadRequestException}
   */
  CompletableFuture<Boolean> releaseStamped(String uri, String clientId, long stamp);

  /**
   * Checks a stamp against the rule above.
   *
   * @throws BadRequestException when it is negative
   */
  static void checkStamp(long stamp) {
    if (stamp < 0) {
      throw new BadRequestException("a lock stamp must be at least 0, got " + stamp);
    }
  }

  /** {@code locks} as locks with stamps, or null when they lack the ability. */
  static @Nullable SupportsLockStamps of(LockService locks) {
    return locks instanceof SupportsLockStamps ? (SupportsLockStamps) locks : null;
  }

  /**
   * A shared grant and the stamp of its URI.
   *
   * @param grant the answer, as {@link #acquireShared} gives it
   * @param stamp the URI's stamp at the grant; empty when it is unknown or the lock was refused
   */
  record StampedGrant(LockGrant grant, OptionalLong stamp) {
    public StampedGrant {
      Objects.requireNonNull(grant, "grant");
      Objects.requireNonNull(stamp, "stamp");
      if (!grant.granted() && stamp.isPresent()) {
        throw new IllegalArgumentException("a refused lock reports no stamp");
      }
    }
  }
}
