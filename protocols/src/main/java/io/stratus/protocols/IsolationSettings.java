package io.stratus.protocols;

import java.time.Duration;
import java.util.Objects;

/**
 * The timeouts of the isolating protocols (snapshot isolation, serializable snapshot isolation),
 * paper 000 section 5.4.
 *
 * <p><b>The rule.</b> Record locks and commit-id counter values lapse on their own when their
 * holder dies; they must not lapse before that holder's commit is either finished or recovered by
 * another client, or a second writer could validate against an archive that still lacks the
 * first's records, and a snapshot could include a commit that is not yet readable. A commit sends
 * its commit record within {@code transactionTimeout} of its begin; the record is recovered once
 * it is older than the atomic timeout, by a client that checks at least every atomic timeout / 5.
 * So the lease must exceed {@code 2 × transactionTimeout + atomicTimeout + atomicTimeout / 5 +}
 * {@link #NETWORK_MARGIN} (the paper's rule, with the recovery check period spelled out), and
 * {@link #violation} reports settings that break it (the database configuration refuses them).
 *
 * @param transactionTimeout the longest a transaction may run, from begin to the end of its
 *     commit: reads after it fail (retryably), and archived log records older than it (plus the
 *     lease) are garbage-collected
 * @param leaseTimeout how long a record lock and an unvalidated commit id last when their holder
 *     neither releases nor validates them
 * @param snapshotReuse how long a handle reuses a snapshot for read-only transactions before it
 *     asks the counter service for a newer one (0: never reuse)
 */
public record IsolationSettings(
    Duration transactionTimeout, Duration leaseTimeout, Duration snapshotReuse) {

  /** Default {@link #transactionTimeout}. */
  public static final Duration DEFAULT_TRANSACTION_TIMEOUT = Duration.ofSeconds(10);

  /** Default {@link #leaseTimeout}: the rule's bound for the default timeouts, rounded up. */
  public static final Duration DEFAULT_LEASE_TIMEOUT = Duration.ofSeconds(120);

  /** Default {@link #snapshotReuse}. */
  public static final Duration DEFAULT_SNAPSHOT_REUSE = Duration.ofMillis(500);

  /** What the rule allows for network latency and clock differences between clients. */
  public static final Duration NETWORK_MARGIN = Duration.ofSeconds(1);

  public IsolationSettings {
    Objects.requireNonNull(transactionTimeout, "transactionTimeout");
    Objects.requireNonNull(leaseTimeout, "leaseTimeout");
    Objects.requireNonNull(snapshotReuse, "snapshotReuse");
    if (transactionTimeout.isNegative()
        || transactionTimeout.isZero()
        || leaseTimeout.isNegative()
        || leaseTimeout.isZero()
        || snapshotReuse.isNegative()) {
      throw new IllegalArgumentException("isolation timeouts must be positive");
    }
  }

  /** The defaults. */
  public static IsolationSettings defaults() {
    return new IsolationSettings(
        DEFAULT_TRANSACTION_TIMEOUT, DEFAULT_LEASE_TIMEOUT, DEFAULT_SNAPSHOT_REUSE);
  }

  /** The shortest lease the rule allows with {@code atomicTimeout}, exclusive. */
  public Duration minimumLease(Duration atomicTimeout) {
    return transactionTimeout
        .multipliedBy(2)
        .plus(atomicTimeout)
        .plus(atomicTimeout.dividedBy(5))
        .plus(NETWORK_MARGIN);
  }

  /**
   * Checks the rule against {@code atomicTimeout}.
   *
   * @return empty when it holds, else why not
   */
  public java.util.Optional<String> violation(Duration atomicTimeout) {
    Duration min = minimumLease(atomicTimeout);
    if (leaseTimeout.compareTo(min) > 0) {
      return java.util.Optional.empty();
    }
    return java.util.Optional.of(
        "the isolation lease timeout ("
            + leaseTimeout
            + ") must exceed"
            + " 2 x transaction timeout ("
            + transactionTimeout
            + ") + atomic timeout ("
            + atomicTimeout
            + ") + atomic timeout / 5 + "
            + NETWORK_MARGIN
            + " = "
            + min);
  }
}
