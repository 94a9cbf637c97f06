package io.stratus.bench.tpcw.harness;

import io.stratus.bench.tpcw.workload.ResponseStats;

/**
 * One application server's part of a run with several ({@link RunSettings#clients()}): its own
 * browsers' interactions and its own database handle's cloud calls and checkpoints.
 *
 * @param index the client's number, from 0
 * @param interactionsPerSecond its completed measured interactions per second
 * @param total its interactions together (response times; cost including its handle's background
 *     work)
 * @param update its interactions that wrote
 * @param checkpointsRun background checkpoints its handle ran in the measurement interval
 * @param checkpointsFailed of those, the ones that gave up
 * @param lockRefusals lock requests of its handle the lock service refused during the run
 *     (warm-up included): checkpoint locks another client held, and record locks under the
 *     isolating protocols
 */
public record ClientResult(
    int index,
    double interactionsPerSecond,
    ResponseStats total,
    ResponseStats update,
    long checkpointsRun,
    long checkpointsFailed,
    long lockRefusals) {}
