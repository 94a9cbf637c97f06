package io.stratus.protocols;

import java.time.Duration;

/**
 * The timeouts of the isolating protocols (snapshot isolation, serializable snapshot isolation,
 * two-phase locking), paper 000 section 5.4; {@link ProtocolSettings.Isolating} holds them with
 * the rule they must keep ({@link #minimumLease}).
 *
 * <p><b>The rule.</b> Record locks and commit-id counter values lapse on their own when their
 * holder dies; they must not lapse before that holder's commit is either finished or recovered by
 * another client, or a second writer could validate against an archive that still lacks the
 * first's records, and a snapshot could include a commit that is not yet readable. A commit sends
 * its commit record within {@code transactionTimeout} of its begin; the record is recovered once
 * it is older than the atomic timeout, by a client that checks at least every atomic timeout / 5.
 * So the lease must exceed {@code 2 × transactionTimeout + atomicTimeout + atomicTimeout / 5 +}
 * {@link #NETWORK_MARGIN} (the paper's rule, with the recovery check period spelled out).
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

  /** What the rule allows for network latency and clock differences between clients. */
  public static final Duration NETWORK_MARGIN = Duration.ofSeconds(1);

  /** Checked values. */
  public IsolationSettings {
    Settings.TRANSACTION_TIMEOUT.check(transactionTimeout);
    Settings.ISOLATION_LEASE_TIMEOUT.check(leaseTimeout);
    Settings.SNAPSHOT_REUSE.check(snapshotReuse);
  }

  /** The isolation settings among {@code values}. */
  public static IsolationSettings of(Setting.Values values) {
    return new IsolationSettings(
        values.get(Settings.TRANSACTION_TIMEOUT),
        values.get(Settings.ISOLATION_LEASE_TIMEOUT),
        values.get(Settings.SNAPSHOT_REUSE));
  }

  /** The defaults of {@link Settings}. */
  public static IsolationSettings defaults() {
    return of(Setting.given(java.util.Map.of()));
  }

  /** The shortest lease the rule allows with {@code atomicTimeout}, exclusive. */
  public Duration minimumLease(Duration atomicTimeout) {
    return minimumLease(transactionTimeout, atomicTimeout);
  }

  static Duration minimumLease(Duration transactionTimeout, Duration atomicTimeout) {
    return transactionTimeout
        .multipliedBy(2)
        .plus(atomicTimeout)
        .plus(atomicTimeout.dividedBy(5))
        .plus(NETWORK_MARGIN);
  }
}
