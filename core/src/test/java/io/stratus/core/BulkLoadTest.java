package io.stratus.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.IndexNotAttachedException;
import io.stratus.InvalidRequestException;
import io.stratus.RecordTooLargeException;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.decorate.CloudMeter;
import io.stratus.cloudapi.decorate.MeteringInterceptor;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(SeedExtension.class)
class BulkLoadTest {

  private static List<Record> records(int n, long seed) {
    Random random = new Random(seed);
    List<Record> records = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      byte[] payload = new byte[20 + random.nextInt(40)];
      random.nextBytes(payload);
      records.add(new Record(Key.of((long) i), payload));
    }
    Collections.shuffle(records, random);
    return records;
  }

  @Test
  void loadsAnEmptyCollectionAndItsIndexWithOnePutPerPage(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      CloudMeter meter = new CloudMeter();
      Database db =
          f.open(
              f.config(new MeteringInterceptor(meter))
                  .indexExtractor("items", "byCategory", Fixture.BY_CATEGORY));
      db.createCollection("items");
      db.createIndex("items", "byCategory", Fixture.BY_CATEGORY);
      List<Record> records = records(3000, seed);
      long putsBefore = meter.snapshot().stats(Operation.STORAGE_PUT).calls();

      BulkLoadResult result = db.bulkLoad("items", records);

      long puts = meter.snapshot().stats(Operation.STORAGE_PUT).calls() - putsBefore;
      assertThat(result.records()).isEqualTo(3000);
      assertThat(result.pagesWritten()).isEqualTo(puts);
      // Full pages: far fewer puts than records (1 KB pages hold about a dozen records).
      assertThat(puts).isLessThan(3000 / 5);

      Database other = f.open();
      other.attachIndex("items", "byCategory", Fixture.BY_CATEGORY);
      try (Transaction tx = other.begin()) {
        for (Record r : records) {
          assertThat(tx.read("items", r.key()))
              .hasValueSatisfying(p -> assertThat(p).isEqualTo(r.payload()));
        }
        long indexed =
            records.stream()
                .filter(
                    r -> Fixture.BY_CATEGORY.extract(r.key().toBytes(), r.payload()).isPresent())
                .count();
        long probed = 0;
        for (int c = 0; c < 7; c++) {
          probed += tx.probe("items", "byCategory", Key.of(c)).size();
        }
        assertThat(probed).isEqualTo(indexed).isEqualTo(result.indexEntries());
      }
    }
  }

  @Test
  void refusesANonEmptyCollectionDuplicatesOversizedRecordsAndMissingExtractors(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database db = f.open();
      db.createCollection("items");
      Record big = new Record(Key.of(1L), new byte[Fixture.PAGE_SIZE]);
      assertThatThrownBy(() -> db.bulkLoad("items", List.of(big)))
          .isInstanceOf(RecordTooLargeException.class);
      Record a = new Record(Key.of(1L), Fixture.bytes("a"));
      assertThatThrownBy(() -> db.bulkLoad("items", List.of(a, a)))
          .isInstanceOf(InvalidRequestException.class)
          .hasMessageContaining("twice");

      db.bulkLoad("items", List.of(a));
      assertThatThrownBy(() -> db.bulkLoad("items", List.of(new Record(Key.of(2L), new byte[1]))))
          .isInstanceOf(InvalidRequestException.class)
          .hasMessageContaining("empty");

      db.createCollection("other");
      db.createIndex("other", "byCategory", Fixture.BY_CATEGORY);
      Database withoutExtractor = f.open();
      assertThatThrownBy(() -> withoutExtractor.bulkLoad("other", List.of(a)))
          .isInstanceOf(IndexNotAttachedException.class);
    }
  }
}
