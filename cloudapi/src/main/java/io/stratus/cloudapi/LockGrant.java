package io.stratus.cloudapi;

import java.time.Duration;
import java.util.Objects;

/**
 * The answer to a lock request.
 *
 * <p>A holder MUST treat a granted lock as lapsed at the moment it <em>sent</em> the request plus
 * {@link #validFor()}, measured on its own clock: the service may expire the lock that early from
 * the holder's point of view, and the holder cannot know when the service received the request.
 *
 * @param granted whether the lock was granted (or renewed)
 * @param mode the mode now held by the caller when granted (a client holding an exclusive lock that
 *     asks for a shared one keeps the exclusive lock; see {@link SupportsIntentionLocks} for the
 *     other combinations), the mode requested when refused
 * @param validFor the timeout that applies to the URI
 */
public record LockGrant(boolean granted, LockMode mode, Duration validFor) {
  public LockGrant {
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(validFor, "validFor");
  }

  public static LockGrant granted(LockMode mode, Duration validFor) {
    return new LockGrant(true, mode, validFor);
  }

  public static LockGrant refused(LockMode requested, Duration validFor) {
    return new LockGrant(false, requested, validFor);
  }
}
