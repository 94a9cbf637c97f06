package io.stratus.cloudapi;

/**
 * The request is malformed (an invalid URI, a null payload, a negative count) and was rejected
 * without effect. Repeating it fails again: this is a bug in the caller.
 */
public class BadRequestException extends CloudException {
  private static final long serialVersionUID = 1L;

  public BadRequestException(String message) {
    super(message);
  }

  public BadRequestException(String message, Throwable cause) {
    super(message, cause);
  }
}
