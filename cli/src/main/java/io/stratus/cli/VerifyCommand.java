package io.stratus.cli;

import io.stratus.cloudapi.QueueBacklog;
import io.stratus.core.DatabaseAdmin;
import io.stratus.core.Finding;
import io.stratus.core.VerificationReport;
import io.stratus.core.VerifyOptions;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code stratus verify}: scans the database without changing it ({@link DatabaseAdmin#verify(
 * io.stratus.core.DatabaseConfig, VerifyOptions)}: no protocol is started, no lock taken, no
 * message received) and prints the findings. Exit code 0 when clean, 1 with warnings, 2 with
 * errors.
 */
@Command(
    name = "verify",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description =
        "Scans the database read-only: page checksums, B-link invariants, catalog, indexes, queue"
            + " backlog. Exit code 0 clean, 1 warnings, 2 errors, 3 when it cannot read the"
            + " database (unreachable cloud, no database under --db).")
final class VerifyCommand implements Callable<Integer> {
  @ParentCommand StratusCli root;

  @Mixin ConnectionOptions connection;

  @Option(names = "--json", description = "Print the report as JSON.")
  boolean json;

  @Option(
      names = "--backlog-factor",
      defaultValue = "" + VerifyOptions.DEFAULT_BACKLOG_FACTOR,
      paramLabel = "N",
      description =
          "A queue's oldest message is late beyond N checkpoint"
              + " intervals (default: ${DEFAULT-VALUE}).")
  int backlogFactor;

  @Option(
      names = "--max-findings",
      defaultValue = "" + VerifyOptions.DEFAULT_MAX_FINDINGS_PER_KIND,
      paramLabel = "N",
      description = "Findings listed per kind (default: ${DEFAULT-VALUE}).")
  int maxFindings;

  @Override
  public Integer call() {
    VerifyOptions options =
        VerifyOptions.builder()
            .backlogFactor(backlogFactor)
            .maxFindingsPerKind(maxFindings)
            .build();
    VerificationReport report;
    try (StratusCli.Session s = root.open(connection)) {
      report = DatabaseAdmin.verify(s.config(), options);
      if (report.count(Finding.Kind.CATALOG_MISSING) > 0
          && MissingDatabase.holdsNothing(s.services().storage(), connection.database)) {
        // Nothing at all under the URI: not an empty database but one that is not there.
        throw new IllegalStateException(
            MissingDatabase.message(s.services().storage(), connection.database));
      }
    }
    if (json) {
      root.out.println(Json.report(report));
    } else {
      print(root.out, report);
    }
    return exitCode(report);
  }

  /** 0 clean, 1 warnings, 2 errors. */
  static int exitCode(VerificationReport report) {
    Finding.Severity worst = report.worst();
    if (worst == Finding.Severity.ERROR) {
      return 2;
    }
    return worst == Finding.Severity.WARNING ? 1 : 0;
  }

  private static void print(PrintWriter out, VerificationReport r) {
    out.printf(
        "database %s: %d trees, %d pages, %d entries checked in %d ms%n",
        r.databaseUri(),
        r.treesChecked(),
        r.pagesChecked(),
        r.recordsChecked(),
        r.took().toMillis());
    long errors = r.findings(Finding.Severity.ERROR).size();
    long warnings = r.findings(Finding.Severity.WARNING).size();
    out.printf(
        "%s: %d errors, %d warnings, %d notes%s%n",
        errors > 0 ? "ERRORS" : warnings > 0 ? "WARNINGS" : "CLEAN",
        errors,
        warnings,
        r.findings(Finding.Severity.INFO).size(),
        r.suppressed() > 0 ? " (" + r.suppressed() + " more not listed)" : "");
    for (Finding f : r.findings()) {
      out.printf("  %-7s %-26s %s%n      %s%n", f.severity(), f.kind(), f.uri(), f.message());
    }
    if (!r.queues().isEmpty()) {
      out.println("queues:");
      for (QueueBacklog q : r.queues()) {
        out.printf(
            "  %s: %d messages (%d in flight), oldest %s%n",
            q.uri(),
            q.messages(),
            q.inFlight(),
            q.oldestAge(r.startedAt()).map(VerifyCommand::age).orElse("-"));
      }
    }
  }

  static String age(Duration d) {
    long s = d.toSeconds();
    if (s < 120) {
      return s + " s";
    }
    if (s < 7200) {
      return s / 60 + " min";
    }
    return s / 3600 + " h";
  }

  static String age(Instant since, Instant now) {
    return age(
        Duration.between(since, now).isNegative() ? Duration.ZERO : Duration.between(since, now));
  }
}
