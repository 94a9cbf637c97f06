package io.stratus;

/**
 * A call on a transaction that has already committed, aborted or been closed (a failed commit
 * also finishes the transaction). Begin a new transaction.
 */
public class TransactionClosedException extends InvalidRequestException {
  private static final long serialVersionUID = 1L;

  public TransactionClosedException(String state) {
    super("the transaction is " + state + "; begin a new one");
  }
}
