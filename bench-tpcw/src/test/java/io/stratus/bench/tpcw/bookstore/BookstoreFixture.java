package io.stratus.bench.tpcw.bookstore;

import io.stratus.bench.tpcw.bookstore.StratusBookstore.Attempt;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.cloudapi.time.ManualClock;
import io.stratus.core.Database;
import io.stratus.core.DatabaseConfig;
import io.stratus.core.Key;
import io.stratus.core.KeyRange;
import io.stratus.core.Record;
import io.stratus.core.RecordCursor;
import io.stratus.core.Transaction;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.ProtocolOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Function;

/**
 * A tiny bookstore for tests: an in-process cloud on a manual clock, one database handle with the
 * given protocol (small pages, so trees have several levels; background checkpoints held back, so
 * only {@link #checkpoint()} applies queued updates), loaded by the generator, and a bookstore.
 */
final class BookstoreFixture implements AutoCloseable {
  static final Scale SMALL = new Scale(100, 1, 30);

  final long seed;
  final ManualClock clock = new ManualClock();
  final InProcessCloud cloud;
  final Database db;
  final Scale scale;
  final LoadReport report;
  final List<Long> progress = new ArrayList<>();
  final StratusBookstore store;
  private final ConcurrentLinkedQueue<Runnable> heldCheckpoints = new ConcurrentLinkedQueue<>();

  BookstoreFixture(long seed, ProtocolKind protocol) {
    this(seed, protocol, SMALL);
  }

  BookstoreFixture(long seed, ProtocolKind protocol, Scale scale) {
    this.seed = seed;
    this.scale = scale;
    this.cloud = InProcessCloud.builder().clock(clock).seed(seed).build();
    this.db = open(protocol);
    this.report = new DataGenerator(db, scale, seed, clock).load(progress::add);
    this.store = new StratusBookstore(db, scale, clock, seed);
  }

  /** Another handle on the same database (another client), schema attached. */
  Database open(ProtocolKind protocol) {
    DatabaseConfig.Builder b =
        BookstoreSchema.configure(DatabaseConfig.builder(cloud.services(), "db/tpcw"))
            .protocol(protocol)
            .clock(clock)
            .pageSize(8192);
    if (protocol.accepts(ProtocolOption.CHECKPOINTS)) {
      b.checkpointExecutor(heldCheckpoints::add); // only checkpoint() applies queued updates
    }
    Database d = Database.open(b.build());
    BookstoreSchema.install(d);
    return d;
  }

  BookstoreSession session(long sessionSeed) {
    return (BookstoreSession) store.newSession(sessionSeed);
  }

  /** Runs one page body for the session and commits it. */
  <T> T page(BookstoreSession s, Function<Work, T> body) {
    return attempt(s, body).page();
  }

  <T> Attempt<T> attempt(BookstoreSession s, Function<Work, T> body) {
    return store.attempt(s, body);
  }

  /** Applies every queued update (queue-based protocols). */
  void checkpoint() {
    db.admin().checkpointAll();
  }

  List<Record> all(String table) {
    return scan(table, KeyRange.all());
  }

  List<Record> scan(String table, KeyRange range) {
    List<Record> out = new ArrayList<>();
    try (Transaction tx = db.begin();
        RecordCursor c = tx.scan(table, range)) {
      while (c.hasNext()) {
        out.add(c.next());
      }
    }
    return out;
  }

  Optional<byte[]> read(String table, long id) {
    return read(table, BookstoreKeys.id(id));
  }

  Optional<byte[]> read(String table, Key key) {
    try (Transaction tx = db.begin()) {
      return tx.read(table, key);
    }
  }

  Rows.ItemRow item(long id) {
    return Rows.ItemRow.decode(read(BookstoreSchema.ITEM, id).orElseThrow());
  }

  @Override
  public void close() {
    db.close();
    cloud.close();
  }
}
