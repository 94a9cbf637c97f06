package io.stratus.core;

import io.stratus.InvalidConfigurationException;
import io.stratus.btree.BLinkTree;
import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.CrashPoints;
import io.stratus.cloudapi.crypto.Encryption;
import io.stratus.pagemanager.BufferPoolConfig;
import io.stratus.protocols.CheckpointSettings;
import io.stratus.protocols.CheckpointWrites;
import io.stratus.protocols.Guarantee;
import io.stratus.protocols.IsolationSettings;
import io.stratus.protocols.ProtocolContext;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.ProtocolOption;
import io.stratus.protocols.StorageLayout;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.UUID;
import java.util.concurrent.Executor;
import java.util.regex.Pattern;

/**
 * How to open a {@link Database}: which cloud services and database URI, which commit protocol,
 * page and pool sizes, times, identity, and the index extractors to attach.
 *
 * <p>A configuration opens one handle per process, kept for the life of the process (see {@link
 * Database}): every handle opened is a new writer incarnation, whose chains need room in the
 * headers of the pages it writes, so opening handles per request or per job makes their writes
 * wait ({@link DatabaseStats#recordsWaitingForRoom()}).
 *
 * <p>Immutable. The builder validates each setting as it is given ({@link
 * io.stratus.InvalidConfigurationException}), and the rules between settings when it is built: a
 * setting of a protocol option ({@link ProtocolOption}) that the chosen protocol does not have is
 * refused then, not silently ignored. A built configuration is always usable. Defaults:
 *
 * <ul>
 *   <li>protocol {@link #DEFAULT_PROTOCOL}, which loses no acknowledged write and shows a client
 *       its own; {@link ProtocolKind#BASIC}, {@link ProtocolKind#ATOMIC} and, for comparison, the
 *       papers' {@link ProtocolKind#NAIVE} baseline (which loses updates) are available too;
 *   <li>page size {@link #DEFAULT_PAGE_SIZE}, buffer-pool TTL {@link #DEFAULT_TTL}, pool size
 *       {@link #DEFAULT_POOL_BYTES};
 *   <li>checkpoint interval {@link #DEFAULT_CHECKPOINT_INTERVAL}, checkpoint lock timeout {@link
 *       CheckpointSettings#DEFAULT_LOCK_TIMEOUT}, propagation period {@link
 *       CheckpointSettings#DEFAULT_PROPAGATION_PERIOD}, at most {@link
 *       CheckpointSettings#DEFAULT_MAX_RECORDS} records per checkpoint, checkpoint writes {@link
 *       CheckpointWrites#AUTO} (conditional when storage has conditional puts), checkpoint
 *       executor: the protocol's own daemon threads, checkpoint seed 0 (the queue-based
 *       protocols: {@link ProtocolOption#CHECKPOINTS}); atomic timeout 60 s or twice the lock
 *       timeout (the atomic protocol: {@link ProtocolOption#ATOMIC_TIMEOUT}); writer lanes
 *       {@link #DEFAULT_WRITER_LANES} (monotonic and atomic: {@link
 *       ProtocolOption#WRITER_LANES});
 *   <li>client id: a random UUID per configuration; clock: the system UTC clock; crash points:
 *       none; retries: {@link RetryPolicy#defaults()};
 *   <li>encryption: off ({@link Builder#encryption} turns on client-side encryption of every
 *       page and log message with a {@link Keyring}).
 * </ul>
 */
public final class DatabaseConfig {
  /**
   * The monotonic protocol: commits through pending-update queues (durable, converging), with
   * monotonic writes and reads and read-your-writes, at the cost of one queue round trip per
   * commit.
   */
  public static final ProtocolKind DEFAULT_PROTOCOL = ProtocolKind.MONOTONIC;

  /** 100 KiB, the papers' page size (paper 000, section 7.1). */
  public static final int DEFAULT_PAGE_SIZE = BufferPoolConfig.DEFAULT_PAGE_SIZE;

  /** 100 s, the papers' buffer-pool TTL (paper 000, section 7.1). */
  public static final Duration DEFAULT_TTL = BufferPoolConfig.DEFAULT_TTL;

  /** 45 s, the papers' checkpoint interval (paper 000, section 7.1). */
  public static final Duration DEFAULT_CHECKPOINT_INTERVAL = Duration.ofSeconds(45);

  /**
   * 20 s: the most {@link Database#close()} spends by default settling what the handle owes
   * (running checkpoints, pending propagation, the checkpoints of every queue it sent records to),
   * inside the 30 s Kubernetes grants by default between its stop signal and the kill.
   */
  public static final Duration DEFAULT_CLOSE_TIMEOUT = CheckpointSettings.DEFAULT_CLOSE_TIMEOUT;

  /**
   * The longest duration any setting accepts: 365 days. Longer ones (up to {@code
   * Long.MAX_VALUE} seconds) overflow the millisecond and nanosecond arithmetic of timers and
   * leases, and mean "never" in practice; a TTL or checkpoint interval that long is refused here
   * rather than failing later.
   */
  public static final Duration MAX_DURATION = Duration.ofDays(365);

  /**
   * The shortest checkpoint lock timeout the atomic protocol accepts: 5 s. Its recovery passes
   * receive with a visibility timeout that ends a second before the lock's lease and is at least
   * a second long; with a lease of 2 s or less they would receive nothing at all.
   */
  public static final Duration MIN_ATOMIC_LOCK_TIMEOUT = Duration.ofSeconds(5);

  /**
   * The least key + value a page must hold in every tree of a database: 128 bytes. Each page
   * reserves room for two maximal keys and two page URIs, which grow with the database URI and
   * the collection and index names (up to 100 characters each), so a small page under a long
   * database URI can hold no record at all; such a page size is refused when the configuration
   * is built.
   */
  public static final int MIN_RECORD_BYTES = 128;

  /** 256 MiB of cached pages. */
  public static final long DEFAULT_POOL_BYTES = BufferPoolConfig.DEFAULT_MAX_BYTES;

  /**
   * 32: how many commits of one handle the monotonic and atomic protocols send at once (more wait
   * for a free writer lane; lanes are made as needed); each lane that writes to a page adds about
   * 60 bytes to its header.
   */
  public static final int DEFAULT_WRITER_LANES = ProtocolContext.DEFAULT_WRITER_LANES;

  /** The most writer lanes accepted. */
  public static final int MAX_WRITER_LANES = 1024;

  /** The longest database URI accepted, in characters. */
  public static final int MAX_DATABASE_URI_LENGTH = 200;

  private static final Pattern URI_SEGMENT = Pattern.compile("[A-Za-z0-9_.-]+");

  private final CloudServices services;
  private final Keyring keyring;
  private final String databaseUri;
  private final ProtocolKind protocol;
  private final int writerLanes;
  private final IsolationSettings isolation;
  private final BufferPoolConfig pool;
  private final Duration checkpointInterval;
  private final CheckpointSettings checkpoints;
  private final Executor checkpointExecutor;
  private final String clientId;
  private final Clock clock;
  private final CrashPoints crashPoints;
  private final RetryPolicy retryPolicy;
  private final Map<IndexId, IndexKeyExtractor> extractors;

  /** A collection and one of its indexes. */
  record IndexId(String collection, String index) {}

  private DatabaseConfig(Builder b) {
    this.keyring = b.keyring;
    this.services =
        b.keyring == null
            ? b.services
            : Encryption.of(new CollectionKeys(b.keyring, new StorageLayout(b.databaseUri)))
                .wrap(b.services);
    this.databaseUri = b.databaseUri;
    this.protocol = b.protocol;
    boolean monotonicReads =
        b.monotonicReads != null
            ? b.monotonicReads
            : b.protocol.guarantees(Guarantee.MONOTONIC_READS);
    this.pool = b.pool.monotonicReads(monotonicReads).build();
    this.checkpointInterval = b.checkpointInterval;
    checkRecordsFit(b.databaseUri, pool.pageSize());
    long maxObject = services.storage().limits().maxObjectSize();
    if (pool.pageSize() > maxObject) {
      throw new InvalidConfigurationException(
          "the page size ("
              + pool.pageSize()
              + " bytes) must"
              + " not exceed the storage's largest object ("
              + maxObject
              + " bytes"
              + (keyring == null ? "" : ", less " + Encryption.OVERHEAD + " bytes of encryption")
              + ")");
    }
    if (b.propagationPeriod.compareTo(b.lockTimeout) >= 0) {
      // Name the setting the user chose; the other one may be a default they never touched.
      throw new InvalidConfigurationException(
          b.lockTimeoutSet
              ? "checkpointLockTimeout("
                  + b.lockTimeout
                  + ") must be longer than the propagation period ("
                  + b.propagationPeriod
                  + (b.propagationPeriodSet ? "" : ", the default")
                  + "): choose a longer lock timeout, or set propagationPeriod shorter as well"
              : "propagationPeriod("
                  + b.propagationPeriod
                  + ") must be shorter than the checkpoint lock timeout ("
                  + b.lockTimeout
                  + ", the default): choose a shorter period, or set checkpointLockTimeout longer"
                  + " as well");
    }
    if (b.protocol == ProtocolKind.ATOMIC && b.lockTimeout.compareTo(MIN_ATOMIC_LOCK_TIMEOUT) < 0) {
      throw new InvalidConfigurationException(
          "the checkpoint lock timeout ("
              + b.lockTimeout
              + ") must be at least "
              + MIN_ATOMIC_LOCK_TIMEOUT
              + " under the atomic protocol: its"
              + " recovery receives with a visibility timeout that ends a second before the lease");
    }
    if (b.services.hasSimpleQueues() && b.protocol.accepts(ProtocolOption.CHECKPOINTS)) {
      Duration maxVisibility = b.services.simpleQueues().limits().maxVisibilityTimeout();
      if (b.lockTimeout.compareTo(maxVisibility) > 0) {
        throw new InvalidConfigurationException(
            "the checkpoint lock timeout ("
                + b.lockTimeout
                + ") must not exceed the queues' longest visibility timeout ("
                + maxVisibility
                + "): checkpoints hide the messages they apply for that long");
      }
    }
    Duration atomic =
        b.atomicTimeout != null
            ? b.atomicTimeout
            : max(CheckpointSettings.DEFAULT_ATOMIC_TIMEOUT, b.lockTimeout.multipliedBy(2));
    if (atomic.compareTo(b.lockTimeout) <= 0) {
      throw new InvalidConfigurationException(
          "the atomic timeout ("
              + atomic
              + ") must be longer"
              + " than the checkpoint lock timeout ("
              + b.lockTimeout
              + ")");
    }
    this.checkpoints =
        new CheckpointSettings(
            b.lockTimeout,
            b.propagationPeriod,
            b.maxRecords,
            b.writes,
            b.checkpointSeed,
            atomic,
            b.closeTimeout);
    this.checkpointExecutor = b.checkpointExecutor;
    this.writerLanes = b.writerLanes;
    this.isolation = new IsolationSettings(b.transactionTimeout, b.isolationLease, b.snapshotReuse);
    if (b.protocol.accepts(ProtocolOption.ISOLATION)) {
      isolation
          .violation(atomic)
          .ifPresent(
              v -> {
                throw new InvalidConfigurationException(v);
              });
    }
    this.clientId = b.clientId == null ? UUID.randomUUID().toString() : b.clientId;
    this.clock = b.clock;
    this.crashPoints = b.crashPoints;
    this.retryPolicy = b.retryPolicy;
    this.extractors = Map.copyOf(b.extractors);
  }

  /**
   * Refuses a page size at which the worst-placed tree of the database (an index with names of
   * the longest allowed length) holds less than {@link #MIN_RECORD_BYTES} of key + value.
   */
  private static void checkRecordsFit(String databaseUri, int pageSize) {
    String longest = "n".repeat(Names.MAX_LENGTH);
    BLinkTree worst =
        StorageLayout.tree(new StorageLayout(databaseUri).indexRoot(longest, longest));
    if (worst.maxEntryBytes(pageSize) >= MIN_RECORD_BYTES) {
      return;
    }
    int enough = pageSize;
    while (worst.maxEntryBytes(enough) < MIN_RECORD_BYTES) {
      enough += 256;
    }
    throw new InvalidConfigurationException(
        "a page of "
            + pageSize
            + " bytes holds records of at"
            + " most "
            + worst.maxEntryBytes(pageSize)
            + " bytes in a database at "
            + Names.quote(databaseUri)
            + " (each page reserves room for its URI and two keys); use a"
            + " page size of at least "
            + enough
            + " bytes");
  }

  private static Duration max(Duration a, Duration b) {
    return a.compareTo(b) >= 0 ? a : b;
  }

  /**
   * A builder for a database at {@code databaseUri} on {@code services}.
   *
   * @param databaseUri the prefix of every item of the database, e.g. {@code "db/shop"}: segments
   *     of letters, digits, '_', '-', '.' joined by '/', at most {@link #MAX_DATABASE_URI_LENGTH}
   *     characters
   */
  public static Builder builder(CloudServices services, String databaseUri) {
    return new Builder(services, databaseUri);
  }

  /**
   * The cloud services the database calls: those given to the builder, with storage and queues
   * wrapped for encryption when it is on. The database uses them but does not own them (never
   * closes them); the wrappers hold no resources of their own.
   */
  public CloudServices services() {
    return services;
  }

  /** The keyring of client-side encryption, or empty when encryption is off (the default). */
  public Optional<Keyring> encryption() {
    return Optional.ofNullable(keyring);
  }

  public String databaseUri() {
    return databaseUri;
  }

  public ProtocolKind protocol() {
    return protocol;
  }

  public int pageSize() {
    return pool.pageSize();
  }

  public Duration ttl() {
    return pool.ttl();
  }

  public long poolBytes() {
    return pool.maxBytes();
  }

  /**
   * Whether the handle refuses page versions older than one it has seen (monotonic reads, paper
   * 001 section 5.2); by default on for the monotonic and atomic protocols, off for the others.
   */
  public boolean monotonicReads() {
    return pool.monotonicReads();
  }

  public Duration checkpointInterval() {
    return checkpointInterval;
  }

  /** How many commits of a handle the monotonic and atomic protocols send at once. */
  public int writerLanes() {
    return writerLanes;
  }

  /** The timeouts of the isolating protocols. */
  public IsolationSettings isolation() {
    return isolation;
  }

  /** The checkpoint parameters of the queue-based protocols. */
  public CheckpointSettings checkpoints() {
    return checkpoints;
  }

  /** Where checkpoints run; null: the protocol's own daemon threads. */
  public Executor checkpointExecutor() {
    return checkpointExecutor;
  }

  public String clientId() {
    return clientId;
  }

  public Clock clock() {
    return clock;
  }

  public CrashPoints crashPoints() {
    return crashPoints;
  }

  /**
   * How the handle retries failures that are safe to retry: {@link Database#open} and {@link
   * Database#begin()} on transient cloud failures (a refused or throttled call), and {@link
   * Database#run(TransactionFunction)} / {@link Database#read(TransactionFunction)} without a
   * policy of their own.
   */
  public RetryPolicy retryPolicy() {
    return retryPolicy;
  }

  BufferPoolConfig bufferPoolConfig() {
    return pool;
  }

  Map<IndexId, IndexKeyExtractor> extractors() {
    return extractors;
  }

  /** Collects and validates settings. Not thread-safe. */
  public static final class Builder {
    private final CloudServices services;
    private final String databaseUri;
    private Keyring keyring;
    private ProtocolKind protocol = DEFAULT_PROTOCOL;
    private Boolean monotonicReads; // null: by protocol
    private final BufferPoolConfig.Builder pool =
        BufferPoolConfig.builder()
            .pageSize(DEFAULT_PAGE_SIZE)
            .ttl(DEFAULT_TTL)
            .maxBytes(DEFAULT_POOL_BYTES);
    private Duration checkpointInterval = DEFAULT_CHECKPOINT_INTERVAL;
    private Duration lockTimeout = CheckpointSettings.DEFAULT_LOCK_TIMEOUT;
    private Duration propagationPeriod = CheckpointSettings.DEFAULT_PROPAGATION_PERIOD;
    private int maxRecords = CheckpointSettings.DEFAULT_MAX_RECORDS;
    private int writerLanes = DEFAULT_WRITER_LANES;
    private CheckpointWrites writes = CheckpointWrites.AUTO;
    private long checkpointSeed;
    private Duration atomicTimeout;
    private Duration transactionTimeout = IsolationSettings.DEFAULT_TRANSACTION_TIMEOUT;
    private Duration isolationLease = IsolationSettings.DEFAULT_LEASE_TIMEOUT;
    private Duration snapshotReuse = IsolationSettings.DEFAULT_SNAPSHOT_REUSE;
    private Executor checkpointExecutor;
    private Duration closeTimeout = DEFAULT_CLOSE_TIMEOUT;
    private String clientId;
    private Clock clock = Clock.systemUTC();
    private CrashPoints crashPoints = CrashPoints.none();
    private RetryPolicy retryPolicy = RetryPolicy.defaults();
    private final Map<IndexId, IndexKeyExtractor> extractors = new LinkedHashMap<>();

    /** Whether {@link #checkpointLockTimeout} was called, for the message of a refused pair. */
    private boolean lockTimeoutSet;

    /** Whether {@link #propagationPeriod} was called, for the message of a refused pair. */
    private boolean propagationPeriodSet;

    /** Protocol options set explicitly, each with the first setting that set it. */
    private final EnumMap<ProtocolOption, String> optionsSet = new EnumMap<>(ProtocolOption.class);

    private Builder(CloudServices services, String databaseUri) {
      this.services = Args.notNull(services, "services");
      if (!services.hasStorage()) {
        throw new InvalidConfigurationException("the cloud services must include storage");
      }
      this.databaseUri = validUri(databaseUri);
    }

    private static String validUri(String uri) {
      Args.notNull(uri, "databaseUri");
      if (uri.isEmpty() || uri.length() > MAX_DATABASE_URI_LENGTH) {
        throw new InvalidConfigurationException(
            "the database URI must have 1 to "
                + MAX_DATABASE_URI_LENGTH
                + " characters, got "
                + uri.length());
      }
      for (String segment : uri.split("/", -1)) {
        if (!URI_SEGMENT.matcher(segment).matches()
            || segment.equals(".")
            || segment.equals("..")) {
          throw new InvalidConfigurationException(
              "the database URI "
                  + Names.quote(uri)
                  + " must be"
                  + " segments of letters, digits, '_', '-' and '.' (not \".\" or \"..\") joined by"
                  + " single '/'");
        }
      }
      return uri;
    }

    /**
     * Turns on client-side encryption (paper 001, section 3.6): every page and every log message
     * is sealed with AES-GCM under the keyring's active key for its collection before it leaves
     * the process, bound to its URI, and authenticated when read; a payload that fails is
     * reported as a corrupt page or a corrupt log message. Off by default. Every client of one
     * database must hold every key that may have sealed what it reads; see docs/operations.md for
     * rotation. Limits the layers above size their payloads by shrink by {@link
     * Encryption#OVERHEAD} bytes.
     */
    public Builder encryption(Keyring keyring) {
      this.keyring = Args.notNull(keyring, "keyring");
      return this;
    }

    /** The commit protocol; every client of one database must use the same. */
    public Builder protocol(ProtocolKind protocol) {
      this.protocol = Args.notNull(protocol, "protocol");
      return this;
    }

    /**
     * The page size in bytes, at least {@link BufferPoolConfig#MIN_PAGE_SIZE}, and (checked at
     * {@link #build}) enough for every tree of the database to hold a record of {@link
     * DatabaseConfig#MIN_RECORD_BYTES}; every client of one database should use the same. Keys
     * are limited to about a fifth of a page.
     */
    public Builder pageSize(int bytes) {
      if (bytes < BufferPoolConfig.MIN_PAGE_SIZE) {
        throw new InvalidConfigurationException(
            "the page size must be at least "
                + BufferPoolConfig.MIN_PAGE_SIZE
                + " bytes, got "
                + bytes);
      }
      pool.pageSize(bytes);
      return this;
    }

    /** How long a cached page is used before storage is asked again; zero or positive. */
    public Builder ttl(Duration ttl) {
      Args.notNull(ttl, "ttl");
      if (ttl.isNegative()) {
        throw new InvalidConfigurationException("the TTL must not be negative, got " + ttl);
      }
      atMost("TTL", ttl);
      pool.ttl(ttl);
      return this;
    }

    /**
     * Monotonic reads (paper 001, section 5.2): the buffer pool remembers per page the highest
     * version stamp seen and never accepts an older copy from eventually consistent storage; it
     * keeps serving the newer cached copy or re-reads. Default: on for the monotonic and atomic
     * protocols (which promise it), off for naive and basic; this setting overrides that (e.g. off
     * to show the anomaly in tests).
     */
    public Builder monotonicReads(boolean on) {
      this.monotonicReads = on;
      return this;
    }

    /** The checkpoint interval of the queue-based protocols; positive. */
    public Builder checkpointInterval(Duration interval) {
      Args.notNull(interval, "interval");
      if (interval.isNegative() || interval.isZero()) {
        throw new InvalidConfigurationException(
            "the checkpoint interval must be positive, got " + interval);
      }
      atMost("checkpoint interval", interval);
      this.checkpointInterval = interval;
      optionsSet.putIfAbsent(ProtocolOption.CHECKPOINTS, "checkpointInterval");
      return this;
    }

    /**
     * How long a checkpoint holds the exclusive lock on a queue (paper 000 section 4.3: 30 s);
     * positive, and longer than the propagation period (checked at {@link #build}).
     */
    public Builder checkpointLockTimeout(Duration timeout) {
      this.lockTimeout = positive("checkpoint lock timeout", timeout);
      this.lockTimeoutSet = true;
      optionsSet.putIfAbsent(ProtocolOption.CHECKPOINTS, "checkpointLockTimeout");
      return this;
    }

    /**
     * How much of its lease a checkpoint must have left to still put a page (paper 000 section
     * 4.3: 5 s); zero or positive.
     */
    public Builder propagationPeriod(Duration period) {
      Args.notNull(period, "period");
      if (period.isNegative()) {
        throw new InvalidConfigurationException(
            "the propagation period must not be negative, got " + period);
      }
      this.propagationPeriod = period;
      this.propagationPeriodSet = true;
      optionsSet.putIfAbsent(ProtocolOption.CHECKPOINTS, "propagationPeriod");
      return this;
    }

    /**
     * How many commits of this handle the monotonic and atomic protocols number and send at once
     * (writer lanes; see docs/protocols.md); 1 to {@link #MAX_WRITER_LANES}. More lanes let more
     * request threads commit in parallel; each lane that writes to a page adds a counter entry of
     * about 60 bytes to the page's header.
     */
    public Builder writerLanes(int lanes) {
      if (lanes < 1 || lanes > MAX_WRITER_LANES) {
        throw new InvalidConfigurationException(
            "writer lanes must be between 1 and " + MAX_WRITER_LANES + ", got " + lanes);
      }
      this.writerLanes = lanes;
      optionsSet.putIfAbsent(ProtocolOption.WRITER_LANES, "writerLanes");
      return this;
    }

    /** X, the most log records one checkpoint applies (paper 000: 256); at least 1. */
    public Builder maxRecordsPerCheckpoint(int records) {
      if (records < 1) {
        throw new InvalidConfigurationException(
            "a checkpoint must apply at least one record, got " + records);
      }
      this.maxRecords = records;
      optionsSet.putIfAbsent(ProtocolOption.CHECKPOINTS, "maxRecordsPerCheckpoint");
      return this;
    }

    /** How checkpoints put pages (see {@link CheckpointWrites}). */
    public Builder checkpointWrites(CheckpointWrites writes) {
      this.writes = Args.notNull(writes, "writes");
      optionsSet.putIfAbsent(ProtocolOption.CHECKPOINTS, "checkpointWrites");
      return this;
    }

    /**
     * The atomic protocol's grace period: an ATOMIC queue transaction without a commit record is
     * deleted only when its commit time is this much older than the recoverer's clock (so a live
     * client's commit in flight survives). Default: 60 s, or twice the lock timeout if longer;
     * must exceed the checkpoint lock timeout.
     */
    public Builder atomicTimeout(Duration timeout) {
      this.atomicTimeout = positive("atomic timeout", timeout);
      optionsSet.putIfAbsent(ProtocolOption.ATOMIC_TIMEOUT, "atomicTimeout");
      return this;
    }

    /**
     * The isolating protocols: the longest a transaction may run, from begin to the end of its
     * commit (default 10 s). Reads of an older transaction fail with {@link
     * io.stratus.TransactionTimeoutException}; archived versions older than this plus the lease
     * are collected.
     */
    public Builder transactionTimeout(Duration timeout) {
      this.transactionTimeout = positive("transaction timeout", timeout);
      optionsSet.putIfAbsent(ProtocolOption.ISOLATION, "transactionTimeout");
      return this;
    }

    /**
     * The isolating protocols: how long a record lock and an unvalidated commit id last when
     * their holder dies (default 120 s). Must exceed 2 x transaction timeout + atomic timeout +
     * atomic timeout / 5 + 1 s (paper 000, section 5.4); {@link #build} refuses less.
     */
    public Builder isolationLeaseTimeout(Duration timeout) {
      this.isolationLease = positive("isolation lease timeout", timeout);
      optionsSet.putIfAbsent(ProtocolOption.ISOLATION, "isolationLeaseTimeout");
      return this;
    }

    /**
     * The isolating protocols: how long read-only transactions reuse a handle's snapshot before
     * asking for a newer one (default 500 ms; zero: always ask).
     */
    public Builder snapshotReuse(Duration reuse) {
      Args.notNull(reuse, "snapshotReuse");
      if (reuse.isNegative()) {
        throw new InvalidConfigurationException(
            "the snapshot reuse must not be negative, got " + reuse);
      }
      this.snapshotReuse = reuse;
      optionsSet.putIfAbsent(ProtocolOption.ISOLATION, "snapshotReuse");
      return this;
    }

    /** The seed of the reader-side checkpoint decisions. */
    public Builder checkpointSeed(long seed) {
      this.checkpointSeed = seed;
      optionsSet.putIfAbsent(ProtocolOption.CHECKPOINTS, "checkpointSeed");
      return this;
    }

    /**
     * Where checkpoints run (never on the application's threads). Default: four daemon threads
     * owned by the protocol. The database does not shut a given executor down.
     */
    public Builder checkpointExecutor(Executor executor) {
      this.checkpointExecutor = Args.notNull(executor, "executor");
      optionsSet.putIfAbsent(ProtocolOption.CHECKPOINTS, "checkpointExecutor");
      return this;
    }

    /**
     * The most {@link Database#close()} spends settling what the handle owes before it lets go:
     * letting running checkpoints finish, propagating pending commits (atomic protocols) and
     * checkpointing every queue the handle sent records to, so that a handle opened next (a
     * restarted process, another client) sees all of them at once. Default {@link
     * DatabaseConfig#DEFAULT_CLOSE_TIMEOUT}; zero or positive. What is still owed when it runs
     * out is logged as a warning and left in {@link DatabaseStats#owedCheckpoints()}; other
     * clients' checkpoints apply it later. Zero: close waits for nothing.
     */
    public Builder closeTimeout(Duration timeout) {
      Args.notNull(timeout, "closeTimeout");
      if (timeout.isNegative()) {
        throw new InvalidConfigurationException(
            "the close timeout must not be negative, got " + timeout);
      }
      this.closeTimeout = atMost("close timeout", timeout);
      optionsSet.putIfAbsent(ProtocolOption.CHECKPOINTS, "closeTimeout");
      return this;
    }

    private static Duration atMost(String what, Duration d) {
      if (d.compareTo(MAX_DURATION) > 0) {
        throw new InvalidConfigurationException(
            "the " + what + " must be at most " + MAX_DURATION.toDays() + " days, got " + d);
      }
      return d;
    }

    private static Duration positive(String what, Duration d) {
      Args.notNull(d, what);
      if (d.isNegative() || d.isZero()) {
        throw new InvalidConfigurationException("the " + what + " must be positive, got " + d);
      }
      return atMost(what, d);
    }

    /** The buffer pool's bound in bytes of cached pages; positive. */
    public Builder poolBytes(long bytes) {
      if (bytes <= 0) {
        throw new InvalidConfigurationException("the pool size must be positive, got " + bytes);
      }
      pool.maxBytes(bytes);
      return this;
    }

    /** This client's id, unique among the database's clients; 1 to 100 printable characters. */
    public Builder clientId(String clientId) {
      Args.notNull(clientId, "clientId");
      if (clientId.isEmpty()
          || clientId.length() > 100
          || !clientId.chars().allMatch(c -> c > 0x20 && c < 0x7F)) {
        throw new InvalidConfigurationException(
            "a client id must be 1 to 100 printable ASCII characters without spaces");
      }
      this.clientId = clientId;
      return this;
    }

    public Builder clock(Clock clock) {
      this.clock = Args.notNull(clock, "clock");
      return this;
    }

    /** Named steps at which tests kill the client; production leaves the default. */
    public Builder crashPoints(CrashPoints crashPoints) {
      this.crashPoints = Args.notNull(crashPoints, "crashPoints");
      return this;
    }

    /**
     * How the handle retries failures that are safe to retry (default {@link
     * RetryPolicy#defaults()}): opening the database and beginning a transaction are retried on
     * transient cloud failures, and {@code Database.run} and {@code read} use it when given no
     * policy. Its sleeper also does the handle's waits between polls of other clients' progress.
     */
    public Builder retryPolicy(RetryPolicy policy) {
      this.retryPolicy = Args.notNull(policy, "policy");
      return this;
    }

    /**
     * The extractor of index {@code index} of {@code collection}, attached when the database opens
     * (see {@link Database#attachIndex}); the index need not exist yet.
     */
    public Builder indexExtractor(String collection, String index, IndexKeyExtractor extractor) {
      Names.check("collection", collection);
      Names.check("index", index);
      extractors.put(new IndexId(collection, index), Args.notNull(extractor, "extractor"));
      return this;
    }

    /**
     * The configuration.
     *
     * @throws io.stratus.InvalidConfigurationException when a setting does not apply to the
     *     protocol ({@link ProtocolKind#accepts}), or settings contradict each other
     */
    public DatabaseConfig build() {
      for (Map.Entry<ProtocolOption, String> e : optionsSet.entrySet()) {
        if (!protocol.accepts(e.getKey())) {
          throw new InvalidConfigurationException(
              e.getValue()
                  + " does not apply to the "
                  + protocol.name().toLowerCase(Locale.ROOT)
                  + " protocol; protocols with it: "
                  + protocolsWith(e.getKey()));
        }
      }
      return new DatabaseConfig(this);
    }

    private static String protocolsWith(ProtocolOption option) {
      StringJoiner names = new StringJoiner(", ");
      for (ProtocolKind k : ProtocolKind.values()) {
        if (k.accepts(option)) {
          names.add(k.name().toLowerCase(Locale.ROOT));
        }
      }
      return names.toString();
    }
  }
}
