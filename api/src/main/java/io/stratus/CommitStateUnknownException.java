package io.stratus;

import org.jspecify.annotations.Nullable;

/**
 * A commit may or may not have taken effect, wholly or in part: a write's reply was lost, or a
 * failure came after some of the transaction's pages had already been written.
 *
 * <p>What to do (as Iceberg's {@code CommitStateUnknownException}): do <em>not</em> retry blindly,
 * and do not assume the commit failed. Read the affected records in a new transaction to find out
 * which of the changes are visible, then decide; make the follow-up idempotent where possible
 * (e.g. "set the balance to X", not "add Y"). The client's buffer pool has forgotten the affected
 * pages, so those reads go to storage (subject to the storage's consistency).
 *
 * <p>Never retryable: {@link #isRetryable()} is false, {@link #isOutcomeUnknown()} true.
 */
public class CommitStateUnknownException extends StratusException {
  private static final long serialVersionUID = 1L;

  /**
   * @param message what was being done and what to do now
   * @param cause the failure that left the outcome open; null when there is none (the commit
   *     gave up after writing some of its pages)
   */
  public CommitStateUnknownException(String message, @Nullable Throwable cause) {
    super(message, cause);
  }

  @Override
  public boolean isOutcomeUnknown() {
    return true;
  }
}
