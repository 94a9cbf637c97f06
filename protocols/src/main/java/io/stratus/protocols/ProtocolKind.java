package io.stratus.protocols;

/**
 * The commit protocols a database can run (paper 000, sections 4, 5 and 7.1); chosen once per
 * database in its configuration, and every client of one database must use the same.
 *
 * <p>{@link #NAIVE} and {@link #BASIC} are implemented now; opening a database with another kind
 * fails with a clear "not available yet" error. Later issues add advanced atomicity, generalized snapshot
 * isolation and two-phase locking (sections 5.3 to 5.5); those need the begin and read hooks of
 * {@link CommitProtocol}.
 */
public enum ProtocolKind {
  /**
   * The baseline: commit writes every modified and new page straight to storage. Subject to lost
   * updates when two clients change the same page; not even eventually consistent.
   */
  NAIVE(true),
  /** Log records through pending-update queues, applied by checkpoints: eventual consistency. */
  BASIC(true),
  /** Basic plus monotonic reads and writes (section 5.2, [7]). */
  MONOTONIC(false),
  /** Monotonic plus atomicity through per-client commit queues (section 5.1). */
  ATOMIC(false);

  private final boolean available;

  ProtocolKind(boolean available) {
    this.available = available;
  }

  /** Whether this build implements the protocol. */
  public boolean isAvailable() {
    return available;
  }
}
