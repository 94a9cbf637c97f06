package io.stratus.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.InvalidRequestException;
import io.stratus.NoSuchCollectionException;
import io.stratus.NoSuchIndexException;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.core.query.Continuation;
import io.stratus.core.query.Order;
import io.stratus.core.query.Query;
import io.stratus.core.query.QueryPage;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Queries over the primary key and a secondary index, checked against a model: bounds inclusive
 * and exclusive, both orders, limits, continuations within and across transactions (with changes
 * between pages), projections, and the checks of the arguments. Pages of 1 KB, so trees split.
 */
@ExtendWith(SeedExtension.class)
class QueryTest {
  static final String PEOPLE = "people";
  static final String BY_GROUP = "byGroup";
  static final int GROUPS = 10;

  /** Search key: the group before the ':' of the payload "group:name", as a long key. */
  static final IndexKeyExtractor GROUP =
      (key, payload) -> {
        String s = Fixture.string(payload);
        int colon = s.indexOf(':');
        return colon < 0
            ? Optional.empty()
            : Optional.of(Key.of(Long.parseLong(s.substring(0, colon))).toBytes());
      };

  static byte[] person(long group, long key) {
    return Fixture.bytes(group + ":person " + key);
  }

  /** Creates PEOPLE with its index and {@code n} records of keys 0, 2, 4, ...; returns key to group. */
  static TreeMap<Long, Long> load(Database db, int n, Random r) {
    db.createCollection(PEOPLE);
    db.createIndex(PEOPLE, BY_GROUP, GROUP);
    TreeMap<Long, Long> model = new TreeMap<>();
    for (int from = 0; from < n; from += 50) {
      try (Transaction tx = db.begin()) {
        for (int i = from; i < Math.min(n, from + 50); i++) {
          long key = 2L * i;
          long group = r.nextInt(GROUPS);
          tx.create(PEOPLE, Key.of(key), person(group, key));
          model.put(key, group);
        }
        tx.commit();
      }
    }
    return model;
  }

  /** A random key range over longs around [0, hi], each bound absent, inclusive or exclusive. */
  static KeyRange randomRange(Random r, long hi) {
    long a = r.nextLong(-3, hi + 3);
    long b = r.nextLong(-3, hi + 3);
    Key lo = r.nextInt(5) == 0 ? null : Key.of(Math.min(a, b));
    Key up = r.nextInt(5) == 0 ? null : Key.of(Math.max(a, b));
    return KeyRange.of(lo, r.nextBoolean(), up, r.nextBoolean());
  }

  /** Every page of {@code q} in one transaction, checking the page sizes and continuations. */
  static List<Record> allPages(Database db, Query q) {
    List<Record> out = new ArrayList<>();
    Query next = q;
    try (Transaction tx = db.begin()) {
      while (true) {
        QueryPage<Record> page = tx.query(next);
        assertThat(page.rows()).as("a page of %s", next).hasSizeLessThanOrEqualTo(q.limit());
        assertThat(page.continuation().isPresent())
            .as("a full page has a continuation, a short one none: %s", next)
            .isEqualTo(page.rows().size() == q.limit());
        out.addAll(page.rows());
        if (page.continuation().isEmpty()) {
          return out;
        }
        next = q.after(page.continuation().get());
      }
    }
  }

  static List<Long> keys(List<Record> records) {
    return records.stream().map(r -> r.key().decoder().nextLong()).toList();
  }

  @Test
  void primaryKeyQueriesReturnTheRangeInOrderPageByPage(@Seed long seed) {
    Random r = new Random(seed);
    try (Fixture f = new Fixture(seed)) {
      Database db = f.open();
      TreeMap<Long, Long> model = load(db, 400, r);
      for (int i = 0; i < 150; i++) {
        KeyRange range = randomRange(r, 800);
        Order order = r.nextBoolean() ? Order.ASCENDING : Order.DESCENDING;
        int limit = 1 + r.nextInt(r.nextBoolean() ? 5 : 120);
        Query q = Query.on(PEOPLE).range(range).order(order).limit(limit);
        List<Long> expected =
            new ArrayList<>(
                model.keySet().stream().filter(k -> range.contains(Key.of(k))).toList());
        if (order == Order.DESCENDING) {
          Collections.reverse(expected);
        }
        List<Record> got = allPages(db, q);
        assertThat(keys(got)).as("%s", q).isEqualTo(expected);
        for (Record rec : got) {
          long k = rec.key().decoder().nextLong();
          assertThat(rec.payload()).isEqualTo(person(model.get(k), k));
        }
      }
    }
  }

  @Test
  void indexQueriesOrderBySearchKeyThenRecordKey(@Seed long seed) {
    Random r = new Random(seed);
    try (Fixture f = new Fixture(seed)) {
      Database db = f.open();
      TreeMap<Long, Long> model = load(db, 300, r);
      for (int i = 0; i < 100; i++) {
        boolean equality = r.nextInt(3) == 0;
        long g = r.nextInt(GROUPS);
        KeyRange range = equality ? KeyRange.closed(Key.of(g), Key.of(g)) : randomRange(r, GROUPS);
        Order order = r.nextBoolean() ? Order.ASCENDING : Order.DESCENDING;
        int limit = 1 + r.nextInt(r.nextBoolean() ? 4 : 80);
        Query base = Query.onIndex(PEOPLE, BY_GROUP);
        Query q =
            (equality ? base.equalTo(Key.of(g)) : base.range(range)).order(order).limit(limit);
        Comparator<Map.Entry<Long, Long>> byIndex =
            Map.Entry.<Long, Long>comparingByValue().thenComparing(Map.Entry.comparingByKey());
        List<Long> expected =
            model.entrySet().stream()
                .filter(e -> range.contains(Key.of(e.getValue())))
                .sorted(order == Order.ASCENDING ? byIndex : byIndex.reversed())
                .map(Map.Entry::getKey)
                .toList();
        assertThat(keys(allPages(db, q))).as("%s", q).isEqualTo(expected);
      }
    }
  }

  /**
   * Pages read in separate transactions, with records created, deleted and moved to other groups
   * between them: every record that was in the range throughout (with the same search key) comes
   * exactly once, and no key comes twice or out of order.
   */
  @Test
  void continuationsAcrossTransactionsNeverRepeatOrSkipARecordThatStayed(@Seed long seed) {
    Random r = new Random(seed);
    try (Fixture f = new Fixture(seed)) {
      Database db = f.open();
      for (int round = 0; round < 8; round++) {
        String name = PEOPLE; // one collection, changed round after round
        TreeMap<Long, Long> model = round == 0 ? load(db, 300, r) : currentModel(db);
        boolean index = round % 2 == 1;
        Order order = round % 4 < 2 ? Order.ASCENDING : Order.DESCENDING;
        KeyRange range = index ? KeyRange.closed(Key.of(2L), Key.of(7L)) : randomRange(r, 700);
        Predicate<Map.Entry<Long, Long>> inRange =
            e -> range.contains(Key.of(index ? e.getValue() : e.getKey()));
        Set<Long> stays = new HashSet<>();
        for (Map.Entry<Long, Long> e : model.entrySet()) {
          if (inRange.test(e) && r.nextInt(3) > 0) {
            stays.add(e.getKey());
          }
        }
        Query q =
            (index ? Query.onIndex(name, BY_GROUP) : Query.on(name))
                .range(range)
                .order(order)
                .limit(1 + r.nextInt(15));
        List<Record> seen = new ArrayList<>();
        Optional<Continuation> next = Optional.empty();
        do {
          Query page = next.isPresent() ? q.after(Continuation.parse(next.get().toString())) : q;
          QueryPage<Record> p = db.read(tx -> tx.query(page));
          seen.addAll(p.rows());
          next = p.continuation();
          changeSome(db, r, model, stays);
        } while (next.isPresent());
        // (search key, record key) of an index query, the record key of a primary-key query
        List<List<Long>> positions = new ArrayList<>();
        for (Record rec : seen) {
          long k = rec.key().decoder().nextLong();
          long g =
              Key.ofBytes(GROUP.extract(rec.key().toBytes(), rec.payload()).orElseThrow())
                  .decoder()
                  .nextLong();
          positions.add(index ? List.of(g, k) : List.of(k));
        }
        Comparator<List<Long>> byPosition =
            Comparator.<List<Long>, Long>comparing(p -> p.get(0))
                .thenComparing(p -> p.get(p.size() - 1));
        for (int i = 1; i < positions.size(); i++) {
          int c = byPosition.compare(positions.get(i - 1), positions.get(i));
          assertThat(order == Order.ASCENDING ? c : -c)
              .as(
                  "round %d: %s then %s, strictly in order",
                  round, positions.get(i - 1), positions.get(i))
              .isNegative();
        }
        assertThat(keys(seen)).as("round %d: every record that stayed", round).containsAll(stays);
      }
    }
  }

  private static TreeMap<Long, Long> currentModel(Database db) {
    TreeMap<Long, Long> model = new TreeMap<>();
    try (Transaction tx = db.begin();
        RecordCursor c = tx.scan(PEOPLE)) {
      while (c.hasNext()) {
        Record rec = c.next();
        model.put(
            rec.key().decoder().nextLong(),
            Key.ofBytes(GROUP.extract(rec.key().toBytes(), rec.payload()).orElseThrow())
                .decoder()
                .nextLong());
      }
    }
    return model;
  }

  /** Creates, deletes and regroups a few records that are not in {@code stays}. */
  private static void changeSome(
      Database db, Random r, TreeMap<Long, Long> model, Set<Long> stays) {
    db.run(
        tx -> {
          for (int i = 0; i < 6; i++) {
            long k = r.nextLong(-5, 705);
            if (stays.contains(k)) {
              continue;
            }
            long g = r.nextInt(GROUPS);
            if (model.containsKey(k) && r.nextBoolean()) {
              tx.delete(PEOPLE, Key.of(k));
            } else {
              tx.put(PEOPLE, Key.of(k), person(g, k));
            }
          }
          return null;
        });
    model.clear();
    model.putAll(currentModel(db));
  }

  @Test
  void projectionsGiveKeysOrDecodedValues(@Seed long seed) {
    Random r = new Random(seed);
    try (Fixture f = new Fixture(seed)) {
      Database db = f.open();
      load(db, 120, r);
      TypedCollection<String> people = TypedCollection.of(PEOPLE, Codec.utf8());
      Query q = Query.onIndex(PEOPLE, BY_GROUP).equalTo(Key.of(3L)).limit(7);
      db.read(
          tx -> {
            QueryPage<Record> records = tx.query(q);
            assertThat(tx.queryKeys(q).rows())
                .isEqualTo(records.rows().stream().map(Record::key).toList());
            assertThat(tx.queryKeys(q).continuation()).isEqualTo(records.continuation());
            QueryPage<TypedCollection.Entry<String>> typed = people.query(tx, q);
            assertThat(typed.rows())
                .isEqualTo(
                    records.rows().stream()
                        .map(x -> new TypedCollection.Entry<>(x.key(), Fixture.string(x.payload())))
                        .toList());
            assertThat(typed.rows()).allSatisfy(e -> assertThat(e.value()).startsWith("3:"));
            return null;
          });
    }
  }

  @Test
  void aQueryReadsItsOwnTransactionsWrites(@Seed long seed) {
    Random r = new Random(seed);
    try (Fixture f = new Fixture(seed)) {
      Database db = f.open();
      load(db, 100, r);
      try (Transaction tx = db.begin()) {
        tx.create(PEOPLE, Key.of(1L), person(4, 1));
        tx.delete(PEOPLE, Key.of(0L));
        tx.update(PEOPLE, Key.of(2L), person(4, 2));
        assertThat(keys(tx.query(Query.on(PEOPLE).limit(3)).rows())).containsExactly(1L, 2L, 4L);
        assertThat(keys(tx.query(Query.onIndex(PEOPLE, BY_GROUP).equalTo(Key.of(4L))).rows()))
            .contains(1L, 2L);
      }
    }
  }

  @Test
  void wrongArgumentsFailWithClearExceptions(@Seed long seed) {
    Random r = new Random(seed);
    try (Fixture f = new Fixture(seed)) {
      Database db = f.open();
      load(db, 40, r);
      Query q = Query.on(PEOPLE);
      assertThatThrownBy(() -> q.limit(0))
          .isInstanceOf(InvalidRequestException.class)
          .hasMessageContaining("give 1 to " + Query.MAX_LIMIT);
      assertThatThrownBy(() -> q.limit(Query.MAX_LIMIT + 1))
          .isInstanceOf(InvalidRequestException.class);
      assertThatThrownBy(() -> q.equalTo(Key.of(1L)).range(KeyRange.all()))
          .isInstanceOf(InvalidRequestException.class)
          .hasMessageContaining("already has the condition");
      assertThatThrownBy(() -> q.range(KeyRange.closed(Key.of(5L), Key.of(1L))))
          .isInstanceOf(InvalidRequestException.class)
          .hasMessageContaining("lower bound above its upper bound");
      assertThatThrownBy(() -> q.equalTo(null)).isInstanceOf(InvalidRequestException.class);
      assertThatThrownBy(() -> Query.on(null)).isInstanceOf(InvalidRequestException.class);
      assertThatThrownBy(() -> Continuation.parse("not a token!"))
          .isInstanceOf(InvalidRequestException.class)
          .hasMessageContaining("is not a continuation token");
      Continuation c = db.read(tx -> tx.query(q.limit(2)).continuation().orElseThrow());
      assertThat(q.after(c)).isNotNull(); // another limit is the same query
      assertThatThrownBy(() -> q.order(Order.DESCENDING).after(c))
          .isInstanceOf(InvalidRequestException.class)
          .hasMessageContaining("was returned by another query");
      assertThatThrownBy(() -> Query.onIndex(PEOPLE, BY_GROUP).after(c))
          .isInstanceOf(InvalidRequestException.class);
      assertThatThrownBy(() -> db.read(tx -> tx.query(Query.on("nobody"))))
          .isInstanceOf(NoSuchCollectionException.class);
      assertThatThrownBy(() -> db.read(tx -> tx.query(Query.onIndex(PEOPLE, "byNothing"))))
          .isInstanceOf(NoSuchIndexException.class);
      TypedCollection<String> other = TypedCollection.of("other", Codec.utf8());
      assertThatThrownBy(() -> db.read(tx -> other.query(tx, q)))
          .isInstanceOf(InvalidRequestException.class)
          .hasMessageContaining("reads collection people, not other");
      assertThatThrownBy(() -> db.read(tx -> tx.query(null)))
          .isInstanceOf(InvalidRequestException.class);
    }
  }

  @Test
  void anEmptyRangeGivesAnEmptyLastPage(@Seed long seed) {
    Random r = new Random(seed);
    try (Fixture f = new Fixture(seed)) {
      Database db = f.open();
      load(db, 40, r);
      QueryPage<Record> page =
          db.read(
              tx -> tx.query(Query.on(PEOPLE).range(KeyRange.halfOpen(Key.of(4L), Key.of(4L)))));
      assertThat(page.rows()).isEmpty();
      assertThat(page.continuation()).isEmpty();
      // a full last page has a continuation, and the page after it is empty
      Query exact = Query.on(PEOPLE).range(KeyRange.closed(Key.of(0L), Key.of(8L))).limit(5);
      QueryPage<Record> full = db.read(tx -> tx.query(exact));
      assertThat(keys(full.rows())).containsExactly(0L, 2L, 4L, 6L, 8L);
      QueryPage<Record> after = db.read(tx -> tx.query(exact.after(full.continuation().get())));
      assertThat(after.rows()).isEmpty();
      assertThat(after.continuation()).isEmpty();
    }
  }
}
