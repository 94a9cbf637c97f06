package io.stratus.bench.tpcw;

import io.stratus.CheckpointSummary;
import io.stratus.bench.tpcw.harness.HourlyPrices;
import io.stratus.bench.tpcw.harness.ServerCost;
import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.decorate.CloudMeter;
import io.stratus.cloudapi.decorate.Decorators;
import io.stratus.cloudapi.decorate.LatencyInterceptor;
import io.stratus.cloudapi.decorate.LatencyModel;
import io.stratus.cloudapi.decorate.LatencyProfiles;
import io.stratus.cloudapi.decorate.MeterSnapshot;
import io.stratus.cloudapi.decorate.MeteringInterceptor;
import io.stratus.cloudapi.decorate.PriceTable;
import io.stratus.cloudapi.decorate.PriceTables;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.cloudapi.time.SystemScheduler;
import io.stratus.core.Database;
import io.stratus.core.DatabaseAdmin;
import io.stratus.core.DatabaseConfig;
import io.stratus.core.Key;
import io.stratus.core.Record;
import io.stratus.core.Transaction;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.ProtocolOption;
import java.io.PrintWriter;
import java.io.Writer;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Commit latency and cost per protocol: for each protocol, latency profile and
 * transaction size, it commits transactions that update that many random records of a loaded
 * collection and reports the average commit latency (against one simple-queue round trip of the
 * profile), the cloud requests and dollars per transaction (its reads of uncached pages included),
 * and — for the queue protocols — the requests and dollars per checkpoint that later applies them;
 * then the coordination requests (locks, counters, advanced queues) a transaction makes itself
 * (its checkpoints' locks are in the checkpoint's requests), and, for a protocol whose commits or
 * checkpoints make any, what the ensemble that serves them costs per transaction at today's
 * prices, paid by the hour ({@link HourlyPrices}) for the time the transactions took.
 *
 * <p>Background work (checkpoints, the clean-up of committed ATOMIC messages) is held back while
 * commits are timed, and then run by {@link DatabaseAdmin#checkpointAll()}, so that commits and
 * checkpoints are priced separately. During the warm-up it runs after every commit: held back
 * for longer than the atomic timeout, committed ATOMIC messages would look abandoned to the
 * recovery check of the advanced protocols, and the timed commits would pay for recovering them.
 * The transaction column is the whole transaction (its reads, which under two-phase locking lock,
 * and refresh where the lock's stamp shows a newer commit, and its commit); beside the means, the medians, which a few commits slowed by a
 * loaded machine move less, and — per commit and per transaction — the rounds of cloud calls made
 * one after another and their latency by the model ({@link CriticalPath}), which no load changes. Latency is simulated by the latency decorator in real time; the
 * papers' client placements are the profiles.
 */
final class ProtocolBenchmark {
  private static final int RECORDS = 5_000;
  private static final int PAYLOAD = 100;

  /** What to run. */
  record Settings(
      List<ProtocolKind> protocols,
      List<String> profiles,
      List<Integer> sizes,
      int commits,
      int pageSize,
      long seed) {}

  private final Settings settings;
  private final PrintWriter out;

  ProtocolBenchmark(Settings settings, PrintWriter out) {
    this.settings = settings;
    this.out = out;
  }

  void run() {
    out.printf(
        "Stratus protocol benchmark: %d commits per cell, %d records of %d bytes,"
            + " %d-byte pages, seed %d%n",
        settings.commits, RECORDS, PAYLOAD, settings.pageSize, settings.seed);
    out.printf(
        "%n%-21s %-7s %5s %12s %9s %8s %11s %11s %9s %9s %9s %9s %10s %14s %14s %12s %14s %9s"
            + " %15s%n",
        "protocol",
        "profile",
        "size",
        "commit (ms)",
        "x queue",
        "tx (ms)",
        "commit p50",
        "tx p50",
        "c rounds",
        "c model",
        "tx rounds",
        "tx model",
        "req/tx",
        "m$/tx 2008",
        "m$/tx 2026",
        "req/ckpt",
        "m$/ckpt 2008",
        "coord/tx",
        "ens m$/tx 2026");
    try (SystemScheduler scheduler = new SystemScheduler()) {
      // Untimed, without latency: every protocol's paths run once before the first timed cell,
      // so the protocol measured first does not pay for the JIT (it showed as 0.05-0.15 x).
      PrintWriter discard = new PrintWriter(Writer.nullWriter());
      for (ProtocolKind protocol : settings.protocols) {
        for (int size : settings.sizes) {
          cell(protocol, "none", size, scheduler, discard);
        }
      }
      for (String profile : settings.profiles) {
        for (ProtocolKind protocol : settings.protocols) {
          for (int size : settings.sizes) {
            cell(protocol, profile, size, scheduler, out);
          }
        }
      }
    }
  }

  private void cell(
      ProtocolKind protocol, String profile, int size, SystemScheduler scheduler, PrintWriter to) {
    LatencyModel model = LatencyProfiles.byName(profile);
    CloudMeter meter = new CloudMeter();
    ConcurrentLinkedQueue<Runnable> heldBack = new ConcurrentLinkedQueue<>();
    CriticalPath path = new CriticalPath(model);
    try (InProcessCloud cloud = InProcessCloud.builder().seed(settings.seed).build()) {
      CloudServices services =
          Decorators.wrap(
              cloud.services(),
              path,
              new MeteringInterceptor(meter),
              new LatencyInterceptor(model, scheduler));
      DatabaseConfig.Builder builder =
          DatabaseConfig.builder(services, "bench/protocols")
              .protocol(protocol)
              .pageSize(settings.pageSize)
              .clientId("bench-" + protocol.name().toLowerCase(Locale.ROOT));
      if (protocol.accepts(ProtocolOption.CHECKPOINTS)) {
        builder.checkpointExecutor(heldBack::add);
      }
      DatabaseConfig config = builder.build();
      try (Database db = Database.open(config)) {
        db.createCollection("items");
        db.bulkLoad("items", records());
        SplittableRandom random = new SplittableRandom(settings.seed);
        // Warm-up: the pages get cached and the PU queues of the pages get created (once per
        // queue, by the first commit that needs one), so the timed commits show the steady state.
        Runnable drain =
            () -> {
              for (Runnable task = heldBack.poll(); task != null; task = heldBack.poll()) {
                task.run();
              }
            };
        commitAll(db, random, RECORDS / 50, 1, drain, path);
        MeterSnapshot before = meter.snapshot();
        Timings t = commitAll(db, random, settings.commits, size, () -> {}, path);
        MeterSnapshot commits = meter.snapshot().minus(before);
        double commitMs = Arrays.stream(t.commitNanos).sum() / 1e6 / settings.commits;
        double txMs = Arrays.stream(t.txNanos).sum() / 1e6 / settings.commits;
        double queueMs = model.latency(Operation.QUEUE_SEND, 100, 0).toNanos() / 1e6;
        String ckptRequests = "-";
        String ckptCost = "-";
        long coordination = ServerCost.coordinationRequests(commits);
        boolean usesEnsemble = coordination > 0;
        if (protocol != ProtocolKind.NAIVE) {
          MeterSnapshot beforeCkpt = meter.snapshot();
          CheckpointSummary summary = db.admin().checkpointAll();
          MeterSnapshot ckpt = meter.snapshot().minus(beforeCkpt);
          int checkpoints = Math.max(1, summary.checkpoints());
          ckptRequests = String.format("%.1f", (double) ckpt.requests() / checkpoints);
          ckptCost = milli(ckpt, PriceTables.paper2008(), profile, checkpoints);
          usesEnsemble |= ServerCost.coordinationRequests(ckpt) > 0;
        }
        to.printf(
            "%-21s %-7s %5d %12.1f %9.2f %8.1f %11.1f %11.1f %9.1f %9.1f %9.1f %9.1f %10.1f %14s %14s"
                + " %12s %14s %9.1f %15s%n",
            protocol.name().toLowerCase(Locale.ROOT),
            profile,
            size,
            commitMs,
            commitMs / queueMs,
            txMs,
            medianMillis(t.commitNanos),
            medianMillis(t.txNanos),
            (double) t.commitPath.rounds() / settings.commits,
            t.commitPath.modelledNanos() / 1e6 / settings.commits,
            (double) t.txPath.rounds() / settings.commits,
            t.txPath.modelledNanos() / 1e6 / settings.commits,
            (double) commits.requests() / settings.commits,
            milli(commits, PriceTables.paper2008(), profile, settings.commits),
            milli(commits, PriceTables.aws2026(), profile, settings.commits),
            ckptRequests,
            ckptCost,
            (double) coordination / settings.commits,
            usesEnsemble ? ensemble(Arrays.stream(t.txNanos).sum()) : "-");
      }
    }
  }

  /**
   * What {@link #commitAll} measured: the nanoseconds of each commit and of each whole transaction,
   * and the rounds of cloud calls of all commits and of all whole transactions.
   */
  private record Timings(
      long[] commitNanos,
      long[] txNanos,
      CriticalPath.Totals commitPath,
      CriticalPath.Totals txPath) {}

  /**
   * Commits {@code count} transactions of {@code size} updates, running {@code between} after
   * each.
   */
  private static Timings commitAll(
      Database db,
      SplittableRandom random,
      int count,
      int size,
      Runnable between,
      CriticalPath path) {
    byte[] payload = new byte[PAYLOAD];
    long[] commitNanos = new long[count];
    long[] txNanos = new long[count];
    CriticalPath.Totals commitPath = new CriticalPath.Totals(0, 0);
    CriticalPath.Totals txPath = new CriticalPath.Totals(0, 0);
    for (int c = 0; c < count; c++) {
      CriticalPath.Totals atBegin = path.totals();
      long began = System.nanoTime();
      try (Transaction tx = db.begin()) {
        for (int i = 0; i < size; i++) {
          random.nextBytes(payload);
          tx.update("items", Key.of((long) random.nextInt(RECORDS)), payload);
        }
        CriticalPath.Totals atCommit = path.totals();
        long start = System.nanoTime();
        tx.commit();
        long end = System.nanoTime();
        commitNanos[c] = end - start;
        txNanos[c] = end - began;
        CriticalPath.Totals after = path.totals();
        commitPath = commitPath.plus(after.minus(atCommit));
        txPath = txPath.plus(after.minus(atBegin));
      }
      between.run();
    }
    return new Timings(commitNanos, txNanos, commitPath, txPath);
  }

  /**
   * The median in milliseconds: on a machine shared with other work, a few commits that waited for
   * a core move the mean far more than the median.
   */
  private static double medianMillis(long[] nanos) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    double median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
    return median / 1e6;
  }

  /**
   * The coordination ensemble's rent per transaction at today's prices, at this cell's pace: the
   * ensemble's hourly price for the time the transactions took, over the transactions. One client
   * committing back to back has the ensemble to itself, so this is the most a transaction pays for
   * it; clients that share an ensemble divide it among them.
   */
  private String ensemble(long transactionNanos) {
    double hours = transactionNanos / 1e9 / 3600;
    double perTransaction =
        HourlyPrices.AWS_2026.coordinationPerHour() * hours * 1000 / settings.commits;
    return new BigDecimal(perTransaction).round(new MathContext(3)).toPlainString();
  }

  /** Milli-dollars per unit; a client on EC2 pays no transfer. */
  private static String milli(MeterSnapshot s, PriceTable table, String profile, int units) {
    PriceTable priced = profile.equals("eu") ? table : table.withoutTransfer();
    return s.cost(priced)
        .multiply(BigDecimal.valueOf(1000))
        .divide(BigDecimal.valueOf(units), 6, RoundingMode.HALF_UP)
        .toPlainString();
  }

  private static List<Record> records() {
    List<Record> records = new ArrayList<>(RECORDS);
    for (int i = 0; i < RECORDS; i++) {
      records.add(new Record(Key.of((long) i), new byte[PAYLOAD]));
    }
    return records;
  }
}
