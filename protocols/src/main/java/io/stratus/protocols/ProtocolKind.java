package io.stratus.protocols;

/**
 * The commit protocols a database can run (paper 000, sections 4, 5 and 7.1); chosen once per
 * database in its configuration, and every client of one database must use the same.
 *
 * <p>All four kinds are implemented; opening a database with a kind a build lacks fails with a
 * clear "not available yet" error. Later issues add advanced atomicity, generalized snapshot
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
  /**
   * Basic plus monotonic writes (paper 001, section 5.2: per-writer, per-queue counters applied
   * in order and exactly once), read-your-writes and monotonic reads (the buffer pool never
   * accepts a page version older than one it has seen).
   */
  MONOTONIC(true),
  /**
   * Atomicity through per-client ATOMIC queues (section 5.1), including the monotonic
   * guarantees as in the papers' experiments (counters taken at commit and carried in the ATOMIC
   * log, read-your-writes, monotonic reads); a transaction that fits into one queue message is
   * committed with one send.
   */
  ATOMIC(true);

  private final boolean available;

  ProtocolKind(boolean available) {
    this.available = available;
  }

  /** Whether this build implements the protocol. */
  public boolean isAvailable() {
    return available;
  }
}
