package io.stratus.bench.tpcw;

import io.stratus.bench.tpcw.harness.ClientPlacement;
import io.stratus.bench.tpcw.harness.CloudTarget;
import io.stratus.bench.tpcw.harness.Defaults;
import io.stratus.bench.tpcw.harness.Durations;
import io.stratus.bench.tpcw.harness.IndexChoice;
import io.stratus.bench.tpcw.harness.Preset;
import io.stratus.bench.tpcw.harness.RunSettings;
import io.stratus.bench.tpcw.harness.RunWarnings;
import io.stratus.bench.tpcw.harness.Sweep;
import io.stratus.bench.tpcw.harness.TpcwHarness;
import io.stratus.bench.tpcw.jmh.CpuTimeProfiler;
import io.stratus.bench.tpcw.jmh.JmhSummary;
import io.stratus.bench.tpcw.jmh.ReadRoundsCommand;
import io.stratus.bench.tpcw.sigmod.SigmodCommand;
import io.stratus.bench.tpcw.workload.Mix;
import io.stratus.cloudapi.decorate.LatencyProfiles;
import io.stratus.protocols.ProtocolKind;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.charset.Charset;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The command line of Stratus's main job: the TPC-W harness ({@link TpcwHarness}). With no
 * arguments it compares the default protocols ({@link Defaults#PROTOCOLS}) on the in-process cloud
 * with the ec2 latency profile, prints the table and writes the report. {@code --preset} sets the flags of one of the
 * papers' experiments ({@link Preset}); flags given next to it win. A run too short for its TTL or
 * checkpoint interval is announced by a warning ({@link RunWarnings}). Subcommands run the engine
 * and protocol micro-benchmarks.
 *
 * <p>Bad flags produce one clear line and exit code 2; failures of the run (an unreachable
 * endpoint, refused credentials) one line and exit code 1, never a stack trace (run with {@code
 * -Dstratus.verbose=true} for one).
 */
@Command(
    name = "stratus-bench",
    mixinStandardHelpOptions = true,
    subcommands = {
      StratusBench.Engine.class,
      StratusBench.Protocols.class,
      StratusBench.Contention.class,
      SigmodCommand.class,
      StratusBench.Jmh.class,
      ReadRoundsCommand.class
    },
    version = "Stratus 0.1.0-SNAPSHOT",
    sortOptions = false,
    description = {
      "Runs the TPC-W bookstore on Stratus and reports response time and cost per web",
      "interaction, per commit protocol and configuration (papers 000 section 7, 001 section 6).",
      "Default: the protocols marked 'default' below, on the in-process cloud, ec2 latency"
          + " profile."
    })
public final class StratusBench implements Callable<Integer> {

  @Option(
      names = "--preset",
      paramLabel = "NAME",
      description =
          "The papers' settings for a figure (see below; list: --preset list); flags"
              + " given with it replace its values.")
  String preset;

  @Option(
      names = "--paper-scale",
      description =
          "With --preset: the paper's run lengths and sizes where the preset's default is"
              + " smaller to run on a small machine (the SDB presets and paper-table4).")
  boolean paperScale;

  @Option(
      names = "--protocols",
      split = ",",
      paramLabel = "P",
      description =
          "Protocols to compare (listed below), or all (default: naive,basic,monotonic,"
              + "atomic,advanced_atomic,snapshot_isolation).")
  List<String> protocols;

  @Option(
      names = "--cloud",
      defaultValue = "in-process",
      paramLabel = "CLOUD",
      description = "in-process, localstack or aws (default: ${DEFAULT-VALUE}).")
  String cloud;

  @Option(
      names = "--placement",
      defaultValue = "ec2",
      paramLabel = "WHERE",
      description =
          "The papers' client placement: eu (client stack outside the cloud) or ec2"
              + " (next to the storage) (default: ${DEFAULT-VALUE}).")
  String placement;

  @Option(
      names = "--profile",
      paramLabel = "PROFILE",
      description =
          "Latency profile simulated on the in-process cloud: eu, ec2 or none"
              + " (default: the placement's).")
  String profile;

  @Option(
      names = "--end-user-rtt",
      defaultValue = "0",
      paramLabel = "DURATION",
      description =
          "End-user round trip added per interaction in the ec2 placement, e.g. 100ms"
              + " (default: ${DEFAULT-VALUE}).")
  String endUserRtt;

  @Option(
      names = "--index",
      defaultValue = "btree",
      paramLabel = "WHERE",
      description =
          "Where the bookstore's secondary indexes live: btree (client-side B-trees), sdb (the"
              + " cloud's index service, batched) or sdb-single (one item per request, as"
              + " SimpleDB in 2008) (default: ${DEFAULT-VALUE}).")
  String index;

  @Option(
      names = "--index-endpoint",
      paramLabel = "URL",
      description =
          "With --cloud localstack: a DynamoDB-compatible server for --index sdb (bin/dynamodb"
              + " start runs one) (default: $"
              + CloudTarget.DYNAMODB_ENDPOINT_ENV
              + ").")
  String indexEndpoint;

  @Option(
      names = "--endpoint",
      paramLabel = "URL",
      description = "LocalStack endpoint (default: $" + CloudTarget.LOCALSTACK_ENDPOINT_ENV + ").")
  String endpoint;

  @Option(
      names = "--region",
      defaultValue = CloudTarget.DEFAULT_REGION,
      paramLabel = "REGION",
      description = "AWS region (default: ${DEFAULT-VALUE}).")
  String region;

  @Option(
      names = "--bucket",
      defaultValue = CloudTarget.DEFAULT_BUCKET,
      paramLabel = "BUCKET",
      description = "Bucket for pages (made when missing) (default: ${DEFAULT-VALUE}).")
  String bucket;

  @Option(
      names = "--zookeeper",
      paramLabel = "HOST:PORT",
      description = "ZooKeeper for locks and counters on localstack/aws (default: in-process).")
  String zookeeper;

  @Option(
      names = "--page-size",
      defaultValue = "100k",
      paramLabel = "BYTES",
      description = "Page size, e.g. 100k or 8192 (default: ${DEFAULT-VALUE}).")
  String pageSize;

  @Option(
      names = "--ttl",
      defaultValue = "7s",
      paramLabel = "DURATION",
      description = "Buffer-pool time to live (default: ${DEFAULT-VALUE}; the papers': 100s).")
  String ttl;

  @Option(
      names = "--checkpoint-interval",
      defaultValue = "7s",
      paramLabel = "DURATION",
      description =
          "Checkpoint interval of the protocols that checkpoint (default:"
              + " ${DEFAULT-VALUE}; the papers': 45s).")
  String checkpointInterval;

  @Option(
      names = "--ebs",
      defaultValue = "10",
      paramLabel = "N",
      description = "Concurrent emulated browsers (default: ${DEFAULT-VALUE}).")
  int ebs;

  @Option(
      names = "--mix",
      defaultValue = "shopping",
      paramLabel = "MIX",
      description = "browsing, shopping or ordering (default: ${DEFAULT-VALUE}).")
  String mix;

  @Option(
      names = "--items",
      defaultValue = "1000",
      paramLabel = "N",
      description = "Item scale: ITEM rows (default: ${DEFAULT-VALUE}).")
  int items;

  @Option(
      names = "--customers-per-eb",
      defaultValue = "2880",
      paramLabel = "N",
      description = "CUSTOMER rows per EB (default: ${DEFAULT-VALUE}, the specification's).")
  int customersPerEb;

  @Option(
      names = "--warm-up",
      defaultValue = "1s",
      paramLabel = "DURATION",
      description = "Warm-up before measuring (default: ${DEFAULT-VALUE}).")
  String warmUp;

  @Option(
      names = "--duration",
      defaultValue = "21s",
      paramLabel = "DURATION",
      description =
          "Measurement interval per run; a warning says when it is shorter than"
              + " 3 times the TTL or checkpoint interval (default: ${DEFAULT-VALUE}).")
  String duration;

  @Option(
      names = "--repeats",
      defaultValue = "1",
      paramLabel = "N",
      description =
          "Measure every run N times, alternating their order from one round to the next"
              + " (default: ${DEFAULT-VALUE}).")
  int repeats;

  @Option(
      names = "--warm-pass",
      defaultValue = "10s",
      paramLabel = "DURATION",
      description =
          "Before measuring, every protocol browses a bookstore of the measured size, unmeasured,"
              + " until the JIT compiler settles or this long, so that none is measured with colder"
              + " code; 0: none (default: ${DEFAULT-VALUE}).")
  String warmPass;

  @Option(
      names = "--think-time",
      defaultValue = "0",
      paramLabel = "DURATION",
      description = "Mean think time, negative exponential (default: ${DEFAULT-VALUE}, none).")
  String thinkTime;

  @Option(
      names = "--clients",
      defaultValue = "1",
      paramLabel = "N[,N...]",
      description =
          "Application servers, each its own database handle serving --ebs browsers"
              + " over one shared database (where: --client-placement); several values sweep"
              + " them,"
              + " e.g. 1,2,4,8"
              + " (default: ${DEFAULT-VALUE}).")
  String clients;

  @Option(
      names = "--client-placement",
      defaultValue = "jvm",
      paramLabel = "WHERE",
      description =
          "jvm: every --clients application server in this JVM; process: each in a JVM of its"
              + " own, as the papers ran one per server, which needs --cloud localstack (or aws)"
              + " and --zookeeper; each process adds the placement's latency profile to the"
              + " cloud's own (default: ${DEFAULT-VALUE}).")
  String clientPlacement;

  @Option(
      names = "--sweep",
      paramLabel = "NAME=V1,V2",
      description =
          "Sweep one parameter across the protocols: ebs, page-size, ttl,"
              + " checkpoint-interval, items, mix, think-time, end-user-rtt, profile, clients or"
              + " index.")
  String sweep;

  @Option(
      names = "--seed",
      defaultValue = "2008",
      paramLabel = "N",
      description = "Seed of every random choice (default: ${DEFAULT-VALUE}).")
  long seed;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      description = "Report directory (default: tpcw-results/<date-time>).")
  Path out;

  @Option(
      names = "--no-progress",
      description = "No progress bars (they are off anyway when the output is not a terminal).")
  boolean noProgress;

  @Option(
      names = "--interactions-per-eb",
      hidden = true,
      defaultValue = "0",
      description = "Testing: each EB also stops after this many interactions.")
  long interactionsPerEb;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    // The console's own encoding (the platform's), named so that the choice is visible.
    Charset console = Charset.defaultCharset();
    System.exit(
        run(
            args,
            new PrintWriter(System.out, true, console),
            new PrintWriter(System.err, true, console)));
  }

  /** Runs the command; returns the exit code. */
  static int run(String[] args, PrintWriter out, PrintWriter err) {
    CommandLine cli = new CommandLine(new StratusBench());
    cli.setOut(out);
    cli.setErr(err);
    List<String> footer = new ArrayList<>(List.of(""));
    footer.addAll(Listings.protocols());
    footer.add("");
    footer.addAll(Listings.presets());
    cli.getCommandSpec().usageMessage().footer(footer.toArray(new String[0]));
    cli.setParameterExceptionHandler(
        (ex, a) -> {
          err.println("stratus-bench: " + ex.getMessage() + " (see --help)");
          return 2;
        });
    cli.setExecutionExceptionHandler(
        (ex, commandLine, parseResult) -> {
          String message = String.valueOf(ex.getMessage());
          err.println("stratus-bench: " + message.lines().findFirst().orElse(message));
          if (Boolean.getBoolean("stratus.verbose")) {
            ex.printStackTrace(err);
          }
          return 1;
        });
    return cli.execute(args);
  }

  /** {@code stratus-bench jmh}: the JMH micro-benchmarks, then their spread and ratios. */
  @Command(
      name = "jmh",
      description = {
        "Runs the JMH micro-benchmarks (e.g. PointRead: cached point reads through the public",
        "API per protocol, a floor and H2's MVStore) and prints each one's spread and ratios;",
        "the arguments are JMH's (try -h)."
      })
  static final class Jmh implements Callable<Integer> {
    @CommandLine.Unmatched List<String> args = new ArrayList<>();

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
      CommandLineOptions options = new CommandLineOptions(args.toArray(new String[0]));
      if (options.shouldHelp()
          || options.shouldList()
          || options.shouldListWithParams()
          || options.shouldListProfilers()
          || options.shouldListResultFormats()) {
        org.openjdk.jmh.Main.main(args.toArray(new String[0]));
        return 0;
      }
      Options withCpu =
          new OptionsBuilder().parent(options).addProfiler(CpuTimeProfiler.class).build();
      try {
        JmhSummary.of(new Runner(withCpu).run()).print(spec.commandLine().getOut());
      } catch (RunnerException e) {
        // JMH says what went wrong (no benchmark matched, a fork failed) in the message or the
        // cause; its "no benchmarks" exception only in its toString.
        Throwable why = e.getCause() != null ? e.getCause() : e;
        String message = why.getMessage() != null ? why.getMessage() : why.toString();
        throw new CommandLine.ParameterException(spec.commandLine(), message);
      }
      return 0;
    }
  }

  @Command(
      name = "engine",
      mixinStandardHelpOptions = true,
      description = {
        "Benchmarks the storage engine on the in-process cloud: bulk load, cached point reads",
        "on one thread, and inserts with the naive protocol; --encrypt measures them with",
        "client-side encryption on."
      })
  static final class Engine implements Callable<Integer> {
    @Option(
        names = "--records",
        defaultValue = "100000",
        description = "Records to bulk-load (default: ${DEFAULT-VALUE}).")
    int records;

    @Option(
        names = "--payload-bytes",
        defaultValue = "100",
        description = "Bytes per record payload (default: ${DEFAULT-VALUE}).")
    int payloadBytes;

    @Option(
        names = "--page-size",
        defaultValue = "102400",
        description = "Page size in bytes (default: ${DEFAULT-VALUE}).")
    int pageSize;

    @Option(
        names = "--reads",
        defaultValue = "5000000",
        description = "Cached point reads to time (default: ${DEFAULT-VALUE}).")
    long reads;

    @Option(
        names = "--inserts",
        defaultValue = "5000",
        description = "Single-insert transactions to time (default: ${DEFAULT-VALUE}).")
    int inserts;

    @Option(
        names = "--profile",
        defaultValue = "none",
        description = "Latency profile: eu, ec2 or none (default: ${DEFAULT-VALUE}).")
    String profile;

    @Option(names = "--seed", description = "Seed (default: random, printed).")
    Long seed;

    @Option(
        names = "--encrypt",
        description = "Encrypt every page and message client-side (AES-256-GCM, a random key).")
    boolean encrypt;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
      if (records < 1 || payloadBytes < 1 || reads < 1 || inserts < 1) {
        throw new CommandLine.ParameterException(
            spec.commandLine(),
            "--records, --payload-bytes, --reads and --inserts must be positive");
      }
      new EngineBenchmark(
              new EngineBenchmark.Settings(
                  records,
                  payloadBytes,
                  pageSize,
                  reads,
                  inserts,
                  profile,
                  seed != null ? seed : System.nanoTime(),
                  encrypt),
              spec.commandLine().getOut())
          .run();
      return 0;
    }
  }

  /** {@code stratus-bench contention}: abort rate and lost updates per protocol. */
  @Command(
      name = "contention",
      mixinStandardHelpOptions = true,
      description = {
        "Threads on several handles increment counters of a small hot set by read-modify-write;",
        "reports commits per second, abort rate and lost updates per protocol."
      })
  static final class Contention implements Callable<Integer> {
    @Option(
        names = "--protocols",
        split = ",",
        defaultValue =
            "basic,monotonic,advanced_atomic,snapshot_isolation,serializable_snapshot,"
                + "two_phase_locking",
        description = "Protocols (default: ${DEFAULT-VALUE}).")
    List<String> protocols;

    @Option(
        names = "--profile",
        defaultValue = "ec2",
        description = "Latency profile (default: ${DEFAULT-VALUE}).")
    String profile;

    @Option(names = "--keys", defaultValue = "50", description = "Hot keys (default: 50).")
    int keys;

    @Option(names = "--threads", defaultValue = "8", description = "Threads (default: 8).")
    int threads;

    @Option(
        names = "--handles",
        defaultValue = "2",
        description = "Database handles the threads share (default: 2).")
    int handles;

    @Option(
        names = "--transactions",
        defaultValue = "100",
        description = "Transactions per thread (default: 100).")
    int transactions;

    @Option(names = "--seed", description = "Seed (default: random, printed).")
    Long seed;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
      List<ProtocolKind> kinds = protocolKinds(protocols, spec);
      LatencyProfiles.byName(profile);
      if (keys < 2 || threads < 1 || handles < 1 || transactions < 1) {
        throw new CommandLine.ParameterException(
            spec.commandLine(),
            "--keys must be at least 2; --threads, --handles, --transactions positive");
      }
      new ContentionBenchmark(
              new ContentionBenchmark.Settings(
                  kinds,
                  profile,
                  keys,
                  threads,
                  handles,
                  transactions,
                  seed != null ? seed : System.nanoTime()),
              spec.commandLine().getOut())
          .run();
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
    @Option(
        names = "--protocols",
        split = ",",
        defaultValue =
            "naive,basic,monotonic,atomic,advanced_atomic,snapshot_isolation,"
                + "serializable_snapshot,two_phase_locking",
        description = "Protocols (default: ${DEFAULT-VALUE}).")
    List<String> protocols;

    @Option(
        names = "--profiles",
        split = ",",
        defaultValue = "ec2,eu",
        description = "Latency profiles (default: ${DEFAULT-VALUE}).")
    List<String> profiles;

    @Option(
        names = "--sizes",
        split = ",",
        defaultValue = "1,5,20",
        description = "Records per transaction (default: ${DEFAULT-VALUE}).")
    List<Integer> sizes;

    @Option(
        names = "--commits",
        defaultValue = "10",
        description = "Commits per cell (default: ${DEFAULT-VALUE}).")
    int commits;

    @Option(
        names = "--page-size",
        defaultValue = "102400",
        description = "Page size in bytes (default: ${DEFAULT-VALUE}).")
    int pageSize;

    @Option(names = "--seed", description = "Seed (default: random, printed).")
    Long seed;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
      List<ProtocolKind> kinds = protocolKinds(protocols, spec);
      for (String profile : profiles) {
        LatencyProfiles.byName(profile);
      }
      if (commits < 1 || sizes.stream().anyMatch(s -> s < 1)) {
        throw new CommandLine.ParameterException(
            spec.commandLine(), "--commits and --sizes must be positive");
      }
      new ProtocolBenchmark(
              new ProtocolBenchmark.Settings(
                  kinds,
                  profiles,
                  sizes,
                  commits,
                  pageSize,
                  seed != null ? seed : System.nanoTime()),
              spec.commandLine().getOut())
          .run();
      return 0;
    }
  }

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    if (preset != null && preset.trim().equalsIgnoreCase("list")) {
      Listings.presets().forEach(out::println);
      return 0;
    }
    TpcwHarness.Plan plan;
    try {
      plan = withPreset().plan();
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
    RunWarnings.forPlan(plan.sweptParameter(), plan.runs()).forEach(out::println);
    out.flush();
    new TpcwHarness(plan, out, spec.commandLine().getErr()).run();
    return 0;
  }

  /**
   * This command's flags completed by the preset's: without {@code --preset} this command itself;
   * with one, a fresh command parsed from the preset's flags that were not given (see {@link
   * Preset#argsBesides}) followed by the arguments as given, so that the preset's values pass the
   * same parsing and checks as typed ones and typed ones win.
   */
  StratusBench withPreset() {
    if (preset == null) {
      return this;
    }
    Preset p = paperScale ? Preset.named(preset).atPaperScale() : Preset.named(preset);
    CommandLine.ParseResult parsed = spec.commandLine().getParseResult();
    Map<String, String> given = new HashMap<>();
    for (CommandLine.Model.OptionSpec o : parsed.matchedOptions()) {
      given.put(o.longestName(), String.join(",", o.stringValues()));
    }
    List<String> args = new ArrayList<>(p.argsBesides(given));
    args.addAll(parsed.originalArgs());
    StratusBench completed = new StratusBench();
    new CommandLine(completed).parseArgs(args.toArray(new String[0]));
    return completed;
  }

  /** Checks every flag once and turns them into the harness's plan. */
  TpcwHarness.Plan plan() {
    List<ProtocolKind> kinds = new ArrayList<>();
    for (String p : protocols == null ? List.<String>of() : protocols) {
      kinds.addAll(protocolsNamed(p));
    }
    if (kinds.isEmpty()) {
      kinds.addAll(Defaults.PROTOCOLS);
    }
    String where = placement.trim().toLowerCase(Locale.ROOT);
    if (!where.equals("eu") && !where.equals("ec2")) {
      throw new IllegalArgumentException("unknown placement '" + placement + "' (eu or ec2)");
    }
    CloudTarget.Kind kind = CloudTarget.Kind.parse(cloud);
    ClientPlacement clientsIn = ClientPlacement.parse(clientPlacement);
    // Client processes add the modelled latency on any cloud (ClientHandle#modelsLatency).
    boolean modelled = kind == CloudTarget.Kind.IN_PROCESS || clientsIn == ClientPlacement.PROCESS;
    String latency = modelled ? Defaults.profile(profile != null ? profile : where) : "real";
    if (!modelled && profile != null) {
      throw new IllegalArgumentException(
          "--profile simulates latency on the in-process cloud or in client processes"
              + " (--client-placement process); "
              + kind.id()
              + " has its own");
    }
    String endpointUrl =
        endpoint != null ? endpoint : System.getenv(CloudTarget.LOCALSTACK_ENDPOINT_ENV);
    Optional<URI> uri = Optional.empty();
    if (kind == CloudTarget.Kind.LOCALSTACK && endpointUrl != null && !endpointUrl.isBlank()) {
      uri = Optional.of(uri("--endpoint", endpointUrl));
    }
    String indexUrl =
        indexEndpoint != null ? indexEndpoint : System.getenv(CloudTarget.DYNAMODB_ENDPOINT_ENV);
    Optional<URI> indexUri = Optional.empty();
    if (kind == CloudTarget.Kind.LOCALSTACK && indexUrl != null && !indexUrl.isBlank()) {
      indexUri = Optional.of(uri("--index-endpoint", indexUrl));
    }
    CloudTarget target =
        new CloudTarget(kind, uri, region, bucket, Optional.ofNullable(zookeeper), indexUri);
    Duration rtt = Durations.parse(endUserRtt);
    if (where.equals("eu") && !rtt.isZero()) {
      throw new IllegalArgumentException(
          "--end-user-rtt applies to the ec2 placement; in eu the client stack is the user's");
    }
    RunSettings base =
        RunSettings.builder()
            .protocol(kinds.get(0))
            .cloud(kind.id())
            .placement(where)
            .latencyProfile(latency)
            .pageSize(Defaults.pageSize(pageSize))
            .ttl(nonNegative("--ttl", Durations.parse(ttl)))
            .checkpointInterval(
                Defaults.positive("--checkpoint-interval", Durations.parse(checkpointInterval)))
            .ebs(Defaults.positive("--ebs", Integer.toString(ebs)))
            .mix(Mix.parse(mix))
            .items(Defaults.positive("--items", Integer.toString(items)))
            .customersPerEb(
                Defaults.positive("--customers-per-eb", Integer.toString(customersPerEb)))
            .warmUp(nonNegative("--warm-up", Durations.parse(warmUp)))
            .measure(Defaults.positive("--duration", Durations.parse(duration)))
            .thinkTimeMean(nonNegative("--think-time", Durations.parse(thinkTime)))
            .endUserRoundTrip(nonNegative("--end-user-rtt", rtt))
            .seed(seed)
            .index(IndexChoice.parse(index))
            .clientPlacement(clientsIn)
            .build();
    Optional<Sweep> sw = sweep == null ? Optional.empty() : Optional.of(Sweep.parse(sweep));
    if (clients.contains(",")) {
      if (sw.isPresent()) {
        throw new IllegalArgumentException(
            "several --clients values sweep them; that cannot be combined with --sweep");
      }
      sw = Optional.of(Sweep.parse("clients=" + clients));
    } else {
      base = base.toBuilder().clients(Defaults.positive("--clients", clients)).build();
    }
    if (sw.isPresent()
        && sw.get().parameter().equals("profile")
        && kind != CloudTarget.Kind.IN_PROCESS) {
      throw new IllegalArgumentException("--sweep profile needs the in-process cloud");
    }
    clientsIn.check(target);
    List<Sweep.Planned> runs = Sweep.plan(base, kinds, sw);
    if (!target.hasIndexService()
        && runs.stream().anyMatch(r -> r.settings().index().usesService())) {
      throw new IllegalArgumentException(
          "the index service on localstack needs --index-endpoint (or the environment variable "
              + CloudTarget.DYNAMODB_ENDPOINT_ENV
              + "), e.g. http://127.0.0.1:4567; bin/dynamodb start runs one");
    }
    Path dir =
        out != null
            ? out
            : Path.of(
                "tpcw-results",
                LocalDateTime.now(ZoneId.systemDefault())
                    .format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
    if (interactionsPerEb < 0) {
      throw new IllegalArgumentException("--interactions-per-eb must not be negative");
    }
    return new TpcwHarness.Plan(
        target,
        Sweep.parameterName(sw),
        runs,
        dir,
        !noProgress && System.console() != null,
        interactionsPerEb,
        Defaults.positive("--repeats", Integer.toString(repeats)),
        nonNegative("--warm-pass", Durations.parse(warmPass)));
  }

  /** The protocols named on the command line, or a usage error naming the unknown one. */
  static List<ProtocolKind> protocolKinds(List<String> names, CommandLine.Model.CommandSpec spec) {
    List<ProtocolKind> kinds = new ArrayList<>();
    for (String p : names) {
      try {
        kinds.addAll(protocolsNamed(p));
      } catch (IllegalArgumentException e) {
        throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
      }
    }
    return kinds;
  }

  private static URI uri(String flag, String url) {
    try {
      return URI.create(url.trim());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("bad " + flag + " '" + url + "'");
    }
  }

  private static Duration nonNegative(String flag, Duration d) {
    if (d.isNegative()) {
      throw new IllegalArgumentException(flag + " must not be negative");
    }
    return d;
  }

  /** The protocol named {@code p}, or every available one for {@code all}. */
  static List<ProtocolKind> protocolsNamed(String p) {
    if (p.trim().equalsIgnoreCase("all")) {
      return Arrays.stream(ProtocolKind.values()).filter(ProtocolKind::isAvailable).toList();
    }
    try {
      return List.of(ProtocolKind.valueOf(p.trim().toUpperCase(Locale.ROOT)));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "unknown protocol '" + p + "'; known: all, " + Arrays.toString(ProtocolKind.values()));
    }
  }
}
