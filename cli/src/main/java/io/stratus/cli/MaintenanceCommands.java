package io.stratus.cli;

import io.stratus.CheckpointSummary;
import io.stratus.RecoverySummary;
import io.stratus.core.Database;
import io.stratus.core.DatabaseAdmin;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParentCommand;

/**
 * The two maintenance commands: they open the database under the protocol its clients run, do
 * one pass on this thread, print what was done and close. Exit code 0 when the pass left nothing
 * behind, 1 when it did (run again later), {@value StratusCli#EXIT_FAILED} when it failed.
 */
final class MaintenanceCommands {
  private MaintenanceCommands() {}

  /** Tells the operator when this process's locks exclude no other client. */
  static void warnWithoutCoordination(StratusCli root, ConnectionOptions c) {
    if (c.cloud() != ConnectionOptions.Cloud.INPROCESS && c.zookeeper == null) {
      root.err.println(
          "stratus: warning: without --zookeeper this process's locks exclude no"
              + " other client; stop the clients first, or give the ZooKeeper they use");
    }
  }

  /** {@code stratus checkpoint-all}: {@link DatabaseAdmin#checkpointAll()}. */
  @Command(
      name = "checkpoint-all",
      mixinStandardHelpOptions = true,
      description = "Applies every pending update of the database now (before a planned stop).")
  static final class CheckpointAll implements Callable<Integer> {
    @ParentCommand StratusCli root;

    @Mixin ConnectionOptions connection;

    @Override
    public Integer call() {
      warnWithoutCoordination(root, connection);
      try (StratusCli.Session s = root.open(connection);
          Database db = Database.open(s.config())) {
        CheckpointSummary r = db.admin().checkpointAll();
        root.out.printf(
            "checkpoint-all of %s: %d queues, %d checkpoints, %d records applied,"
                + " %d pages written, %d failures, %d queues busy, %d records deferred,"
                + " %d transactions waiting: %s%n",
            connection.database,
            r.queues(),
            r.checkpoints(),
            r.recordsApplied(),
            r.pagesWritten(),
            r.failures(),
            r.queuesBusy(),
            r.recordsDeferred(),
            r.transactionsWaiting(),
            r.quiescent() ? "quiescent" : "not quiescent, run again");
        for (String why : r.failureReasons()) {
          root.out.printf("  failed: %s%n", why);
        }
        return r.quiescent() ? 0 : 1;
      }
    }
  }

  /** {@code stratus recover}: {@link DatabaseAdmin#recoverAbandonedClients()}. */
  @Command(
      name = "recover",
      mixinStandardHelpOptions = true,
      description = "Recovers the ATOMIC queues of clients that died (atomic protocol).")
  static final class Recover implements Callable<Integer> {
    @ParentCommand StratusCli root;

    @Mixin ConnectionOptions connection;

    @Override
    public Integer call() {
      warnWithoutCoordination(root, connection);
      try (StratusCli.Session s = root.open(connection);
          Database db = Database.open(s.config())) {
        RecoverySummary r = db.admin().recoverAbandonedClients();
        root.out.printf(
            "recover of %s: %d queues, %d committed transactions propagated, %d"
                + " uncommitted deleted, %d waiting, %d skipped, %d incomplete: %s%n",
            connection.database,
            r.queues(),
            r.winners(),
            r.losers(),
            r.waiting(),
            r.skipped(),
            r.incomplete(),
            r.quiescent() ? "quiescent" : "not quiescent, run again");
        return r.quiescent() ? 0 : 1;
      }
    }
  }
}
