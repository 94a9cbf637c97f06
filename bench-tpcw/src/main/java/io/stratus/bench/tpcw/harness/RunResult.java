package io.stratus.bench.tpcw.harness;

import io.stratus.bench.tpcw.bookstore.StockAudit;
import io.stratus.bench.tpcw.rbe.MixCompliance;
import io.stratus.bench.tpcw.rbe.WindowStats;
import io.stratus.bench.tpcw.workload.Interaction;
import io.stratus.bench.tpcw.workload.ResponseStats;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The outcome of one TPC-W run (one configuration): the measurements the papers plot, per
 * interaction and per group, and the engine's own counters.
 *
 * @param label the run's value of the swept parameter (see {@link SweepResult}), e.g. "basic" or "50"
 * @param settings the configuration
 * @param load what loading the database cost
 * @param perInteraction per interaction, in {@link Interaction} order (interactions that never
 *     ran have count 0)
 * @param read read interactions together
 * @param update update interactions together
 * @param total all interactions
 * @param interactionsPerSecond completed interactions per second over the measurement interval: a
 *     closed-loop rate, which is TPC-W's WIPS only when the run follows the specification's rules
 *     ({@link WipsRules})
 * @param measuredSeconds length of the measurement interval
 * @param bufferPoolHitRate hits / (hits + misses) of the database handle's buffer pool in the
 *     measurement interval
 * @param checkpointsRun background checkpoints run in the measurement interval
 * @param checkpointsFailed of those, the ones that gave up
 * @param backgroundRequests cloud requests made outside interactions (checkpoints, propagation);
 *     already allocated to the update interactions in the per-interaction figures
 * @param backgroundMilliDollars2008 their cost under the 2008 prices
 * @param backgroundMilliDollars2026 their cost under today's prices
 * @param errorSamples a few of the errors interactions ended with (type and message)
 * @param lostItemUpdates committed updates of an item row (Buy Confirm's stock decrement, Admin
 *     Confirm's changes) that wrote a version another committed update had written too: the
 *     update read the same version as that one, so one of the two was lost (whole run, warm-up
 *     included; at least this many)
 * @param lostCustomerUpdates the same for customer rows
 * @param drain the drain at the end of the measurement interval, whose cost is in the background
 *     figures
 * @param serverCost the machines paid by the hour over the interval; the cost per WI ({@link
 *     CostPerWi}) adds them, per WI, to the per-interaction request costs
 * @param lockRefusals lock requests the lock service refused during the run, all clients
 * @param clients each application server's part when there were several, else empty
 * @param stockAudit every item's stock against its loaded stock plus the committed Buy Confirms'
 *     changes, after the drain (lost updates found by accounting), or null when not audited
 * @param ownReads the freshness of sessions' reads of their own writes
 * @param repeat which measurement of its planned run this is, from 1 ({@link Schedule})
 * @param windows the measurement interval's equal windows, in order ({@link Windows})
 * @param cpu where the interval's CPU went, per interaction ({@link CpuProfile#NONE} when not
 *     measured)
 */
public record RunResult(
    String label,
    RunSettings settings,
    LoadSummary load,
    Map<Interaction, ResponseStats> perInteraction,
    ResponseStats read,
    ResponseStats update,
    ResponseStats total,
    double interactionsPerSecond,
    double measuredSeconds,
    double bufferPoolHitRate,
    long checkpointsRun,
    long checkpointsFailed,
    long backgroundRequests,
    double backgroundMilliDollars2008,
    double backgroundMilliDollars2026,
    List<String> errorSamples,
    long lostItemUpdates,
    long lostCustomerUpdates,
    Drain drain,
    ServerCost serverCost,
    long lockRefusals,
    List<ClientResult> clients,
    StockAudit stockAudit,
    OwnReads ownReads,
    int repeat,
    List<WindowStats> windows,
    CpuProfile cpu) {

  /** Checks the repeat and copies the windows. */
  public RunResult {
    if (repeat < 1) {
      throw new IllegalArgumentException("repeat must be positive, not " + repeat);
    }
    windows = List.copyOf(windows);
  }

  /**
   * Requests per record applied of the interval's own background work (the background without
   * the drain): the steady-state rate the drain is compared with; 0 when it applied no record.
   */
  public double steadyRequestsPerRecord() {
    long records = drain.steadyRecordsApplied();
    return records == 0 ? 0 : (double) (backgroundRequests - drain.requests()) / records;
  }

  /** The same in milli-dollars at 2008 prices. */
  public double steadyMilliDollarsPerRecord2008() {
    long records = drain.steadyRecordsApplied();
    return records == 0 ? 0 : (backgroundMilliDollars2008 - drain.milliDollars2008()) / records;
  }

  /** Whether the run followed its mix, per interaction ({@link MixCompliance}). */
  public List<MixCompliance.Row> mixCompliance() {
    Map<Interaction, Long> counts = new EnumMap<>(Interaction.class);
    perInteraction.forEach((wi, stats) -> counts.put(wi, stats.count()));
    return MixCompliance.of(settings.mix(), counts);
  }
}
