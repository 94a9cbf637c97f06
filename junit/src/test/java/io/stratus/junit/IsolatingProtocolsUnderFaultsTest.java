package io.stratus.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.StratusException;
import io.stratus.cloudapi.Operation;
import io.stratus.core.Database;
import io.stratus.core.Key;
import io.stratus.protocols.ProtocolKind;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The isolating protocols under {@code failureRate}: every call may be refused, the commit-id
 * validations and the polls of the commit counter included, and {@code db.run} retries what was
 * refused. A refused validation must not hold later transactions back (the counter's highest
 * validated id cannot pass an id left unvalidated, and each of the handle's later begins must see
 * its own commits), and a refused poll must not end a begin that waits.
 */
class IsolatingProtocolsUnderFaultsTest {
  private static final int PUTS = 60;

  @Test
  @StratusTest(protocol = ProtocolKind.SNAPSHOT_ISOLATION, failureRate = 0.05, seed = 42)
  void snapshotIsolationCommitsEveryPutThroughRefusedCalls(Database db, StratusTestContext c) {
    everyPutCommitsAndIsRead(db, c);
  }

  @Test
  @StratusTest(protocol = ProtocolKind.SERIALIZABLE_SNAPSHOT, failureRate = 0.05, seed = 42)
  void serializableSnapshotCommitsEveryPutThroughRefusedCalls(Database db, StratusTestContext c) {
    everyPutCommitsAndIsRead(db, c);
  }

  @Test
  @StratusTest(protocol = ProtocolKind.TWO_PHASE_LOCKING, failureRate = 0.05, seed = 42)
  void twoPhaseLockingCommitsEveryPutThroughRefusedCalls(Database db, StratusTestContext c) {
    everyPutCommitsAndIsRead(db, c);
  }

  /**
   * Sequential puts through {@code db.run}, each of which commits: a refused call changes nothing
   * and {@code db.run} tries the transaction again (with this seed it retried 10 to 30 times in
   * all over the puts, depending on the protocol); a read after them sees every one.
   */
  private static void everyPutCommitsAndIsRead(Database db, StratusTestContext context) {
    db.run(tx -> db.createCollection("items"));
    List<String> failed = new ArrayList<>();
    for (long i = 1; i <= PUTS; i++) {
      long k = i;
      try {
        db.run(tx -> tx.put("items", Key.of(k), bytes("v" + k)));
      } catch (StratusException e) {
        failed.add("put " + k + ": " + e);
      }
    }
    assertThat(context.faults().injectedFaults())
        .as("refused validations and counter polls, among others")
        .anyMatch(f -> f.operation() == Operation.COUNTER_VALIDATE)
        .anyMatch(f -> f.operation() == Operation.COUNTER_HIGHEST_VALIDATED);
    assertThat(failed).as("puts that failed through db.run").isEmpty();
    db.read(
        tx -> {
          for (long k = 1; k <= PUTS; k++) {
            Optional<String> value =
                tx.read("items", Key.of(k)).map(b -> new String(b, StandardCharsets.UTF_8));
            assertThat(value).as("put " + k).contains("v" + k);
          }
          return null;
        });
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
