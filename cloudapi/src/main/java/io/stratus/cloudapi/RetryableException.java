package io.stratus.cloudapi;

import org.jspecify.annotations.Nullable;

/**
 * The call failed and is known to have had no effect; repeating it is safe and may succeed.
 * Callers SHOULD back off before retrying.
 */
public class RetryableException extends CloudException {
  private static final long serialVersionUID = 1L;

  public RetryableException(String message) {
    super(message);
  }

  public RetryableException(String message, @Nullable Throwable cause) {
    super(message, cause);
  }

  @Override
  public final boolean isRetryable() {
    return true;
  }
}
