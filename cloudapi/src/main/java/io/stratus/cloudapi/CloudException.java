package io.stratus.cloudapi;

import org.jspecify.annotations.Nullable;

/**
 * Root of the small exception hierarchy every Cloud API call fails with.
 *
 * <p>Why a hierarchy at all: a caller of a cloud service has exactly four useful reactions to a
 * failure, and the type of the exception tells it which one applies:
 *
 * <ul>
 *   <li>{@link RetryableException} (and its subtypes {@link ServiceUnavailableException} and {@link
 *       ConflictException}): the call failed and had <em>no effect</em>; the same call may simply be
 *       repeated, preferably after a back-off.
 *   <li>{@link PreconditionFailedException}: a condition the caller attached (only-if-absent,
 *       only-if-version-matches) did not hold; repeating the call unchanged fails again. Re-read and
 *       decide.
 *   <li>{@link OutcomeUnknownException}: the call may or may not have taken effect (a lost reply, a
 *       timeout after the request was sent). Only an idempotent call may be repeated blindly;
 *       otherwise the caller must find out by reading.
 *   <li>{@link BadRequestException} (and {@link LimitExceededException}), {@link NotFoundException}:
 *       the request itself is wrong for the current state; repeating it fails again.
 * </ul>
 *
 * <p>Every implementation of a Cloud API service MUST fail its futures only with subclasses of this
 * type (wrapped in {@link java.util.concurrent.CompletionException} where the future machinery does
 * so), never with a vendor exception. {@link CloudFutures#await} unwraps them.
 */
public abstract class CloudException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  protected CloudException(String message) {
    super(message);
  }

  protected CloudException(String message, @Nullable Throwable cause) {
    super(message, cause);
  }

  /**
   * Whether repeating exactly the same call is safe and may succeed: true only when the failed call
   * is known to have had no effect.
   */
  public boolean isRetryable() {
    return false;
  }
}
