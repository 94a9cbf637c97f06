package io.stratus.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.InvalidRequestException;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.core.query.Join;
import io.stratus.core.query.Joined;
import io.stratus.core.query.Query;
import io.stratus.core.query.QueryPage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Foreign-key joins against a model: order lines to their items by key (many-to-one, dangling
 * references join nothing), items to their lines through an index (one-to-many), page by page and
 * in batches of every size; the bound on joined rows; refusal after a write. Pages of 1 KB.
 */
@ExtendWith(SeedExtension.class)
class JoinTest {
  static final String ITEMS = "items";
  static final String LINES = "lines";
  static final String BY_ITEM = "byItem";
  static final int ITEM_COUNT = 60;

  /** A line's item: the number before the ':' of its payload "item:line". */
  static final IndexKeyExtractor ITEM_OF_LINE =
      (key, payload) -> {
        String s = Fixture.string(payload);
        return Optional.of(Key.of(Long.parseLong(s.substring(0, s.indexOf(':')))).toBytes());
      };

  /** An item joins to its lines by its own key. */
  static final IndexKeyExtractor ITEM_KEY = (key, payload) -> Optional.of(key);

  /** Loads items 1..60 and {@code lines} lines, a few naming items that do not exist (61..63). */
  static TreeMap<Long, Long> load(Database db, int lines, Random r) {
    db.createCollection(ITEMS);
    db.createCollection(LINES);
    db.createIndex(LINES, BY_ITEM, ITEM_OF_LINE);
    db.run(
        tx -> {
          for (long i = 1; i <= ITEM_COUNT; i++) {
            tx.create(ITEMS, Key.of(i), Fixture.bytes("item " + i));
          }
          return null;
        });
    TreeMap<Long, Long> lineToItem = new TreeMap<>();
    for (int from = 0; from < lines; from += 50) {
      int start = from;
      db.run(
          tx -> {
            for (long l = start; l < Math.min(lines, start + 50); l++) {
              long item = 1 + r.nextInt(ITEM_COUNT + 3);
              tx.create(LINES, Key.of(l), Fixture.bytes(item + ":line " + l));
              lineToItem.put(l, item);
            }
            return null;
          });
    }
    return lineToItem;
  }

  static long id(Record r) {
    return r.key().decoder().nextLong();
  }

  @Test
  void linesJoinTheirItemsByKeyPageByPage(@Seed long seed) {
    Random r = new Random(seed);
    try (Fixture f = new Fixture(seed)) {
      Database db = f.open();
      TreeMap<Long, Long> lines = load(db, 300, r);
      for (int round = 0; round < 10; round++) {
        Join join =
            Join.onKey(Query.on(LINES).limit(1 + r.nextInt(60)), ITEM_OF_LINE, ITEMS)
                .batchSize(1 + r.nextInt(40));
        List<long[]> got = new ArrayList<>();
        Join page = join;
        while (true) {
          Join current = page;
          QueryPage<Joined<Record, Record>> p = db.read(tx -> tx.join(current));
          for (Joined<Record, Record> j : p.rows()) {
            assertThat(j.inner().payload()).isEqualTo(Fixture.bytes("item " + id(j.inner())));
            got.add(new long[] {id(j.outer()), id(j.inner())});
          }
          if (p.continuation().isEmpty()) {
            break;
          }
          page = join.after(p.continuation().get());
        }
        List<long[]> expected = new ArrayList<>();
        lines.forEach(
            (l, item) -> {
              if (item <= ITEM_COUNT) {
                expected.add(new long[] {l, item});
              }
            });
        assertThat(got).as("%s", join).containsExactlyElementsOf(expected);
      }
    }
  }

  @Test
  void itemsJoinTheirLinesThroughAnIndex(@Seed long seed) {
    Random r = new Random(seed);
    try (Fixture f = new Fixture(seed)) {
      Database db = f.open();
      TreeMap<Long, Long> lines = load(db, 300, r);
      TreeMap<Long, List<Long>> byItem = new TreeMap<>();
      lines.forEach((l, item) -> byItem.computeIfAbsent(item, i -> new ArrayList<>()).add(l));
      Query items = Query.on(ITEMS).range(KeyRange.closed(Key.of(5L), Key.of(25L))).limit(21);
      Join join = Join.onIndex(items, ITEM_KEY, LINES, BY_ITEM).batchSize(1 + r.nextInt(21));
      QueryPage<Joined<Record, Record>> page = db.read(tx -> tx.join(join));
      List<long[]> expected = new ArrayList<>();
      for (long i = 5; i <= 25; i++) {
        for (long l : byItem.getOrDefault(i, List.of())) {
          expected.add(new long[] {i, l});
        }
      }
      assertThat(page.rows().stream().map(j -> new long[] {id(j.outer()), id(j.inner())}))
          .containsExactlyElementsOf(expected);
      assertThat(page.continuation()).as("a full outer page").isPresent();

      TypedCollection<String> typedItems = TypedCollection.of(ITEMS, Codec.utf8());
      TypedCollection<String> typedLines = TypedCollection.of(LINES, Codec.utf8());
      QueryPage<Joined<TypedCollection.Entry<String>, TypedCollection.Entry<String>>> typed =
          db.read(tx -> typedItems.join(tx, join, typedLines));
      assertThat(typed.rows()).hasSameSizeAs(page.rows());
      for (Joined<TypedCollection.Entry<String>, TypedCollection.Entry<String>> j : typed.rows()) {
        long item = j.outer().key().decoder().nextLong();
        assertThat(j.outer().value()).isEqualTo("item " + item);
        assertThat(j.inner().value()).startsWith(item + ":");
      }
      assertThatThrownBy(() -> db.read(tx -> typedLines.join(tx, join, typedItems)))
          .isInstanceOf(InvalidRequestException.class);
    }
  }

  @Test
  void aJoinBeyondItsBoundFailsAndAJoinAfterAWriteIsRefused(@Seed long seed) {
    Random r = new Random(seed);
    try (Fixture f = new Fixture(seed)) {
      Database db = f.open();
      TreeMap<Long, Long> lines = load(db, 200, r);
      Map<Long, Long> counts = new TreeMap<>();
      lines.values().forEach(i -> counts.merge(i, 1L, Long::sum));
      long all = counts.entrySet().stream().mapToLong(Map.Entry::getValue).sum();
      Join everything =
          Join.onIndex(Query.on(ITEMS).limit(ITEM_COUNT), ITEM_KEY, LINES, BY_ITEM).batchSize(7);
      long joined =
          counts.entrySet().stream()
              .filter(e -> e.getKey() <= ITEM_COUNT)
              .mapToLong(Map.Entry::getValue)
              .sum();
      assertThat(all).isGreaterThan(joined);
      assertThat(db.read(tx -> tx.join(everything.maxRows((int) joined))).rows())
          .hasSize((int) joined);
      assertThatThrownBy(() -> db.read(tx -> tx.join(everything.maxRows((int) joined - 1))))
          .isInstanceOf(InvalidRequestException.class)
          .hasMessageContaining("gives more than " + (joined - 1) + " joined rows");
      assertThatThrownBy(() -> everything.maxRows(0)).isInstanceOf(InvalidRequestException.class);
      assertThatThrownBy(() -> everything.batchSize(0)).isInstanceOf(InvalidRequestException.class);
      try (Transaction tx = db.begin()) {
        tx.update(ITEMS, Key.of(1L), Fixture.bytes("item 1"));
        assertThatThrownBy(() -> tx.join(everything))
            .isInstanceOf(InvalidRequestException.class)
            .hasMessageContaining("has written");
      }
    }
  }
}
