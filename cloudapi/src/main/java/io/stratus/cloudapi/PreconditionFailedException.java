package io.stratus.cloudapi;

/**
 * A condition attached to the call (only-if-absent, only-if-version-matches) did not hold, so the
 * call had no effect. Repeating it unchanged fails again: re-read the current state and decide
 * (S3 answers 412 Precondition Failed).
 */
public class PreconditionFailedException extends CloudException {
  private static final long serialVersionUID = 1L;

  public PreconditionFailedException(String message) {
    super(message);
  }

  public PreconditionFailedException(String message, Throwable cause) {
    super(message, cause);
  }
}
