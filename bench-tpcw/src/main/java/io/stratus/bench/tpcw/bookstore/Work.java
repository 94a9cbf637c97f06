package io.stratus.bench.tpcw.bookstore;

import io.stratus.bench.tpcw.bookstore.Rows.AuthorRow;
import io.stratus.bench.tpcw.bookstore.Rows.CustomerRow;
import io.stratus.bench.tpcw.bookstore.Rows.ItemRow;
import io.stratus.bench.tpcw.bookstore.StalenessTracker.Row;
import io.stratus.core.Key;
import io.stratus.core.KeyRange;
import io.stratus.core.Record;
import io.stratus.core.RecordCursor;
import io.stratus.core.Transaction;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One attempt at one interaction: its transaction, the time its reads began, and what it read
 * and wrote. Every access of an interaction goes through here, so the counts reported in {@link
 * io.stratus.bench.tpcw.workload.InteractionOutcome} and the staleness of tracked rows (items and
 * customers, which carry versions) are measured in one place.
 *
 * <p>Session changes and tracked writes are collected and applied by {@link StratusBookstore}
 * only after the commit succeeded, so a failed attempt leaves no trace outside the database.
 *
 * <p>Confined to the thread running the interaction.
 */
final class Work {
  final Transaction tx;
  final BookstoreSession session;
  /** When the transaction began (the clock's millis): reads see the database as of then. */
  final long startMillis;

  private final StalenessTracker tracker;
  private int recordsRead;
  private int recordsWritten;
  private long staleness = -1;
  private final List<Runnable> afterCommit = new ArrayList<>();
  private final List<TrackedWrite> trackedWrites = new ArrayList<>();

  /** A new version of a tracked row, recorded once the commit succeeded. */
  record TrackedWrite(Row row, long version) {}

  Work(Transaction tx, BookstoreSession session, long startMillis, StalenessTracker tracker) {
    this.tx = tx;
    this.session = session;
    this.startMillis = startMillis;
    this.tracker = tracker;
  }

  // ---- generic access, counted ----

  Optional<byte[]> read(String table, Key key) {
    Optional<byte[]> p = tx.read(table, key);
    if (p.isPresent()) {
      recordsRead++;
    }
    return p;
  }

  Optional<byte[]> read(String table, long id) {
    return read(table, BookstoreKeys.id(id));
  }

  List<Record> probe(String table, String index, Key searchKey) {
    List<Record> r = tx.probe(table, index, searchKey);
    recordsRead += r.size();
    return r;
  }

  List<Record> probeRange(String table, String index, KeyRange searchKeys) {
    List<Record> r = tx.probeRange(table, index, searchKeys);
    recordsRead += r.size();
    return r;
  }

  /** The records of {@code range}, all of them. */
  List<Record> scan(String table, KeyRange range) {
    List<Record> out = new ArrayList<>();
    try (RecordCursor c = tx.scan(table, range)) {
      while (c.hasNext()) {
        out.add(c.next());
      }
    }
    recordsRead += out.size();
    return out;
  }

  void create(String table, Key key, byte[] payload) {
    tx.create(table, key, payload);
    recordsWritten++;
  }

  boolean update(String table, Key key, byte[] payload) {
    boolean done = tx.update(table, key, payload);
    if (done) {
      recordsWritten++;
    }
    return done;
  }

  boolean delete(String table, Key key) {
    boolean done = tx.delete(table, key);
    if (done) {
      recordsWritten++;
    }
    return done;
  }

  // ---- tracked rows ----

  /** Item {@code id}, its staleness noted; empty when this transaction cannot see it. */
  Optional<ItemRow> item(long id) {
    Optional<ItemRow> row = BookstoreSchema.ITEMS.get(tx, BookstoreKeys.id(id));
    row.ifPresent(r -> {
      recordsRead++;
      saw(new Row(BookstoreSchema.ITEM, id), r.version());
    });
    return row;
  }

  /** Decodes an item found by a probe and notes its staleness. */
  ItemRow item(Record r) {
    ItemRow row = BookstoreSchema.ITEMS.codec().decode(r.payload());
    saw(new Row(BookstoreSchema.ITEM, BookstoreKeys.idOf(r.key())), row.version());
    return row;
  }

  Optional<CustomerRow> customer(long id) {
    Optional<CustomerRow> row = BookstoreSchema.CUSTOMERS.get(tx, BookstoreKeys.id(id));
    row.ifPresent(r -> {
      recordsRead++;
      saw(new Row(BookstoreSchema.CUSTOMER, id), r.version());
    });
    return row;
  }

  CustomerRow customer(Record r) {
    CustomerRow row = BookstoreSchema.CUSTOMERS.codec().decode(r.payload());
    saw(new Row(BookstoreSchema.CUSTOMER, BookstoreKeys.idOf(r.key())), row.version());
    return row;
  }

  private void saw(Row row, long version) {
    staleness = Math.max(staleness, tracker.staleness(row, version, startMillis));
  }

  void updateItem(long id, ItemRow next) {
    if (BookstoreSchema.ITEMS.update(tx, BookstoreKeys.id(id), next)) {
      recordsWritten++;
      trackedWrites.add(new TrackedWrite(new Row(BookstoreSchema.ITEM, id), next.version()));
    }
  }

  void updateCustomer(long id, CustomerRow next) {
    if (BookstoreSchema.CUSTOMERS.update(tx, BookstoreKeys.id(id), next)) {
      recordsWritten++;
      trackedWrites.add(new TrackedWrite(new Row(BookstoreSchema.CUSTOMER, id),
          next.version()));
    }
  }

  /** The author of an item, empty if not visible. */
  Optional<AuthorRow> author(long authorId) {
    Optional<AuthorRow> row = BookstoreSchema.AUTHORS.get(tx, BookstoreKeys.id(authorId));
    row.ifPresent(r -> recordsRead++);
    return row;
  }

  // ---- after the commit ----

  /** Runs {@code change} (to the session) once the transaction committed. */
  void afterCommit(Runnable change) {
    afterCommit.add(change);
  }

  List<Runnable> sessionChanges() {
    return afterCommit;
  }

  List<TrackedWrite> trackedWrites() {
    return trackedWrites;
  }

  int recordsRead() {
    return recordsRead;
  }

  int recordsWritten() {
    return recordsWritten;
  }

  /** Largest staleness of a tracked read, -1 when none was read. */
  long staleness() {
    return staleness;
  }
}
