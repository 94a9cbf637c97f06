package io.stratus.cloudapi;

import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * The optional ability to take a lock in a third mode, {@link LockMode#INTENTION insert
 * intention}: compatible with other intentions, excluding shared and exclusive locks. It is the
 * lock an insert takes on the fence of the gap it inserts into (next-key locking; InnoDB's
 * insert-intention gap lock), so that many inserts into one gap, such as appends at the end of a
 * tree with increasing keys, pass one another, while a reader of the gap (who holds the fence
 * shared) and an insert into it still exclude each other.
 *
 * <p>Guarantees every implementation MUST give, in addition to {@link LockService}'s:
 *
 * <ul>
 *   <li><b>Compatibility.</b> At no moment do two clients hold unexpired locks on one URI unless
 *       both are shared or both are intentions: an intention excludes shared and exclusive locks
 *       of other clients, and they exclude it ({@link LockMode#compatibleWith}).
 *   <li><b>One mode per holder.</b> A client holds at most one mode on a URI. A client asking for
 *       mode M on a URI where it holds H asks for both: the mode it is granted is {@code
 *       H.and(M)} ({@link LockMode#and}), which is H when M equals H and exclusive otherwise —
 *       stricter is always correct. So the sole holder of a shared lock asking for an intention,
 *       and the sole holder of an intention asking for a shared or exclusive lock, get an
 *       exclusive lock; an exclusive holder keeps its exclusive lock whatever it asks for. The
 *       request is refused, and the lock held stays as it was, when another client holds a mode
 *       incompatible with the result.
 *   <li><b>Leases</b> as for the other modes: an intention lapses after the timeout of its URI
 *       (the longest matching prefix); acquiring again renews it for a full timeout, whatever
 *       mode results. {@link LockGrant#mode()} is the mode now held.
 *   <li><b>Release.</b> {@link #release} releases whatever mode the client holds, intentions
 *       included.
 *   <li><b>Non-blocking</b> and <b>restarts</b> as {@link LockService}: a refused intention is
 *       answered at once, and after a restart {@link #acquireIntention} is refused with {@link
 *       ServiceUnavailableException} for the same period as the other acquires.
 * </ul>
 *
 * <p>Use: check with {@code instanceof} (or {@link #of(LockService)}), and fall back to exclusive
 * locks where intentions would be taken when the ability is missing (stricter, so correct, with
 * more refusals).
 *
 * <p>Implementations MUST be thread-safe.
 */
public interface SupportsIntentionLocks extends LockService {

  /**
   * Acquires (or renews) an insert intention on {@code uri} for {@code clientId}, or the
   * exclusive lock that results when the client holds another mode there (see above).
   */
  CompletableFuture<LockGrant> acquireIntention(String uri, String clientId);

  /** {@code locks} as locks with intentions, or null when they lack the ability. */
  static @Nullable SupportsIntentionLocks of(LockService locks) {
    return locks instanceof SupportsIntentionLocks ? (SupportsIntentionLocks) locks : null;
  }
}
