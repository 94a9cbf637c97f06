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
import io.stratus.core.query.Join;
import io.stratus.core.query.Joined;
import io.stratus.core.query.Query;
import io.stratus.core.query.QueryPage;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.LongConsumer;

/**
 * One attempt at one interaction: its transaction, the time its reads began, and what it read
 * and wrote. Every access of an interaction goes through here, so the counts reported in {@link
 * io.stratus.bench.tpcw.workload.InteractionOutcome} and the staleness of tracked rows (items and
 * customers, which carry versions) and of the session's reads of its own data ({@link
 * #ownRead}) are measured in one place.
 *
 * <p>Session changes, tracked writes and stock changes are collected and applied by {@link
 * StratusBookstore} only after the commit succeeded, so a failed attempt leaves no trace outside
 * the database.
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
  private int ownReadsChecked;
  private int ownStaleReads;
  private long ownStaleness;
  private final List<LongConsumer> afterCommit = new ArrayList<>();
  private final List<TrackedWrite> trackedWrites = new ArrayList<>();
  private final List<StockChange> stockChanges = new ArrayList<>();

  /** A new version of a tracked row, recorded once the commit succeeded. */
  record TrackedWrite(Row row, long version) {}

  /** An item's stock written by this attempt: the new stock minus the stock it read. */
  record StockChange(long itemId, int delta) {}

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

  /** A page of {@code query}'s records. */
  QueryPage<Record> query(Query query) {
    QueryPage<Record> page = tx.query(query);
    recordsRead += page.rows().size();
    return page;
  }

  /** A page of {@code join}; both records of a joined row count as read. */
  QueryPage<Joined<Record, Record>> join(Join join) {
    QueryPage<Joined<Record, Record>> page = tx.join(join);
    recordsRead += 2 * page.rows().size();
    return page;
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
    row.ifPresent(
        r -> {
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
    row.ifPresent(
        r -> {
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

  /**
   * Writes {@code next} over item {@code id}, which this attempt read as {@code read}; a stock
   * that changed is noted for the stock audit ({@link StockLedger}).
   */
  void updateItem(long id, ItemRow read, ItemRow next) {
    if (BookstoreSchema.ITEMS.update(tx, BookstoreKeys.id(id), next)) {
      recordsWritten++;
      trackedWrites.add(new TrackedWrite(new Row(BookstoreSchema.ITEM, id), next.version()));
      if (next.stock() != read.stock()) {
        stockChanges.add(new StockChange(id, next.stock() - read.stock()));
      }
    }
  }

  void updateCustomer(long id, CustomerRow next) {
    if (BookstoreSchema.CUSTOMERS.update(tx, BookstoreKeys.id(id), next)) {
      recordsWritten++;
      trackedWrites.add(new TrackedWrite(new Row(BookstoreSchema.CUSTOMER, id), next.version()));
    }
  }

  /** The author of an item, empty if not visible. */
  Optional<AuthorRow> author(long authorId) {
    Optional<AuthorRow> row = BookstoreSchema.AUTHORS.get(tx, BookstoreKeys.id(authorId));
    row.ifPresent(r -> recordsRead++);
    return row;
  }

  // ---- the session's own data ----

  /**
   * Notes a read back of data only this session writes (its cart, its orders) as {@link
   * OwnWrites} judged it. A stale one counts into the interaction's staleness like a stale
   * tracked read.
   */
  void ownRead(OwnWrites.OwnRead read) {
    if (!read.checked()) {
      return;
    }
    ownReadsChecked++;
    if (read.stale()) {
      ownStaleReads++;
      staleness = Math.max(staleness, read.stalenessMillis());
      ownStaleness = Math.max(ownStaleness, read.stalenessMillis());
    } else {
      staleness = Math.max(staleness, 0);
    }
  }

  int ownReadsChecked() {
    return ownReadsChecked;
  }

  int ownStaleReads() {
    return ownStaleReads;
  }

  /** Largest staleness of a read of the session's own data, 0 when none was stale. */
  long ownStaleness() {
    return ownStaleness;
  }

  // ---- after the commit ----

  /** Runs {@code change} (to the session) once the transaction committed. */
  void afterCommit(Runnable change) {
    afterCommit.add(commitMillis -> change.run());
  }

  /** Runs {@code change} once the transaction committed, with the commit's time. */
  void afterCommitAt(LongConsumer change) {
    afterCommit.add(change);
  }

  List<LongConsumer> sessionChanges() {
    return afterCommit;
  }

  List<StockChange> stockChanges() {
    return stockChanges;
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
