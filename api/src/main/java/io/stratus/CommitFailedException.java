package io.stratus;

import org.jspecify.annotations.Nullable;

/**
 * A commit failed and is known to have had <em>no visible effect</em>: no page that other clients
 * can reach was written (pages created for the transaction may remain in storage as unreachable
 * garbage). The transaction's changes are discarded.
 *
 * <p>What to do (as Iceberg's {@code CommitFailedException}): when {@link #isRetryable()} is true
 * the failure was transient (a throttled or unavailable service); begin a new transaction and run
 * the whole unit of work again, preferably after a back-off. When it is false the cause is not
 * transient (see {@link #getCause()}); repeating the same work will fail again.
 *
 * <p>Contrast {@link CommitStateUnknownException}: there the commit may have taken effect, and
 * retrying blindly could apply it twice.
 */
public class CommitFailedException extends StratusException {
  private static final long serialVersionUID = 1L;
  private final boolean retryable;

  public CommitFailedException(String message, boolean retryable, @Nullable Throwable cause) {
    super(message, cause);
    this.retryable = retryable;
  }

  /** Whether running the transaction again is safe and may succeed. */
  @Override
  public boolean isRetryable() {
    return retryable;
  }
}
