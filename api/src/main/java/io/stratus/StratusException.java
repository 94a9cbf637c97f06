package io.stratus;

/**
 * Root of the exceptions the Stratus database layers (page manager, B-link trees, protocols,
 * record manager) throw, so an application can tell what to do from the type:
 *
 * <ul>
 *   <li>{@link #isRetryable()} true: nothing took effect; running the whole transaction again is
 *       safe (e.g. {@code CommitFailedException}).
 *   <li>an outcome-unknown type ({@code CommitStateUnknownException}): the commit may have taken
 *       effect; find out by reading before acting on either assumption.
 *   <li>{@link InvalidRequestException} and its subtypes: the request is wrong (unknown collection,
 *       record too large, duplicate key, finished transaction); repeating it fails again.
 *   <li>{@link CorruptPageException}: stored data failed its integrity check and was not used.
 * </ul>
 *
 * <p>Failures of the cloud services themselves surface as {@code io.stratus.cloudapi.CloudException}
 * where a layer does not translate them; its subtypes follow the same reading.
 */
public abstract class StratusException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  protected StratusException(String message) {
    super(message);
  }

  protected StratusException(String message, Throwable cause) {
    super(message, cause);
  }

  /** Whether running the failed unit of work again is safe and may succeed. */
  public boolean isRetryable() {
    return false;
  }
}
