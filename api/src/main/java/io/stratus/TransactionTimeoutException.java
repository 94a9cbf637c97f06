package io.stratus;

/**
 * The transaction ran longer than the isolating protocols allow (the transaction timeout, from
 * begin to the end of its commit), or its snapshot could not be made to include this handle's own
 * latest commit in time. Archived versions a longer transaction would need may already be gone,
 * so its reads are refused rather than answered from an incomplete past.
 *
 * <p>What to do: nothing was applied; run the unit of work again in a new transaction, and keep
 * transactions shorter than the timeout ({@link #isRetryable()} is always true).
 */
public class TransactionTimeoutException extends StratusException {
  private static final long serialVersionUID = 1L;

  public TransactionTimeoutException(String message) {
    super(message);
  }

  @Override
  public boolean isRetryable() {
    return true;
  }
}
