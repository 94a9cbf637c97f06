package io.stratus;

import org.jspecify.annotations.Nullable;

/**
 * Root of the exceptions the Stratus database layers (page manager, B-link trees, protocols,
 * record manager) throw, so an application can tell what to do from the type:
 *
 * <ul>
 *   <li>{@link #isRetryable()} true: nothing took effect; running the whole transaction again is
 *       safe (e.g. {@code CommitFailedException}).
 *   <li>{@link #isOutcomeUnknown()} true ({@code CommitStateUnknownException}, some {@code
 *       CloudServiceException}s): the work may have taken effect; find out by reading before
 *       acting on either assumption. Never also retryable.
 *   <li>{@link InvalidRequestException} and its subtypes: the request is wrong (unknown collection,
 *       record too large, duplicate key, finished transaction); repeating it fails again.
 *   <li>{@link CorruptPageException}: stored data failed its integrity check and was not used.
 * </ul>
 *
 * <p>Failures of the cloud services themselves reach the application as {@link
 * CloudServiceException}, the service's exception kept as the cause: the record manager
 * translates them at its boundary, so one {@code catch (StratusException e)} covers every failure
 * of a database call.
 */
public abstract class StratusException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  protected StratusException(String message) {
    super(message);
  }

  protected StratusException(String message, @Nullable Throwable cause) {
    super(message, cause);
  }

  /**
   * The message given when the exception was made. Every constructor takes one, so it is never
   * null; an exception made by reflection or deserialized without one reads as its class name.
   */
  @Override
  public String getMessage() {
    String m = super.getMessage();
    return m != null ? m : getClass().getName();
  }

  /** Whether running the failed unit of work again is safe and may succeed. */
  public boolean isRetryable() {
    return false;
  }

  /**
   * Whether the failed work may have taken effect (wholly or in part): then it must not be run
   * again blindly; read to find out. Never true together with {@link #isRetryable()}.
   */
  public boolean isOutcomeUnknown() {
    return false;
  }
}
