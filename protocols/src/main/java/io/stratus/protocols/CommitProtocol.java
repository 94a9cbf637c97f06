package io.stratus.protocols;

import io.stratus.CheckpointSummary;
import io.stratus.RecoverySummary;

/**
 * The seam between the record manager and the commit protocols (paper 000, sections 4 and 5): the
 * record manager begins every transaction here ({@link #begin}) and runs it through the {@link
 * ProtocolTransaction} it gets back — the view its reads go through, the reads and changes it
 * reports, and the commit of its {@link WriteSet}. Which protocol runs is a per-database setting
 * ({@link ProtocolKind}).
 *
 * <p>Beside transactions the seam has only what every protocol can answer: operator maintenance
 * ({@link #checkpointAll}, {@link #recoverAbandonedClients}, {@link #closeGaps} for dead letters),
 * which does nothing under a protocol without the queues it concerns; the handle's {@link
 * #stats}; and {@link #close}.
 *
 * <p>Implementations are thread-safe: one instance serves all transactions of a database handle
 * concurrently. A commit runs on the committing thread and may fan out asynchronous cloud calls.
 */
public interface CommitProtocol extends AutoCloseable {

  /** Which protocol this is. */
  ProtocolKind kind();

  /**
   * Begins a transaction: what the record manager calls first, before the transaction's first
   * read. The returned transaction holds whatever the protocol keeps for it (a snapshot, locks,
   * an overlay of the handle's pending writes, or nothing) until its {@link
   * ProtocolTransaction#finish}.
   *
   * @throws io.stratus.StratusException when the protocol cannot begin a transaction now (a
   *     retryable one while the database is in recovery, or a snapshot is not yet visible)
   */
  ProtocolTransaction begin(TransactionInfo tx);

  /**
   * Operator maintenance: checkpoints every pending-update queue of the database on the calling
   * thread until each stays empty (bounded), e.g. before a shutdown or in tests. Not part of any
   * transaction's path. Protocols without queues do nothing.
   */
  default CheckpointSummary checkpointAll() {
    return CheckpointSummary.NONE;
  }

  /**
   * Operator repair of pending-update queue {@code queue} whose writers' chains wait for messages
   * that will never come (damaged and set aside, or discarded): one checkpoint that takes each
   * waiting chain's missing counters as gone and applies what follows them. Protocols without
   * writer chains do nothing.
   *
   * @return whether the queue was checkpointed (false: not a queue of this protocol, or its
   *     checkpoint is held by another client or failed; try again)
   */
  default boolean closeGaps(String queue) {
    return false;
  }

  /**
   * Operator maintenance for the atomic protocol (paper 000, section 5.1): recovers the ATOMIC
   * queues of other clients (abandoned ones), on the calling thread. Safe while those clients live
   * and while other clients recover at once. Protocols without ATOMIC queues do nothing.
   */
  default RecoverySummary recoverAbandonedClients() {
    return RecoverySummary.NONE;
  }

  /** This handle's protocol counters now; all zero for a protocol that keeps none. */
  default ProtocolStats stats() {
    return ProtocolStats.NONE;
  }

  /** Releases what the protocol holds (threads, queues it polls); the default holds nothing. */
  @Override
  default void close() {}
}
