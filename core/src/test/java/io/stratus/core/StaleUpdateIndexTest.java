package io.stratus.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.protocols.Guarantee;
import io.stratus.protocols.ProtocolKind;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An update that read an older value than another client's latest (the protocols without
 * isolation allow it) still leaves its record listed under the search key of the value it wrote,
 * when that search key is the one of the value it read: the other client's update moved the entry
 * away (an index delete of it), and the later update puts it back with its later write stamp.
 */
@ExtendWith(SeedExtension.class)
class StaleUpdateIndexTest {
  private static final String ITEMS = DeletesStickTest.ITEMS;
  private static final String BY_OWNER = DeletesStickTest.BY_OWNER;
  private static final long KEY = 7;

  /** The search key: the payload's text before the first ':'. */
  private static final IndexKeyExtractor OWNER = DeletesStickTest.OWNER;

  private static final List<ProtocolKind> QUEUES = DeletesStickTest.DURABLE_QUEUES;

  @Test
  void anUpdateFromAStaleReadKeepsItsRecordInTheIndex(@Seed long seed) {
    for (ProtocolKind kind : QUEUES) {
      try (Fixture f = new Fixture(seed)) {
        Database setup = f.open(f.config().protocol(kind).clientId("setup"));
        setup.createCollection(ITEMS);
        setup.createIndex(ITEMS, BY_OWNER, OWNER);
        write(setup, "alice:0", true);
        setup.admin().checkpointAll();
        f.clock.advance(Duration.ofMillis(1));

        // a moves the record to bob; its records wait in the queues, out of b's sight
        ManualExecutor exA = new ManualExecutor();
        Database a =
            f.open(
                f.config()
                    .protocol(kind)
                    .clientId("a")
                    .checkpointExecutor(exA)
                    .checkpointInterval(Duration.ofDays(1)));
        a.attachIndex(ITEMS, BY_OWNER, OWNER);
        write(a, "bob:1", false);
        if (kind.guarantees(Guarantee.ATOMIC)) {
          exA.runQueued(); // propagated to the pending-update queues, not checkpointed
        }
        f.clock.advance(Duration.ofMillis(1));

        // b still reads alice's value and writes another of alice's: a later write of the key
        Database b =
            f.open(
                f.config().protocol(kind).clientId("b").checkpointExecutor(new ManualExecutor()));
        b.attachIndex(ITEMS, BY_OWNER, OWNER);
        assertThat(read(b)).as("%s: a's update is out of b's sight", kind).contains("alice:0");
        write(b, "alice:2", false);

        settle(f, b);
        settle(f, a);
        Database reader =
            f.open(
                f.config()
                    .protocol(kind)
                    .clientId("reader")
                    .checkpointExecutor(new ManualExecutor()));
        reader.attachIndex(ITEMS, BY_OWNER, OWNER);
        assertThat(read(reader)).as("%s: the later write wins", kind).contains("alice:2");
        assertThat(owned(reader, "alice"))
            .as("%s (seed %d): the record under the search key of its value", kind, seed)
            .containsExactly(KEY);
        assertThat(reader.admin().verify().findings(Finding.Severity.ERROR))
            .as("%s: what the verifier finds", kind)
            .noneMatch(x -> x.kind() == Finding.Kind.RECORD_MISSING_FROM_INDEX);
      }
    }
  }

  private static void write(Database db, String payload, boolean create) {
    try (Transaction tx = db.begin()) {
      if (create) {
        tx.create(ITEMS, Key.of(KEY), Fixture.bytes(payload));
      } else {
        assertThat(tx.update(ITEMS, Key.of(KEY), Fixture.bytes(payload))).isTrue();
      }
      tx.commit();
    }
  }

  private static Optional<String> read(Database db) {
    try (Transaction tx = db.begin()) {
      return tx.read(ITEMS, Key.of(KEY)).map(Fixture::string);
    }
  }

  private static List<Long> owned(Database db, String owner) {
    return DeletesStickTest.owned(db, owner);
  }

  private static void settle(Fixture f, Database db) {
    DeletesStickTest.settle(f, db);
  }
}
