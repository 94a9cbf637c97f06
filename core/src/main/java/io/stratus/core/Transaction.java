package io.stratus.core;

import io.stratus.CommitFailedException;
import io.stratus.CommitStateUnknownException;
import io.stratus.ConcurrentTransactionUseException;
import io.stratus.DatabaseClosedException;
import io.stratus.DuplicateKeyException;
import io.stratus.NoSuchIndexException;
import io.stratus.TransactionClosedException;
import io.stratus.btree.BLinkTree;
import io.stratus.btree.SecondaryKeys;
import io.stratus.btree.TreeCursor;
import io.stratus.cloudapi.CloudException;
import io.stratus.core.Catalog.CollectionDef;
import io.stratus.core.Catalog.IndexDef;
import io.stratus.core.IndexMaintenance.Attached;
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
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

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

  /** The collection {@link #collection} found last, and in which catalog snapshot. */
  private @Nullable CollectionDef lastCollection;

  private @Nullable Catalog lastCatalog;

  /**
   * The name object the caller found {@link #lastCollection} by, kept as an {@code Object} since
   * only its identity counts: a program names a collection by the same string constant over and
   * over, and an identity check leaves the string comparison (vector code) out of the compiled
   * read, which is then small enough for the program's own methods to inline.
   */
  private @Nullable Object lastName;

  private final List<LogicalChange> changes = new ArrayList<>();
  private final ServiceEntries serviceEntries;
  private final IndexMaintenance indexes;
  private @Nullable String ended; // null while open, else how it ended
  private boolean midWrite;

  /** The thread inside a public operation now, or null (see {@link #guarded}). */
  private volatile @Nullable Thread user;

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
    this.indexes = new IndexMaintenance(db, view, serviceEntries, this::made);
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
   * @throws io.stratus.IndexNotAttachedException when an index of the collection has no extractor
   *     here
   */
  public void create(String collection, Key key, byte[] payload) {
    guarded(
        "create",
        () -> {
          insert(collection, key, payload);
          return null;
        });
  }

  private void insert(String collection, Key key, byte[] payload) {
    Args.notNull(key, "key");
    Args.notNull(payload, "payload");
    byte[] k = key.toBytes();
    byte[] p = payload.clone();
    CollectionDef c = collection(collection);
    List<Attached> attached = indexes.attached(c);
    c.primary.checkEntry(pageSize(), k, p);
    List<byte[]> searchKeys = indexes.newSearchKeys(attached, k, p);
    readKey(c.primary, k);
    if (c.primary.get(view, k).isPresent()) {
      throw new DuplicateKeyException(collection, key.toString());
    }
    writing(
        () -> {
          c.primary.insert(view, k, p);
          logPrimary(LogicalChange.Kind.INSERT, c.primary, k, p);
          indexes.created(attached, searchKeys, k);
        });
  }

  /**
   * Replaces the payload of a record.
   *
   * @return false, changing nothing, when there is no record with that key
   */
  public boolean update(String collection, Key key, byte[] payload) {
    return guarded("update", () -> replace(collection, key, payload));
  }

  private boolean replace(String collection, Key key, byte[] payload) {
    Args.notNull(key, "key");
    Args.notNull(payload, "payload");
    byte[] k = key.toBytes();
    byte[] p = payload.clone();
    CollectionDef c = collection(collection);
    List<Attached> attached = indexes.attached(c);
    c.primary.checkEntry(pageSize(), k, p);
    List<byte[]> newKeys = indexes.newSearchKeys(attached, k, p);
    readKey(c.primary, k);
    Optional<byte[]> old = c.primary.get(view, k);
    if (old.isEmpty()) {
      return false;
    }
    List<byte[]> oldKeys = indexes.searchKeys(attached, k, old.get());
    writing(
        () -> {
          c.primary.update(view, k, p);
          logPrimary(LogicalChange.Kind.UPDATE, c.primary, k, p);
          indexes.updated(attached, oldKeys, newKeys, k);
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
    return guarded(
        "put",
        () -> {
          if (update(collection, key, payload)) {
            return false;
          }
          create(collection, key, payload);
          return true;
        });
  }

  /**
   * Deletes a record and its index entries.
   *
   * @return false when there was no record with that key
   */
  public boolean delete(String collection, Key key) {
    return guarded("delete", () -> remove(collection, key));
  }

  private boolean remove(String collection, Key key) {
    Args.notNull(key, "key");
    byte[] k = key.toBytes();
    CollectionDef c = collection(collection);
    List<Attached> attached = indexes.attached(c);
    readKey(c.primary, k);
    Optional<byte[]> old = c.primary.get(view, k);
    if (old.isEmpty()) {
      return false;
    }
    List<byte[]> oldKeys = indexes.searchKeys(attached, k, old.get());
    writing(
        () -> {
          c.primary.delete(view, k);
          logPrimary(LogicalChange.Kind.DELETE, c.primary, k, NONE);
          indexes.deleted(attached, oldKeys, k);
        });
    return true;
  }

  // ---- reads ----

  /** The payload of the record with {@code key}, or empty. */
  public Optional<byte[]> read(String collection, Key key) {
    // The guard spelled out rather than through guarded(): a point read of a cached record is
    // short enough that the capturing lambda and the shared, megamorphic call of its body showed.
    Thread prior = enter();
    try {
      checkOpen();
      Args.notNull(key, "key");
      BLinkTree tree = collection(collection).primary;
      readKey(tree, key.bytesUnsafe());
      return tree.get(view, key.bytesUnsafe());
    } catch (CloudException e) {
      throw CloudFailures.reading(what("read"), e);
    } finally {
      leave(prior);
    }
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
    return guarded(
        "scan",
        () -> {
          Args.notNull(range, "range");
          BLinkTree tree = collection(collection).primary;
          io.stratus.btree.KeyRange r = toTree(range);
          protocolTx.readKeys(tree.rootUri(), r);
          return new ScanCursor(tree.scan(view, r), this::checkOpen, what("scan"));
        });
  }

  /**
   * The records whose search key in {@code index} equals {@code searchKey}, ordered by record key:
   * the index gives the record keys, the primary tree the records (paper 000, section 3.4).
   * Entries whose record is gone are skipped; so are, when the extractor is attached, entries whose
   * record no longer has that search key (stale entries cannot mislead a probe).
   */
  public List<Record> probe(String collection, String index, Key searchKey) {
    return guarded(
        "probe",
        () -> {
          Args.notNull(searchKey, "searchKey");
          CollectionDef c = collection(collection);
          return probe(c, index(c, index), SecondaryKeys.forSearchKey(searchKey.bytesUnsafe()));
        });
  }

  /** The records whose search key lies in {@code searchKeys}, by search key, then record key. */
  public List<Record> probeRange(String collection, String index, KeyRange searchKeys) {
    return guarded(
        "probeRange",
        () -> {
          Args.notNull(searchKeys, "searchKeys");
          CollectionDef c = collection(collection);
          return probe(c, index(c, index), SecondaryKeys.forSearchRange(toTree(searchKeys)));
        });
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
    return guarded("query", () -> new QueryRunner(this).run(Args.notNull(query, "query")));
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
    return guarded("join", () -> new QueryRunner(this).join(Args.notNull(join, "join")));
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
    guarded(
        "commit",
        () -> {
          settle();
          return null;
        });
  }

  /**
   * Commits the open transaction and ends it. Maps every failure itself (a cloud failure the
   * protocol did not map has an unknown outcome), so none reaches the guard's translation.
   */
  private void settle() {
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
    guarded(
        "abort",
        () -> {
          end("aborted");
          return null;
        });
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

  /**
   * The guard of every public operation: marks this thread as inside the transaction, checks that
   * the transaction and its handle are open, runs {@code body}, and reports a cloud failure in it
   * as a {@link io.stratus.CloudServiceException} of {@code operation}, safe to retry (before the
   * commit, work only stages changes). Re-entrant for the thread inside (e.g. {@link #put}
   * calling {@link #update}).
   *
   * @throws ConcurrentTransactionUseException when another thread is inside
   */
  private <R> R guarded(String operation, Supplier<R> body) {
    Thread prior = enter();
    try {
      checkOpen();
      return body.get();
    } catch (CloudException e) {
      throw CloudFailures.reading(what(operation), e);
    } finally {
      leave(prior);
    }
  }

  /**
   * Marks this thread as inside the transaction; returns the thread that was inside before (this
   * one, re-entering), or null, for {@link #leave}.
   *
   * @throws ConcurrentTransactionUseException when another thread is inside
   */
  private @Nullable Thread enter() {
    Thread me = Thread.currentThread();
    Thread prior = (Thread) USER.compareAndExchange(this, null, me);
    if (prior != null && prior != me) {
      throw new ConcurrentTransactionUseException(info.transactionId(), prior.getName());
    }
    return prior;
  }

  /** Undoes {@link #enter}, which returned {@code prior}. */
  private void leave(@Nullable Thread prior) {
    if (prior == null) {
      user = null;
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

  /** The extractor attached to {@code index}, or null when this handle has none. */
  @Nullable IndexKeyExtractor extractorOf(CollectionDef c, IndexDef index) {
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
    CollectionDef last = lastCollection;
    if (last != null && lastCatalog == catalog && lastName == (Object) name) {
      return last; // a transaction mostly names one collection over and over
    }
    Args.notNull(name, "collection");
    Optional<CollectionDef> c = catalog.collection(name);
    if (c.isEmpty()) {
      // Only a name the catalog lacks needs checking (one in it was checked when created); a
      // pattern match on every read was a noticeable share of a cached read.
      Names.check("collection", name);
      catalog = db.freshCatalog(); // created elsewhere since this snapshot was taken?
      c = catalog.collection(name);
    }
    CollectionDef found = c.orElseThrow(() -> db.noSuchCollection(name));
    lastCollection = found;
    lastCatalog = catalog;
    lastName = name;
    return found;
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

  /**
   * Adds to {@code index} of {@code collection} the entry of each record of {@code keys} that the
   * record has and the index lacks, as this transaction sees both (for {@link IndexReconciler}).
   *
   * @return how many entries were added
   */
  int addMissingEntries(
      String collection, String index, IndexKeyExtractor extractor, List<Key> keys) {
    return guarded(
        "reconcile",
        () -> {
          CollectionDef c = collection(collection);
          IndexDef d = index(c, index);
          List<byte[][]> missing = indexes.missing(c, d, extractor, keys);
          writing(() -> indexes.add(d, missing));
          return missing.size();
        });
  }

  /** Logs a change made to the transaction's pages, and tells the protocol. */
  private void made(LogicalChange change) {
    changes.add(change);
    protocolTx.wrote(change);
  }

  /** Tells the protocol that this transaction read {@code key} of {@code tree}. */
  private void readKey(BLinkTree tree, byte[] key) {
    protocolTx.readKey(tree.rootUri(), key);
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
