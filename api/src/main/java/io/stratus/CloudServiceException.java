package io.stratus;

/**
 * A call to a cloud service (storage, a queue, the lock or counter service) failed underneath a
 * database operation. The service's own exception is the {@linkplain #getCause() cause}; this type
 * says what it means for the operation that was running:
 *
 * <ul>
 *   <li>{@link #isRetryable()}: nothing this operation was to change took effect (a read, or a
 *       write the service refused); running the unit of work again is safe and may succeed once
 *       the service recovers;
 *   <li>{@link #isOutcomeUnknown()}: the operation changed, or may have changed, shared state
 *       (a collection or index being created, a bulk load) and its reply was lost; find out by
 *       reading before doing it again (creating collections and indexes is idempotent, so those
 *       may simply be repeated);
 *   <li>neither: the service rejected the request for good (a limit, a missing bucket, denied
 *       access); repeating it fails again.
 * </ul>
 *
 * <p>Commits never end with this type: they end with {@link CommitFailedException} or {@link
 * CommitStateUnknownException}.
 */
public class CloudServiceException extends StratusException {
  private static final long serialVersionUID = 1L;
  private final boolean retryable;
  private final boolean outcomeUnknown;

  /**
   * @param retryable whether running the work again is safe and may succeed
   * @param outcomeUnknown whether the work may have taken effect (then not retryable)
   */
  public CloudServiceException(
      String message, Throwable cause, boolean retryable, boolean outcomeUnknown) {
    super(message, cause);
    if (retryable && outcomeUnknown) {
      throw new IllegalArgumentException("an unknown outcome is never safe to retry blindly");
    }
    this.retryable = retryable;
    this.outcomeUnknown = outcomeUnknown;
  }

  @Override
  public boolean isRetryable() {
    return retryable;
  }

  @Override
  public boolean isOutcomeUnknown() {
    return outcomeUnknown;
  }
}
