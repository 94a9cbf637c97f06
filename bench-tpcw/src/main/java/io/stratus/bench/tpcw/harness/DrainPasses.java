package io.stratus.bench.tpcw.harness;

import io.stratus.cloudapi.decorate.MeterSnapshot;
import io.stratus.cloudapi.decorate.PriceTable;
import io.stratus.core.Database;
import io.stratus.protocols.CheckpointSummary;

/**
 * Runs the drain of a measurement interval: checkpoint-all passes until one finds nothing left
 * that it can see, at most {@link Drain#MAX_PASSES}. A pass can leave work behind that it did not
 * see yet (records deferred behind a predecessor, transactions waiting for propagation), which
 * the next pass finds; a bounded number of passes keeps a run from hanging on work another client
 * holds.
 */
record DrainPasses(
    int passes, long recordsApplied, long pagesWritten, long millis, boolean quiescent) {
  static final DrainPasses NONE = new DrainPasses(0, 0, 0, 0, true);

  /** Drains {@code db}. */
  static DrainPasses run(Database db) {
    long start = System.nanoTime();
    int passes = 0;
    long records = 0;
    long pages = 0;
    boolean quiescent = false;
    while (passes < Drain.MAX_PASSES && !quiescent) {
      CheckpointSummary pass = db.checkpointAll();
      passes++;
      records += pass.recordsApplied();
      pages += pass.pagesWritten();
      quiescent = pass.quiescent();
    }
    return new DrainPasses(
        passes, records, pages, (System.nanoTime() - start) / 1_000_000, quiescent);
  }

  /** This drain and {@code other} (another client's) together. */
  DrainPasses plus(DrainPasses other) {
    return new DrainPasses(
        passes + other.passes,
        recordsApplied + other.recordsApplied,
        pagesWritten + other.pagesWritten,
        millis + other.millis,
        quiescent && other.quiescent);
  }

  /** The drain as the report shows it, with the calls started after the interval. */
  Drain toDrain(MeterSnapshot after, PriceTable paper, PriceTable today) {
    return new Drain(
        after.requests(),
        after.cost(paper).doubleValue() * 1000,
        after.cost(today).doubleValue() * 1000,
        passes,
        recordsApplied,
        pagesWritten,
        millis,
        quiescent);
  }
}
