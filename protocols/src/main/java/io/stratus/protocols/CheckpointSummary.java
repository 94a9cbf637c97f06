package io.stratus.protocols;

/**
 * What {@link CommitProtocol#checkpointAll()} did.
 *
 * @param queues the pending-update queues it looked at
 * @param checkpoints the checkpoints that ran to the end (lock granted, pages put, messages
 *     deleted)
 * @param recordsApplied log records applied (dropped records not counted)
 * @param pagesWritten pages put, new pages included
 * @param failures checkpoints that gave up (lock refused, lost race, lease too short, cloud error)
 */
public record CheckpointSummary(
    int queues, int checkpoints, long recordsApplied, long pagesWritten, int failures) {
  /** Nothing done (a protocol without queues). */
  public static final CheckpointSummary NONE = new CheckpointSummary(0, 0, 0, 0, 0);
}
