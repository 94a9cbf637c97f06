package io.stratus.cli;

import io.stratus.core.DatabaseAdmin;
import io.stratus.core.ResealOptions;
import io.stratus.core.ResealReport;
import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code stratus reseal}: after a key rotation, re-seals every stored object of the database that
 * an old key sealed ({@link DatabaseAdmin#reseal(io.stratus.core.DatabaseConfig, ResealOptions)}:
 * no protocol is started) and reports, per key id, how many objects used it before and after. Needs
 * the keyring ({@code --keyring-file} / {@code --keyring-env}) with the new key active and the old
 * ones kept. Exit code 0 when every stored object is sealed with its active key, 1 when some are
 * not (a dry run that found work, objects changed throughout or unreadable: see the problems).
 */
@Command(
    name = "reseal",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description =
        "After a key rotation: re-seals every stored object sealed with a key that is no longer"
            + " active, conditionally on its version, and reports the objects per key id. Needs"
            + " the keyring (--keyring-file or --keyring-env, --default-key). Exit code 0 when no"
            + " object needs an old key, 1 when some do.")
final class ResealCommand implements Callable<Integer> {
  @ParentCommand StratusCli root;

  @Mixin ConnectionOptions connection;

  @Option(names = "--dry-run", description = "Only count the objects per key id; write nothing.")
  boolean dryRun;

  @Option(
      names = "--quiescent",
      description =
          "Declare that no client writes the database meanwhile: needed on storage without"
              + " conditional puts.")
  boolean quiescent;

  @Option(names = "--json", description = "Print the report as JSON.")
  boolean json;

  @Override
  public Integer call() {
    ResealOptions options = ResealOptions.builder().dryRun(dryRun).quiescent(quiescent).build();
    ResealReport report;
    try (StratusCli.Session s = root.open(connection)) {
      if (s.config().encryption().isEmpty()) {
        throw new IllegalArgumentException(
            "reseal needs the database's keyring: give --keyring-file or --keyring-env");
      }
      report = DatabaseAdmin.reseal(s.config(), options);
    }
    if (json) {
      root.out.println(Json.report(report));
    } else {
      print(root.out, report);
    }
    return exitCode(report);
  }

  /** 0 when every stored object is sealed with its active key and nothing went wrong, else 1. */
  static int exitCode(ResealReport report) {
    return report.isComplete() ? 0 : 1;
  }

  private static void print(PrintWriter out, ResealReport r) {
    out.printf(
        "%s of %s: %d objects in %d ms%n",
        r.dryRun() ? "reseal --dry-run" : "reseal",
        r.databaseUri(),
        r.objects(),
        r.took().toMillis());
    out.printf("  found per key:  %s%n", keys(r.foundByKeyId()));
    if (!r.dryRun()) {
      out.printf("  now per key:    %s%n", keys(r.sealedByKeyId()));
    }
    out.printf(
        "  %d sealed with a key no longer active, %d %s, %d conflicts retried, %d gone meanwhile%n",
        r.stale(),
        r.dryRun() ? r.stale() : r.rewritten(),
        r.dryRun() ? "to rewrite" : "rewritten",
        r.conflicts(),
        r.vanished());
    for (ResealReport.Problem p : r.problems()) {
      out.printf("  PROBLEM %s%n      %s%n", p.uri(), p.message());
    }
    if (r.problemCount() > r.problems().size()) {
      out.printf("  (%d more problems not listed)%n", r.problemCount() - r.problems().size());
    }
    if (r.queueRetention().isPresent()) {
      out.printf(
          "  queue messages are not rewritten: checkpoints consume them, a resend seals them with"
              + " the active key, and those sealed with an old key are gone by %s at the latest"
              + " (retention %s)%n",
          r.queueMessagesGoneBy().orElseThrow(), VerifyCommand.age(r.queueRetention().get()));
    }
    if (r.isComplete()) {
      out.printf(
          "COMPLETE: no stored object needs %s%n",
          r.unusedKeyIds().isEmpty() ? "a key of this keyring" : "key " + r.unusedKeyIds());
    } else {
      out.printf(
          "NOT COMPLETE: %d objects still need a key that is not active for them%s%n",
          r.remaining(),
          r.dryRun() ? " (run without --dry-run)" : r.problemCount() > 0 ? " (see problems)" : "");
    }
  }

  private static String keys(Map<String, Long> byKey) {
    return byKey.isEmpty() ? "-" : byKey.toString();
  }
}
