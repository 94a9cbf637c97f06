package io.stratus.core;

import static io.stratus.core.BasicProtocolTest.load;
import static io.stratus.core.SnapshotIsolationTest.read;
import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.protocols.ProtocolKind;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Strict two-phase locking's reads of a tree it locked whole (a scan of the whole collection
 * does): every read shows the latest committed state as of the lock — other clients' commits made
 * before it, deletes included, however the pages were cached or copied before — with the
 * transaction's own changes on top, and keys it locked one by one before keep their values.
 */
@ExtendWith(SeedExtension.class)
class TwoPhaseLockingWholeTreeTest {
  /** Records loaded: more than a range locks key by key, over several leaves. */
  private static final int RECORDS = 300;

  private static Database open(Fixture f, String client) {
    return f.open(
        f.config()
            .protocol(ProtocolKind.TWO_PHASE_LOCKING)
            .clientId(client)
            .checkpointExecutor(new ManualExecutor()));
  }

  private static void update(Transaction tx, long key, String value) {
    tx.update("items", Key.of(key), Fixture.bytes(value));
  }

  /** Every key of the collection, read by one scan (which locks the collection whole). */
  private static List<Long> scanAll(Transaction tx) {
    List<Long> out = new ArrayList<>();
    try (RecordCursor c = tx.scan("items")) {
      while (c.hasNext()) {
        out.add(c.next().key().decoder().nextLong());
      }
    }
    return out;
  }

  /** Another client's commit: 4 updated, 5 deleted, 1000 created. */
  private static void commitElsewhere(Database b) {
    b.run(
        tx -> {
          update(tx, 4, "theirs");
          tx.delete("items", Key.of(5L));
          tx.create("items", Key.of(1000L), Fixture.bytes("new"));
          return null;
        });
  }

  @Test
  void aTreeLockedWholeShowsTheCommitsMadeBeforeItsLock(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database a = open(f, "a");
      Database b = open(f, "b");
      load(a, RECORDS);
      assertThat(Fixture.itemsByKey(a)).containsEntry("4", "v0-4"); // every page cached by a
      commitElsewhere(b);
      try (Transaction tx = a.begin()) {
        assertThat(read(tx, 9)).as("locked by its key").isEqualTo("v0-9");
        List<Long> keys = scanAll(tx);
        assertThat(keys).hasSize(RECORDS).contains(1000L).doesNotContain(5L);
        assertThat(read(tx, 4)).isEqualTo("theirs");
        assertThat(read(tx, 5)).as("deleted before the lock").isNull();
        assertThat(read(tx, 1000)).isEqualTo("new");
        assertThat(read(tx, 9)).as("locked by its key, then whole").isEqualTo("v0-9");
        assertThat(read(tx, 200)).isEqualTo("v0-200");
        update(tx, 4, read(tx, 4) + "+mine");
        tx.commit();
      }
      assertThat(Fixture.itemsByKey(b))
          .containsEntry("4", "theirs+mine")
          .containsEntry("1000", "new")
          .doesNotContainKey("5")
          .hasSize(RECORDS);
    }
  }

  @Test
  void itsOwnChangesStayOnTopOfATreeLockedWhole(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database a = open(f, "a");
      Database b = open(f, "b");
      load(a, RECORDS);
      commitElsewhere(b);
      try (Transaction tx = a.begin()) {
        assertThat(scanAll(tx)).hasSize(RECORDS);
        update(tx, 6, "mine");
        assertThat(read(tx, 6)).isEqualTo("mine");
        assertThat(read(tx, 7)).isEqualTo("v0-7");
        tx.delete("items", Key.of(7L));
        assertThat(read(tx, 7)).as("deleted by itself").isNull();
        tx.create("items", Key.of(7L), Fixture.bytes("again"));
        assertThat(read(tx, 7)).as("created again by itself").isEqualTo("again");
        tx.delete("items", Key.of(8L));
        tx.create("items", Key.of(5L), Fixture.bytes("back"));
        assertThat(read(tx, 5)).as("deleted by another, created by itself").isEqualTo("back");
        assertThat(read(tx, 4)).isEqualTo("theirs");
        assertThat(scanAll(tx)).hasSize(RECORDS).contains(5L, 6L, 7L).doesNotContain(8L);
        assertThat(read(tx, 6)).isEqualTo("mine");
        assertThat(read(tx, 8)).isNull();
        tx.commit();
      }
      assertThat(Fixture.itemsByKey(b))
          .containsEntry("4", "theirs")
          .containsEntry("5", "back")
          .containsEntry("6", "mine")
          .containsEntry("7", "again")
          .doesNotContainKey("8")
          .hasSize(RECORDS);
    }
  }

  /**
   * A transaction that changed a key before it locked the tree whole holds a private copy of that
   * key's leaf, made before another client changed its neighbours: the copy shows their latest
   * values and the other client's delete, and its own change.
   */
  @Test
  void aPageCopiedBeforeTheWholeLockShowsTheLatestValues(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database a = open(f, "a");
      Database b = open(f, "b");
      load(a, RECORDS);
      try (Transaction tx = a.begin()) {
        update(tx, 3, "mine"); // copies the leaf holding 3, 4 and 5
        commitElsewhere(b);
        assertThat(scanAll(tx)).hasSize(RECORDS).contains(1000L).doesNotContain(5L);
        assertThat(read(tx, 3)).isEqualTo("mine");
        assertThat(read(tx, 4)).isEqualTo("theirs");
        assertThat(read(tx, 5)).isNull();
        update(tx, 4, read(tx, 4) + "+mine");
        assertThat(read(tx, 4)).isEqualTo("theirs+mine");
        tx.commit();
      }
      assertThat(Fixture.itemsByKey(b))
          .containsEntry("3", "mine")
          .containsEntry("4", "theirs+mine")
          .doesNotContainKey("5");
    }
  }
}
