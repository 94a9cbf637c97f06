package io.stratus.core;

import io.stratus.InvalidRequestException;
import io.stratus.StratusException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The retry loop behind {@link Database#run} and {@link Database#read}, in the manner of
 * FoundationDB's {@code db.run}: begin, apply the function, commit (or, for a read, end without
 * writing), and on a failure that says it is safe to retry — nothing took effect — back off with
 * jitter and run the whole function again in a new transaction.
 *
 * <p>What is never retried: a commit whose outcome is unknown ({@link
 * io.stratus.CommitStateUnknownException}: running it again could apply it twice), a failure that
 * is not transient (a wrong request, corrupt data), and any exception the function itself throws
 * that is not a Stratus failure (cloud failures reach it translated, as {@link
 * io.stratus.CloudServiceException}). Each of these ends the run at once and reaches the
 * caller unchanged. When the attempts are used up the last failure is thrown, the earlier ones
 * attached as suppressed exceptions.
 */
final class TransactionRunner {
  private final Database db;
  private final AtomicLong runs = new AtomicLong();
  private final LongAdder retries = new LongAdder();

  TransactionRunner(Database db) {
    this.db = db;
  }

  /** Attempts that failed retryably and were run again, over the handle's life. */
  long retries() {
    return retries.sum();
  }

  <T> T run(RetryPolicy policy, TransactionFunction<T> fn, boolean writes) {
    Args.notNull(policy, "policy");
    Args.notNull(fn, "fn");
    return RetryLoop.run(
        policy,
        policy.jitter(runs.incrementAndGet()),
        StratusException::isRetryable,
        () -> attempt(fn, writes),
        retries::increment);
  }

  /** One attempt: begin, apply {@code fn}, commit (or end, for a read). */
  private <T> T attempt(TransactionFunction<T> fn, boolean writes) {
    try (Transaction tx = db.begin(!writes)) {
      T value = fn.apply(tx);
      if (!tx.isOpen()) {
        throw new InvalidRequestException(
            "the transaction function ended its transaction "
                + tx.id()
                + " itself; the runner commits or ends it");
      }
      if (writes) {
        tx.commit();
      } else if (tx.hasChanges()) {
        throw new InvalidRequestException(
            "a read-only transaction function wrote records"
                + " (transaction "
                + tx.id()
                + "); use Database.run to commit changes");
      } else {
        tx.endRead();
      }
      return value;
    }
  }
}
