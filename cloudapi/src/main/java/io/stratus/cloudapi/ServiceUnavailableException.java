package io.stratus.cloudapi;

import java.time.Duration;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The service refused the call without acting on it: it is down, throttling, or deliberately
 * refusing requests (a lock or counter service refuses every request for its longest timeout after
 * a restart, paper 000 sections 2.3.5 and 2.3.6). Safe to retry, after {@link #retryAfter()} when
 * the service said how long to wait.
 */
public class ServiceUnavailableException extends RetryableException {
  private static final long serialVersionUID = 1L;
  private final @Nullable Duration retryAfter;

  public ServiceUnavailableException(String message) {
    this(message, null, null);
  }

  public ServiceUnavailableException(String message, @Nullable Duration retryAfter) {
    this(message, retryAfter, null);
  }

  public ServiceUnavailableException(
      String message, @Nullable Duration retryAfter, @Nullable Throwable cause) {
    super(message, cause);
    this.retryAfter = retryAfter;
  }

  /** How long the service asked the caller to wait before the next attempt, if it said so. */
  public Optional<Duration> retryAfter() {
    return Optional.ofNullable(retryAfter);
  }
}
