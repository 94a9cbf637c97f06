package io.stratus.core.contract;

import static io.stratus.core.contract.ContractCloud.bytes;
import static io.stratus.core.contract.ContractCloud.string;
import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.StratusException;
import io.stratus.core.Database;
import io.stratus.core.IndexKeyExtractor;
import io.stratus.core.IndexPlacement;
import io.stratus.core.Key;
import io.stratus.core.KeyRange;
import io.stratus.core.Record;
import io.stratus.core.Transaction;
import io.stratus.core.query.Continuation;
import io.stratus.core.query.Join;
import io.stratus.core.query.Joined;
import io.stratus.core.query.Order;
import io.stratus.core.query.Query;
import io.stratus.core.query.QueryPage;
import io.stratus.protocols.Guarantee;
import io.stratus.protocols.ProtocolKind;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

/**
 * The contract's queries and joins, run under every protocol on the contract cloud (pages of
 * 1 KB): a query reads its transaction's own writes; pages read in separate transactions while
 * another client writes return every record that stayed exactly once, in order; a join of a
 * transaction never shows half of a concurrent commit where the protocol isolates transactions;
 * a range query admits no phantom where it promises serializability, and locks or validates only
 * what its page covered.
 */
final class QueryContract {
  static final String PEOPLE = "people";
  static final String BY_GROUP = "byGroup";
  static final String ITEMS = "items";
  static final String LINES = "lines";
  static final int GROUPS = 8;

  /** The group before the ':' of a payload "group:...". */
  static final IndexKeyExtractor GROUP =
      (key, payload) -> {
        String s = string(payload);
        return Optional.of(Key.of(Long.parseLong(s.substring(0, s.indexOf(':')))).toBytes());
      };

  private QueryContract() {}

  private static Database open(ContractCloud c, String client) {
    return c.open(c.config(client).indexExtractor(PEOPLE, BY_GROUP, GROUP));
  }

  /**
   * People 0, 2, ..., 2(n-1), each in group key % GROUPS, bulk-loaded, and their index, held as
   * {@code placement} says.
   */
  static void loadPeople(Database db, int n, IndexPlacement placement) {
    db.createCollection(PEOPLE);
    List<Record> records = new ArrayList<>();
    for (long k = 0; k < 2L * n; k += 2) {
      records.add(new Record(Key.of(k), bytes((k % GROUPS) + ":v0-" + k)));
    }
    db.bulkLoad(PEOPLE, records);
    db.createIndex(PEOPLE, BY_GROUP, GROUP, placement);
  }

  private static boolean isolates(ProtocolKind kind) {
    return kind.guarantees(Guarantee.SNAPSHOT_ISOLATION) || kind.guarantees(Guarantee.SERIALIZABLE);
  }

  private static long id(Record r) {
    return r.key().decoder().nextLong();
  }

  /** Read-your-writes inside the transaction, and pages across transactions under changes. */
  static void ownWritesAndPagesAcrossTransactions(
      ProtocolKind kind, long seed, IndexPlacement placement) {
    Random r = new Random(seed);
    try (ContractCloud c = new ContractCloud(kind, seed)) {
      Database reader = open(c, "reader");
      loadPeople(reader, 200, placement);
      Database writer =
          kind.guarantees(Guarantee.DURABLE) ? open(c, "writer") : reader; // as ProtocolContract
      try (Transaction tx = reader.begin()) {
        tx.create(PEOPLE, Key.of(1L), bytes("3:mine"));
        tx.delete(PEOPLE, Key.of(0L));
        tx.update(PEOPLE, Key.of(4L), bytes("3:moved"));
        assertThat(tx.query(Query.on(PEOPLE).limit(3)).rows())
            .extracting(QueryContract::id)
            .as("%s: the transaction's own create and delete", kind)
            .containsExactly(1L, 2L, 4L);
        List<Long> group3 =
            tx.query(Query.onIndex(PEOPLE, BY_GROUP).equalTo(Key.of(3L)).limit(50)).rows().stream()
                .map(QueryContract::id)
                .toList();
        assertThat(group3).as("%s: own index entries", kind).contains(1L, 4L);
        assertThat(tx.query(Query.onIndex(PEOPLE, BY_GROUP).equalTo(Key.of(4L))).rows())
            .extracting(QueryContract::id)
            .as("%s: an entry this transaction moved away", kind)
            .doesNotContain(4L);
      }
      Set<Long> touched = new HashSet<>(List.of(0L, 1L, 4L));
      for (Query q :
          List.of(
              Query.on(PEOPLE).range(KeyRange.closed(Key.of(20L), Key.of(300L))).limit(9),
              Query.onIndex(PEOPLE, BY_GROUP)
                  .range(KeyRange.closed(Key.of(2L), Key.of(5L)))
                  .order(Order.DESCENDING)
                  .limit(6))) {
        boolean index = q.index().isPresent();
        Set<Long> stays = new HashSet<>();
        for (long k = 0; k < 400; k += 2) {
          boolean inRange = index ? (k % GROUPS >= 2 && k % GROUPS <= 5) : k >= 20 && k <= 300;
          if (inRange && !touched.contains(k) && r.nextInt(3) > 0) {
            stays.add(k);
          }
        }
        List<Long> seen = new ArrayList<>();
        List<List<Long>> positions = new ArrayList<>();
        Optional<Continuation> next = Optional.empty();
        int pages = 0;
        do {
          Query page = next.isPresent() ? q.after(next.get()) : q;
          QueryPage<Record> p = reader.read(tx -> tx.query(page));
          for (Record rec : p.rows()) {
            seen.add(id(rec));
            long g =
                Key.ofBytes(GROUP.extract(rec.key().toBytes(), rec.payload()).get())
                    .decoder()
                    .nextLong();
            positions.add(index ? List.of(-g, -id(rec)) : List.of(id(rec)));
          }
          next = p.continuation();
          pages++;
          writeAround(writer, r, stays, touched);
          if (r.nextBoolean()) {
            c.runBackground();
            writer.admin().checkpointAll();
          }
        } while (next.isPresent());
        for (int i = 1; i < positions.size(); i++) {
          assertThat(compare(positions.get(i - 1), positions.get(i)))
              .as("%s %s: strictly in order at %d", kind, q, i)
              .isNegative();
        }
        assertThat(seen).as("%s %s: every record that stayed", kind, q).containsAll(stays);
        assertThat(pages).as("several pages").isGreaterThan(3);
      }
    }
  }

  private static int compare(List<Long> a, List<Long> b) {
    for (int i = 0; i < a.size(); i++) {
      int c = Long.compare(a.get(i), b.get(i));
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }

  /** Creates odd people, deletes and regroups even ones not in {@code stays}. */
  private static void writeAround(Database writer, Random r, Set<Long> stays, Set<Long> touched) {
    List<long[]> changes = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      long k = r.nextLong(0, 400);
      if (!stays.contains(k)) {
        changes.add(new long[] {k, r.nextInt(3), r.nextInt(GROUPS)});
        touched.add(k);
      }
    }
    writer.run(
        tx -> {
          for (long[] ch : changes) {
            Key key = Key.of(ch[0]);
            if (ch[1] == 0) {
              tx.delete(PEOPLE, key);
            } else {
              tx.put(PEOPLE, key, bytes(ch[2] + ":v1-" + ch[0]));
            }
          }
          return null;
        });
  }

  /**
   * A join read in two pages of one transaction while another client commits a change to an
   * outer record of the second page and to the item it joins (which the first page joined too).
   * Where the protocol isolates transactions, the join shows both old or both new: under snapshot
   * isolation the snapshot's, under two-phase locking the writer cannot lock what the join read.
   */
  static void aJoinSeesAConcurrentCommitWholeOrNotAtAll(ProtocolKind kind, long seed) {
    try (ContractCloud c = new ContractCloud(kind, seed)) {
      Database reader = c.open("reader");
      reader.createCollection(ITEMS);
      reader.createCollection(LINES);
      List<Record> items = new ArrayList<>();
      for (long i = 1; i <= 30; i++) {
        items.add(new Record(Key.of(i), bytes("v0")));
      }
      reader.bulkLoad(ITEMS, items);
      List<Record> lines = new ArrayList<>();
      for (long l = 0; l < 100; l++) {
        lines.add(new Record(Key.of(l), bytes((1 + l % 30) + ":v0")));
      }
      reader.bulkLoad(LINES, lines);
      Database writer = kind.guarantees(Guarantee.DURABLE) ? c.open("writer") : reader;
      Join join = Join.onKey(Query.on(LINES).limit(50), GROUP, ITEMS).batchSize(16);
      List<Joined<Record, Record>> rows = new ArrayList<>();
      boolean committed;
      Continuation firstPage;
      try (Transaction tx = reader.begin()) {
        QueryPage<Joined<Record, Record>> first = tx.join(join);
        firstPage = first.continuation().orElseThrow();
        rows.addAll(first.rows());
        committed = commitBoth(writer, 80, 21); // line 80 (second page) and its item 21
        if (committed) {
          c.runBackground();
          writer.admin().checkpointAll();
          if (!isolates(kind)) {
            // the reader's cached pages expire, so that it may meet the new commit (an isolating
            // protocol's transaction would outlive its timeout)
            c.clock.advance(ContractCloud.TTL.plusSeconds(1));
          }
        }
        rows.addAll(tx.join(join.after(firstPage)).rows());
      }
      assertThat(rows).hasSize(100);
      Set<String> versions = new HashSet<>();
      for (Joined<Record, Record> j : rows) {
        long line = id(j.outer());
        long item = id(j.inner());
        assertThat(item).isEqualTo(1 + line % 30);
        if (item == 21) {
          versions.add(string(j.inner().payload()));
          if (line == 80) {
            versions.add(string(j.outer().payload()).substring(3));
          }
        }
      }
      System.out.println(
          "[contract] " + kind + " join: writer committed " + committed + ", saw " + versions);
      if (isolates(kind)) {
        assertThat(versions).as("%s: one state of line 80 and item 21", kind).hasSize(1);
        if (committed) {
          c.settle(writer);
          List<Joined<Record, Record>> later =
              reader.read(tx -> tx.join(join.after(firstPage)).rows());
          assertThat(later)
              .filteredOn(x -> id(x.outer()) == 80)
              .extracting(x -> string(x.outer().payload()) + "/" + string(x.inner().payload()))
              .as("%s: the commit, whole, in a later transaction", kind)
              .containsExactly("21:v1/v1");
        }
      } else {
        assertThat(versions).as("%s: values somebody wrote", kind).isSubsetOf("v0", "v1");
      }
    }
  }

  /** Commits line {@code line} and item {@code item} at "v1" together; false when refused. */
  private static boolean commitBoth(Database writer, long line, long item) {
    try (Transaction tx = writer.begin()) {
      tx.update(LINES, Key.of(line), bytes(item + ":v1"));
      tx.update(ITEMS, Key.of(item), bytes("v1"));
      tx.commit();
      return true;
    } catch (StratusException e) {
      assertThat(e.isRetryable()).as("a refused writer may retry: %s", e).isTrue();
      return false;
    }
  }

  /**
   * A range query's page of a transaction that then writes: an insert into the part the page
   * covered is a phantom, so where serializability is promised the insert and the reader do not
   * both commit, and the query shows the same page again; an insert beyond the page's next key is
   * not in its way (the query locked or validated only what it covered).
   */
  static void aRangeQueryPageAdmitsNoPhantom(ProtocolKind kind, long seed) {
    try (ContractCloud c = new ContractCloud(kind, seed)) {
      Database reader = open(c, "reader");
      loadPeople(reader, 100, IndexPlacement.CLIENT_TREE); // 0, 2, ..., 198
      Database writer = kind.guarantees(Guarantee.DURABLE) ? open(c, "writer") : reader;
      Query q = Query.on(PEOPLE).range(KeyRange.closed(Key.of(10L), Key.of(100L))).limit(5);
      List<Long> page = List.of(10L, 12L, 14L, 16L, 18L);
      for (long insert : new long[] {61L, 13L}) {
        boolean inside = insert < 20;
        boolean readerCommitted;
        boolean writerCommitted;
        try (Transaction tx = reader.begin()) {
          assertThat(tx.query(q).rows()).extracting(QueryContract::id).isEqualTo(page);
          writerCommitted = create(writer, insert);
          c.runBackground();
          List<Long> again = tx.query(q).rows().stream().map(QueryContract::id).toList();
          if (isolates(kind)) {
            assertThat(again).as("%s: the page again, insert %d", kind, insert).isEqualTo(page);
          }
          tx.update(PEOPLE, Key.of(198L), bytes("6:reader-" + insert));
          readerCommitted = commit(tx);
        }
        System.out.println(
            "[contract] "
                + kind
                + " phantom "
                + insert
                + ": writer committed "
                + writerCommitted
                + ", reader committed "
                + readerCommitted);
        if (kind.guarantees(Guarantee.SERIALIZABLE)) {
          if (inside) {
            assertThat(writerCommitted && readerCommitted)
                .as("%s: a phantom in the page and the reader both committed", kind)
                .isFalse();
          } else {
            assertThat(writerCommitted && readerCommitted)
                .as("%s: an insert beyond the page's next key is not in its way", kind)
                .isTrue();
          }
        }
      }
    }
  }

  /**
   * The phantom check of {@link #aRangeQueryPageAdmitsNoPhantom} on a range of an index held by
   * the index service: a person created into a group the query's page covered is a phantom, so
   * where serializability is promised the creator and the reader do not both commit. (The
   * protocols guard such a read by the whole collection, so an insert beyond the page may be
   * refused too: docs/protocols.md.)
   */
  static void aServiceIndexRangeQueryAdmitsNoPhantom(ProtocolKind kind, long seed) {
    try (ContractCloud c = new ContractCloud(kind, seed)) {
      Database reader = open(c, "reader");
      loadPeople(reader, 100, IndexPlacement.INDEX_SERVICE);
      Database writer = kind.guarantees(Guarantee.DURABLE) ? open(c, "writer") : reader;
      Query q =
          Query.onIndex(PEOPLE, BY_GROUP).range(KeyRange.closed(Key.of(2L), Key.of(3L))).limit(4);
      boolean readerCommitted;
      boolean writerCommitted;
      try (Transaction tx = reader.begin()) {
        List<Long> first = tx.query(q).rows().stream().map(QueryContract::id).toList();
        writerCommitted = create(writer, 3L); // group 3, before the page's first record
        c.runBackground();
        List<Long> again = tx.query(q).rows().stream().map(QueryContract::id).toList();
        if (isolates(kind)) {
          assertThat(again).as("%s: the page again", kind).isEqualTo(first);
        }
        tx.update(PEOPLE, Key.of(198L), bytes("6:reader"));
        readerCommitted = commit(tx);
      }
      System.out.println(
          "[contract] "
              + kind
              + " service-index phantom: writer committed "
              + writerCommitted
              + ", reader committed "
              + readerCommitted);
      if (kind.guarantees(Guarantee.SERIALIZABLE)) {
        assertThat(writerCommitted && readerCommitted)
            .as("%s: a phantom in the page and the reader both committed", kind)
            .isFalse();
      }
    }
  }

  private static boolean create(Database writer, long key) {
    try (Transaction tx = writer.begin()) {
      tx.create(PEOPLE, Key.of(key), bytes((key % GROUPS) + ":phantom"));
      tx.commit();
      return true;
    } catch (StratusException e) {
      assertThat(e.isRetryable()).as("a refused insert may retry: %s", e).isTrue();
      return false;
    }
  }

  private static boolean commit(Transaction tx) {
    try {
      tx.commit();
      return true;
    } catch (StratusException e) {
      assertThat(e.isRetryable()).as("a refused reader may retry: %s", e).isTrue();
      return false;
    }
  }
}
