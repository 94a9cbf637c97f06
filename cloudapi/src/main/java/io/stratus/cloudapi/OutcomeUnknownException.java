package io.stratus.cloudapi;

/**
 * The call may or may not have taken effect: the request left the client but no reply came back
 * (a lost reply, a time-out, a broken connection). An idempotent call may be repeated; for any other
 * call the caller must establish the outcome by reading before it acts on an assumption.
 */
public class OutcomeUnknownException extends CloudException {
  private static final long serialVersionUID = 1L;

  public OutcomeUnknownException(String message) {
    super(message);
  }

  public OutcomeUnknownException(String message, Throwable cause) {
    super(message, cause);
  }
}
