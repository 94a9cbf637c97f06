package io.stratus.protocols.isolation;

import io.stratus.TransactionTimeoutException;
import io.stratus.protocols.TransactionInfo;
import java.time.Clock;
import java.time.Duration;

/**
 * When one transaction of the isolating protocols runs out of time: the transaction timeout after
 * its begin, on the handle's clock. Past it, its reads and its commit fail retryably, so that no
 * lock it holds is used past its lease.
 *
 * <p>Why a class of its own: the leaf of every read checks it, and a check is then one clock read
 * and one comparison with a time fixed at the begin — no lambda, no settings to look up, no
 * {@link Duration} arithmetic on the read path.
 */
final class TransactionDeadline {
  private final Clock clock;
  private final String transactionId;
  private final Duration timeout;
  private final long beganMillis;
  private final long expiresAtMillis;

  /**
   * Reads a transaction's view answers from a leaf it already showed, between two checks of the
   * deadline. Such a read needs no check to be safe: the leaf was shown at a time the deadline
   * was checked, under the locks or the snapshot the transaction held then, and keeping every
   * lock to the end, a transaction's earlier views all show the state of one moment before its
   * deadline. The check of every sixteenth still fails a transaction that keeps reading past its
   * timeout within a few reads, for a sixteenth of the clock reads (a clock read costs some 4 % of
   * a cached point read). Anything new — a leaf not yet shown, a lock, a look at the
   * archive, the commit — checks every time.
   */
  static final int REPEATS_PER_CHECK = 16;

  /** No deadline: for reads made on a transaction's behalf after its own deadline was checked. */
  static final TransactionDeadline NONE =
      new TransactionDeadline(Clock.systemUTC(), "(none)", Duration.ZERO, 0, Long.MAX_VALUE);

  /** The deadline of {@code info}'s transaction, begun now. */
  TransactionDeadline(Clock clock, TransactionInfo info, Duration timeout) {
    this(clock, info.transactionId(), timeout, clock.millis(), timeout.toMillis());
  }

  private TransactionDeadline(
      Clock clock, String transactionId, Duration timeout, long beganMillis, long timeoutMillis) {
    this.clock = clock;
    this.transactionId = transactionId;
    this.timeout = timeout;
    this.beganMillis = beganMillis;
    this.expiresAtMillis =
        Math.addExact(beganMillis, Math.min(timeoutMillis, Long.MAX_VALUE - beganMillis));
  }

  /** The clock time after which the transaction has run out of time. */
  long expiresAtMillis() {
    return expiresAtMillis;
  }

  /**
   * Fails the transaction when it is older than the transaction timeout.
   *
   * @throws TransactionTimeoutException when it is; running the transaction again is safe
   */
  void check() {
    long now = clock.millis();
    if (now > expiresAtMillis) {
      throw new TransactionTimeoutException(
          "transaction "
              + transactionId
              + " has run "
              + (now - beganMillis)
              + " ms, longer than the transaction timeout of "
              + timeout
              + "; run it again");
    }
  }
}
