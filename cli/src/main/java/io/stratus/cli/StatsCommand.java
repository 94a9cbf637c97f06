package io.stratus.cli;

import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.QueueBacklog;
import io.stratus.cloudapi.decorate.MeterSnapshot;
import io.stratus.cloudapi.decorate.OperationStats;
import io.stratus.core.DatabaseAdmin;
import io.stratus.core.DatabaseOverview;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code stratus stats}: what the database holds ({@link DatabaseAdmin#overview}): its collections
 * with their pages and records (unless {@code --no-count}), their indexes with their pages, and the
 * backlog of its queues; then the cloud calls the command made. Read-only: the database is not
 * opened, so no lock is taken, nothing is created and no message is received.
 */
@Command(
    name = "stats",
    mixinStandardHelpOptions = true,
    description =
        "Read-only: collections, indexes, pages and record counts, queue backlogs, and the cloud"
            + " calls the command made.")
final class StatsCommand implements Callable<Integer> {
  @ParentCommand StratusCli root;

  @Mixin ConnectionOptions connection;

  @Option(names = "--no-count", description = "Do not count records (a count reads every leaf).")
  boolean noCount;

  @Override
  public Integer call() {
    try (StratusCli.Session s = root.open(connection)) {
      DatabaseOverview o =
          DatabaseAdmin.overview(
              s.config(), noCount ? DatabaseOverview.Depth.PAGES : DatabaseOverview.Depth.RECORDS);
      if (o.protocol().isEmpty()
          && o.collections().isEmpty()
          && o.pages() == 0
          && MissingDatabase.holdsNothing(s.services().storage(), connection.database)) {
        throw new IllegalStateException(
            MissingDatabase.message(s.services().storage(), connection.database));
      }
      root.out.printf(
          "database %s (protocol %s): %d collections, %d pages%n",
          o.databaseUri(), o.protocol().orElse("not recorded"), o.collections().size(), o.pages());
      for (DatabaseOverview.CollectionOverview c : o.collections()) {
        root.out.printf(
            "  collection %s: %sindexes %s, %d pages%n",
            c.name(),
            c.records().isPresent()
                ? c.records().getAsLong() + " records, "
                : noCount ? "" : "records not counted (a page could not be read: run verify), ",
            c.indexes().stream()
                .map(i -> i.name() + " (" + i.pages() + " pages)")
                .collect(Collectors.joining(", ", "[", "]")),
            c.pages());
      }
      if (!o.queuesInspected()) {
        root.out.println("queues: not inspectable without receiving from them (not looked at)");
      } else {
        long messages = o.queues().stream().mapToLong(QueueBacklog::messages).sum();
        root.out.printf("queues: %d, %d messages waiting%n", o.queues().size(), messages);
        for (QueueBacklog q : o.queues()) {
          if (q.messages() > 0) {
            root.out.printf(
                "  %s: %d messages (%d in flight)%n", q.uri(), q.messages(), q.inFlight());
          }
        }
      }
      MeterSnapshot m = s.meter().snapshot();
      root.out.printf("cloud calls made by this command: %d%n", m.total().calls());
      for (Map.Entry<Operation, OperationStats> e : m.perOperation().entrySet()) {
        if (e.getValue().calls() > 0) {
          root.out.printf(
              "  %-28s %6d calls, %d failed, %d bytes out, %d bytes in%n",
              e.getKey(),
              e.getValue().calls(),
              e.getValue().failures(),
              e.getValue().bytesSent(),
              e.getValue().bytesReceived());
        }
      }
      return 0;
    }
  }
}
