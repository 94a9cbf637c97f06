package io.stratus.bench.tpcw.workload;

/**
 * What one executed web interaction did, as the bookstore reports it to the emulator.
 *
 * @param interaction which interaction ran
 * @param wrote whether it committed at least one write (an update interaction may write nothing,
 *     e.g. a Shopping Cart page view without a change)
 * @param recordsRead records the interaction read (probes and scans included)
 * @param recordsWritten records it created, updated or deleted
 * @param retries commits it retried after a retryable {@code CommitFailedException}
 * @param stalenessMillis how long before the read the newest version the interaction saw had
 *     already been superseded by a committed write (0 when everything it saw was current), or -1
 *     when it read nothing whose freshness is tracked
 */
public record InteractionOutcome(
    Interaction interaction,
    boolean wrote,
    int recordsRead,
    int recordsWritten,
    int retries,
    long stalenessMillis) {

  /** Validates the counts. */
  public InteractionOutcome {
    if (interaction == null) {
      throw new IllegalArgumentException("interaction is required");
    }
    if (recordsRead < 0 || recordsWritten < 0 || retries < 0 || stalenessMillis < -1) {
      throw new IllegalArgumentException("negative count in " + interaction);
    }
  }
}
