package io.stratus.core;

import static io.stratus.core.Fixture.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.stratus.NoSuchCollectionException;
import io.stratus.StratusException;
import io.stratus.cloudapi.inprocess.QueueBehavior;
import io.stratus.cloudapi.inprocess.StorageConsistency;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.protocols.ProtocolKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The catalog on eventually consistent storage: a handle that reads the catalog object's copy from
 * before a change must neither lose that change nor write records that a new index then lacks.
 * Storage here answers every read within {@link #WINDOW} of a write from a state before it, so
 * each schedule meets the stale copy for sure.
 */
@ExtendWith(SeedExtension.class)
class CatalogStalenessTest {
  private static final String ITEMS = DeletesStickTest.ITEMS;
  private static final String BY_OWNER = DeletesStickTest.BY_OWNER;
  private static final IndexKeyExtractor OWNER = DeletesStickTest.OWNER;
  private static final Duration WINDOW = Duration.ofSeconds(30);
  private static final int RECORDS = 12;
  private static final List<ProtocolKind> KINDS =
      List.of(ProtocolKind.NAIVE, ProtocolKind.BASIC, ProtocolKind.MONOTONIC, ProtocolKind.ATOMIC);

  private static Fixture lagging(long seed, boolean conditionalPut) {
    return new Fixture(
        seed,
        conditionalPut,
        QueueBehavior.reliable(),
        b -> b.storageConsistency(new StorageConsistency(WINDOW, 1.0)));
  }

  private static DatabaseConfig.Builder config(Fixture f, ProtocolKind kind, String id) {
    DatabaseConfig.Builder b =
        f.config().protocol(kind).clientId(id).indexExtractor(ITEMS, BY_OWNER, OWNER);
    return kind == ProtocolKind.NAIVE ? b : b.checkpointExecutor(new ManualExecutor());
  }

  @Test
  void aHandleThatReadsTheCatalogFromBeforeANewIndexStillGetsItsRecordsIntoTheIndex(
      @Seed long seed) {
    for (ProtocolKind kind : KINDS) {
      try (Fixture f = lagging(seed, true)) {
        Database b = f.open(config(f, kind, "b")); // opened before the collection exists
        Database a = f.open(config(f, kind, "a"));
        a.createCollection(ITEMS);
        f.clock.advance(WINDOW.plusSeconds(1));
        a.createIndex(ITEMS, BY_OWNER, OWNER);

        // b meets the collection in the catalog's copy from before the index, and writes
        List<Long> written = writeRecords(b, f);
        settle(f, a, b);

        Database reader = f.open(config(f, kind, "reader"));
        assertThat(owned(reader))
            .as("%s (seed %d): every acknowledged record found through the index", kind, seed)
            .containsExactlyElementsOf(written);
        assertThat(reader.admin().verify().findings(Finding.Severity.ERROR))
            .as("%s: what the verifier finds", kind)
            .noneMatch(x -> x.kind() == Finding.Kind.RECORD_MISSING_FROM_INDEX);
      }
    }
  }

  @Test
  void aHandleNeverGoesBackToTheCatalogFromBeforeItsOwnChange(@Seed long seed) {
    for (boolean conditionalPut : new boolean[] {true, false}) {
      for (ProtocolKind kind : List.of(ProtocolKind.NAIVE, ProtocolKind.BASIC)) {
        try (Fixture f = lagging(seed, conditionalPut)) {
          Database a = f.open(config(f, kind, "a"));
          a.createCollection(ITEMS);
          a.createIndex(ITEMS, BY_OWNER, OWNER); // right after: storage still serves the older copy
          a.createCollection("other"); // a change and a fresh read right after the index
          List<Long> written = writeRecords(a, f);
          settle(f, a);

          assertThat(a.collections()).containsExactly(ITEMS, "other");
          assertThat(a.indexes(ITEMS)).containsExactly(BY_OWNER);
          Database reader = f.open(config(f, kind, "reader"));
          assertThat(reader.collections()).containsExactly(ITEMS, "other");
          assertThat(owned(reader))
              .as("%s, conditional puts %s (seed %d)", kind, conditionalPut, seed)
              .containsExactlyElementsOf(written);
        }
      }
    }
  }

  @Test
  void anIndexCreatedRightAfterAnotherHandlesCollectionFailsRetryablyAndIsRetried(@Seed long seed) {
    for (ProtocolKind kind : List.of(ProtocolKind.NAIVE, ProtocolKind.BASIC)) {
      try (Fixture f = lagging(seed, true)) {
        Database a = f.open(config(f, kind, "a"));
        Database c = f.open(config(f, kind, "c"));
        a.createCollection(ITEMS);
        Throwable stale = catchThrowable(() -> c.createIndex(ITEMS, BY_OWNER, OWNER));
        assertThat(stale)
            .as("%s: the catalog read may be stale", kind)
            .isInstanceOf(NoSuchCollectionException.class)
            .hasMessageContaining("created moments ago");
        assertThat(((StratusException) stale).isRetryable()).isTrue();

        RetryPolicy policy =
            RetryPolicy.builder()
                .seed(seed)
                .sleeper(d -> f.clock.advance(Duration.ofSeconds(10)))
                .build();
        boolean created = c.run(policy, tx -> c.createIndex(ITEMS, BY_OWNER, OWNER));
        assertThat(created).as("%s: created once storage shows the collection", kind).isTrue();
        f.clock.advance(WINDOW.plusSeconds(1));
        assertThat(a.indexes(ITEMS)).containsExactly(BY_OWNER);
      }
    }
  }

  /** Creates {@link #RECORDS} records owned by "alice", one transaction each; their keys. */
  private static List<Long> writeRecords(Database db, Fixture f) {
    // NAIVE's page puts are conditional on the version read: a page another handle wrote within
    // the window reads stale, so its commits fail retryably until the reads catch up. The
    // application backs off long enough for that.
    RetryPolicy policy =
        RetryPolicy.builder().sleeper(d -> f.clock.advance(WINDOW.dividedBy(4))).build();
    List<Long> keys = new ArrayList<>();
    for (long k = 1; k <= RECORDS; k++) {
      long key = k;
      db.run(
          policy,
          tx -> {
            tx.create(ITEMS, Key.of(key), bytes("alice:" + key));
            return null;
          });
      keys.add(key);
      f.clock.advance(Duration.ofMillis(1));
    }
    return keys;
  }

  /**
   * Lets every stale copy and cached catalog expire, and every handle checkpoint what it owes, a
   * window apart (a NAIVE handle cannot put a page another wrote until its reads show that write).
   */
  private static void settle(Fixture f, Database... handles) {
    for (int pass = 0; pass < 3; pass++) {
      f.clock.advance(Duration.ofMinutes(5));
      for (Database db : handles) {
        db.admin().checkpointAll();
        f.clock.advance(WINDOW.plusSeconds(1));
      }
    }
    f.clock.advance(Duration.ofMinutes(5));
  }

  /** The keys of alice's records, as a probe of the index finds them. */
  private static List<Long> owned(Database db) {
    return db.read(
        tx -> {
          List<Long> keys = new ArrayList<>();
          for (Record r : tx.probe(ITEMS, BY_OWNER, Key.of("alice"))) {
            keys.add(r.key().decoder().nextLong());
          }
          return keys;
        });
  }
}
