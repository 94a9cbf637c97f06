package io.stratus.core;

import io.stratus.CommitFailedException;
import io.stratus.CommitStateUnknownException;
import io.stratus.ConcurrentTransactionUseException;
import io.stratus.DatabaseClosedException;
import io.stratus.DuplicateKeyException;
import io.stratus.IndexNotAttachedException;
import io.stratus.NoSuchIndexException;
import io.stratus.TransactionClosedException;
import io.stratus.btree.BLinkTree;
import io.stratus.btree.SecondaryKeys;
import io.stratus.btree.TreeCursor;
import io.stratus.cloudapi.CloudException;
import io.stratus.core.Catalog.CollectionDef;
import io.stratus.core.Catalog.IndexDef;
import io.stratus.core.query.Join;
import io.stratus.core.query.Joined;
import io.stratus.core.query.Query;
import io.stratus.core.query.QueryPage;
import io.stratus.pagemanager.PageStore;
import io.stratus.pagemanager.PageTransaction;
import io.stratus.pagemanager.PageWrite;
import io.stratus.protocols.CommitResult;
import io.stratus.protocols.LogicalChange;
import io.stratus.protocols.ProtocolTransaction;
import io.stratus.protocols.TransactionInfo;
import io.stratus.protocols.WriteSet;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * One unit of work: the record manager's create, read, update, delete, scan and probe (paper 000,
 * section 3.2) between {@link Database#begin()} and {@link #commit()} or {@link #abort()}.
 *
 * <p><b>What reads see.</b> The transaction's own writes first; otherwise the committed pages of
 * the handle's buffer pool, at most a TTL old, each page as first read by this transaction
 * (repeatable per page). Which other writers' changes appear, and when, is the commit protocol's
 * matter: under the naive protocol a concurrent commit to the same page can overwrite this one's.
 *
 * <p><b>Writes</b> change the collection's primary tree and every index of the collection in the
 * transaction's private page set, and record the matching logical changes (log records) for the
 * protocol. Everything is checked before anything changes: the collection, that every index's
 * extractor is attached, the sizes of the record and of its index entries, and (for create) that
 * the key is new; such failures leave the transaction open and unchanged. A write that fails
 * later, half done (a cloud error or a corrupt page while changing the trees), aborts the
 * transaction, so a partial change can never be committed.
 *
 * <p><b>States.</b> Open until {@link #commit()} (committed, or ended by a failed commit), {@link
 * #abort()} or {@link #close()} (aborts when still open, so try-with-resources aborts whatever was
 * not committed). Any call on an ended transaction except {@code close} throws {@link
 * TransactionClosedException}; any call after the database handle was closed, {@link
 * DatabaseClosedException}.
 *
 * <p>Not thread-safe: one thread at a time, like the page transaction beneath it.
 */
public final class Transaction implements AutoCloseable {
  private static final byte[] NONE = new byte[0];

  private final Database db;
  private final TransactionInfo info;
  private final ProtocolTransaction protocolTx;
  private final PageTransaction pages;
  private final PageStore view;
  private Catalog catalog;
  private final List<LogicalChange> changes = new ArrayList<>();
  private final ServiceEntries serviceEntries;
  private String ended; // null while open, else how it ended
  private boolean midWrite;

  /** The thread inside a public operation now, or null (see {@link #enter}). */
  private volatile Thread user;

  private static final VarHandle USER;

  static {
    try {
      USER = MethodHandles.lookup().findVarHandle(Transaction.class, "user", Thread.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  Transaction(Database db, ProtocolTransaction protocolTx, PageTransaction pages, Catalog catalog) {
    this.db = db;
    this.protocolTx = protocolTx;
    this.info = protocolTx.info();
    this.pages = pages;
    this.view = protocolTx.readView(pages);
    this.catalog = catalog;
    this.serviceEntries = new ServiceEntries(db);
  }

  /** This transaction's id (unique within the client). */
  public String id() {
    return info.transactionId();
  }

  /** Whether the transaction is still open. */
  public boolean isOpen() {
    return ended == null && !db.isClosed();
  }

  // ---- writes ----

  /**
   * Creates a record.
   *
   * @throws DuplicateKeyException when the key exists in what this transaction sees
   * @throws io.stratus.RecordTooLargeException when the record or an index entry does not fit
   * @throws io.stratus.NoSuchCollectionException when the collection does not exist
   * @throws IndexNotAttachedException when an index of the collection has no extractor here
   */
  public void create(String collection, Key key, byte[] payload) {
    Thread prior = enter();
    try {
      createOwned(collection, key, payload);
    } catch (CloudException e) {
      throw CloudFailures.reading(what("create"), e);
    } finally {
      exit(prior);
    }
  }

  private void createOwned(String collection, Key key, byte[] payload) {
    checkOpen();
    Args.notNull(key, "key");
    Args.notNull(payload, "payload");
    byte[] k = key.toBytes();
    byte[] p = payload.clone();
    CollectionDef c = collection(collection);
    List<Attached> indexes = attached(c);
    c.primary.checkEntry(pageSize(), k, p);
    List<byte[]> searchKeys = searchKeys(indexes, k, p, true);
    readKey(c.primary, k);
    if (c.primary.get(view, k).isPresent()) {
      throw new DuplicateKeyException(collection, key.toString());
    }
    writing(
        () -> {
          c.primary.insert(view, k, p);
          logPrimary(LogicalChange.Kind.INSERT, c.primary, k, p);
          for (int i = 0; i < indexes.size(); i++) {
            insertEntry(indexes.get(i).def, searchKeys.get(i), k);
          }
        });
  }

  /**
   * Replaces the payload of a record.
   *
   * @return false, changing nothing, when there is no record with that key
   */
  public boolean update(String collection, Key key, byte[] payload) {
    Thread prior = enter();
    try {
      return updateOwned(collection, key, payload);
    } catch (CloudException e) {
      throw CloudFailures.reading(what("update"), e);
    } finally {
      exit(prior);
    }
  }

  private boolean updateOwned(String collection, Key key, byte[] payload) {
    checkOpen();
    Args.notNull(key, "key");
    Args.notNull(payload, "payload");
    byte[] k = key.toBytes();
    byte[] p = payload.clone();
    CollectionDef c = collection(collection);
    List<Attached> indexes = attached(c);
    c.primary.checkEntry(pageSize(), k, p);
    List<byte[]> newKeys = searchKeys(indexes, k, p, true);
    readKey(c.primary, k);
    Optional<byte[]> old = c.primary.get(view, k);
    if (old.isEmpty()) {
      return false;
    }
    List<byte[]> oldKeys = searchKeys(indexes, k, old.get(), false);
    writing(
        () -> {
          c.primary.update(view, k, p);
          logPrimary(LogicalChange.Kind.UPDATE, c.primary, k, p);
          for (int i = 0; i < indexes.size(); i++) {
            byte[] before = oldKeys.get(i);
            byte[] after = newKeys.get(i);
            if (!Arrays.equals(before, after)) { // an index entry changes by delete + insert
              deleteEntry(indexes.get(i).def, before, k);
              insertEntry(indexes.get(i).def, after, k);
            } else {
              reassertEntry(indexes.get(i).def, after, k);
            }
          }
        });
    return true;
  }

  /**
   * Creates the record, or replaces its payload when one with that key exists (an upsert).
   *
   * @return true when it created the record, false when it replaced one
   * @throws io.stratus.RecordTooLargeException when the record or an index entry does not fit
   * @throws io.stratus.NoSuchCollectionException when the collection does not exist
   */
  public boolean put(String collection, Key key, byte[] payload) {
    Thread prior = enter();
    try {
      return putOwned(collection, key, payload);
    } catch (CloudException e) {
      throw CloudFailures.reading(what("put"), e);
    } finally {
      exit(prior);
    }
  }

  private boolean putOwned(String collection, Key key, byte[] payload) {
    if (update(collection, key, payload)) {
      return false;
    }
    create(collection, key, payload);
    return true;
  }

  /**
   * Deletes a record and its index entries.
   *
   * @return false when there was no record with that key
   */
  public boolean delete(String collection, Key key) {
    Thread prior = enter();
    try {
      return deleteOwned(collection, key);
    } catch (CloudException e) {
      throw CloudFailures.reading(what("delete"), e);
    } finally {
      exit(prior);
    }
  }

  private boolean deleteOwned(String collection, Key key) {
    checkOpen();
    Args.notNull(key, "key");
    byte[] k = key.toBytes();
    CollectionDef c = collection(collection);
    List<Attached> indexes = attached(c);
    readKey(c.primary, k);
    Optional<byte[]> old = c.primary.get(view, k);
    if (old.isEmpty()) {
      return false;
    }
    List<byte[]> oldKeys = searchKeys(indexes, k, old.get(), false);
    writing(
        () -> {
          c.primary.delete(view, k);
          logPrimary(LogicalChange.Kind.DELETE, c.primary, k, NONE);
          for (int i = 0; i < indexes.size(); i++) {
            deleteEntry(indexes.get(i).def, oldKeys.get(i), k);
          }
        });
    return true;
  }

  // ---- reads ----

  /** The payload of the record with {@code key}, or empty. */
  public Optional<byte[]> read(String collection, Key key) {
    Thread prior = enter();
    try {
      return readOwned(collection, key);
    } catch (CloudException e) {
      throw CloudFailures.reading(what("read"), e);
    } finally {
      exit(prior);
    }
  }

  private Optional<byte[]> readOwned(String collection, Key key) {
    checkOpen();
    Args.notNull(key, "key");
    BLinkTree tree = collection(collection).primary;
    readKey(tree, key.bytesUnsafe());
    return tree.get(view, key.bytesUnsafe());
  }

  /** Every record of the collection in key order. */
  public RecordCursor scan(String collection) {
    return scan(collection, KeyRange.all());
  }

  /**
   * The records whose keys lie in {@code range}, in key order, read leaf by leaf as the cursor
   * advances; no key is returned twice, even when leaves split meanwhile. Changing the collection
   * in this transaction while the cursor is open is allowed; such changes may or may not appear.
   */
  public RecordCursor scan(String collection, KeyRange range) {
    Thread prior = enter();
    try {
      return scanOwned(collection, range);
    } catch (CloudException e) {
      throw CloudFailures.reading(what("scan"), e);
    } finally {
      exit(prior);
    }
  }

  private RecordCursor scanOwned(String collection, KeyRange range) {
    checkOpen();
    Args.notNull(range, "range");
    BLinkTree tree = collection(collection).primary;
    io.stratus.btree.KeyRange r = toTree(range);
    protocolTx.readKeys(tree.rootUri(), r);
    return new ScanCursor(tree.scan(view, r), this::checkOpen, what("scan"));
  }

  /**
   * The records whose search key in {@code index} equals {@code searchKey}, ordered by record key:
   * the index gives the record keys, the primary tree the records (paper 000, section 3.4).
   * Entries whose record is gone are skipped; so are, when the extractor is attached, entries whose
   * record no longer has that search key (stale entries cannot mislead a probe).
   */
  public List<Record> probe(String collection, String index, Key searchKey) {
    Thread prior = enter();
    try {
      return probeOwned(collection, index, searchKey);
    } catch (CloudException e) {
      throw CloudFailures.reading(what("probe"), e);
    } finally {
      exit(prior);
    }
  }

  private List<Record> probeOwned(String collection, String index, Key searchKey) {
    checkOpen();
    Args.notNull(searchKey, "searchKey");
    CollectionDef c = collection(collection);
    return probe(c, index(c, index), SecondaryKeys.forSearchKey(searchKey.bytesUnsafe()));
  }

  /** The records whose search key lies in {@code searchKeys}, by search key, then record key. */
  public List<Record> probeRange(String collection, String index, KeyRange searchKeys) {
    Thread prior = enter();
    try {
      return probeRangeOwned(collection, index, searchKeys);
    } catch (CloudException e) {
      throw CloudFailures.reading(what("probeRange"), e);
    } finally {
      exit(prior);
    }
  }

  private List<Record> probeRangeOwned(String collection, String index, KeyRange searchKeys) {
    checkOpen();
    Args.notNull(searchKeys, "searchKeys");
    CollectionDef c = collection(collection);
    return probe(c, index(c, index), SecondaryKeys.forSearchRange(toTree(searchKeys)));
  }

  /** The records whose search key {@code s} satisfies {@code lo <= s < hi}. */
  public List<Record> probeRange(String collection, String index, Key lo, Key hi) {
    return probeRange(collection, index, KeyRange.halfOpen(lo, hi));
  }

  /**
   * A page of {@code query}'s records, read through this transaction as {@link #scan} and {@link
   * #probeRange} read (its own writes, its protocol's snapshot or locks): the records whose key, or
   * search key in the query's index, meets the query's condition, in its order, at most its limit,
   * after its continuation. An index query skips stale entries as {@link #probe} does. Under
   * two-phase locking the query locks the keys it read up to the page's end and the key after
   * them; under serializable snapshot isolation that range is validated at commit.
   *
   * @throws io.stratus.NoSuchCollectionException when the collection does not exist
   * @throws NoSuchIndexException when the query's index does not exist
   * @throws io.stratus.InvalidRequestException when the query's continuation is another query's
   */
  public QueryPage<Record> query(Query query) {
    return reading("query", () -> new QueryRunner(this).run(Args.notNull(query, "query")));
  }

  /** {@link #query(Query)} giving only the records' keys. */
  public QueryPage<Key> queryKeys(Query query) {
    return query(query).map(Record::key);
  }

  /**
   * A page of {@code join}: the outer query's page of records, each paired with the inner records
   * its foreign key matches (see {@link Join}). A join reads one state of both collections as the
   * protocol defines it (a snapshot under snapshot isolation, locked records under two-phase
   * locking), so it runs only in a transaction that has not written.
   *
   * @throws io.stratus.InvalidRequestException when this transaction has written, or the join
   *     would give more than its {@link Join#maxRows()}
   */
  public QueryPage<Joined<Record, Record>> join(Join join) {
    return reading("join", () -> new QueryRunner(this).join(Args.notNull(join, "join")));
  }

  // ---- end ----

  /**
   * Commits through the database's protocol, then installs the committed pages into the buffer
   * pool. Ends the transaction whether or not it succeeds.
   *
   * @throws CommitFailedException nothing became visible; run the transaction again if retryable
   * @throws CommitStateUnknownException the commit may have taken effect; read to find out
   */
  public void commit() {
    Thread prior = enter();
    try {
      commitOwned();
    } finally {
      exit(prior);
    }
  }

  private void commitOwned() {
    checkOpen();
    Map<String, PageWrite> writes = pages.writes();
    WriteSet ws = new WriteSet(info, changes, new ArrayList<>(writes.values()));
    CommitResult result;
    try {
      // The index service gets the new entries first, so it holds those of every visible commit.
      serviceEntries.putAll(id());
      result = ws.isEmpty() ? CommitResult.empty() : protocolTx.commit(ws);
    } catch (RuntimeException | Error thrown) {
      ended = "ended by a failed commit";
      pages.abort();
      Throwable e = thrown;
      if (thrown instanceof CloudException c) {
        // A cloud failure the protocol did not map: some pages or messages may be written.
        e =
            new CommitStateUnknownException(
                "commit of transaction "
                    + id()
                    + " failed: "
                    + c.getMessage()
                    + " (it may have taken effect; read to find out)",
                c);
      }
      if (!(e instanceof CommitFailedException)) {
        // Some pages may have been written: forget the pool's copies so reads go to storage.
        for (PageWrite w : ws.pages()) {
          db.pool().invalidate(w.uri());
        }
      }
      db.failedCommits.increment();
      if (e instanceof CommitStateUnknownException) {
        db.unknownCommits.increment();
      }
      protocolTx.finish(false);
      if (e instanceof Error err) {
        throw err;
      }
      throw (RuntimeException) e;
    }
    ended = "committed";
    pages.complete(result.committedVersions());
    db.commits.increment();
    db.pagesWritten.add(result.pagesWritten());
    protocolTx.finish(true);
  }

  /** Discards every change (no cloud call) and ends the transaction. */
  public void abort() {
    Thread prior = enter();
    try {
      abortOwned();
    } catch (CloudException e) {
      throw CloudFailures.reading(what("abort"), e);
    } finally {
      exit(prior);
    }
  }

  private void abortOwned() {
    checkOpen();
    end("aborted");
  }

  /** Aborts the transaction if it is still open; otherwise does nothing. */
  @Override
  public void close() {
    if (ended == null) {
      end(db.isClosed() ? "closed with the database" : "closed");
    }
  }

  // ---- internals ----

  private String what(String operation) {
    return operation + " in transaction " + id();
  }

  // Each public operation enters, runs its body (the ...Owned method) while this thread owns the
  // transaction, and exits.

  /**
   * Marks this thread as inside the transaction; returns who was before (this thread when it
   * re-enters, e.g. {@link #put} calling {@link #update}; null otherwise).
   *
   * @throws ConcurrentTransactionUseException when another thread is inside
   */
  private Thread enter() {
    Thread me = Thread.currentThread();
    Thread prior = (Thread) USER.compareAndExchange(this, null, me);
    if (prior != null && prior != me) {
      throw new ConcurrentTransactionUseException(info.transactionId(), prior.getName());
    }
    return prior;
  }

  private void exit(Thread prior) {
    if (prior == null) {
      user = null;
    }
  }

  /** Runs a read of the query machinery as this thread's operation on the open transaction. */
  private <R> R reading(String operation, Supplier<R> body) {
    Thread prior = enter();
    try {
      checkOpen();
      return body.get();
    } catch (CloudException e) {
      throw CloudFailures.reading(what(operation), e);
    } finally {
      exit(prior);
    }
  }

  // The query machinery's access to the read path (QueryRunner).

  /** The source of {@code index} of {@code c}, or of {@code c}'s records when there is none. */
  IndexSource source(CollectionDef c, Optional<IndexDef> index) {
    if (index.isPresent() && index.get().domain().isPresent()) {
      IndexDef d = index.get();
      return new ServiceSource(
          db.indexService(d),
          d.domain().get(),
          serviceEntries.added(d),
          c.primary.rootUri(),
          protocolTx);
    }
    return new TreeSource(index.map(IndexDef::tree).orElse(c.primary), view, protocolTx);
  }

  IndexKeyExtractor extractorOf(CollectionDef c, IndexDef index) {
    return db.extractor(c.name, index.name());
  }

  /** The record with {@code key} of the tree, read as {@link #read} reads it. */
  Optional<byte[]> readRecord(BLinkTree primary, byte[] key) {
    readKey(primary, key);
    return primary.get(view, key);
  }

  /** Whether the transaction has written anything (records or pages). */
  boolean hasChanges() {
    return !changes.isEmpty() || !pages.writes().isEmpty();
  }

  /** Ends the transaction as aborted: discards its changes and counts it in the handle's aborts. */
  private void end(String how) {
    finish(how);
    db.aborts.increment();
  }

  /**
   * Ends a read-only transaction whose function returned ({@link Database#read}): it has nothing
   * to commit and was not aborted by anyone, so it counts in no abort.
   */
  void endRead() {
    if (ended == null) {
      finish("ended after its read");
    }
  }

  private void finish(String how) {
    ended = how;
    pages.close();
    protocolTx.finish(false);
  }

  private void checkOpen() {
    if (ended != null) {
      throw new TransactionClosedException(ended);
    }
    if (db.isClosed()) {
      throw new DatabaseClosedException("transaction " + info.transactionId());
    }
  }

  private int pageSize() {
    return view.pageSize();
  }

  /** Runs the changing part of a write; a failure in it aborts the transaction. */
  private void writing(Runnable change) {
    midWrite = true;
    try {
      change.run();
      midWrite = false;
    } finally {
      if (midWrite) {
        midWrite = false;
        end("aborted by a failed write");
      }
    }
  }

  CollectionDef collection(String name) {
    Args.notNull(name, "collection");
    Optional<CollectionDef> c = catalog.collection(name);
    if (c.isEmpty()) {
      // Only a name the catalog lacks needs checking (one in it was checked when created); a
      // pattern match on every read was a noticeable share of a cached read.
      Names.check("collection", name);
      catalog = db.freshCatalog(); // created elsewhere since this snapshot was taken?
      c = catalog.collection(name);
    }
    return c.orElseThrow(() -> db.noSuchCollection(name));
  }

  IndexDef index(CollectionDef c, String name) {
    IndexDef d = c.indexes.get(name);
    if (d == null) {
      catalog = db.freshCatalog();
      d = catalog.collection(c.name).map(x -> x.indexes.get(name)).orElse(null);
      if (d == null) {
        throw new NoSuchIndexException(c.name, name);
      }
    }
    return d;
  }

  /** An index with its attached extractor. */
  private record Attached(IndexDef def, IndexKeyExtractor extractor) {}

  /** Every index of {@code c} with its extractor; refuses when one is not attached. */
  private List<Attached> attached(CollectionDef c) {
    List<Attached> out = new ArrayList<>(c.indexes.size());
    for (IndexDef d : c.indexes.values()) {
      IndexKeyExtractor f = db.extractor(c.name, d.name());
      if (f == null) {
        throw new IndexNotAttachedException(c.name, d.name());
      }
      out.add(new Attached(d, f));
    }
    return out;
  }

  /** Each index's search key for the record (null: not indexed), size-checked if asked. */
  private List<byte[]> searchKeys(List<Attached> indexes, byte[] k, byte[] p, boolean check) {
    List<byte[]> out = new ArrayList<>(indexes.size());
    for (Attached a : indexes) {
      byte[] s = a.extractor().extract(k.clone(), p.clone()).map(byte[]::clone).orElse(null);
      if (s != null && check) {
        checkEntry(a.def(), s, k);
      }
      out.add(s);
    }
    return out;
  }

  private void checkEntry(IndexDef index, byte[] searchKey, byte[] recordKey) {
    if (index.domain().isPresent()) {
      ServiceEntries.check(db.indexService(index), searchKey, recordKey);
    } else {
      index.tree().checkEntry(pageSize(), SecondaryKeys.compose(searchKey, recordKey), NONE);
    }
  }

  /**
   * Adds to {@code index} of {@code collection} the entry of each record of {@code keys} that the
   * record has and the index lacks, as this transaction sees both (for {@link IndexReconciler}).
   *
   * @return how many entries were added
   */
  int addMissingEntries(
      String collection, String index, IndexKeyExtractor extractor, List<Key> keys) {
    Thread prior = enter();
    try {
      checkOpen();
      CollectionDef c = collection(collection);
      IndexDef d = index(c, index);
      List<byte[][]> missing = new ArrayList<>();
      for (Key key : keys) {
        byte[] k = key.toBytes();
        Optional<byte[]> p = c.primary.get(view, k);
        Optional<byte[]> s = p.flatMap(v -> extractor.extract(k.clone(), v.clone()));
        // A service index takes a put of an entry it has (idempotent) as one it lacks.
        if (s.isPresent()
            && (d.domain().isPresent()
                || d.tree().get(view, SecondaryKeys.compose(s.get(), k)).isEmpty())) {
          checkEntry(d, s.get(), k);
          missing.add(new byte[][] {s.get().clone(), k});
        }
      }
      writing(() -> missing.forEach(m -> insertEntry(d, m[0], m[1])));
      return missing.size();
    } catch (CloudException e) {
      throw CloudFailures.reading(what("reconcile"), e);
    } finally {
      exit(prior);
    }
  }

  private void insertEntry(IndexDef index, byte[] searchKey, byte[] recordKey) {
    if (searchKey != null && index.domain().isPresent()) {
      serviceEntries.insert(index, SecondaryKeys.compose(searchKey, recordKey));
    } else if (searchKey != null) {
      index.tree().insert(view, SecondaryKeys.compose(searchKey, recordKey), NONE);
      made(entryChange(LogicalChange.Kind.INSERT, index, searchKey, recordKey));
    }
  }

  private void deleteEntry(IndexDef index, byte[] searchKey, byte[] recordKey) {
    if (searchKey != null && index.domain().isPresent()) {
      // The service keeps the entry (queries drop it once its record moves): see ServiceEntries.
      serviceEntries.undo(index, SecondaryKeys.compose(searchKey, recordKey));
    } else if (searchKey != null) {
      index.tree().delete(view, SecondaryKeys.compose(searchKey, recordKey));
      made(entryChange(LogicalChange.Kind.DELETE, index, searchKey, recordKey));
    }
  }

  /**
   * Logs, for an update that keeps its record's search key, a delete and an insert of the entry,
   * which collapse into a put of it (or, after a create in this transaction, into its insert). The
   * value this transaction read may be older than another writer's latest, whose update moved
   * the entry away with an older write stamp; the put, stamped with this commit, lists the record
   * again. The pages stay as they are: the entry is in them, and page-writing protocols must not
   * write the index page for it.
   */
  private void reassertEntry(IndexDef index, byte[] searchKey, byte[] recordKey) {
    if (searchKey != null && index.domain().isEmpty()) { // the service has it since its commit
      made(entryChange(LogicalChange.Kind.DELETE, index, searchKey, recordKey));
      made(entryChange(LogicalChange.Kind.INSERT, index, searchKey, recordKey));
    }
  }

  private static LogicalChange entryChange(
      LogicalChange.Kind kind, IndexDef index, byte[] searchKey, byte[] recordKey) {
    return new LogicalChange(
        kind, index.tree().rootUri(), searchKey, recordKey, Optional.empty(), true);
  }

  /** Logs a change made to the transaction's pages, and tells the protocol. */
  private void made(LogicalChange change) {
    changes.add(change);
    protocolTx.wrote(change);
  }

  /** Tells the protocol that this transaction read {@code key} of {@code tree}. */
  private void readKey(BLinkTree tree, byte[] key) {
    protocolTx.readKeys(tree.rootUri(), io.stratus.btree.KeyRange.singleton(key));
  }

  private void logPrimary(LogicalChange.Kind kind, BLinkTree tree, byte[] k, byte[] p) {
    made(new LogicalChange(kind, tree.rootUri(), k, p, Optional.of(tree.leafFor(view, k))));
  }

  private List<Record> probe(CollectionDef c, IndexDef index, io.stratus.btree.KeyRange range) {
    if (index.domain().isPresent()) {
      return new QueryRunner(this).all(c, index, range);
    }
    IndexKeyExtractor f = extractorOf(c, index);
    List<Record> out = new ArrayList<>();
    protocolTx.readKeys(index.tree().rootUri(), range);
    TreeCursor entries = index.tree().scan(view, range);
    while (entries.hasNext()) {
      // the scan's own copy of the key
      QueryRunner.resolve(this, c, f, entries.next().keyUnsafe()).ifPresent(out::add);
    }
    return out;
  }

  static io.stratus.btree.KeyRange toTree(KeyRange r) {
    return io.stratus.btree.KeyRange.of(
        r.lower().map(Key::bytesUnsafe).orElse(null), r.lowerInclusive(),
        r.upper().map(Key::bytesUnsafe).orElse(null), r.upperInclusive());
  }
}
