package io.stratus.protocols;

/**
 * A protocol's counters at one moment ({@link CommitProtocol#stats()}), read one after another.
 *
 * @param backgroundCheckpointsRun checkpoints this client ran in the background (scheduled by its
 *     readers and writers) so far, whether or not they completed
 * @param backgroundCheckpointsFailed of {@code backgroundCheckpointsRun}, those that gave up or
 *     failed
 * @param backgroundFailures failures of other background work that left committed records for a
 *     later pass (the atomic protocols' propagation, clean-up and recovery), warned about at most
 *     once a minute per kind ({@link BackgroundFailures})
 * @param pendingOwnWrites committed records this client overlays on its reads (read-your-writes)
 *     because it has not yet seen them applied
 * @param owedCheckpoints queues this handle sent records to that no checkpoint of its own has
 *     covered yet: it owes each a checkpoint, which it schedules once the record is older than the
 *     checkpoint interval (so a record nobody touches again is still applied well within the
 *     queue's retention)
 * @param recordsWaitingForRoom records this handle's checkpoints left queued because their
 *     writer's chain found no room in the page header (monotonic writes: each writer incarnation
 *     and lane that writes a page needs an entry there, and a full header takes new ones only as
 *     chains of closed or dead writers retire), as of each queue's latest checkpoint here
 * @param writersWaitingForRoom the writers (incarnation and lane) whose chains hold {@code
 *     recordsWaitingForRoom}
 */
public record ProtocolStats(
    long backgroundCheckpointsRun,
    long backgroundCheckpointsFailed,
    long backgroundFailures,
    long pendingOwnWrites,
    long owedCheckpoints,
    long recordsWaitingForRoom,
    long writersWaitingForRoom) {

  /** All zero: a protocol without background work, queues, overlay or writer chains. */
  public static final ProtocolStats NONE = new ProtocolStats(0, 0, 0, 0, 0, 0, 0);
}
