package io.stratus.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.DuplicateKeyException;
import io.stratus.RecordTooLargeException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageCodec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The record manager against an in-memory model: seeded random transactions of creates, updates,
 * deletes, reads, scans and index probes over two collections (one with a secondary index), with
 * pages small enough that the trees split at every level, committed or aborted at random, and the
 * database reopened from the cloud now and then. Aborted transactions must leave no trace;
 * committed ones must survive reopening.
 */
@ExtendWith(SeedExtension.class)
class DatabaseModelTest {
  private static final String ITEMS = "items";
  private static final String LOGS = "logs";
  private static final String INDEX = "byCategory";

  @Test
  void randomTransactionsMatchTheModel(@Seed long seed) throws Exception {
    Random r = new Random(seed);
    try (Fixture f = new Fixture(seed)) {
      DatabaseConfig.Builder config = f.config().indexExtractor(ITEMS, INDEX, Fixture.BY_CATEGORY);
      Database db = f.open(config);
      assertThat(db.createCollection(ITEMS)).isTrue();
      assertThat(db.createCollection(LOGS)).isTrue();
      assertThat(db.createIndex(ITEMS, INDEX, Fixture.BY_CATEGORY)).isTrue();
      Map<String, TreeMap<Key, byte[]>> committed =
          Map.of(ITEMS, new TreeMap<>(), LOGS, new TreeMap<>());
      int reopenings = 0;
      for (int t = 0; t < 250; t++) {
        if (t % 40 == 39 || r.nextInt(40) == 0) {
          db.close();
          db = f.open(config);
          reopenings++;
          assertThat(db.collections()).containsExactlyInAnyOrder(ITEMS, LOGS);
          assertThat(db.indexes(ITEMS)).containsExactly(INDEX);
        }
        Map<String, TreeMap<Key, byte[]>> model =
            Map.of(
                ITEMS,
                new TreeMap<>(committed.get(ITEMS)),
                LOGS,
                new TreeMap<>(committed.get(LOGS)));
        Transaction tx = db.begin();
        int ops = 1 + r.nextInt(10);
        for (int i = 0; i < ops; i++) {
          step(r, tx, model);
        }
        int end = r.nextInt(10);
        if (end < 7) {
          tx.commit();
          committed = model;
        } else if (end < 9) {
          tx.abort();
        } else {
          tx.close(); // try-with-resources without commit: an abort
        }
        if (t % 10 == 0) {
          try (Transaction check = db.begin()) {
            verifyAll(check, committed);
          }
        }
      }
      db.close();
      Database reopened = f.open(config);
      try (Transaction check = reopened.begin()) {
        verifyAll(check, committed);
      }
      assertThat(reopenings).isGreaterThanOrEqualTo(6);
      // Small pages and a few hundred records: the trees split at every level.
      String root = Fixture.DB + "/c/" + ITEMS + "/root";
      Page rootPage =
          PageCodec.decode(
              root, CloudFutures.await(f.services().storage().get(root)).orElseThrow().payload());
      assertThat(rootPage.level()).isGreaterThanOrEqualTo(2);
    }
  }

  /** One random operation, checked against and applied to the transaction's model. */
  private static void step(Random r, Transaction tx, Map<String, TreeMap<Key, byte[]>> models) {
    String coll = r.nextInt(4) == 0 ? LOGS : ITEMS;
    TreeMap<Key, byte[]> model = models.get(coll);
    Key key = Key.of((long) r.nextInt(400) - 200);
    switch (r.nextInt(9)) {
      case 0, 1, 2 -> {
        byte[] payload = payload(r);
        if (model.containsKey(key)) {
          assertThatThrownBy(() -> tx.create(coll, key, payload))
              .isInstanceOf(DuplicateKeyException.class);
        } else {
          tx.create(coll, key, payload);
          model.put(key, payload);
        }
      }
      case 3, 4 -> {
        byte[] payload = payload(r);
        assertThat(tx.update(coll, key, payload)).isEqualTo(model.containsKey(key));
        model.computeIfPresent(key, (k, v) -> payload);
      }
      case 5 -> {
        assertThat(tx.delete(coll, key)).isEqualTo(model.remove(key) != null);
      }
      case 6 -> {
        Optional<byte[]> got = tx.read(coll, key);
        assertThat(got.orElse(null)).isEqualTo(model.get(key));
      }
      case 7 -> {
        Key lo = Key.of((long) r.nextInt(400) - 200);
        Key hi = Key.of((long) r.nextInt(400) - 200);
        boolean loIn = r.nextBoolean();
        boolean hiIn = r.nextBoolean();
        KeyRange range =
            KeyRange.of(r.nextInt(5) == 0 ? null : lo, loIn, r.nextInt(5) == 0 ? null : hi, hiIn);
        List<Record> expected = new ArrayList<>();
        model.forEach(
            (k, v) -> {
              if (range.contains(k)) {
                expected.add(new Record(k, v));
              }
            });
        assertThat(scan(tx.scan(coll, range))).as("scan %s", range).isEqualTo(expected);
      }
      default -> {
        if (r.nextBoolean()) {
          Key big = Key.of((long) r.nextInt(400) - 200);
          byte[] tooLarge = new byte[Fixture.PAGE_SIZE];
          assertThatThrownBy(() -> tx.create(ITEMS, big, tooLarge))
              .isInstanceOf(RecordTooLargeException.class);
          assertThat(tx.read(ITEMS, big).orElse(null)).isEqualTo(models.get(ITEMS).get(big));
        } else {
          int category = r.nextInt(8);
          assertThat(tx.probe(ITEMS, INDEX, Key.of(category)))
              .isEqualTo(expectedProbe(models.get(ITEMS), category, category + 1));
        }
      }
    }
  }

  private static void verifyAll(Transaction tx, Map<String, TreeMap<Key, byte[]>> models) {
    for (Map.Entry<String, TreeMap<Key, byte[]>> m : models.entrySet()) {
      List<Record> expected = new ArrayList<>();
      m.getValue().forEach((k, v) -> expected.add(new Record(k, v)));
      assertThat(scan(tx.scan(m.getKey()))).isEqualTo(expected);
    }
    TreeMap<Key, byte[]> items = models.get(ITEMS);
    for (int lo = 0; lo < 7; lo += 3) {
      assertThat(tx.probeRange(ITEMS, INDEX, Key.of(lo), Key.of(lo + 3)))
          .isEqualTo(expectedProbe(items, lo, lo + 3));
    }
  }

  /** The records whose category lies in [lo, hi), by category then key, as an index returns. */
  private static List<Record> expectedProbe(TreeMap<Key, byte[]> items, int lo, int hi) {
    List<Record> out = new ArrayList<>();
    for (int c = lo; c < hi; c++) {
      for (Map.Entry<Key, byte[]> e : items.entrySet()) {
        Optional<byte[]> s = Fixture.BY_CATEGORY.extract(e.getKey().toBytes(), e.getValue());
        if (s.isPresent() && Arrays.equals(s.get(), Key.of(c).toBytes())) {
          out.add(new Record(e.getKey(), e.getValue()));
        }
      }
    }
    return out;
  }

  private static List<Record> scan(RecordCursor cursor) {
    List<Record> out = new ArrayList<>();
    try (cursor) {
      cursor.forEachRemaining(out::add);
    }
    return out;
  }

  private static byte[] payload(Random r) {
    byte[] p = new byte[r.nextInt(4) == 0 ? r.nextInt(300) : r.nextInt(40)];
    r.nextBytes(p);
    return p;
  }
}
