package io.stratus.bench.tpcw.sigmod;

import io.stratus.bench.tpcw.bookstore.Scale;
import io.stratus.cloudapi.decorate.MeterSnapshot;
import io.stratus.cloudapi.decorate.PriceTable;
import io.stratus.cloudapi.decorate.PriceTables;
import io.stratus.protocols.ProtocolKind;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Paper 001's experiments (section 6) on Stratus: the complex transaction run by N clients per
 * protocol (its Tables 3 and 4: time and cost per transaction), and cost against the checkpoint
 * interval (its Figure 3).
 *
 * <p>For each protocol a timed run ({@link SigmodRun.Mode#TIMED}) measures the average and
 * maximum time per transaction through the latency profile and the cost of everything the
 * measured transactions caused, split as the paper splits it: the transactions' own calls, and
 * checkpoints plus the atomic protocol's queue work. The sweep then replays each swept protocol
 * in simulated time ({@link SigmodRun.Mode#SIMULATED}) once per checkpoint interval, each client
 * starting a transaction every time-per-transaction of its timed run (or {@code --spacing}), for
 * long enough that many checkpoints fall in every interval, and writes {@code
 * cost-vs-checkpoint-interval.csv} and its charts.
 */
public final class SigmodBenchmark {
  /** Paper 001 Table 3: average and maximum seconds per transaction. */
  static final Map<ProtocolKind, double[]> PAPER_TIME =
      Map.of(
          ProtocolKind.NAIVE, new double[] {11.3, 12.1},
          ProtocolKind.BASIC, new double[] {4.0, 5.9},
          ProtocolKind.MONOTONIC, new double[] {4.0, 6.8},
          ProtocolKind.ATOMIC, new double[] {2.8, 4.6});

  /** Paper 001 Table 4: dollars per 1,000 transactions: total, checkpoint + atomic queue, tx. */
  static final Map<ProtocolKind, double[]> PAPER_COST =
      Map.of(
          ProtocolKind.NAIVE, new double[] {0.15, 0, 0.15},
          ProtocolKind.BASIC, new double[] {1.8, 1.1, 0.7},
          ProtocolKind.MONOTONIC, new double[] {2.1, 1.4, 0.7},
          ProtocolKind.ATOMIC, new double[] {2.9, 2.6, 0.3});

  /** Column heads of a cost split. */
  private static final String PARTS =
      String.format(Locale.ROOT, "%9s %9s %9s", "total", "ckpt+q", "tx");

  /**
   * What to run.
   *
   * @param protocols the protocols of the tables, in order
   * @param sweepProtocols the protocols of the checkpoint-interval sweep (each has checkpoints)
   * @param intervals the swept checkpoint intervals
   * @param warmUp unmeasured transactions per client before each run
   * @param transactions measured transactions per client of a timed run
   * @param sweepTransactions transactions per client of each sweep run
   * @param checkpointInterval the checkpoint interval of the timed runs
   * @param spacing the sweep's time between one client's transaction starts; empty: the time per
   *     transaction its protocol's timed run measured
   * @param sqsPricePerThousand the paper table's dollars per 1,000 SQS messages sent
   */
  public record Settings(
      List<ProtocolKind> protocols,
      List<ProtocolKind> sweepProtocols,
      List<Duration> intervals,
      String profile,
      int clients,
      int warmUp,
      int transactions,
      int sweepTransactions,
      Duration checkpointInterval,
      Scale scale,
      int pageSize,
      Duration ttl,
      int timeScale,
      Optional<Duration> spacing,
      BigDecimal sqsPricePerThousand,
      long seed,
      Path out) {
    public Settings {
      protocols = List.copyOf(protocols);
      sweepProtocols = List.copyOf(sweepProtocols);
      intervals = List.copyOf(intervals);
    }
  }

  private final Settings settings;
  private final PrintWriter out;
  private final PriceTable paperPrices;

  public SigmodBenchmark(Settings settings, PrintWriter out) {
    this.settings = settings;
    this.out = out;
    this.paperPrices = SigmodPrices.paper001(settings.sqsPricePerThousand());
  }

  /** Runs the tables and the sweep, prints them and writes the output directory. */
  public void run() {
    Settings s = settings;
    out.printf(
        Locale.ROOT,
        "Paper 001 section 6: one complex transaction (read a customer,"
            + " search six products, order three)%n");
    out.printf(
        Locale.ROOT,
        "%d client%s, %d transactions each after %d warm-up, %s profile"
            + " (time scale %d), checkpoint interval %s, TTL %s, %,d-byte pages, %,d items,"
            + " %,d customers, seed %d%n",
        s.clients(),
        s.clients() == 1 ? "" : "s",
        s.transactions(),
        s.warmUp(),
        s.profile(),
        s.timeScale(),
        seconds(s.checkpointInterval()),
        seconds(s.ttl()),
        s.pageSize(),
        s.scale().items(),
        s.scale().customers(),
        s.seed());
    out.printf(
        Locale.ROOT,
        "Prices: %s; 2026 = %s%s%n",
        describe(paperPrices),
        PriceTables.aws2026().name(),
        s.profile().equalsIgnoreCase("ec2") ? " (no transfer: ec2 placement)" : "");
    out.println();
    List<SigmodRun.Result> timed = new ArrayList<>();
    List<ProtocolKind> all = new ArrayList<>(s.protocols());
    for (ProtocolKind p : s.sweepProtocols()) {
      if (!all.contains(p) && s.spacing().isEmpty()) {
        all.add(p);
      }
    }
    for (int i = 0; i < all.size(); i++) {
      SigmodRun.Result r =
          new SigmodRun(
                  spec(
                      all.get(i),
                      SigmodRun.Mode.TIMED,
                      s.transactions(),
                      s.checkpointInterval(),
                      Duration.ZERO))
              .run();
      timed.add(r);
      out.printf(
          Locale.ROOT,
          "[%d/%d] %s: %d committed, %d failed, avg %.2f s, max %.2f s,"
              + " %s $ per 1,000 (paper prices)%s (%.1f s)%n",
          i + 1,
          all.size(),
          name(r),
          r.committed(),
          r.failed(),
          r.averageSeconds(),
          r.maxSeconds(),
          money(r.perThousand(r.all(), paperPrices)),
          warnings(r),
          r.wallTime().toMillis() / 1e3);
      out.flush();
    }
    out.println();
    printTimes(timed);
    out.println();
    printCosts(timed);
    List<SigmodRun.Result> sweep = sweep(timed);
    try {
      Files.createDirectories(s.out());
      SigmodReport.write(s.out(), timed, sweep, paperPrices);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + s.out() + ": " + e.getMessage(), e);
    }
    if (!sweep.isEmpty()) {
      out.println();
      printSweep(sweep);
    }
    out.println();
    out.println(
        "Written to " + s.out() + ": " + String.join(", ", SigmodReport.files(!sweep.isEmpty())));
    out.flush();
  }

  private List<SigmodRun.Result> sweep(List<SigmodRun.Result> timed) {
    Settings s = settings;
    List<SigmodRun.Result> results = new ArrayList<>();
    int total = s.sweepProtocols().size() * s.intervals().size();
    if (total == 0) {
      return results;
    }
    out.println();
    int n = 0;
    for (ProtocolKind p : s.sweepProtocols()) {
      Duration spacing =
          s.spacing()
              .orElseGet(
                  () ->
                      timed.stream()
                          .filter(r -> r.spec().protocol() == p && r.committed() > 0)
                          .map(r -> Duration.ofNanos(r.totalNanos() / r.committed()))
                          .findFirst()
                          .orElse(Duration.ofSeconds(1)));
      for (Duration interval : s.intervals()) {
        SigmodRun.Result r =
            new SigmodRun(
                    spec(p, SigmodRun.Mode.SIMULATED, s.sweepTransactions(), interval, spacing))
                .run();
        results.add(r);
        out.printf(
            Locale.ROOT,
            "[sweep %d/%d] %s, checkpoint interval %s, a transaction every"
                + " %.2f s per client: %s $ per 1,000 (paper prices), %,d checkpoints%s (%.1f s)%n",
            ++n,
            total,
            name(r),
            seconds(interval),
            spacing.toNanos() / 1e9,
            money(r.perThousand(r.all(), paperPrices)),
            r.checkpoints(),
            warnings(r),
            r.wallTime().toMillis() / 1e3);
        out.flush();
      }
    }
    return results;
  }

  private SigmodRun.Spec spec(
      ProtocolKind p, SigmodRun.Mode mode, int perClient, Duration interval, Duration spacing) {
    Settings s = settings;
    return new SigmodRun.Spec(
        p,
        mode,
        s.profile(),
        s.clients(),
        s.warmUp(),
        perClient,
        interval,
        s.scale(),
        s.pageSize(),
        s.ttl(),
        s.timeScale(),
        spacing,
        s.seed());
  }

  // ---- console tables ----

  private void printTimes(List<SigmodRun.Result> timed) {
    out.println(
        "Time per transaction (s): measured; had its calls been made one by one;"
            + " paper 001 Table 3");
    out.printf(
        Locale.ROOT,
        "%-22s %7s %7s %9s %9s %9s %9s %9s %9s%n",
        "protocol",
        "avg",
        "max",
        "1-by-1",
        "1-by-1",
        "requests",
        "SQS",
        "paper",
        "paper");
    out.printf(
        Locale.ROOT,
        "%-22s %7s %7s %9s %9s %9s %9s %9s %9s%n",
        "",
        "",
        "",
        "avg",
        "max",
        "per tx",
        "sends/tx",
        "avg",
        "max");
    for (SigmodRun.Result r : timed) {
      double[] paper = PAPER_TIME.get(r.spec().protocol());
      out.printf(
          Locale.ROOT,
          "%-22s %7.2f %7.2f %9.2f %9.2f %9.1f %9.1f %9s %9s%n",
          name(r),
          r.averageSeconds(),
          r.maxSeconds(),
          r.serialSeconds(),
          r.serialMaxSeconds(),
          perTransaction(r, r.transactions().requests()),
          perTransaction(r, sends(r.transactions())),
          paper == null ? "-" : fixed(paper[0]),
          paper == null ? "-" : fixed(paper[1]));
    }
  }

  private void printCosts(List<SigmodRun.Result> timed) {
    out.println(
        "Cost per 1,000 transactions ($): total, checkpoints + queues, transactions;"
            + " paper 001 Table 4 beside ours");
    out.printf(
        Locale.ROOT,
        "%-22s %29s %29s %20s%n",
        "",
        "ours, " + paperPrices.name(),
        "ours, " + PriceTables.aws2026().name(),
        "paper 001 Table 4");
    out.printf(
        Locale.ROOT,
        "%-22s %s %s %6s %6s %6s %7s%n",
        "protocol",
        PARTS,
        PARTS,
        "total",
        "ckpt+q",
        "tx",
        "ckpts");
    for (SigmodRun.Result r : timed) {
      double[] paper = PAPER_COST.get(r.spec().protocol());
      out.printf(
          Locale.ROOT,
          "%-22s %s %s %20s %7d%n",
          name(r),
          split(r, paperPrices),
          split(r, PriceTables.aws2026()),
          paper == null
              ? "-"
              : String.format(
                  Locale.ROOT, "%6s %6s %6s", fixed(paper[0]), fixed(paper[1]), fixed(paper[2])),
          r.checkpoints());
    }
  }

  private void printSweep(List<SigmodRun.Result> sweep) {
    out.println(
        "Cost per 1,000 transactions ($, paper prices / 2026 prices) against the"
            + " checkpoint interval (paper 001 Figure 3)");
    Map<Duration, Map<ProtocolKind, SigmodRun.Result>> rows = new LinkedHashMap<>();
    for (SigmodRun.Result r : sweep) {
      rows.computeIfAbsent(r.spec().checkpointInterval(), k -> new LinkedHashMap<>())
          .put(r.spec().protocol(), r);
    }
    StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "%-10s", "interval"));
    for (ProtocolKind p : settings.sweepProtocols()) {
      header.append(String.format(Locale.ROOT, " %25s", p.name().toLowerCase(Locale.ROOT)));
    }
    out.println(header);
    for (Map.Entry<Duration, Map<ProtocolKind, SigmodRun.Result>> row : rows.entrySet()) {
      StringBuilder line =
          new StringBuilder(String.format(Locale.ROOT, "%-10s", seconds(row.getKey())));
      for (ProtocolKind p : settings.sweepProtocols()) {
        SigmodRun.Result r = row.getValue().get(p);
        line.append(
            String.format(
                Locale.ROOT,
                " %12s / %10s",
                money(r.perThousand(r.all(), paperPrices)),
                money(r.perThousand(r.all(), PriceTables.aws2026()))));
      }
      out.println(line);
    }
  }

  private static String split(SigmodRun.Result r, PriceTable prices) {
    return String.format(
        Locale.ROOT,
        "%9s %9s %9s",
        money(r.perThousand(r.all(), prices)),
        money(r.perThousand(r.background(), prices)),
        money(r.perThousand(r.transactions(), prices)));
  }

  private static String warnings(SigmodRun.Result r) {
    StringBuilder w = new StringBuilder();
    if (r.pendingMessages() > 0) {
      w.append(", ").append(r.pendingMessages()).append(" messages left after the drain");
    }
    if (!r.conserved()) {
      w.append(", attribution missed calls");
    }
    return w.toString();
  }

  static long sends(MeterSnapshot s) {
    return s.stats(io.stratus.cloudapi.Operation.QUEUE_SEND).calls()
        + s.stats(io.stratus.cloudapi.Operation.QUEUE_SEND_BATCH).calls();
  }

  static double perTransaction(SigmodRun.Result r, long n) {
    return r.committed() == 0 ? 0 : (double) n / r.committed();
  }

  static String name(SigmodRun.Result r) {
    return r.spec().protocol().name().toLowerCase(Locale.ROOT);
  }

  /** Dollars with four significant digits at least to a millionth. */
  static String money(BigDecimal dollars) {
    double d = dollars.doubleValue();
    if (d == 0) {
      return "0";
    }
    return d >= 0.1 ? String.format(Locale.ROOT, "%.3f", d) : String.format(Locale.ROOT, "%.4g", d);
  }

  static String seconds(Duration d) {
    long ms = d.toMillis();
    return ms % 1000 == 0 ? (ms / 1000) + "s" : String.format(Locale.ROOT, "%.3gs", ms / 1e3);
  }

  private static String fixed(double v) {
    return String.format(Locale.ROOT, "%.2f", v);
  }

  private static String describe(PriceTable p) {
    return p.name()
        + " = S3 put $0.01/1,000, get $0.01/10,000; SQS $"
        + p.priceClass(io.stratus.cloudapi.Operation.QUEUE_SEND)
            .pricePerRequest()
            .multiply(BigDecimal.valueOf(1000))
            .stripTrailingZeros()
            .toPlainString()
        + " per 1,000 messages sent; transfer $"
        + p.transferInPerGb().toPlainString()
        + "/GB";
  }
}
