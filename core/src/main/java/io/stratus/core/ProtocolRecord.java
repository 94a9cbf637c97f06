package io.stratus.core;

import io.stratus.CheckpointSummary;
import io.stratus.InvalidConfigurationException;
import io.stratus.InvalidRequestException;
import io.stratus.RecoverySummary;
import io.stratus.protocols.ProtocolKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The commit protocol a database runs, as its catalog records it ({@link Catalog#protocol()}): the
 * check a handle makes against it, and the switch that moves a database to another protocol.
 *
 * <p><b>The rule.</b> A handle may use a database whose catalog records a protocol it {@linkplain
 * ProtocolKind#sharesDatabasesWith shares databases with}; any other is refused with an {@link
 * InvalidConfigurationException} naming both, before the handle's protocol touches a queue. The
 * record is written with the catalog's first write (creating the first collection). A catalog
 * from before databases recorded their protocol gets the opening handle's protocol at the open
 * when storage has conditional puts (a plain put could lose another process's concurrent catalog
 * change), else with the next catalog change.
 */
final class ProtocolRecord {
  /** Passes of recovery and checkpoints a switch makes before it gives up. */
  static final int DRAIN_PASSES = 10;

  private ProtocolRecord() {}

  /**
   * Refuses {@code catalog} to a handle of {@code running} when it records a protocol the handle
   * cannot share the database with.
   *
   * @throws InvalidConfigurationException naming both protocols and what to do
   */
  static void check(String databaseUri, Catalog catalog, ProtocolKind running) {
    Optional<String> recorded = catalog.protocol();
    if (recorded.isEmpty() || recorded.get().equals(running.name())) {
      return;
    }
    ProtocolKind stored = known(databaseUri, recorded.get());
    if (!stored.sharesDatabasesWith(running)) {
      throw new InvalidConfigurationException(refusal(databaseUri, stored, running));
    }
  }

  private static ProtocolKind known(String databaseUri, String name) {
    for (ProtocolKind k : ProtocolKind.values()) {
      if (k.name().equals(name)) {
        return k;
      }
    }
    throw new InvalidConfigurationException(
        "database "
            + databaseUri
            + " runs the protocol "
            + name
            + " (recorded in its catalog), which this build does not know; open it with a build"
            + " that does");
  }

  private static String refusal(String databaseUri, ProtocolKind stored, ProtocolKind running) {
    List<String> sharing = new ArrayList<>();
    for (ProtocolKind k : ProtocolKind.values()) {
      if (k.sharesDatabasesWith(stored)) {
        sharing.add(k.name());
      }
    }
    return "database "
        + databaseUri
        + " runs "
        + stored
        + " (recorded in its catalog) and this handle is configured for "
        + running
        + ": handles of the two cannot share a database (one would lose the other's data or"
        + " break its promise). Open it with "
        + String.join(" or ", sharing)
        + "; "
        + (stored.switchableTo(running)
            ? "to move the database to "
                + running
                + ", close every handle and run DatabaseAdmin.switchProtocol with its "
                + stored
                + " configuration"
            : cannotMove(stored, running));
  }

  private static String cannotMove(ProtocolKind from, ProtocolKind to) {
    return "a database cannot move from "
        + from
        + " to "
        + to
        + " (their pages keep different protocol state: writers' chains under the queue"
        + " protocols, commit ids under the isolating ones); copy its records into a new"
        + " database under "
        + to
        + " instead (scan each collection and bulk-load it)";
  }

  /**
   * Moves the database of {@code current} to {@code next}: opens a handle with {@code current},
   * recovers and checkpoints until nothing is left that only {@code current}'s protocol would
   * finish, then records {@code next} in the catalog.
   *
   * @return the last checkpoint pass
   */
  static CheckpointSummary switchProtocol(DatabaseConfig current, ProtocolKind next) {
    ProtocolKind from = current.protocol();
    if (!from.switchableTo(next)) {
      throw new InvalidConfigurationException(
          "database " + current.databaseUri() + ": " + cannotMove(from, next));
    }
    try (Database db = Database.open(current)) {
      CheckpointSummary last = null;
      RecoverySummary recovery = null;
      for (int pass = 0; pass < DRAIN_PASSES; pass++) {
        recovery = db.admin().recoverAbandonedClients();
        last = db.admin().checkpointAll();
        if (recovery.quiescent()
            && last.quiescent()
            && last.recordsApplied() == 0
            && last.pagesWritten() == 0) {
          db.recordProtocol(next);
          return last;
        }
      }
      throw new InvalidRequestException(
          "database "
              + current.databaseUri()
              + " still holds work of "
              + from
              + " after "
              + DRAIN_PASSES
              + " passes of recovery and checkpoints (last: "
              + recovery
              + ", "
              + last
              + "); nothing was switched. Close every handle, wait past the atomic timeout"
              + " (and the checkpoint lock timeout), and run the switch again");
    }
  }
}
