package io.stratus.protocols;

/**
 * How a checkpoint writes the pages it changed (basic protocol, paper 000 sections 4.3 and 4.4).
 *
 * <p>The papers relied on timing alone: a checkpointer holds a lease on the queue's lock and puts
 * only while the lease has more than the propagation period left, trusting that the put is visible
 * before anybody else can take the lock. A put that is delayed in the network past the lease (or a
 * paused checkpointer whose clock check passed just before the pause) can still overwrite a later
 * checkpoint of another client, losing its updates. Storage with conditional puts (S3 since 2024)
 * closes that hole: each page is put only if its version is still the one the checkpoint read.
 */
public enum CheckpointWrites {
  /** {@link #CONDITIONAL} when the storage implements conditional puts, else {@link #TIMING_ONLY}. */
  AUTO,
  /**
   * New pages with put-if-absent, changed pages with put-if-version-matches (the version read by
   * the checkpoint); a lost race gives the checkpoint up without deleting its messages, which a
   * later checkpoint applies (log records are idempotent): nothing is lost, whatever the timing.
   */
  CONDITIONAL,
  /** Plain puts guarded only by the lease and the propagation period: the paper-faithful mode. */
  TIMING_ONLY
}
