package io.stratus;

/** The request is wrong for the database's current state; repeating it unchanged fails again. */
public class InvalidRequestException extends StratusException {
  private static final long serialVersionUID = 1L;

  public InvalidRequestException(String message) {
    super(message);
  }
}
