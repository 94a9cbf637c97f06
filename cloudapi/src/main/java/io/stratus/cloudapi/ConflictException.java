package io.stratus.cloudapi;

/**
 * Another request on the same item was in flight at the same moment and this one lost without
 * taking effect (S3 answers 409 ConditionalRequestConflict for concurrent conditional writes).
 * Safe to retry; a retried conditional call may then fail with {@link PreconditionFailedException}.
 */
public class ConflictException extends RetryableException {
  private static final long serialVersionUID = 1L;

  public ConflictException(String message) {
    super(message);
  }

  public ConflictException(String message, Throwable cause) {
    super(message, cause);
  }
}
