package io.stratus;

/**
 * Two threads used one transaction at the same time. A transaction belongs to one thread at a
 * time (it may move between threads, never be shared); its private page copies and change list
 * are not made for concurrent use, and silently going on could lose writes. The call that found
 * the other thread inside fails and changes nothing; the transaction stays usable by the thread
 * that holds it. A programming error: not retryable.
 */
public class ConcurrentTransactionUseException extends InvalidRequestException {
  private static final long serialVersionUID = 1L;

  public ConcurrentTransactionUseException(String transactionId, String otherThread) {
    super(
        "transaction "
            + transactionId
            + " is in use by thread "
            + otherThread
            + " at the same time; a transaction belongs to one thread at a time");
  }
}
