package io.stratus.core;

import io.stratus.pagemanager.BufferPoolStats;

/**
 * What a {@link Database} handle has done since it was opened, at one moment (counters are read one
 * after another, so a snapshot under load may be off by the transactions in flight).
 *
 * @param bufferPool the buffer pool's counters (hits, misses, refreshes, evictions, size)
 * @param commits transactions committed (read-only ones included)
 * @param aborts transactions aborted by the application (abort, or close without commit)
 * @param failedCommits commits that failed (and so ended their transaction)
 * @param pagesWritten pages the commit protocol wrote to storage
 * @param checkpointsRun checkpoints this handle ran in the background, completed or not
 * @param checkpointsFailed of those, the ones that gave up or failed (their records stay queued)
 * @param pendingOwnWrites committed records this handle overlays on its reads until it knows them
 *     applied (monotonic and atomic: read-your-writes); the overlay's memory follows it
 */
public record DatabaseStats(
    BufferPoolStats bufferPool, long commits, long aborts, long failedCommits,
    long pagesWritten, long checkpointsRun, long checkpointsFailed, long pendingOwnWrites) {}
