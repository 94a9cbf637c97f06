package io.stratus;

/**
 * The database handle was closed: every call on it, and on every transaction it began, answers
 * with this one type. Not retryable on this handle; open a new one.
 */
public class DatabaseClosedException extends InvalidRequestException {
  private static final long serialVersionUID = 1L;

  public DatabaseClosedException(String what) {
    super(what + ": the database handle is closed; open a new one");
  }
}
