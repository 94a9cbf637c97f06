package io.stratus.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.CheckpointSummary;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.StorageService;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.protocols.ProtocolKind;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Under the isolating protocols a corrupt page (or one sealed with a key the handle lacks) holds
 * back the checkpoints of its own tree only: it is warned about and counted once, reported as a
 * failure in the summary, and every other tree is checkpointed; once repaired, what waited is
 * applied.
 */
@ExtendWith(SeedExtension.class)
class IsolationDamageTest {
  private static final String DAMAGED_ROOT = Fixture.DB + "/c/items/root";
  private static final int RECORDS = 5;

  private static void createAll(Database db, String collection, String value) {
    db.run(
        tx -> {
          for (int i = 0; i < RECORDS; i++) {
            tx.create(collection, Key.of(i), Fixture.bytes(value + i));
          }
          return null;
        });
  }

  @ParameterizedTest
  @EnumSource(
      value = ProtocolKind.class,
      names = {"SNAPSHOT_ISOLATION", "SERIALIZABLE_SNAPSHOT", "TWO_PHASE_LOCKING"})
  void aCorruptPageHoldsBackOnlyItsOwnTree(ProtocolKind kind, @Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      ManualExecutor ex = new ManualExecutor();
      Database db = f.open(f.config().protocol(kind).clientId("w").checkpointExecutor(ex));
      db.createCollection("items");
      db.createCollection("others");
      createAll(db, "items", "i");
      createAll(db, "others", "o");
      StorageService storage = f.services().storage();
      byte[] good = CloudFutures.await(storage.get(DAMAGED_ROOT)).orElseThrow().payload();
      byte[] garbage = good.clone();
      garbage[new Random(seed).nextInt(garbage.length)] ^= 0x5a;
      CloudFutures.await(storage.put(DAMAGED_ROOT, garbage, Map.of()));

      CheckpointSummary first = db.admin().checkpointAll(); // must not stop at the damaged tree
      CheckpointSummary second = db.admin().checkpointAll();
      assertThat(first.failures()).as("the damaged tree's checkpoint gave up").isEqualTo(1);
      assertThat(first.failureReasons())
          .as("says which tree and why")
          .singleElement()
          .asString()
          .contains(DAMAGED_ROOT, "corrupt");
      assertThat(first.recordsApplied()).as("the healthy tree's records").isEqualTo(RECORDS);
      assertThat(first.quiescent()).isFalse();
      assertThat(second.failures()).isEqualTo(1);
      assertThat(second.recordsApplied()).as("nothing left in the healthy tree").isZero();
      assertThat(db.stats().corruptPages()).as("one corrupt page, reported once").isEqualTo(1);
      assertThat(db.stats().backgroundFailures()).isZero();

      CloudFutures.await(storage.put(DAMAGED_ROOT, good, Map.of())); // the repair
      f.clock.advance(Fixture.TTL.plusSeconds(1));
      CheckpointSummary repaired = db.admin().checkpointAll();
      assertThat(repaired.failures()).isZero();
      assertThat(repaired.recordsApplied()).as("what waited is applied").isEqualTo(RECORDS);
      Database reader = f.open(f.config().protocol(kind).clientId("r").checkpointExecutor(ex));
      try (Transaction tx = reader.begin()) {
        for (int i = 0; i < RECORDS; i++) {
          assertThat(tx.read("items", Key.of(i)).map(Fixture::string)).contains("i" + i);
          assertThat(tx.read("others", Key.of(i)).map(Fixture::string)).contains("o" + i);
        }
      }
    }
  }
}
