package io.stratus.core;

import io.stratus.CloudServiceException;
import io.stratus.DatabaseClosedException;
import io.stratus.IndexNotAttachedException;
import io.stratus.InvalidConfigurationException;
import io.stratus.InvalidRequestException;
import io.stratus.NoSuchCollectionException;
import io.stratus.NoSuchIndexException;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.ConflictException;
import io.stratus.cloudapi.IndexService;
import io.stratus.cloudapi.PreconditionFailedException;
import io.stratus.cloudapi.StorageService;
import io.stratus.cloudapi.SupportsConditionalPut;
import io.stratus.core.Catalog.CollectionDef;
import io.stratus.core.CloudFailures.Effect;
import io.stratus.core.DatabaseConfig.IndexId;
import io.stratus.pagemanager.BufferPool;
import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageKind;
import io.stratus.pagemanager.PageTransaction;
import io.stratus.pagemanager.PageWriter;
import io.stratus.protocols.CommitProtocol;
import io.stratus.protocols.DamageReports;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.ProtocolStats;
import io.stratus.protocols.ProtocolTransaction;
import io.stratus.protocols.StorageLayout;
import io.stratus.protocols.TransactionInfo;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * A handle on one database stored in the cloud: the record manager of paper 000, section 3.2. An
 * application opens one handle per process and shares it between its request threads; each unit
 * of work runs in its own {@link Transaction} ({@link #begin()}).
 *
 * <p><b>One long-lived handle per process.</b> A handle is not a connection or a session to open
 * per request or per job: opening one reads the catalog, starts the protocol's background work
 * and, under the monotonic and atomic protocols, makes a new writer incarnation. Each incarnation
 * (and each of its writer lanes) that writes a page starts a chain with an entry in that page's
 * header, and a full header takes a new chain only once a closed or dead writer's chain retires,
 * at least 15 minutes after it stopped; until then the new writer's records wait in their queue,
 * invisible. Many handles opened and closed in quick succession (about twenty chains fit the
 * header of a 1 KB root, several hundred that of a 100 KB one) leave their records waiting that
 * long; {@link
 * DatabaseStats#recordsWaitingForRoom()} shows it. Keep one handle for the life of the process.
 *
 * <p><b>Layout in storage</b> (under the configured database URI {@code db}):
 *
 * <ul>
 *   <li>{@code db/catalog}: the catalog, one checksummed page listing every collection's primary
 *       tree root and its indexes' roots. Another process opening the same database sees it;
 *       a running handle sees changes within the buffer-pool TTL (at once when it meets a name it
 *       does not know).
 *   <li>{@code db/c/<collection>/root} and pages under {@code db/c/<collection>/}: the collection,
 *       an index-organised B-link tree of (key, payload).
 *   <li>{@code db/i/<collection>/<index>/root} and pages under it: a secondary index, a B-link tree
 *       of (search key, record key) composites.
 *   <li>{@code db/seq/<name>}: a {@link Sequence}'s lowest id not yet reserved.
 * </ul>
 *
 * <p><b>Indexes and their extractors.</b> The catalog stores index names; the functions that
 * compute search keys are code, so every process that writes a collection must attach them, in
 * its {@link DatabaseConfig.Builder#indexExtractor configuration} or with {@link #attachIndex}.
 * A write to a collection with an index whose extractor is not attached fails with {@link
 * io.stratus.IndexNotAttachedException}, so an index is never silently left stale; reads, scans
 * and probes work without extractors. A process learns of an index created elsewhere within the
 * TTL (and, where storage reads lag, the time storage serves stale copies); records it writes
 * until then are added to the index by {@link DatabaseAdmin#checkpointAll} once that time has
 * passed.
 *
 * <p><b>Operator calls</b> (applying every pending update now, recovery, dead letters,
 * verification, re-sealing, protocol switches, inspection without opening) are on the {@link
 * DatabaseAdmin} facet, {@link #admin()}.
 *
 * <p><b>Thread safety.</b> Thread-safe, and no static state: catalog snapshots are immutable,
 * extractors live in a concurrent map, counters are adders, and the buffer pool and protocol are
 * thread-safe. {@link #close()} ends the handle; the cloud services are the caller's and stay open.
 */
public final class Database implements AutoCloseable {
  private final DatabaseConfig config;
  private final StorageService storage;
  private final BufferPool pool;
  private final CommitProtocol protocol;
  private final StorageLayout layout;
  private final TransactionRunner runner = new TransactionRunner(this);
  private final ConcurrentHashMap<String, Sequence> sequences = new ConcurrentHashMap<>();
  private final PageWriter writer;
  private final BulkTrees trees;
  private final ServiceIndexes serviceIndexes = new ServiceIndexes(this);
  private final CatalogStore catalog;
  private final ConcurrentHashMap<IndexId, IndexKeyExtractor> extractors;
  private final AtomicLong transactionIds = new AtomicLong();
  final LongAdder commits = new LongAdder();
  final LongAdder aborts = new LongAdder();
  final LongAdder failedCommits = new LongAdder();
  final LongAdder unknownCommits = new LongAdder();
  final LongAdder pagesWritten = new LongAdder();
  private volatile boolean closed;

  /** What this handle's background work found damaged (shared with the protocol). */
  private final DamageReports damage;

  private final DatabaseAdmin admin;

  /** A handle over {@code protocol}, {@code pool} and {@code catalog}, made by {@link Opening}. */
  Database(
      DatabaseConfig config,
      BufferPool pool,
      CatalogStore catalog,
      CommitProtocol protocol,
      DamageReports damage) {
    this.config = config;
    this.damage = damage;
    this.storage = config.services().storage();
    this.pool = pool;
    this.protocol = protocol;
    this.layout = new StorageLayout(config.databaseUri());
    this.writer = new PageWriter(storage, pool);
    this.trees = new BulkTrees(pool, writer, config.pageSize());
    this.catalog = catalog;
    IndexReconciler reconciler =
        new IndexReconciler(
            this,
            catalog,
            config.clock(),
            pool.readsMayLag() ? config.ttl().plus(BufferPool.STALE_COPIES) : config.ttl());
    this.extractors = new ConcurrentHashMap<>(config.extractors());
    this.admin = new DatabaseAdmin(this, protocol, reconciler, writer, damage);
  }

  /**
   * Opens the database described by {@code config}, reading its catalog (an absent catalog is an
   * empty database; nothing is written until a collection is created), which records the protocol
   * the database runs (one written before gets this handle's; see docs/operations.md). A transient
   * cloud failure (a refused, throttled or unanswered call) is retried as the configuration's
   * {@linkplain DatabaseConfig#retryPolicy() retry policy} says; only when its attempts are used up
   * does open fail, with the last failure (retryable; the earlier ones attached as suppressed).
   *
   * @throws io.stratus.InvalidConfigurationException when the database runs a protocol the
   *     configured one cannot share it with ({@link ProtocolKind#sharesDatabasesWith})
   * @throws io.stratus.InvalidRequestException when the configured protocol is not available yet
   * @throws io.stratus.InvalidConfigurationException when the configuration's encryption does not
   *     fit the stored database: it is encrypted and the configuration has no keyring, or a keyring
   *     without the key that sealed its catalog; or it is not encrypted and the configuration has
   *     a keyring
   * @throws io.stratus.CorruptPageException when the stored catalog is damaged
   * @throws io.stratus.CloudServiceException when the cloud services kept failing
   */
  public static Database open(DatabaseConfig config) {
    Args.notNull(config, "config");
    return Opening.open(config);
  }

  /** Records that the database runs {@code next} from now on (after a switch's drain). */
  void recordProtocol(ProtocolKind next) {
    CloudFailures.changing(
        () -> "recording the protocol " + next,
        () -> {
          catalog.recordProtocol(next);
          return null;
        });
  }

  /** The configuration this handle was opened with. */
  public DatabaseConfig config() {
    return config;
  }

  /**
   * The operator's calls on this handle's database (checkpoints of everything, recovery, dead
   * letters, verification, re-sealing): one facet per handle, as thread-safe as the handle.
   */
  public DatabaseAdmin admin() {
    return admin;
  }

  /**
   * Creates an empty collection. Idempotent: returns false, changing nothing, when the collection
   * already exists (created by this or another process), so every process may call it at
   * start-up.
   *
   * @return whether this call created it
   * @throws io.stratus.InvalidRequestException for an invalid name (see {@link Names})
   */
  public boolean createCollection(String name) {
    return guarded(
        Effect.CHANGES,
        () -> "creating collection " + Names.quote(name),
        () -> addCollection(name));
  }

  private boolean addCollection(String name) {
    Names.check("collection", name);
    if (catalog.fresh().collection(name).isPresent()) {
      return false;
    }
    String root = layout.collectionRoot(name);
    ensureRoot(root);
    AtomicBoolean added = new AtomicBoolean();
    catalog.update(
        c -> {
          added.set(c.collection(name).isEmpty());
          return added.get() ? c.with(new CollectionDef(name, root, new TreeMap<>())) : c;
        });
    return added.get();
  }

  /**
   * Creates a secondary index on {@code collection} and fills it from the records the collection
   * holds now (built bottom-up, each page written once), then records it in the catalog and
   * attaches {@code extractor} in this process. Idempotent: when the index exists, only attaches
   * {@code extractor} and returns false.
   *
   * <p>Records written (by any process) while the index is built, and by processes that have not
   * read the catalog since, lack their entries until a {@link DatabaseAdmin#checkpointAll} adds
   * them: one run by a handle with the extractor attached once the TTL (plus {@link
   * BufferPool#STALE_COPIES} where storage reads lag) has passed since the index was recorded. The
   * entries are collected in memory before the load.
   *
   * @throws NoSuchCollectionException when the collection does not exist (retryable where
   *     storage reads lag: it may have been created moments ago)
   *
   * @return whether this call created it
   * @throws io.stratus.RecordTooLargeException when a record's index entry does not fit a page
   *     (nothing is recorded in the catalog)
   */
  public boolean createIndex(String collection, String index, IndexKeyExtractor extractor) {
    return createIndex(collection, index, extractor, IndexPlacement.CLIENT_TREE);
  }

  /**
   * {@link #createIndex(String, String, IndexKeyExtractor)} with the index held where {@code
   * placement} says: a client-side tree, or the cloud's index service (one domain per index, filled
   * from the collection's records in batches before the index is recorded). The placement is
   * recorded in the catalog; an existing index keeps its own.
   *
   * @throws io.stratus.InvalidConfigurationException when {@code placement} is the index service
   *     and the cloud services have none
   * @throws io.stratus.InvalidRequestException when the index exists with another placement
   */
  public boolean createIndex(
      String collection, String index, IndexKeyExtractor extractor, IndexPlacement placement) {
    return guarded(
        Effect.CHANGES,
        () -> "creating index " + Names.quote(index),
        () -> addIndex(collection, index, extractor, placement));
  }

  private boolean addIndex(
      String collection, String index, IndexKeyExtractor extractor, IndexPlacement placement) {
    Names.check("index", index);
    Args.notNull(extractor, "extractor");
    Args.notNull(placement, "placement");
    CollectionDef def = collection(collection);
    IndexId id = new IndexId(collection, index);
    if (def.indexes.containsKey(index)) {
      IndexPlacement was = def.index(index).placement();
      if (was != placement) {
        throw new InvalidRequestException(
            "index "
                + Names.quote(index)
                + " of collection "
                + Names.quote(collection)
                + " exists in "
                + was
                + ", not "
                + placement
                + "; create it with "
                + was
                + ", or under another name");
      }
      extractors.put(id, extractor);
      return false;
    }
    String root = layout.indexRoot(collection, index);
    long since = config.clock().millis();
    Catalog.IndexDef made =
        new Catalog.IndexDef(
            index,
            StorageLayout.tree(root),
            since,
            placement == IndexPlacement.INDEX_SERVICE
                ? Optional.of(layout.indexDomain(collection, index))
                : Optional.empty());
    if (made.domain().isPresent()) {
      serviceIndexes.createDomain(made);
      serviceIndexes.fill(made, ServiceIndexes.entries(trees.recordsOf(def), extractor));
    } else {
      trees.buildIndex(def, made.tree(), extractor);
    }
    extractors.put(id, extractor);
    AtomicBoolean added = new AtomicBoolean();
    catalog.update(
        c -> {
          CollectionDef now =
              c.collection(collection).orElseThrow(() -> noSuchCollection(collection));
          added.set(!now.indexes.containsKey(index));
          return added.get() ? c.with(now.withIndex(made)) : c;
        });
    return added.get();
  }

  /**
   * The index service holding {@code index}'s entries.
   *
   * @throws io.stratus.InvalidConfigurationException when the cloud services have none
   */
  IndexService indexService(Catalog.IndexDef index) {
    if (!config.services().hasIndex()) {
      throw new InvalidConfigurationException(
          "index "
              + index.name()
              + " is held by an index service, and this handle's cloud services have none:"
              + " give them one (CloudServices.Builder.index, e.g. DynamoDB through AwsConfig's"
              + " index endpoint, or the in-process cloud's), or create the index with"
              + " IndexPlacement.CLIENT_TREE");
    }
    return config.services().index();
  }

  /**
   * Loads {@code records} into an empty collection and its secondary indexes, building every tree
   * bottom-up with full pages (paper 000, section 7.7 and Table 4): each page is put once, so
   * loading N records costs about N / records-per-page puts plus the inner levels, instead of one
   * commit per record. Records may come in any order; they are sorted in memory.
   *
   * <p>Not a transaction: it is meant for loading a database before it is used (the TPC-W
   * population), not for concurrent use with writers of the same collection. The pages of all
   * trees are written first and the roots last, so a reader sees the collection either empty or
   * whole; a load that fails part-way leaves unreachable pages and an empty collection, and may be
   * run again.
   *
   * @throws NoSuchCollectionException when the collection does not exist
   * @throws io.stratus.InvalidRequestException when the collection is not empty, or a key occurs
   *     twice (nothing is written)
   * @throws io.stratus.IndexNotAttachedException when an index of the collection has no extractor
   * @throws io.stratus.RecordTooLargeException when a record or index entry does not fit a page
   */
  public BulkLoadResult bulkLoad(String collection, Iterable<Record> records) {
    return guarded(
        Effect.CHANGES,
        () -> "bulk load of " + Names.quote(collection),
        () -> load(collection, Args.notNull(records, "records")));
  }

  private BulkLoadResult load(String collection, Iterable<Record> records) {
    CollectionDef def = collection(collection);
    Map<String, IndexKeyExtractor> attached = new TreeMap<>();
    for (String index : def.indexes.keySet()) {
      IndexKeyExtractor f = extractor(collection, index);
      if (f == null) {
        throw new IndexNotAttachedException(collection, index);
      }
      attached.put(index, f);
    }
    return trees.bulkLoad(collection, def, attached, records, serviceIndexes);
  }

  /**
   * Attaches the key extractor of an existing index in this process, e.g. after opening a
   * database whose catalog names indexes created earlier. Replaces an earlier attachment.
   *
   * @throws NoSuchCollectionException when the collection does not exist
   * @throws NoSuchIndexException when the collection has no such index
   */
  public void attachIndex(String collection, String index, IndexKeyExtractor extractor) {
    guarded(
        Effect.READS,
        () -> "attaching index " + Names.quote(index),
        () -> {
          Args.notNull(extractor, "extractor");
          CollectionDef def = collection(collection);
          if (!def.indexes.containsKey(index)) {
            def = catalog.fresh().collection(collection).orElse(def);
            if (!def.indexes.containsKey(index)) {
              throw new NoSuchIndexException(collection, index);
            }
          }
          return extractors.put(new IndexId(collection, index), extractor);
        });
  }

  /** The names of the collections, sorted (as of the catalog in the pool, at most a TTL old). */
  public Set<String> collections() {
    return guarded(
        Effect.READS,
        () -> "listing collections",
        () ->
            Collections.unmodifiableSortedSet(
                new TreeSet<>(catalog.current().collections().keySet())));
  }

  /** The names of {@code collection}'s secondary indexes, sorted. */
  public Set<String> indexes(String collection) {
    return guarded(
        Effect.READS,
        () -> "listing indexes of " + Names.quote(collection),
        () ->
            Collections.unmodifiableSortedSet(
                new TreeSet<>(collection(collection).indexes.keySet())));
  }

  /**
   * The sequence {@code name} of this database with {@link Sequence#DEFAULT_BLOCK_SIZE} ids per
   * block: ids unique across clients and restarts, from 1 to {@link Sequence#MAX_ID}, without a
   * hot spot (see {@link Sequence}). The same instance for every call with the same name; needs
   * storage with conditional puts.
   *
   * @throws io.stratus.InvalidRequestException for an invalid name, or when the database's
   *     storage has no conditional puts
   */
  public Sequence sequence(String name) {
    return sequence(name, Sequence.DEFAULT_BLOCK_SIZE);
  }

  /**
   * The sequence {@code name} with {@code blockSize} ids per reservation. Handles may use
   * different block sizes for one name; within a handle, a name has one.
   *
   * @throws io.stratus.InvalidRequestException for an invalid name or block size, a block size
   *     other than this handle's earlier one for the name, or storage without conditional puts
   */
  public Sequence sequence(String name, int blockSize) {
    checkOpen();
    Names.check("sequence", name);
    SupportsConditionalPut conditional = SupportsConditionalPut.of(storage);
    if (conditional == null) {
      // Plain puts cannot keep two handles from reserving the same block, and the counter
      // service cannot stand in: its values are not durable everywhere (a process's own counters
      // without ZooKeeper) and do not fit in 53 bits (ZooKeeper's clock-derived epochs).
      throw new io.stratus.InvalidRequestException(
          "sequence "
              + name
              + " cannot promise unique ids: it reserves its blocks with conditional puts"
              + " (If-None-Match / If-Match), and this database's storage has none; use storage"
              + " that offers them (S3, LocalStack, the in-process storage with conditional puts)"
              + " or make ids another way, e.g. random UUIDs");
    }
    Sequence s =
        sequences.computeIfAbsent(
            name,
            n ->
                new Sequence(n, new SequenceBlocks(n, layout.sequence(n), conditional), blockSize));
    if (s.blockSize() != blockSize) {
      throw new io.stratus.InvalidRequestException(
          "sequence "
              + name
              + " is used with block size "
              + s.blockSize()
              + " by this handle, not "
              + blockSize);
    }
    return s;
  }

  /**
   * Runs {@code fn} in a transaction and commits it, retrying with the configuration's {@linkplain
   * DatabaseConfig#retryPolicy() retry policy} while the failure says nothing took effect; returns
   * what {@code fn} returned. See {@link #run(RetryPolicy, TransactionFunction)}.
   */
  public <T> T run(TransactionFunction<T> fn) {
    return run(config.retryPolicy(), fn);
  }

  /**
   * Runs {@code fn} in a new transaction and commits it; when the attempt fails in a way that is
   * safe to retry ({@link io.stratus.StratusException#isRetryable()}: a retryable commit failure,
   * a stale page, a throttled or unavailable service), backs off as {@code policy} says and runs
   * {@code fn} again in a new transaction, up to {@link RetryPolicy#maxAttempts()} attempts.
   *
   * <p>Never retried: {@link io.stratus.CommitStateUnknownException} (the commit may have taken
   * effect; read to find out before acting), failures that are not transient, and exceptions
   * {@code fn} throws itself; these reach the caller at once, the transaction aborted. {@code fn}
   * must not commit, abort or close its transaction. Thread-safe: any request thread may call it.
   *
   * @return what {@code fn} returned in the attempt that committed
   * @throws io.stratus.StratusException the last failure when the attempts are used up (earlier
   *     ones attached as suppressed), or the first failure that is not retryable
   */
  public <T> T run(RetryPolicy policy, TransactionFunction<T> fn) {
    checkOpen();
    return runner.run(policy, fn, true);
  }

  /**
   * Runs {@code fn} in a transaction that only reads, with the same retries as {@link
   * #run(TransactionFunction)}; the transaction ends without a commit.
   *
   * @throws io.stratus.InvalidRequestException when {@code fn} writes (use {@link #run})
   */
  public <T> T read(TransactionFunction<T> fn) {
    return read(config.retryPolicy(), fn);
  }

  /** {@link #read(TransactionFunction)} with the retries of {@code policy}. */
  public <T> T read(RetryPolicy policy, TransactionFunction<T> fn) {
    checkOpen();
    return runner.run(policy, fn, false);
  }

  /** Begins a transaction, to be used by one thread at a time. */
  public Transaction begin() {
    return begin(false);
  }

  /**
   * Begins a transaction; {@code readOnly}: one that will not commit changes. A transient cloud
   * failure (a refused counter poll of the isolating protocols, a throttled read) is retried as
   * the configuration's {@link DatabaseConfig#retryPolicy() retry policy} says: beginning changes
   * nothing shared.
   */
  Transaction begin(boolean readOnly) {
    try { // not through a lambda: every request begins transactions
      return open(readOnly);
    } catch (CloudException e) {
      CloudServiceException first = CloudFailures.reading("beginning a transaction", e);
      if (!first.isRetryable()) {
        throw first;
      }
      RetryPolicy policy = config.retryPolicy();
      return RetryLoop.after(
          first,
          policy,
          policy.jitter(transactionIds.get()),
          RetryLoop::transientCloudFailure,
          () -> CloudFailures.reading(() -> "beginning a transaction", () -> open(readOnly)));
    }
  }

  private Transaction open(boolean readOnly) {
    checkOpen();
    TransactionInfo info =
        new TransactionInfo(
            config.clientId() + "-" + transactionIds.incrementAndGet(),
            config.clientId(),
            config.clock().instant(),
            readOnly);
    PageTransaction pages = pool.begin();
    ProtocolTransaction ptx = null;
    try {
      ptx = protocol.begin(info);
      return new Transaction(this, ptx, pages, catalog.current());
    } catch (RuntimeException | Error e) {
      pages.abort();
      if (ptx != null) {
        ptx.finish(false);
      }
      throw e;
    }
  }

  /** This handle's counters now. */
  public DatabaseStats stats() {
    ProtocolStats p = protocol.stats();
    return new DatabaseStats(
        pool.stats(),
        commits.sum(),
        aborts.sum(),
        failedCommits.sum(),
        unknownCommits.sum(),
        pagesWritten.sum(),
        p.backgroundCheckpointsRun(),
        p.backgroundCheckpointsFailed(),
        p.pendingOwnWrites(),
        runner.retries(),
        p.backgroundFailures(),
        damage.corruptMessages(),
        damage.corruptPages(),
        damage.deadLettered(),
        p.owedCheckpoints(),
        p.recordsWaitingForRoom(),
        p.writersWaitingForRoom());
  }

  /**
   * Closes the handle: settles what it committed, then closes the protocol and the buffer pool.
   * Open transactions fail on their next call. Does not close the cloud services. Idempotent.
   *
   * <p>Settling takes at most the close timeout ({@link DatabaseConfig.Builder#closeTimeout},
   * {@link io.stratus.protocols.Settings#CLOSE_TIMEOUT}): running background checkpoints finish,
   * the atomic protocols propagate their pending commits, and every pending-update queue the
   * handle sent records to is checkpointed on the calling thread, so that a handle opened next (a
   * restarted process under a new client id, a reader of what a loader wrote) sees every commit of
   * this one at once; the isolating protocols wait for their lock releases (their readers see
   * commits through the archive). A close that runs out of time, or whose checkpoints keep
   * failing, does not throw: it logs a warning naming the queues it left, and {@link
   * #stats()}{@code .owedCheckpoints()} counts them; their records stay queued, durable, until
   * another client's checkpoint applies them. Call it from the thread that shuts the application
   * down, before the platform's kill deadline.
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      protocol.close();
    } finally {
      pool.close();
    }
  }

  /**
   * Whether {@link #close()} has been called: every call but {@link #stats()}, {@link #admin()}
   * and this one (and every call of the admin facet) then fails with {@link
   * DatabaseClosedException}. For health checks.
   */
  public boolean isClosed() {
    return closed;
  }

  // ---- for Transaction ----

  CommitProtocol protocol() {
    return protocol;
  }

  BufferPool pool() {
    return pool;
  }

  int pageSize() {
    return config.pageSize();
  }

  /** The attached extractor of an index, or null. */
  @Nullable IndexKeyExtractor extractor(String collection, String index) {
    return extractors.get(new IndexId(collection, index));
  }

  /** The catalog as storage has it now (after a miss in a possibly stale snapshot). */
  Catalog freshCatalog() {
    return catalog.fresh();
  }

  // ---- internals ----

  private CollectionDef collection(String name) {
    Names.check("collection", name);
    Optional<CollectionDef> def = catalog.current().collection(name);
    if (def.isEmpty()) {
      def = catalog.fresh().collection(name);
    }
    return def.orElseThrow(() -> noSuchCollection(name));
  }

  /**
   * The failure for a collection the fresh catalog lacks: retryable where storage reads may lag
   * behind writes, since the collection may have been created moments ago.
   */
  NoSuchCollectionException noSuchCollection(String name) {
    return pool.readsMayLag()
        ? NoSuchCollectionException.notVisibleYet(name)
        : new NoSuchCollectionException(name);
  }

  /**
   * Writes an empty root leaf at {@code uri} unless a page is there: never overwrites, because a
   * root that exists may already hold another process's records. Conditional storage makes the
   * check and the write one step; without it, a get then a put (a concurrent creator can slip in
   * between, and its first records could be lost: create collections from one process at a time).
   */
  private void ensureRoot(String uri) {
    Page root = Page.builder(uri, PageKind.LEAF).level(0).build();
    if (writer.supportsConditions()) {
      try {
        writer.write(root, 0, PageWriter.Condition.absent());
      } catch (PreconditionFailedException | ConflictException exists) {
        pool.invalidate(uri); // someone else's root: read it from storage when needed
      }
    } else if (CloudFutures.await(storage.getMetadata(uri)).isEmpty()) {
      writer.write(root, 0, PageWriter.Condition.none());
    }
  }

  /**
   * The guard of every entry point (but {@link #begin}, which retries): runs {@code body} on the
   * open handle and reports a cloud failure in it as work that has {@code effect}.
   *
   * @throws DatabaseClosedException when the handle is closed
   * @throws CloudServiceException when a cloud call failed
   */
  <T> T guarded(Effect effect, Supplier<String> what, Supplier<T> body) {
    try {
      checkOpen();
      return body.get();
    } catch (CloudException e) {
      throw effect.translate(what.get(), e);
    }
  }

  void checkOpen() {
    if (closed) {
      throw new DatabaseClosedException("database " + config.databaseUri());
    }
  }
}
