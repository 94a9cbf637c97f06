package io.stratus.bench.tpcw.harness;

import io.stratus.CheckpointSummary;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.decorate.MeterSnapshot;
import io.stratus.cloudapi.decorate.PriceTable;
import io.stratus.core.Database;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.ProtocolOption;

/**
 * Runs the drain of one client's handle after its measurement interval and tells what it did.
 *
 * <p>The drain is the handle's graceful close: the background work running then finishes, the
 * atomic protocols propagate their pending commits, and every pending-update queue the handle
 * still owes a checkpoint (it sent records there that no checkpoint of its own covered) is
 * checkpointed once, as a background checkpoint would; queues that hold none of its records are
 * not visited. A checkpoint-all pass instead visits every queue of the database, several times
 * each, which in a short run cost many times per record what the interval's own checkpoints
 * cost. The isolating protocols' close leaves their archive to checkpoints (readers roll pages
 * forward from it), so for them one client of the run ({@link ArchiveDrainTurn}) first runs
 * checkpoint-all passes (one archive queue per tree) until a pass finds nothing left, at most
 * {@link Drain#MAX_PASSES}, once every client's browsers have stopped.
 */
record DrainPasses(
    int passes, long recordsApplied, long pagesWritten, long millis, boolean quiescent) {
  static final DrainPasses NONE = new DrainPasses(0, 0, 0, 0, true);

  /**
   * Drains and closes {@code db} (of protocol {@code kind}); {@code counted} counts the records
   * taken from its pending-update queues. The drain's records are those of every receive that
   * started after the measurement interval, the close's and those of background checkpoints still
   * running when the browsers stopped, since the drain's requests are all the calls started after
   * the interval. {@code turn} tells whether this client drains the archive, and when.
   */
  static DrainPasses run(
      Database db, ProtocolKind kind, AppliedRecords counted, ArchiveDrainTurn turn) {
    long start = System.nanoTime();
    int passes = 0;
    long records = 0;
    long pages = 0;
    boolean quiescent = true;
    if (kind.accepts(ProtocolOption.ISOLATION)) {
      turn.browsersStopped();
    }
    if (kind.accepts(ProtocolOption.ISOLATION) && turn.drainsArchive()) {
      quiescent = false;
      while (passes < Drain.MAX_PASSES && !quiescent) {
        CheckpointSummary pass = db.admin().checkpointAll();
        passes++;
        records += pass.recordsApplied();
        pages += pass.pagesWritten();
        quiescent = pass.quiescent() && pass.recordsApplied() == 0;
      }
      quiescent = quiescent || passes < Drain.MAX_PASSES;
    }
    db.close();
    records += counted.afterInterval();
    quiescent &= db.stats().owedCheckpoints() == 0;
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

  /**
   * The drain as the report shows it, with the calls started after the interval ({@code after}):
   * the pages it wrote are the page puts among them when no pass counted them.
   */
  Drain toDrain(
      MeterSnapshot after, PriceTable paper, PriceTable today, long steadyRecordsApplied) {
    long puts =
        pagesWritten > 0
            ? pagesWritten
            : after.stats(Operation.STORAGE_PUT).calls()
                + after.stats(Operation.STORAGE_PUT_IF_ABSENT).calls()
                + after.stats(Operation.STORAGE_PUT_IF_VERSION).calls();
    return new Drain(
        after.requests(),
        after.cost(paper).doubleValue() * 1000,
        after.cost(today).doubleValue() * 1000,
        passes,
        recordsApplied,
        puts,
        millis,
        quiescent,
        steadyRecordsApplied);
  }
}
