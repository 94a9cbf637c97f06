package io.stratus.core;

import static io.stratus.core.BasicProtocolTest.load;
import static io.stratus.core.BasicProtocolTest.read;
import static io.stratus.core.BasicProtocolTest.update;
import static io.stratus.core.Fixture.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.protocols.ProtocolKind;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * For each (writer, key) the records are applied in commit order whichever queues they would
 * naturally go to: an update goes to its data page's queue, a delete and a re-create to the
 * tree's, and checkpoints of different queues run in any order. A client's later records of a key
 * with a pending record follow it into the same queue.
 */
@ExtendWith(SeedExtension.class)
class KeyOrderAcrossQueuesTest {
  private static final List<ProtocolKind> ORDERED =
      List.of(ProtocolKind.MONOTONIC, ProtocolKind.ATOMIC);

  private static Database open(Fixture f, ProtocolKind kind, String client) {
    return f.open(
        f.config().protocol(kind).clientId(client).checkpointExecutor(new ManualExecutor()));
  }

  @Test
  void updateThenDeleteThenRecreateEndsWithTheRecreatedValue(@Seed long seed) {
    for (ProtocolKind kind : ORDERED) {
      try (Fixture f = new Fixture(seed)) {
        Database a = open(f, kind, "a");
        load(a, 10);
        update(a, 3, "x1"); // to the data page's queue
        a.run(tx -> tx.delete("items", Key.of(3L)));
        a.run(
            tx -> {
              tx.create("items", Key.of(3L), bytes("x3"));
              return null;
            });
        assertThat(read(a, 3)).as("%s: the writer at once", kind).isEqualTo("x3");

        BasicProtocolTest.quiesce(f, a);
        assertThat(read(a, 3)).as("%s: the writer after the checkpoints", kind).isEqualTo("x3");
        assertThat(read(open(f, kind, "b"), 3)).as("%s: another client", kind).isEqualTo("x3");
      }
    }
  }

  @Test
  void updatesAfterAPendingInsertStayInItsQueue(@Seed long seed) {
    for (ProtocolKind kind : ORDERED) {
      try (Fixture f = new Fixture(seed)) {
        Database a = open(f, kind, "a");
        load(a, 10);
        a.run(
            tx -> {
              tx.create("items", Key.of(42L), bytes("c0")); // to the tree's queue
              return null;
            });
        update(a, 42, "c1"); // the insert is pending: an upsert on the tree's queue
        f.clock.advance(Duration.ofMillis(5));
        // Another client applies the tree's records now; this client's pool still shows the
        // page without the key for a while, then with it.
        Database b = open(f, kind, "b");
        BasicProtocolTest.quiesce(f, b);
        update(a, 42, "c2");
        update(a, 42, "c3");
        BasicProtocolTest.quiesce(f, b);
        assertThat(read(b, 42)).as("%s", kind).isEqualTo("c3");
        assertThat(read(a, 42)).as("%s: the writer", kind).isEqualTo("c3");
      }
    }
  }
}
