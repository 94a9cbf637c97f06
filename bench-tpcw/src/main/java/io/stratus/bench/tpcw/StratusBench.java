package io.stratus.bench.tpcw;

import io.stratus.cloudapi.decorate.LatencyProfiles;
import io.stratus.protocols.ProtocolKind;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The command line of Stratus's main job. Until the TPC-W harness lands it runs {@link CloudDemo}:
 * a page-and-queue workload on the in-process cloud that reports requests, latency and cost per
 * cloud operation.
 *
 * <p>Bad flags produce one clear line and exit code 2; failures of the run one line and exit code
 * 1, never a stack trace (run with {@code -Dstratus.verbose=true} for one).
 */
@Command(
    name = "stratus-bench",
    mixinStandardHelpOptions = true,
    subcommands = {StratusBench.Engine.class, StratusBench.Protocols.class},
    version = "Stratus 0.1.0-SNAPSHOT",
    description = {
      "Runs a demonstration workload on the in-process cloud and reports, per cloud operation,",
      "requests, latency and cost under the papers' 2008 prices and today's AWS prices."
    })
public final class StratusBench implements Callable<Integer> {

  @Option(
      names = "--profile",
      defaultValue = "ec2",
      description = "Latency profile of the cloud calls: eu, ec2 or none (default: ${DEFAULT-VALUE}).")
  String profile;

  @Option(
      names = "--clients",
      defaultValue = "8",
      description = "Concurrent clients (default: ${DEFAULT-VALUE}).")
  int clients;

  @Option(
      names = "--operations",
      defaultValue = "40",
      description = "Transactions per client (default: ${DEFAULT-VALUE}).")
  int operations;

  @Option(
      names = "--page-size-kb",
      defaultValue = "100",
      description = "Page size in KB (default: ${DEFAULT-VALUE}).")
  int pageSizeKb;

  @Option(
      names = "--seed",
      description = "Seed of every random choice (default: random, printed).")
  Long seed;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
  }

  /** Runs the command; returns the exit code. */
  static int run(String[] args, PrintWriter out, PrintWriter err) {
    CommandLine cli = new CommandLine(new StratusBench());
    cli.setOut(out);
    cli.setErr(err);
    cli.setParameterExceptionHandler(
        (ex, a) -> {
          err.println("stratus-bench: " + ex.getMessage() + " (see --help)");
          return 2;
        });
    cli.setExecutionExceptionHandler(
        (ex, commandLine, parseResult) -> {
          err.println("stratus-bench: " + ex.getMessage());
          if (Boolean.getBoolean("stratus.verbose")) {
            ex.printStackTrace(err);
          }
          return 1;
        });
    return cli.execute(args);
  }

  /** {@code stratus-bench engine}: the storage engine's benchmarks. */
  @Command(
      name = "engine",
      mixinStandardHelpOptions = true,
      description = {
        "Benchmarks the storage engine on the in-process cloud: bulk load, cached point reads",
        "on one thread, and inserts with the naive protocol."
      })
  static final class Engine implements Callable<Integer> {
    @Option(names = "--records", defaultValue = "100000",
        description = "Records to bulk-load (default: ${DEFAULT-VALUE}).")
    int records;

    @Option(names = "--payload-bytes", defaultValue = "100",
        description = "Bytes per record payload (default: ${DEFAULT-VALUE}).")
    int payloadBytes;

    @Option(names = "--page-size", defaultValue = "102400",
        description = "Page size in bytes (default: ${DEFAULT-VALUE}).")
    int pageSize;

    @Option(names = "--reads", defaultValue = "5000000",
        description = "Cached point reads to time (default: ${DEFAULT-VALUE}).")
    long reads;

    @Option(names = "--inserts", defaultValue = "5000",
        description = "Single-insert transactions to time (default: ${DEFAULT-VALUE}).")
    int inserts;

    @Option(names = "--profile", defaultValue = "none",
        description = "Latency profile: eu, ec2 or none (default: ${DEFAULT-VALUE}).")
    String profile;

    @Option(names = "--seed", description = "Seed (default: random, printed).")
    Long seed;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
      if (records < 1 || payloadBytes < 1 || reads < 1 || inserts < 1) {
        throw new CommandLine.ParameterException(spec.commandLine(),
            "--records, --payload-bytes, --reads and --inserts must be positive");
      }
      new EngineBenchmark(
          new EngineBenchmark.Settings(records, payloadBytes, pageSize, reads, inserts, profile,
              seed != null ? seed : System.nanoTime()),
          spec.commandLine().getOut()).run();
      return 0;
    }
  }

  /** {@code stratus-bench protocols}: commit latency and cost per protocol. */
  @Command(
      name = "protocols",
      mixinStandardHelpOptions = true,
      description = {
        "Commit latency, requests and dollars per commit and per checkpoint, per protocol,",
        "latency profile and transaction size, on the in-process cloud."
      })
  static final class Protocols implements Callable<Integer> {
    @Option(names = "--protocols", split = ",", defaultValue = "naive,basic",
        description = "Protocols (default: ${DEFAULT-VALUE}).")
    List<String> protocols;

    @Option(names = "--profiles", split = ",", defaultValue = "ec2,eu",
        description = "Latency profiles (default: ${DEFAULT-VALUE}).")
    List<String> profiles;

    @Option(names = "--sizes", split = ",", defaultValue = "1,5,20",
        description = "Records per transaction (default: ${DEFAULT-VALUE}).")
    List<Integer> sizes;

    @Option(names = "--commits", defaultValue = "10",
        description = "Commits per cell (default: ${DEFAULT-VALUE}).")
    int commits;

    @Option(names = "--page-size", defaultValue = "102400",
        description = "Page size in bytes (default: ${DEFAULT-VALUE}).")
    int pageSize;

    @Option(names = "--seed", description = "Seed (default: random, printed).")
    Long seed;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
      List<ProtocolKind> kinds = new ArrayList<>();
      for (String p : protocols) {
        try {
          kinds.add(ProtocolKind.valueOf(p.trim().toUpperCase(Locale.ROOT)));
        } catch (IllegalArgumentException e) {
          throw new CommandLine.ParameterException(spec.commandLine(),
              "unknown protocol '" + p + "'; known: " + Arrays.toString(ProtocolKind.values()));
        }
      }
      for (String profile : profiles) {
        LatencyProfiles.byName(profile);
      }
      if (commits < 1 || sizes.stream().anyMatch(s -> s < 1)) {
        throw new CommandLine.ParameterException(spec.commandLine(),
            "--commits and --sizes must be positive");
      }
      new ProtocolBenchmark(
          new ProtocolBenchmark.Settings(kinds, profiles, sizes, commits, pageSize,
              seed != null ? seed : System.nanoTime()),
          spec.commandLine().getOut()).run();
      return 0;
    }
  }

  @Override
  public Integer call() throws Exception {
    CloudDemo.Settings settings =
        new CloudDemo.Settings(
            profile, clients, operations, pageSizeKb * 1000,
            seed != null ? seed : System.nanoTime());
    new CloudDemo(settings, spec.commandLine().getOut()).run();
    return 0;
  }
}
