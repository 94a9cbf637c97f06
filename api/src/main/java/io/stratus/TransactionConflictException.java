package io.stratus;

/**
 * The commit was refused because a concurrent transaction conflicts with this one: under snapshot
 * isolation, a transaction that committed after this one's snapshot changed a record this one
 * changes (first committer wins), or holds the lock of such a record right now; under the
 * serializable mode, also a record or key range this one read.
 *
 * <p>What to do: nothing was applied; run the whole unit of work again, which reads the newer
 * values ({@link #isRetryable()} is always true, so {@code Database.run} retries it).
 */
public class TransactionConflictException extends CommitFailedException {
  private static final long serialVersionUID = 1L;

  public TransactionConflictException(String message) {
    super(message, true, null);
  }
}
