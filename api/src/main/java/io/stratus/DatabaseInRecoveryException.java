package io.stratus;

/**
 * The commit was refused before anything was sent because another client is recovering a
 * transaction that a crashed client committed but did not finish (the advanced atomicity protocol,
 * paper 000, section 5.3): until that recovery is done, the database may show part of that
 * transaction, and new commits wait for it to end.
 *
 * <p>What to do: nothing was applied; run the whole unit of work again after a short back-off
 * ({@link #isRetryable()} is always true, so {@code Database.run} retries it).
 */
public class DatabaseInRecoveryException extends CommitFailedException {
  private static final long serialVersionUID = 1L;

  public DatabaseInRecoveryException(String message) {
    super(message, true, null);
  }
}
