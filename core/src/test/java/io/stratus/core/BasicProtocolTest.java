package io.stratus.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.CheckpointSummary;
import io.stratus.cloudapi.inprocess.QueueBehavior;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageCodec;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.ProtocolOption;
import io.stratus.protocols.checkpoint.CheckpointTimes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The basic protocol end to end (paper 000, section 4): several handles over one in-process cloud,
 * commits through PU queues, checkpoints on a manual executor or through {@code checkpointAll}.
 */
@ExtendWith(SeedExtension.class)
class BasicProtocolTest {
  static final int CLIENTS = 4;
  static final int ROUNDS = 3;
  static final int RECORDS = 200;

  static DatabaseConfig.Builder basic(Fixture f, String client, ManualExecutor executor) {
    return f.config().protocol(ProtocolKind.BASIC).clientId(client).checkpointExecutor(executor);
  }

  static void load(Database db, int n) {
    db.createCollection("items");
    List<Record> records = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      records.add(new Record(Key.of((long) i), Fixture.bytes("v0-" + i)));
    }
    db.bulkLoad("items", records);
  }

  /** Quiescence: past the TTL, every queue applied, past the TTL again. */
  static CheckpointSummary quiesce(Fixture f, Database checkpointer) {
    f.clock.advance(Duration.ofSeconds(31)); // lapsed leases, visible messages
    CheckpointSummary s = checkpointer.admin().checkpointAll();
    f.clock.advance(Duration.ofSeconds(31));
    checkpointer.admin().checkpointAll();
    f.clock.advance(Fixture.TTL.plusSeconds(1));
    return s;
  }

  static Map<Long, String> readAll(Database db) {
    Map<Long, String> out = new TreeMap<>();
    try (Transaction tx = db.begin()) {
      RecordCursor c = tx.scan("items");
      while (c.hasNext()) {
        Record r = c.next();
        out.put(decode(r.key()), Fixture.string(r.payload()));
      }
    }
    return out;
  }

  static long decode(Key k) {
    return k.decoder().nextLong();
  }

  /** All clients begin, all update different records that share pages, all commit; rounds. */
  static Map<Long, String> concurrentRounds(Fixture f, List<Database> dbs) {
    Map<Long, String> expected = new TreeMap<>();
    for (int i = 0; i < RECORDS; i++) {
      expected.put((long) i, "v0-" + i);
    }
    for (int round = 0; round < ROUNDS; round++) {
      List<Transaction> txs = new ArrayList<>();
      for (Database db : dbs) {
        txs.add(db.begin());
      }
      for (int c = 0; c < dbs.size(); c++) {
        for (int j = 0; j < 5; j++) {
          long key = (round * dbs.size() * 5L + c * 5L + j) * 3 % RECORDS;
          String value = "r" + round + "-c" + c + "-" + key;
          assertThat(txs.get(c).update("items", Key.of(key), Fixture.bytes(value))).isTrue();
          expected.put(key, value);
        }
      }
      for (Transaction tx : txs) {
        tx.commit();
      }
      f.clock.advance(Duration.ofSeconds(1));
    }
    return expected;
  }

  private static List<Database> handles(Fixture f, ProtocolKind kind, ManualExecutor ex) {
    List<Database> dbs = new ArrayList<>();
    for (int c = 0; c < CLIENTS; c++) {
      DatabaseConfig.Builder b = f.config().protocol(kind).clientId("c" + c);
      dbs.add(f.open(kind.accepts(ProtocolOption.CHECKPOINTS) ? b.checkpointExecutor(ex) : b));
    }
    return dbs;
  }

  @Test
  void basicLosesNoUpdateOfConcurrentClientsSharingPages(@Seed long seed) {
    for (QueueBehavior q : List.of(QueueBehavior.reliable(), QueueBehavior.weak())) {
      try (Fixture f = new Fixture(seed, true, q)) {
        ManualExecutor ex = new ManualExecutor();
        List<Database> dbs = handles(f, ProtocolKind.BASIC, ex);
        load(dbs.get(0), RECORDS);
        Map<Long, String> expected = concurrentRounds(f, dbs);
        assertThat(ex.pending()).isPositive(); // writers scheduled checkpoints, none ran yet
        CheckpointSummary s = quiesce(f, dbs.get(0));
        assertThat(s.recordsApplied()).isGreaterThanOrEqualTo(CLIENTS * ROUNDS * 5);
        for (Database db : dbs) {
          assertThat(readAll(db))
              .as("queues %s, handle %s", q, db.config().clientId())
              .isEqualTo(expected);
        }
      }
    }
  }

  @Test
  void naiveLosesUpdatesInTheSameScenario(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      ManualExecutor ex = new ManualExecutor();
      List<Database> dbs = handles(f, ProtocolKind.NAIVE, ex);
      load(dbs.get(0), RECORDS);
      Map<Long, String> expected = concurrentRounds(f, dbs);
      quiesce(f, dbs.get(0));
      Map<Long, String> actual = readAll(dbs.get(0));
      long lost =
          expected.keySet().stream().filter(k -> !expected.get(k).equals(actual.get(k))).count();
      assertThat(lost).as("updates lost under the naive protocol").isPositive();
    }
  }

  @Test
  void insertsAndDeletesThroughTreeQueuesSplitEveryLevelAndKeepIndexes(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      ManualExecutor ex = new ManualExecutor();
      DatabaseConfig.Builder cfg =
          basic(f, "writer", ex).indexExtractor("items", "byCategory", Fixture.BY_CATEGORY);
      Database db = f.open(cfg);
      Database other =
          f.open(basic(f, "other", ex).indexExtractor("items", "byCategory", Fixture.BY_CATEGORY));
      db.createCollection("items");
      db.createIndex("items", "byCategory", Fixture.BY_CATEGORY);
      Random r = new Random(seed);
      Map<Long, byte[]> model = new TreeMap<>();
      long next = 0;
      for (int phase = 0; phase < 6; phase++) {
        List<Long> present = new ArrayList<>(model.keySet());
        java.util.Collections.shuffle(present, r);
        int touched = 0;
        for (int t = 0; t < 15; t++) {
          try (Transaction tx = db.begin()) {
            for (int j = 0; j < 8; j++) {
              long key = next++ * 7919 % 100_003;
              byte[] payload = payload(r);
              tx.create("items", Key.of(key), payload);
              model.put(key, payload);
            }
            for (int j = 0; j < 2 && touched < present.size(); j++) {
              long key = present.get(touched++);
              if (r.nextBoolean()) {
                byte[] payload = payload(r);
                assertThat(tx.update("items", Key.of(key), payload)).isTrue();
                model.put(key, payload);
              } else {
                assertThat(tx.delete("items", Key.of(key))).isTrue();
                model.remove(key);
              }
            }
            tx.commit();
          }
        }
        quiesce(f, phase % 2 == 0 ? db : other);
      }
      Page root =
          PageCodec.decode(
              Fixture.DB + "/c/items/root",
              f.services()
                  .storage()
                  .get(Fixture.DB + "/c/items/root")
                  .join()
                  .orElseThrow()
                  .payload());
      assertThat(root.level()).as("levels above the leaves").isGreaterThanOrEqualTo(2);
      assertThat(CheckpointTimes.of(root).treeMillis()).isPositive();
      for (Database d : List.of(db, other)) {
        Map<Long, String> actual = readAll(d);
        Map<Long, String> want = new TreeMap<>();
        model.forEach((k, v) -> want.put(k, Fixture.string(v)));
        assertThat(actual).isEqualTo(want);
        try (Transaction tx = d.begin()) {
          for (int cat = 0; cat < 7; cat++) {
            List<Long> got = new ArrayList<>();
            for (Record rec : tx.probe("items", "byCategory", Key.of(cat))) {
              got.add(decode(rec.key()));
            }
            List<Long> wanted = new ArrayList<>();
            for (Map.Entry<Long, byte[]> e : model.entrySet()) {
              Optional<byte[]> s =
                  Fixture.BY_CATEGORY.extract(Key.of(e.getKey()).toBytes(), e.getValue());
              if (s.isPresent() && java.util.Arrays.equals(s.get(), Key.of(cat).toBytes())) {
                wanted.add(e.getKey());
              }
            }
            assertThat(got).as("category %d", cat).isEqualTo(wanted);
          }
        }
      }
    }
  }

  private static byte[] payload(Random r) {
    byte[] p = new byte[10 + r.nextInt(30)];
    r.nextBytes(p);
    return p;
  }

  @Test
  void writersAndReadersScheduleCheckpointsOnTheExecutor(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      ManualExecutor ex = new ManualExecutor();
      Database db = f.open(basic(f, "w", ex).checkpointSeed(seed));
      load(db, 10); // one page: the root leaf, never checkpointed
      update(db, 1, "a");
      assertThat(ex.pending()).as("writer: a data page not checkpointed for long").isEqualTo(1);
      update(db, 2, "b");
      assertThat(ex.pending()).as("at most one per queue").isEqualTo(1);
      assertThat(read(db, 1)).isEqualTo("v0-1"); // basic: not even one's own writes before
      assertThat(ex.runAll()).isEqualTo(1);
      assertThat(read(db, 1)).isEqualTo("a");
      assertThat(read(db, 2)).isEqualTo("b");
      update(db, 3, "c");
      assertThat(ex.pending()).as("checkpointed just now").isZero();
      for (int i = 0; i < 50; i++) {
        read(db, 4);
      }
      assertThat(ex.pending()).as("readers: checkpointed recently").isZero();
      f.clock.advance(Duration.ofSeconds(90)); // x = 2 intervals: probability 1/2 per read
      int reads = 0;
      while (ex.pending() == 0 && reads < 60) {
        read(db, 4);
        reads++;
      }
      assertThat(ex.pending()).as("a reader scheduled a checkpoint").isPositive();
      ex.runAll();
      f.clock.advance(Fixture.TTL.plusSeconds(1));
      assertThat(read(db, 3)).isEqualTo("c");
    }
  }

  /**
   * A transaction reads the clock for its checkpoint draws at its first page and then only every
   * few leaves: one that began before a page came due must still draw for it once the clock has
   * moved on, however long it runs.
   */
  @Test
  void aLongTransactionDrawsForCheckpointsThatCameDueAfterItBegan(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      ManualExecutor ex = new ManualExecutor();
      Database db = f.open(basic(f, "w", ex).checkpointSeed(seed));
      load(db, 10); // one page: the root leaf
      update(db, 1, "a");
      assertThat(ex.runAll()).isEqualTo(1); // checkpointed now
      update(db, 2, "b"); // a record waits in the page's queue
      assertThat(ex.pending()).as("checkpointed just now").isZero();
      try (Transaction tx = db.begin()) {
        for (int i = 0; i < 40; i++) {
          assertThat(tx.read("items", Key.of(4))).isPresent();
        }
        assertThat(ex.pending()).as("the page is not due while the clock stands").isZero();
        f.clock.advance(Duration.ofSeconds(90)); // x = 2 intervals: probability 1/2 per draw
        int reads = 0;
        while (ex.pending() == 0 && reads < 200) {
          assertThat(tx.read("items", Key.of(4))).isPresent();
          reads++;
        }
        assertThat(ex.pending())
            .as("the transaction drew at the moved clock within %d reads", reads)
            .isPositive();
      }
      ex.runAll();
      f.clock.advance(Fixture.TTL.plusSeconds(1));
      assertThat(read(db, 2)).isEqualTo("b");
    }
  }

  static void update(Database db, long key, String value) {
    try (Transaction tx = db.begin()) {
      assertThat(tx.update("items", Key.of(key), Fixture.bytes(value))).isTrue();
      tx.commit();
    }
  }

  static String read(Database db, long key) {
    try (Transaction tx = db.begin()) {
      return tx.read("items", Key.of(key)).map(Fixture::string).orElse(null);
    }
  }

  @Test
  void checkpointAllSummarizes(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      ManualExecutor ex = new ManualExecutor();
      Database db = f.open(basic(f, "w", ex));
      load(db, 50);
      Map<Long, String> expected = new HashMap<>();
      for (int i = 0; i < 5; i++) {
        update(db, i * 10, "u" + i);
        expected.put((long) i * 10, "u" + i);
      }
      CheckpointSummary s = db.admin().checkpointAll();
      assertThat(s.recordsApplied()).isEqualTo(5);
      assertThat(s.pagesWritten()).isPositive();
      assertThat(s.queues()).isPositive();
      assertThat(s.failures()).isZero();
      expected.forEach((k, v) -> assertThat(read(db, k)).isEqualTo(v));
    }
  }
}
