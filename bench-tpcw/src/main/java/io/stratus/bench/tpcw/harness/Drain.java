package io.stratus.bench.tpcw.harness;

/**
 * The drain at the end of a run's measurement interval: after the browsers stop, the harness
 * checkpoints every queue until nothing the interval committed is left pending, and charges what
 * that costs to the interval (its calls are part of the run's background work). Shown on its own
 * so that a reader sees how much of the background only the drain paid.
 *
 * @param requests cloud requests started after the measurement interval until the drain ended
 *     (the browsers' last interactions' background work and the drain itself)
 * @param milliDollars2008 their cost under the 2008 prices
 * @param milliDollars2026 their cost under today's prices
 * @param passes checkpoint-all passes run (at most {@link #MAX_PASSES})
 * @param recordsApplied log records the passes applied
 * @param pagesWritten pages the passes put
 * @param millis how long the drain took
 * @param quiescent whether the last pass found nothing left to do; false when work stayed deferred
 *     or hidden (e.g. messages another client held), which the report then says
 */
public record Drain(
    long requests,
    double milliDollars2008,
    double milliDollars2026,
    int passes,
    long recordsApplied,
    long pagesWritten,
    long millis,
    boolean quiescent) {
  /** Passes of checkpoint-all the harness runs at most before it gives up on quiescence. */
  public static final int MAX_PASSES = 5;

  /** Nothing drained (a protocol without queues, or a run that did not drain). */
  public static final Drain NONE = new Drain(0, 0, 0, 0, 0, 0, 0, true);
}
