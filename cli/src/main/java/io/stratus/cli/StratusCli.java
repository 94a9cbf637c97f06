package io.stratus.cli;

import io.stratus.CloudServiceException;
import io.stratus.StratusException;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.RetryableException;
import io.stratus.cloudapi.decorate.CloudMeter;
import io.stratus.cloudapi.decorate.Decorators;
import io.stratus.cloudapi.decorate.MeteringInterceptor;
import io.stratus.core.DatabaseConfig;
import io.stratus.protocols.StorageLayout;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.time.Duration;
import java.util.Objects;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The operator command line, {@code bin/stratus}: verify a database, show its statistics,
 * checkpoint every pending update, recover abandoned clients, look at one page or queue, deal
 * with the damaged messages of the dead-letter area, and re-seal what an old encryption key
 * sealed. Every command reads an encrypted database given its keyring ({@link KeyringSource}).
 *
 * <p><b>Exit codes.</b> {@code verify}: 0 clean (nothing worse than information), 1 warnings, 2
 * errors. {@code reseal}: 0 when every stored object is sealed with its active key, 1 when some
 * are not (a dry run that found work, objects left or unreadable). Every command: {@value #EXIT_FAILED} when it could not do its work (an unreachable
 * cloud, refused credentials, a damaged page asked for), {@value #EXIT_USAGE} for bad flags. A
 * failure is one line on standard error, never a stack trace.
 *
 * <p>Each run opens the cloud once ({@link CloudOpener}), meters every call it makes, and closes
 * the cloud at the end. Tests run it in-process with {@link #run(String[], PrintWriter,
 * PrintWriter, CloudOpener)} and a prepared cloud.
 */
@Command(
    name = "stratus",
    mixinStandardHelpOptions = true,
    version = "Stratus 0.1.0-SNAPSHOT",
    subcommands = {
      VerifyCommand.class,
      StatsCommand.class,
      MaintenanceCommands.CheckpointAll.class,
      MaintenanceCommands.Recover.class,
      InspectCommand.class,
      DeadLetterCommand.class,
      ResealCommand.class
    },
    description =
        "Operator commands for a Stratus database: verify, stats, checkpoint-all, recover,"
            + " inspect page|queue, dead-letters list|replay|skip|discard, reseal. Connection and"
            + " keyring flags go after the command name. Exit code 3 when a command cannot do its"
            + " work, 64 for a command line that does not parse or says too little.")
public final class StratusCli implements Runnable {
  /** Exit code of a command that could not do its work. */
  public static final int EXIT_FAILED = 3;

  /** Exit code of a command line that does not parse. */
  public static final int EXIT_USAGE = 64;

  final PrintWriter out;
  final PrintWriter err;
  private final CloudOpener opener;

  StratusCli(PrintWriter out, PrintWriter err, CloudOpener opener) {
    this.out = Objects.requireNonNull(out, "out");
    this.err = Objects.requireNonNull(err, "err");
    this.opener = Objects.requireNonNull(opener, "opener");
  }

  /** Runs the command line with the real clouds and exits with its code. */
  public static void main(String[] args) {
    // The console's own encoding (the platform's), named so that the choice is visible.
    Charset console = Charset.defaultCharset();
    PrintWriter out = new PrintWriter(System.out, true, console);
    PrintWriter err = new PrintWriter(System.err, true, console);
    System.exit(run(args, out, err, new RealClouds()));
  }

  /** Runs {@code args} against the clouds {@code opener} opens; returns the exit code. */
  public static int run(String[] args, PrintWriter out, PrintWriter err, CloudOpener opener) {
    CommandLine cl = new CommandLine(new StratusCli(out, err, opener));
    cl.setOut(out).setErr(err);
    cl.setExitCodeExceptionMapper(e -> EXIT_FAILED);
    cl.setParameterExceptionHandler(
        (e, a) -> {
          err.println("stratus: " + e.getMessage());
          err.println(tryHelp(e.getCommandLine()));
          return EXIT_USAGE;
        });
    cl.setExecutionExceptionHandler(
        (e, c, p) -> {
          if (e instanceof UsageException) {
            err.println("stratus: " + e.getMessage());
            err.println(tryHelp(c));
            return EXIT_USAGE;
          }
          err.println("stratus: " + describe(e));
          if (Boolean.getBoolean("stratus.verbose")) {
            e.printStackTrace(err);
          }
          return EXIT_FAILED;
        });
    int code = cl.execute(args);
    out.flush();
    err.flush();
    return code;
  }

  /** "Try 'stratus verify --help'." for the command line {@code c} (the root: no command). */
  static String tryHelp(CommandLine c) {
    return "Try '" + c.getCommandSpec().qualifiedName(" ") + " --help'.";
  }

  private static String describe(Exception e) {
    if (e instanceof IllegalArgumentException
        || e instanceof StratusException
        || e instanceof CloudException
        || e instanceof IllegalStateException) {
      return firstLine(e.getMessage());
    }
    return e.toString();
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "no detail";
    }
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }

  @Override
  public void run() {
    new CommandLine(this).usage(out);
  }

  /** An open, metered cloud and the database configuration on it; close it when done. */
  Session open(ConnectionOptions options) {
    options.checkComplete(opener::environment);
    CloudServices raw = opener.open(options);
    CloudMeter meter = new CloudMeter();
    CloudServices services = Decorators.wrap(raw, new MeteringInterceptor(meter));
    try {
      probe(services, options);
      DatabaseConfig.Builder b =
          DatabaseConfig.builder(services, options.database)
              .protocol(options.protocol())
              .clientId("stratus-cli")
              .clock(opener.clock());
      KeyringSource.load(options, opener::environment, err).ifPresent(b::encryption);
      if (options.checkpointSeconds != null) {
        b.checkpointInterval(Duration.ofSeconds(options.checkpointSeconds));
      }
      if (options.lockTimeoutSeconds != null) {
        b.checkpointLockTimeout(Duration.ofSeconds(options.lockTimeoutSeconds));
      }
      if (options.atomicTimeoutSeconds != null) {
        b.atomicTimeout(Duration.ofSeconds(options.atomicTimeoutSeconds));
      }
      DatabaseConfig config = b.build();
      if (options.demo) {
        if (options.cloud() != ConnectionOptions.Cloud.INPROCESS) {
          throw new IllegalArgumentException(
              "--demo builds a database on the in-process cloud" + " only");
        }
        Demo.populate(config);
      }
      return new Session(services, config, meter);
    } catch (RuntimeException e) {
      services.close();
      throw e;
    }
  }

  /**
   * One read of the database's catalog (absent or not), so that a cloud that cannot be reached
   * fails here with where the command looked, before any command reports on what it could not
   * read.
   */
  private void probe(CloudServices services, ConnectionOptions options) {
    String catalog = new StorageLayout(options.database).catalog();
    try {
      CloudFutures.await(services.storage().getMetadata(catalog));
    } catch (CloudException e) {
      throw new CloudServiceException(
          "cannot read the storage of "
              + options.where(opener::environment)
              + " ("
              + firstLine(e.getMessage())
              + "); check that the endpoint or region is right, the service is running and"
              + " reachable from here, the bucket exists and the credentials may read it",
          e,
          e instanceof RetryableException,
          false);
    }
  }

  /** One command's cloud: the metered services, the database configuration and the meter. */
  record Session(CloudServices services, DatabaseConfig config, CloudMeter meter)
      implements AutoCloseable {
    @Override
    public void close() {
      services.close();
    }
  }
}
