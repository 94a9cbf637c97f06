package io.stratus.protocols;

import io.stratus.CommitFailedException;
import io.stratus.CommitStateUnknownException;
import io.stratus.pagemanager.PageStore;

/**
 * The seam between the record manager and the commit protocols (paper 000, sections 4 and 5): the
 * record manager runs a transaction against its page transaction, then hands the {@link WriteSet}
 * to {@link #commit}. Which protocol runs is a per-database setting ({@link ProtocolKind}).
 *
 * <p>Per transaction the record manager calls {@link #begin}, and then the hooks of the {@link
 * ProtocolTransaction} it returned. Protocols without per-transaction state keep the default,
 * which routes to the handle-wide hooks, no-ops by default: {@link #onBegin} (before the first
 * read), {@link #readView} (a protocol may interpose on page reads: the queue protocols overlay
 * the handle's pending writes and schedule reader-side checkpoints), {@link #commit} and {@link
 * #onFinish} (after commit or abort).
 *
 * <p>Implementations are thread-safe: one instance serves all transactions of a database handle
 * concurrently. A commit runs on the committing thread and may fan out asynchronous cloud calls.
 */
public interface CommitProtocol extends AutoCloseable {

  /** Which protocol this is. */
  ProtocolKind kind();

  /**
   * Begins a transaction: what the record manager calls first, before the transaction's first
   * read. The default serves protocols without per-transaction state: it calls {@link #onBegin}
   * and routes the transaction's hooks to {@link #readView}, {@link #commit} and {@link
   * #onFinish}. Protocols that keep state per transaction (a snapshot, locks) return their own.
   */
  default ProtocolTransaction begin(TransactionInfo tx) {
    onBegin(tx);
    return new StatelessTransaction(this, tx);
  }

  /** Called when a transaction begins, before its first read (through the default {@link #begin}). */
  default void onBegin(TransactionInfo tx) {}

  /**
   * The page store the transaction's B-link trees use: {@code pages} (its page transaction) itself,
   * or a view over it that the protocol interposes on reads.
   */
  default PageStore readView(TransactionInfo tx, PageStore pages) {
    return pages;
  }

  /**
   * Commits the write set.
   *
   * @return the committed page versions (for installing into the buffer pool) and counts
   * @throws CommitFailedException the commit had no visible effect; retry the transaction if
   *     {@link CommitFailedException#isRetryable()}
   * @throws CommitStateUnknownException the commit may have taken effect, wholly or partly
   */
  CommitResult commit(WriteSet ws);

  /**
   * Called once when a transaction ends: after its commit returned or failed ({@code committed}
   * tells which), or when it aborted.
   */
  default void onFinish(TransactionInfo tx, boolean committed) {}

  /**
   * Operator maintenance: checkpoints every pending-update queue of the database on the calling
   * thread until each stays empty (bounded), e.g. before a shutdown or in tests. Not part of any
   * transaction's path. Protocols without queues do nothing.
   */
  default CheckpointSummary checkpointAll() {
    return CheckpointSummary.NONE;
  }

  /**
   * Queues this handle sent records to that no checkpoint of its own has covered yet: it owes
   * each a checkpoint, which it schedules once the record is older than the checkpoint interval
   * (so a record nobody touches again is still applied well within the queue's retention); 0 for
   * protocols without queues.
   */
  default int owedCheckpoints() {
    return 0;
  }

  /**
   * Records this handle's checkpoints left queued because their writer's chain found no room in
   * the page header (monotonic writes: each writer incarnation and lane that writes a page needs
   * an entry there, and a full header takes new ones only as chains of closed or dead writers
   * retire), as of each queue's latest checkpoint here; 0 for protocols without writer chains.
   */
  default long recordsWaitingForRoom() {
    return 0;
  }

  /** The writers (incarnation and lane) whose chains hold {@link #recordsWaitingForRoom()}. */
  default long writersWaitingForRoom() {
    return 0;
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

  /**
   * Checkpoints this client ran in the background (scheduled by its readers and writers) so far,
   * whether or not they completed; protocols without queues run none.
   */
  default long backgroundCheckpointsRun() {
    return 0;
  }

  /**
   * Committed records this client overlays on its reads (read-your-writes) because it has not yet
   * seen them applied; 0 for protocols without the guarantee.
   */
  default long pendingOwnWrites() {
    return 0;
  }

  /** Of {@link #backgroundCheckpointsRun()}, those that gave up or failed. */
  default long backgroundCheckpointsFailed() {
    return 0;
  }

  /**
   * Failures of other background work that left committed records for a later pass (the atomic
   * protocols' propagation, clean-up and recovery), warned about at most once a minute per kind
   * ({@link BackgroundFailures}); 0 for protocols without such work.
   */
  default long backgroundFailures() {
    return 0;
  }

  /** Releases what the protocol holds (threads, queues it polls); the default holds nothing. */
  @Override
  default void close() {}
}
