package io.stratus;

import java.util.List;

/**
 * What a checkpoint of every queue of a database did ({@code Database.checkpointAll()}).
 *
 * @param queues the pending-update queues it looked at
 * @param checkpoints the checkpoints that ran to the end (lock granted, pages put, messages
 *     deleted)
 * @param recordsApplied log records applied (dropped records not counted)
 * @param pagesWritten pages put, new pages included
 * @param failures checkpoints that gave up (lost race, lease too short, cloud error, a corrupt
 *     page)
 * @param queuesBusy queues whose lock another checkpoint held (their records are being applied by
 *     someone else, or wait for that lock's lease): not "done", and not a failure either
 * @param recordsDeferred records seen but left queued, waiting for a predecessor in their chain,
 *     a lane dependency or room in a header: work that remains, though nothing failed
 * @param transactionsWaiting atomic protocol: committed transactions not yet propagated to the PU
 *     queues (this client's pending ones, and those recovery had to leave: too young to judge,
 *     messages not all visible, or their queue locked by another recoverer), and propagated ones
 *     whose clean-up waits (a propagation marker kept until the transaction is old); 0 otherwise
 * @param failureReasons why the first {@code failures} gave up, one line each naming the queue
 *     (or tree), at most {@link #MAX_FAILURE_REASONS}: enough to act on without flooding a log
 */
public record CheckpointSummary(
    int queues,
    int checkpoints,
    long recordsApplied,
    long pagesWritten,
    int failures,
    int queuesBusy,
    long recordsDeferred,
    int transactionsWaiting,
    List<String> failureReasons) {
  /** The most {@link #failureReasons()} a summary keeps. */
  public static final int MAX_FAILURE_REASONS = 3;

  /** Nothing done (a protocol without queues). */
  public static final CheckpointSummary NONE =
      new CheckpointSummary(0, 0, 0, 0, 0, 0, 0, 0, List.of());

  /** Keeps the first {@link #MAX_FAILURE_REASONS} reasons, as an unmodifiable list. */
  public CheckpointSummary {
    failureReasons =
        List.copyOf(
            failureReasons.subList(0, Math.min(failureReasons.size(), MAX_FAILURE_REASONS)));
  }

  /**
   * Whether everything it could see is applied: no failure, no busy queue, nothing deferred,
   * nothing waiting. Messages hidden by another client's receive are not seen by anyone until
   * their visibility timeout ends, so a quiescent summary still needs that long to be final.
   */
  public boolean quiescent() {
    return failures == 0 && queuesBusy == 0 && recordsDeferred == 0 && transactionsWaiting == 0;
  }

  /** This summary with {@code n} more transactions waiting. */
  public CheckpointSummary plusWaiting(int n) {
    return new CheckpointSummary(
        queues,
        checkpoints,
        recordsApplied,
        pagesWritten,
        failures,
        queuesBusy,
        recordsDeferred,
        transactionsWaiting + n,
        failureReasons);
  }
}
