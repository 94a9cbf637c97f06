package io.stratus.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageCodec;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Secondary indexes: backfill, maintenance on update and delete, probes, stale entries. */
@ExtendWith(SeedExtension.class)
class IndexTest {
  /** Search key: the payload's text before the first ':' as a string key. */
  private static final IndexKeyExtractor CITY =
      (key, payload) -> {
        String s = Fixture.string(payload);
        int colon = s.indexOf(':');
        return colon < 0 ? Optional.empty() : Optional.of(Key.of(s.substring(0, colon)).toBytes());
      };

  private static final String[] CITIES = {"Basel", "Bern", "Genf", "Zug", "Zürich", "", "a\0b"};

  @Test
  void createIndexFillsItFromExistingRecords(@Seed long seed) throws Exception {
    Random r = new Random(seed);
    try (Fixture f = new Fixture(seed)) {
      Database db = f.open();
      db.createCollection("people");
      TreeMap<Key, String> model = new TreeMap<>();
      for (int batch = 0; batch < 10; batch++) {
        try (Transaction tx = db.begin()) {
          for (int i = 0; i < 30; i++) {
            Key key = Key.of((long) batch * 100 + i);
            String value =
                r.nextInt(6) == 0
                    ? "homeless"
                    : CITIES[r.nextInt(CITIES.length)] + ":person " + key;
            tx.create("people", key, Fixture.bytes(value));
            model.put(key, value);
          }
          tx.commit();
        }
      }
      assertThat(db.createIndex("people", "byCity", CITY)).isTrue();
      assertThat(db.createIndex("people", "byCity", CITY)).isFalse();
      String root = Fixture.DB + "/i/people/byCity/root";
      Page rootPage =
          PageCodec.decode(
              root, CloudFutures.await(f.services().storage().get(root)).orElseThrow().payload());
      assertThat(rootPage.level()).as("a bulk load over many pages").isPositive();

      Database other = f.open(); // probes need no extractor
      for (Database d : List.of(db, other)) {
        try (Transaction tx = d.begin()) {
          for (String city : CITIES) {
            assertThat(tx.probe("people", "byCity", Key.of(city)))
                .extracting(Record::key)
                .containsExactlyElementsOf(expected(model, city));
          }
          // [Bern, Zug): Bern, Genf — by search key, then record key.
          List<Key> range = new ArrayList<>(expected(model, "Bern"));
          range.addAll(expected(model, "Genf"));
          assertThat(tx.probeRange("people", "byCity", Key.of("Bern"), Key.of("Zug")))
              .extracting(Record::key)
              .containsExactlyElementsOf(range);
          assertThat(tx.probeRange("people", "byCity", KeyRange.all()))
              .hasSize((int) model.values().stream().filter(v -> v.contains(":")).count());
        }
      }
    }
  }

  @Test
  void writesKeepTheIndexCurrent(@Seed long seed) throws Exception {
    try (Fixture f = new Fixture(seed)) {
      Database db = f.open(f.config().indexExtractor("people", "byCity", CITY));
      db.createCollection("people");
      db.createIndex("people", "byCity", CITY);
      try (Transaction tx = db.begin()) {
        tx.create("people", Key.of(1L), Fixture.bytes("Bern:anna"));
        tx.create("people", Key.of(2L), Fixture.bytes("Bern:bruno"));
        tx.create("people", Key.of(3L), Fixture.bytes("no city"));
        // Read-your-writes through the index, before commit.
        assertThat(tx.probe("people", "byCity", Key.of("Bern"))).hasSize(2);
        tx.commit();
      }
      try (Transaction tx = db.begin()) {
        tx.update("people", Key.of(1L), Fixture.bytes("Zug:anna"));
        tx.update("people", Key.of(2L), Fixture.bytes("Bern:bruno, moved within Bern"));
        tx.update("people", Key.of(3L), Fixture.bytes("Basel:carla"));
        tx.commit();
      }
      try (Transaction tx = db.begin()) {
        assertThat(tx.probe("people", "byCity", Key.of("Bern")))
            .extracting(Record::key)
            .containsExactly(Key.of(2L));
        assertThat(tx.probe("people", "byCity", Key.of("Zug")))
            .extracting(Record::payload)
            .containsExactly(Fixture.bytes("Zug:anna"));
        assertThat(tx.probe("people", "byCity", Key.of("Basel"))).hasSize(1);
        tx.delete("people", Key.of(2L));
        tx.abort(); // leaves no trace, in the index either
      }
      try (Transaction tx = db.begin()) {
        assertThat(tx.probe("people", "byCity", Key.of("Bern"))).hasSize(1);
        tx.delete("people", Key.of(2L));
        tx.commit();
      }
      db.close();
      Database reopened = f.open(f.config().indexExtractor("people", "byCity", CITY));
      try (Transaction tx = reopened.begin()) {
        assertThat(tx.probe("people", "byCity", Key.of("Bern"))).isEmpty();
        assertThat(tx.probeRange("people", "byCity", KeyRange.all()))
            .extracting(Record::key)
            .containsExactly(Key.of(3L), Key.of(1L)); // Basel, then Zug
      }
    }
  }

  @Test
  void staleEntriesDoNotMisleadProbesWhenTheExtractorIsAttached(@Seed long seed) throws Exception {
    try (Fixture f = new Fixture(seed)) {
      Database setup = f.open();
      setup.createCollection("people");
      setup.createIndex("people", "byCity", CITY);
      setup.attachIndex("people", "byCity", CITY);
      try (Transaction tx = setup.begin()) {
        tx.create("people", Key.of(1L), Fixture.bytes("Bern:anna"));
        tx.create("people", Key.of(2L), Fixture.bytes("Bern:bruno"));
        tx.commit();
      }
      Database a = f.open(f.config().indexExtractor("people", "byCity", CITY));
      Database b = f.open(f.config().indexExtractor("people", "byCity", CITY));
      Transaction ta = a.begin();
      Transaction tb = b.begin();
      ta.update("people", Key.of(1L), Fixture.bytes("Zug:anna")); // data page and index
      tb.update("people", Key.of(2L), Fixture.bytes("Bern:bruno!")); // the same data page only
      ta.commit();
      tb.commit(); // overwrites a's data page: anna is back in Bern there, the index says Zug

      Database observer = f.open(f.config().indexExtractor("people", "byCity", CITY));
      try (Transaction tx = observer.begin()) {
        assertThat(tx.read("people", Key.of(1L)).map(Fixture::string)).contains("Bern:anna");
        // The stale Zug entry is checked against the record and dropped.
        assertThat(tx.probe("people", "byCity", Key.of("Zug"))).isEmpty();
      }
      Database blind = f.open(); // without the extractor a probe cannot check
      try (Transaction tx = blind.begin()) {
        assertThat(tx.probe("people", "byCity", Key.of("Zug")))
            .extracting(Record::key)
            .containsExactly(Key.of(1L));
      }
    }
  }

  private static List<Key> expected(TreeMap<Key, String> model, String city) {
    List<Key> out = new ArrayList<>();
    model.forEach(
        (k, v) -> {
          if (v.startsWith(city + ":")) {
            out.add(k);
          }
        });
    return out;
  }
}
