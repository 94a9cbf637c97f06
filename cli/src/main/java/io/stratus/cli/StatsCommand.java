package io.stratus.cli;

import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.decorate.MeterSnapshot;
import io.stratus.cloudapi.decorate.OperationStats;
import io.stratus.core.Database;
import io.stratus.core.DatabaseStats;
import io.stratus.core.RecordCursor;
import io.stratus.core.Transaction;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code stratus stats}: the database's collections and indexes (with record counts unless
 * {@code --no-count}), the counters of the handle this command opened ({@link DatabaseStats}),
 * and the cloud calls the command made, per operation. A handle's counters are its own: those of
 * the application's clients live in their processes.
 */
@Command(
    name = "stats",
    mixinStandardHelpOptions = true,
    description = "Collections, indexes, record counts, handle counters and cloud calls.")
final class StatsCommand implements Callable<Integer> {
  @ParentCommand StratusCli root;

  @Mixin ConnectionOptions connection;

  @Option(names = "--no-count", description = "Do not count records (a count reads every leaf).")
  boolean noCount;

  @Override
  public Integer call() {
    try (StratusCli.Session s = root.open(connection);
        Database db = Database.open(s.config())) {
      root.out.printf(
          "database %s (protocol %s)%n",
          connection.database, s.config().protocol().name().toLowerCase(java.util.Locale.ROOT));
      for (String c : db.collections()) {
        root.out.printf(
            "  collection %s%s, indexes %s%n",
            c, noCount ? "" : ": " + count(db, c) + " records", db.indexes(c));
      }
      DatabaseStats st = db.stats();
      root.out.printf(
          "handle: commits %d, aborts %d, failed commits %d, pages written %d,"
              + " checkpoints %d (%d failed), retries %d, corrupt messages %d%n",
          st.commits(),
          st.aborts(),
          st.failedCommits(),
          st.pagesWritten(),
          st.checkpointsRun(),
          st.checkpointsFailed(),
          st.retries(),
          st.corruptMessages());
      root.out.printf("buffer pool: %s%n", st.bufferPool());
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

  private static long count(Database db, String collection) {
    long n = 0;
    try (Transaction tx = db.begin();
        RecordCursor c = tx.scan(collection)) {
      while (c.hasNext()) {
        c.next();
        n++;
      }
    }
    return n;
  }
}
