package io.stratus.core;

import static io.stratus.core.BasicProtocolTest.load;
import static io.stratus.core.BasicProtocolTest.read;
import static io.stratus.core.BasicProtocolTest.readAll;
import static io.stratus.core.BasicProtocolTest.update;
import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.inprocess.QueueBehavior;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.protocols.ProtocolKind;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Read-your-writes under the monotonic protocol (paper 001, section 5.2): a client sees its own
 * committed updates, inserts and deletes in its next transaction, before any checkpoint; another
 * client does not until the checkpoint; the basic protocol shows the difference.
 */
@ExtendWith(SeedExtension.class)
class ReadYourWritesTest {

  @Test
  void aClientSeesItsOwnCommitsAtOnce(@Seed long seed) {
    for (ProtocolKind kind : List.of(ProtocolKind.MONOTONIC, ProtocolKind.BASIC)) {
      try (Fixture f = new Fixture(seed, true, QueueBehavior.weak())) {
        ManualExecutor ex = new ManualExecutor();
        Database a = f.open(f.config().protocol(kind).clientId("a").checkpointExecutor(ex));
        Database b = f.open(f.config().protocol(kind).clientId("b").checkpointExecutor(ex));
        load(a, 60);
        assertThat(read(b, 3)).isEqualTo("v0-3"); // b caches the page
        update(a, 3, "x1");
        update(a, 3, "x2");
        try (Transaction tx = a.begin()) {
          tx.create("items", Key.of(500L), Fixture.bytes("new"));
          tx.delete("items", Key.of(4L));
          tx.commit();
        }
        boolean mono = kind == ProtocolKind.MONOTONIC;
        assertThat(read(a, 3)).as("%s", kind).isEqualTo(mono ? "x2" : "v0-3");
        assertThat(read(a, 500)).as("%s", kind).isEqualTo(mono ? "new" : null);
        assertThat(read(a, 4)).as("%s", kind).isEqualTo(mono ? null : "v0-4");
        Map<Long, String> scanned = readAll(a);
        assertThat(scanned.get(3L)).isEqualTo(mono ? "x2" : "v0-3");
        assertThat(scanned.containsKey(500L)).isEqualTo(mono);
        assertThat(read(b, 3)).as("others wait for the checkpoint").isEqualTo("v0-3");
        // Its own next transaction builds on what it saw.
        try (Transaction tx = a.begin()) {
          if (mono) {
            assertThat(tx.update("items", Key.of(500L), Fixture.bytes("newer"))).isTrue();
          }
          tx.commit();
        }
        BasicProtocolTest.quiesce(f, a);
        BasicProtocolTest.quiesce(f, a);
        for (Database db : List.of(a, b)) {
          if (mono) { // basic may end with x1: section 4.3's indeterminism under duplicates
            assertThat(read(db, 3)).as("%s", db.config().clientId()).isEqualTo("x2");
          }
          assertThat(read(db, 500)).isEqualTo(mono ? "newer" : "new");
          assertThat(read(db, 4)).isNull();
        }
      }
    }
  }

  /**
   * Records written and never read again do not stay in the overlay for the handle's life: once
   * their chains have shown them applied for longer than the TTL, the background prune forgets
   * them; one still queued stays, and the client keeps seeing it.
   */
  @Test
  void appliedRecordsLeaveTheOverlayWithoutBeingRead(@Seed long seed) {
    for (ProtocolKind kind : List.of(ProtocolKind.MONOTONIC, ProtocolKind.ATOMIC)) {
      try (Fixture f = new Fixture(seed)) {
        ManualExecutor ex = new ManualExecutor();
        Database db = f.open(f.config().protocol(kind).clientId("a").checkpointExecutor(ex));
        load(db, 10);
        for (int i = 0; i < 300; i++) {
          try (Transaction tx = db.begin()) {
            tx.create("items", Key.of(1_000L + i), Fixture.bytes("n" + i));
            tx.commit();
          }
        }
        assertThat(db.stats().pendingOwnWrites()).as("%s", kind).isEqualTo(300);
        ex.runAll(); // propagation (atomic), checkpoints, prunes
        db.checkpointAll(); // everything applied; the prune notes it
        assertThat(db.stats().pendingOwnWrites())
            .as("%s: kept for a TTL after", kind)
            .isEqualTo(300);
        f.clock.advance(Fixture.TTL.plusSeconds(1));
        update(db, 3, "late"); // still queued when the next prune runs
        db.checkpointAll();
        assertThat(db.stats().pendingOwnWrites()).as("%s", kind).isLessThanOrEqualTo(1);
        assertThat(read(db, 3)).as("%s", kind).isEqualTo("late");
        assertThat(read(db, 1_299)).as("%s", kind).isEqualTo("n299");
      }
    }
  }
}
