package io.stratus.bench.tpcw.sigmod;

import io.stratus.bench.tpcw.bookstore.Scale;
import io.stratus.bench.tpcw.harness.Durations;
import io.stratus.cloudapi.decorate.LatencyProfiles;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.ProtocolOption;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code stratus-bench sigmod}: paper 001's section 6 experiment ({@link SigmodBenchmark}). Every
 * flag is checked before anything runs; a bad one is a usage error (one line, exit code 2).
 */
@Command(
    name = "sigmod",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Paper 001 (SIGMOD 2008) section 6: one complex transaction (read a customer,",
      "search six products, order three) run by N clients per protocol on the",
      "in-process cloud; time and cost per transaction (its Tables 3 and 4), and cost",
      "against the checkpoint interval (its Figure 3) as CSV and PNG."
    })
public final class SigmodCommand implements Callable<Integer> {
  @Option(
      names = "--protocols",
      split = ",",
      defaultValue = "naive,basic,monotonic,atomic",
      paramLabel = "P",
      description =
          "Protocols of the tables, or all (default: the paper's," + " ${DEFAULT-VALUE}).")
  List<String> protocols;

  @Option(
      names = "--sweep-protocols",
      split = ",",
      defaultValue = "basic,atomic",
      paramLabel = "P",
      description =
          "Protocols of the checkpoint-interval sweep, all, or none"
              + " (default: the paper's Figure 3, ${DEFAULT-VALUE}).")
  List<String> sweepProtocols;

  @Option(
      names = "--intervals",
      split = ",",
      defaultValue = "1s,5s,10s,20s,30s,60s",
      paramLabel = "DURATION",
      description = "Swept checkpoint intervals (default:" + " ${DEFAULT-VALUE}).")
  List<String> intervals;

  @Option(
      names = "--profile",
      defaultValue = "eu",
      paramLabel = "PROFILE",
      description =
          "Latency profile: eu (the paper's client in Europe), ec2 or none (default:"
              + " ${DEFAULT-VALUE}).")
  String profile;

  @Option(
      names = "--clients",
      defaultValue = "1",
      paramLabel = "N",
      description =
          "Clients, each with its own database handle (default: ${DEFAULT-VALUE}, as"
              + " the paper).")
  int clients;

  @Option(
      names = "--transactions",
      defaultValue = "30",
      paramLabel = "N",
      description = "Measured transactions per client and protocol (default: ${DEFAULT-VALUE}).")
  int transactions;

  @Option(
      names = "--warm-up",
      defaultValue = "5",
      paramLabel = "N",
      description = "Unmeasured transactions per client first (default: ${DEFAULT-VALUE}).")
  int warmUp;

  @Option(
      names = "--checkpoint-interval",
      defaultValue = "10s",
      paramLabel = "DURATION",
      description = "Checkpoint interval of the tables (default: ${DEFAULT-VALUE}).")
  String checkpointInterval;

  @Option(
      names = "--sweep-transactions",
      defaultValue = "500",
      paramLabel = "N",
      description =
          "Transactions per client of each sweep point, in simulated time (default:"
              + " ${DEFAULT-VALUE}).")
  int sweepTransactions;

  @Option(
      names = "--spacing",
      paramLabel = "DURATION",
      description =
          "Sweep: simulated time between a client's transactions (default: the time"
              + " per transaction its protocol measured).")
  String spacing;

  @Option(
      names = "--items",
      defaultValue = "1000",
      paramLabel = "N",
      description = "ITEM rows (default: ${DEFAULT-VALUE}).")
  long items;

  @Option(
      names = "--customers",
      defaultValue = "2880",
      paramLabel = "N",
      description = "CUSTOMER rows (default: ${DEFAULT-VALUE}, TPC-W's for one browser).")
  int customers;

  @Option(
      names = "--time-scale",
      defaultValue = "10",
      paramLabel = "N",
      description =
          "Simulated time runs N times faster than real time in the timed runs;"
              + " 1 for real time (default: ${DEFAULT-VALUE}).")
  int timeScale;

  @Option(
      names = "--sqs-price",
      defaultValue = "0.01",
      paramLabel = "DOLLARS",
      description =
          "Dollars per 1,000 SQS messages sent under the paper's prices (default:"
              + " ${DEFAULT-VALUE}, as paper 001 states).")
  String sqsPrice;

  @Option(
      names = "--seed",
      defaultValue = "2008",
      paramLabel = "N",
      description = "Seed of the data and every choice (default: ${DEFAULT-VALUE}).")
  long seed;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      description = "Output directory (default: sigmod-results/<date-time>).")
  Path out;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    SigmodBenchmark.Settings settings;
    try {
      settings = settings();
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
    new SigmodBenchmark(settings, spec.commandLine().getOut()).run();
    return 0;
  }

  /** Checks every flag and makes the settings. */
  SigmodBenchmark.Settings settings() {
    List<ProtocolKind> tables = kinds(protocols);
    if (tables.isEmpty()) {
      throw new IllegalArgumentException("--protocols names no protocol");
    }
    List<ProtocolKind> swept = new ArrayList<>();
    for (ProtocolKind k : kinds(sweepProtocols)) {
      if (k.accepts(ProtocolOption.CHECKPOINTS)) {
        swept.add(k);
      } else if (!isAll(sweepProtocols)) {
        throw new IllegalArgumentException(
            "--sweep-protocols: " + name(k) + " has no checkpoints to sweep");
      }
    }
    List<Duration> sweptIntervals = new ArrayList<>();
    if (!(intervals.size() == 1 && intervals.get(0).trim().equalsIgnoreCase("none"))) {
      for (String i : intervals) {
        sweptIntervals.add(positive("--intervals", Durations.parse(i)));
      }
    }
    LatencyProfiles.byName(profile);
    positive("--clients", clients);
    positive("--transactions", transactions);
    positive("--sweep-transactions", sweepTransactions);
    positive("--time-scale", timeScale);
    if (warmUp < 0) {
      throw new IllegalArgumentException("--warm-up must not be negative");
    }
    Optional<Duration> space = Optional.ofNullable(spacing).map(Durations::parse);
    if (space.isPresent() && space.get().isNegative()) {
      throw new IllegalArgumentException("--spacing must not be negative");
    }
    BigDecimal price;
    try {
      price = new BigDecimal(sqsPrice.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--sqs-price: not a number: '" + sqsPrice + "'");
    }
    if (price.signum() < 0) {
      throw new IllegalArgumentException("--sqs-price must not be negative");
    }
    Scale scale = new Scale(items, 1, positive("--customers", customers));
    Path dir =
        out != null
            ? out
            : Path.of(
                "sigmod-results",
                LocalDateTime.now(ZoneId.systemDefault())
                    .format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
    return new SigmodBenchmark.Settings(
        tables,
        swept,
        sweptIntervals,
        profile.trim().toLowerCase(Locale.ROOT),
        clients,
        warmUp,
        transactions,
        sweepTransactions,
        positive("--checkpoint-interval", Durations.parse(checkpointInterval)),
        scale,
        100 * 1024,
        Duration.ofSeconds(100),
        timeScale,
        space,
        price,
        seed,
        dir);
  }

  private static boolean isAll(List<String> names) {
    return names.stream().anyMatch(n -> n.trim().equalsIgnoreCase("all"));
  }

  /** The protocols named; {@code all} is every available one, {@code none} none. */
  private static List<ProtocolKind> kinds(List<String> names) {
    List<ProtocolKind> kinds = new ArrayList<>();
    for (String n : names) {
      String t = n.trim();
      if (t.equalsIgnoreCase("all")) {
        Arrays.stream(ProtocolKind.values())
            .filter(ProtocolKind::isAvailable)
            .filter(k -> !kinds.contains(k))
            .forEach(kinds::add);
      } else if (!t.equalsIgnoreCase("none")) {
        try {
          ProtocolKind k = ProtocolKind.valueOf(t.toUpperCase(Locale.ROOT));
          if (!kinds.contains(k)) {
            kinds.add(k);
          }
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException(
              "unknown protocol '"
                  + n
                  + "'; known: all, none, "
                  + Arrays.toString(ProtocolKind.values()).toLowerCase(Locale.ROOT));
        }
      }
    }
    return kinds;
  }

  private static String name(ProtocolKind k) {
    return k.name().toLowerCase(Locale.ROOT);
  }

  private static int positive(String flag, int v) {
    if (v < 1) {
      throw new IllegalArgumentException(flag + " must be positive, got " + v);
    }
    return v;
  }

  private static Duration positive(String flag, Duration d) {
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(flag + " must be positive, got " + d);
    }
    return d;
  }
}
