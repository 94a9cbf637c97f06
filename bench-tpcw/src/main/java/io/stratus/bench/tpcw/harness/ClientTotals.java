package io.stratus.bench.tpcw.harness;

import io.stratus.bench.tpcw.bookstore.StockAudit;
import io.stratus.bench.tpcw.rbe.Emulator;
import io.stratus.bench.tpcw.rbe.EmulatorReport;
import java.util.List;

/**
 * What a run's clients (its application servers' handles) added up to over the measured interval,
 * however they ran — in the harness's JVM or each in a process of its own — and the run's result
 * made from it ({@link #result}): one place for the run's figures, whichever way they were
 * gathered.
 *
 * @param bufferHits buffer-pool hits
 * @param bufferFetches buffer-pool fetches
 * @param checkpointsRun checkpoint runs that completed
 * @param checkpointsFailed checkpoint runs that failed
 * @param lockRefusals lock requests refused
 * @param steadyRecords records the interval's own background work applied (not the drain's)
 * @param lostItemUpdates stock updates lost
 * @param lostCustomerUpdates customer updates lost
 * @param ownReads the sessions' reads of their own writes
 * @param drain the end-of-run drain's passes, all clients'
 * @param perClient one result per client
 */
record ClientTotals(
    long bufferHits,
    long bufferFetches,
    long checkpointsRun,
    long checkpointsFailed,
    long lockRefusals,
    long steadyRecords,
    long lostItemUpdates,
    long lostCustomerUpdates,
    OwnReads ownReads,
    DrainPasses drain,
    List<ClientResult> perClient) {

  /** The run's result from these totals, the clients' reports and the stock audit. */
  RunResult result(
      String label,
      int repeat,
      RunSettings s,
      LoadSummary load,
      Emulator.ClientsReport reports,
      StockAudit audit,
      CpuProfile cpu) {
    EmulatorReport report = reports.total();
    int n = perClient.size();
    return new RunResult(
        label,
        s,
        load,
        report.perInteraction(),
        report.read(),
        report.update(),
        report.total(),
        report.interactionsPerSecond(),
        report.measuredSeconds(),
        bufferFetches == 0 ? 0 : (double) bufferHits / bufferFetches,
        checkpointsRun,
        checkpointsFailed,
        report.backgroundRequests(),
        report.backgroundMilliDollars2008(),
        report.backgroundMilliDollars2026(),
        report.errorSamples(),
        lostItemUpdates,
        lostCustomerUpdates,
        drain.toDrain(
            report.drain(), TpcwHarness.paperPrices(s), TpcwHarness.todayPrices(s), steadyRecords),
        ServerCost.forRun(s.placement().equals("ec2") ? n : 0, report),
        lockRefusals,
        n == 1 ? List.of() : List.copyOf(perClient),
        audit,
        ownReads,
        repeat,
        reports.windows(),
        cpu);
  }
}
