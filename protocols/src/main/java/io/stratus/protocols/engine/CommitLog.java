package io.stratus.protocols.engine;

import io.stratus.CommitFailedException;
import io.stratus.CommitStateUnknownException;
import io.stratus.RecoverySummary;
import io.stratus.protocols.WriteSet;
import io.stratus.protocols.log.PuQueues;
import java.util.Collection;

/**
 * Where the engine's commits go — one of its strategies: {@link PuQueueLog} sends the records to
 * the PU queues directly (basic, monotonic); the atomic protocol's log sends them to an ATOMIC
 * queue first and propagates them from there.
 *
 * <p>Contract: {@link #commit} runs on the committing thread and returns only once the records are
 * sure to reach their PU queues (now, or by propagation or recovery later). It MUST hold a {@link
 * Sequencing.Slot} of {@link EngineParts#sequencing()} around numbering and sending, and MUST tell
 * {@link EngineParts#events()} of every commit that will reach the queues ({@link
 * CommitEvents#winner}, also when the caller is told the outcome is unknown but the log settles it
 * as sent) and of the targets once the records are in their PU queues ({@link
 * CommitEvents#queued}). Background work goes through {@link EngineParts#scheduler()}.
 * Implementations are thread-safe and own what they start: {@link #close} finishes or hands it
 * back.
 */
public interface CommitLog extends AutoCloseable {

  /**
   * Commits the routed records of {@code ws} (never empty).
   *
   * @throws CommitFailedException nothing will be applied
   * @throws CommitStateUnknownException some or all of it may be applied
   */
  void commit(WriteSet ws, Routed routed);

  /**
   * Operator flush on the calling thread: settles, propagates and recovers what this log has
   * pending, as far as it can now.
   *
   * @return commits still waiting afterwards (not yet in their PU queues)
   */
  int drain();

  /**
   * Failures of this log's background work (propagation, clean-up, recovery) so far; the default
   * has no background work.
   */
  default long backgroundFailures() {
    return 0;
  }

  /** Recovers the logs of other clients (abandoned ones); the default has none. */
  default RecoverySummary recoverAbandonedClients() {
    return RecoverySummary.NONE;
  }

  /** A graceful close: settles what it can and stops its background work. */
  @Override
  void close();

  /** What the engine learns from its log about commits. */
  interface CommitEvents {
    /** The records of {@code routed} will reach their PU queues: the writer sees them. */
    void winner(Routed routed);

    /** Records arrived in the queues of {@code targets}: writer-side checkpoints may be due. */
    void queued(Collection<PuQueues.Target> targets);
  }
}
