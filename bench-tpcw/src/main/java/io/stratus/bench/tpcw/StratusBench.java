package io.stratus.bench.tpcw;

import java.io.PrintWriter;
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
 * 1, never a stack trace (pass {@code --verbose} for one).
 */
@Command(
    name = "stratus-bench",
    mixinStandardHelpOptions = true,
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

  @Option(names = "--verbose", description = "Print stack traces of failures.")
  boolean verbose;

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
          StratusBench self = commandLine.getCommand();
          err.println("stratus-bench: " + ex.getMessage());
          if (self.verbose) {
            ex.printStackTrace(err);
          }
          return 1;
        });
    return cli.execute(args);
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
