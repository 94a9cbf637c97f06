package io.stratus.bench.tpcw.harness;

/**
 * The drain at the end of a run's measurement interval: after the browsers stop, each client's
 * handle is closed gracefully, which checkpoints exactly the pending-update queues it sent records
 * to and no checkpoint of its own covered yet (the isolating protocols, whose close leaves their
 * archive to checkpoints, run checkpoint-all passes first). What that costs is charged to the
 * interval (its calls are part of the run's background work). It is shown on its own, beside the
 * steady-state rate of the interval's own background checkpoints, so that a reader can check that
 * the drain pays no more per record than the run's checkpoints do.
 *
 * @param requests cloud requests started after the measurement interval until the drain ended
 *     (the browsers' last interactions' background work and the drain itself)
 * @param milliDollars2008 their cost under the 2008 prices
 * @param milliDollars2026 their cost under today's prices
 * @param passes checkpoint-all passes run before the close (isolating protocols; 0 otherwise)
 * @param recordsApplied log records the drain took out of the queues and applied
 * @param pagesWritten pages the drain put
 * @param millis how long the drain took
 * @param quiescent whether the drain left nothing owed; false when a close could not checkpoint a
 *     queue it owed or a pass left work deferred, which the report then says
 * @param steadyRecordsApplied log records the interval's own background checkpoints took out of
 *     the queues and applied (the denominator of the steady-state rate)
 */
public record Drain(
    long requests,
    double milliDollars2008,
    double milliDollars2026,
    int passes,
    long recordsApplied,
    long pagesWritten,
    long millis,
    boolean quiescent,
    long steadyRecordsApplied) {
  /** Passes of checkpoint-all the harness runs at most before it gives up on quiescence. */
  public static final int MAX_PASSES = 5;

  /** Nothing drained (a protocol without queues, or a run that did not drain). */
  public static final Drain NONE = new Drain(0, 0, 0, 0, 0, 0, 0, true, 0);

  /** The drain's requests per record it applied; 0 when it applied none. */
  public double requestsPerRecord() {
    return recordsApplied == 0 ? 0 : (double) requests / recordsApplied;
  }

  /** The drain's cost per record it applied, 2008 prices; 0 when it applied none. */
  public double milliDollarsPerRecord2008() {
    return recordsApplied == 0 ? 0 : milliDollars2008 / recordsApplied;
  }
}
