package io.stratus.core;

import io.stratus.InvalidConfigurationException;
import io.stratus.btree.BLinkTree;
import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.CrashPoints;
import io.stratus.cloudapi.crypto.Encryption;
import io.stratus.pagemanager.BufferPoolConfig;
import io.stratus.protocols.CheckpointSettings;
import io.stratus.protocols.CheckpointWrites;
import io.stratus.protocols.IsolationSettings;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.ProtocolOption;
import io.stratus.protocols.ProtocolSettings;
import io.stratus.protocols.Setting;
import io.stratus.protocols.Settings;
import io.stratus.protocols.StorageLayout;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.StringJoiner;
import java.util.concurrent.Executor;
import org.jspecify.annotations.Nullable;

/**
 * How to open a {@link Database}: which cloud services and database URI, which commit protocol,
 * page and pool sizes, times, identity, and the index extractors to attach.
 *
 * <p>A configuration opens one handle per process, kept for the life of the process (see {@link
 * Database}): every handle opened is a new writer incarnation, whose chains need room in the
 * headers of the pages it writes, so opening handles per request or per job makes their writes
 * wait ({@link DatabaseStats#recordsWaitingForRoom()}).
 *
 * <p>Immutable. Every setting with a value one can write down is a constant of {@link Settings},
 * with its default, the protocols it applies to and the values it accepts (docs/using.md lists
 * them); the builder checks each value as it is given ({@link InvalidConfigurationException}),
 * and when it is built the rules between settings (the protocol's own in {@link
 * ProtocolSettings}, and those that depend on the cloud services) and that every setting given
 * applies to the chosen protocol. A built configuration is always usable.
 */
public final class DatabaseConfig {
  /**
   * The least key + value a page must hold in every tree of a database: 128 bytes. Each page
   * reserves room for two maximal keys and two page URIs, which grow with the database URI and
   * the collection and index names (up to 100 characters each), so a small page under a long
   * database URI can hold no record at all; such a page size is refused when the configuration
   * is built.
   */
  public static final int MIN_RECORD_BYTES = 128;

  private final CloudServices services;
  private final @Nullable Keyring keyring;
  private final Setting.Values values;
  private final ProtocolSettings protocolSettings;
  private final BufferPoolConfig pool;
  private final @Nullable Executor checkpointExecutor;
  private final Clock clock;
  private final CrashPoints crashPoints;
  private final RetryPolicy retryPolicy;
  private final Map<IndexId, IndexKeyExtractor> extractors;

  /** A collection and one of its indexes. */
  record IndexId(String collection, String index) {}

  private DatabaseConfig(Builder b, Map<Setting<?>, Object> values, ProtocolSettings settings) {
    this.keyring = b.keyring;
    this.values = Setting.given(values);
    String databaseUri = get(Settings.DATABASE_URI);
    this.services =
        b.keyring == null
            ? b.services
            : Encryption.of(new CollectionKeys(b.keyring, new StorageLayout(databaseUri)))
                .wrap(b.services);
    this.protocolSettings = settings;
    this.pool =
        BufferPoolConfig.builder()
            .pageSize(get(Settings.PAGE_SIZE))
            .ttl(get(Settings.TTL))
            .maxBytes(get(Settings.POOL_BYTES))
            .monotonicReads(get(Settings.MONOTONIC_READS))
            .build();
    this.checkpointExecutor = b.checkpointExecutor;
    this.clock = b.clock;
    this.crashPoints = b.crashPoints;
    this.retryPolicy = b.retryPolicy;
    this.extractors = Map.copyOf(b.extractors);
  }

  /**
   * The rules between settings that depend on the cloud services and the database URI rather
   * than on the protocol: a page holds a record under the longest names, fits the storage's
   * largest object, and a checkpoint's lease fits the queues' longest visibility timeout.
   */
  private static List<Setting.Rule> cloudRules(Builder b, ProtocolKind protocol) {
    List<Setting.Rule> rules = new ArrayList<>();
    String uri = b.get(Settings.DATABASE_URI);
    String longest = "n".repeat(Names.MAX_LENGTH);
    BLinkTree worst = StorageLayout.tree(new StorageLayout(uri).indexRoot(longest, longest));
    rules.add(
        new Setting.Rule(
            List.of(Settings.PAGE_SIZE),
            v -> worst.maxEntryBytes(v.get(Settings.PAGE_SIZE)) >= MIN_RECORD_BYTES,
            v -> {
              int pageSize = v.get(Settings.PAGE_SIZE);
              int enough = pageSize;
              while (worst.maxEntryBytes(enough) < MIN_RECORD_BYTES) {
                enough += 256;
              }
              return "a page of "
                  + pageSize
                  + " bytes holds records of at most "
                  + worst.maxEntryBytes(pageSize)
                  + " bytes in a database at "
                  + Names.quote(uri)
                  + " (each page reserves room for its URI and two keys); use a page size of at"
                  + " least "
                  + enough
                  + " bytes";
            }));
    long maxObject =
        b.services.storage().limits().maxObjectSize()
            - (b.keyring == null ? 0 : Encryption.OVERHEAD);
    rules.add(
        new Setting.Rule(
            List.of(Settings.PAGE_SIZE),
            v -> v.get(Settings.PAGE_SIZE) <= maxObject,
            v ->
                v.describe(Settings.PAGE_SIZE)
                    + " is too large: the page size must not exceed the storage's largest object ("
                    + maxObject
                    + " bytes"
                    + (b.keyring == null
                        ? ""
                        : " once " + Encryption.OVERHEAD + " bytes of encryption are taken off")
                    + ")"));
    if (b.services.hasSimpleQueues() && protocol.accepts(ProtocolOption.CHECKPOINTS)) {
      Duration maxVisibility = b.services.simpleQueues().limits().maxVisibilityTimeout();
      rules.add(
          new Setting.Rule(
              List.of(Settings.CHECKPOINT_LOCK_TIMEOUT),
              v -> v.get(Settings.CHECKPOINT_LOCK_TIMEOUT).compareTo(maxVisibility) <= 0,
              v ->
                  v.describe(Settings.CHECKPOINT_LOCK_TIMEOUT)
                      + " must not exceed the queues' longest visibility timeout ("
                      + maxVisibility
                      + "): checkpoints hide the messages they apply for that long"));
    }
    return rules;
  }

  /**
   * A builder for a database at {@code databaseUri} on {@code services}.
   *
   * @param databaseUri the prefix of every item of the database, e.g. {@code "db/shop"}: segments
   *     of letters, digits, '_', '-', '.' joined by '/', at most {@link
   *     Settings#MAX_DATABASE_URI_LENGTH} characters
   */
  public static Builder builder(CloudServices services, String databaseUri) {
    return new Builder(services, databaseUri);
  }

  /** The value of {@code setting} in this configuration: the one set, or its default. */
  public <T> T get(Setting<T> setting) {
    return values.get(setting);
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

  /** {@link Settings#DATABASE_URI}. */
  public String databaseUri() {
    return get(Settings.DATABASE_URI);
  }

  /** {@link Settings#PROTOCOL}. */
  public ProtocolKind protocol() {
    return protocolSettings.kind();
  }

  /** The settings of the protocol, what the database hands it. */
  public ProtocolSettings protocolSettings() {
    return protocolSettings;
  }

  /** {@link Settings#PAGE_SIZE}. */
  public int pageSize() {
    return pool.pageSize();
  }

  /** {@link Settings#TTL}. */
  public Duration ttl() {
    return pool.ttl();
  }

  /** {@link Settings#POOL_BYTES}. */
  public long poolBytes() {
    return pool.maxBytes();
  }

  /**
   * Whether the handle refuses page versions older than one it has seen (monotonic reads, paper
   * 001 section 5.2); by default on for the protocols that promise it ({@link
   * Settings#MONOTONIC_READS}).
   */
  public boolean monotonicReads() {
    return pool.monotonicReads();
  }

  /** {@link Settings#CHECKPOINT_INTERVAL}. */
  public Duration checkpointInterval() {
    return get(Settings.CHECKPOINT_INTERVAL);
  }

  /** {@link Settings#WRITER_LANES}: how many commits of a handle are sent at once. */
  public int writerLanes() {
    return get(Settings.WRITER_LANES);
  }

  /** The timeouts of the isolating protocols (their defaults under the others). */
  public IsolationSettings isolation() {
    return IsolationSettings.of(values);
  }

  /** The checkpoint parameters of the queue-based protocols (their defaults under naive). */
  public CheckpointSettings checkpoints() {
    return CheckpointSettings.of(values);
  }

  /** Where checkpoints run; null: the protocol's own daemon threads. */
  public @Nullable Executor checkpointExecutor() {
    return checkpointExecutor;
  }

  /** {@link Settings#CLIENT_ID}. */
  public String clientId() {
    return get(Settings.CLIENT_ID);
  }

  /** The time source of leases, checkpoint intervals and timestamps. */
  public Clock clock() {
    return clock;
  }

  /** The named steps at which tests kill the client. */
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

  /**
   * Collects and validates settings. Each method sets one constant of {@link Settings} (its
   * documentation says what it accepts and applies to) or something only code can give. Not
   * thread-safe.
   */
  public static final class Builder {
    private final CloudServices services;
    private final Map<Setting<?>, Object> set = new LinkedHashMap<>();
    private @Nullable Keyring keyring;
    private @Nullable Executor checkpointExecutor;
    private Clock clock = Clock.systemUTC();
    private CrashPoints crashPoints = CrashPoints.none();
    private RetryPolicy retryPolicy = RetryPolicy.defaults();
    private final Map<IndexId, IndexKeyExtractor> extractors = new LinkedHashMap<>();

    private Builder(CloudServices services, String databaseUri) {
      this.services = Args.notNull(services, "services");
      if (!services.hasStorage()) {
        throw new InvalidConfigurationException("the cloud services must include storage");
      }
      set(Settings.DATABASE_URI, Args.notNull(databaseUri, "databaseUri"));
    }

    /**
     * Sets {@code setting} to {@code value}.
     *
     * @throws InvalidConfigurationException the setting does not accept the value
     */
    <T> Builder set(Setting<T> setting, T value) {
      set.put(setting, setting.check(value));
      return this;
    }

    private <T> T get(Setting<T> setting) {
      return Setting.given(set).get(setting);
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

    /** {@link Settings#PROTOCOL}: the commit protocol; every client of one database uses it. */
    public Builder protocol(ProtocolKind protocol) {
      return set(Settings.PROTOCOL, protocol);
    }

    /**
     * {@link Settings#PAGE_SIZE}, and (checked at {@link #build}) enough for every tree of the
     * database to hold a record of {@link DatabaseConfig#MIN_RECORD_BYTES}. Keys are limited to
     * about a fifth of a page.
     */
    public Builder pageSize(int bytes) {
      return set(Settings.PAGE_SIZE, bytes);
    }

    /** {@link Settings#TTL}: how long a cached page is used before storage is asked again. */
    public Builder ttl(Duration ttl) {
      return set(Settings.TTL, ttl);
    }

    /**
     * {@link Settings#MONOTONIC_READS} (paper 001, section 5.2): the buffer pool remembers per
     * page the highest version stamp seen and never accepts an older copy from eventually
     * consistent storage. This overrides the protocol's default (e.g. off to show the anomaly in
     * tests).
     */
    public Builder monotonicReads(boolean on) {
      return set(Settings.MONOTONIC_READS, on);
    }

    /** {@link Settings#CHECKPOINT_INTERVAL}. */
    public Builder checkpointInterval(Duration interval) {
      return set(Settings.CHECKPOINT_INTERVAL, interval);
    }

    /**
     * {@link Settings#CHECKPOINT_LOCK_TIMEOUT}: how long a checkpoint holds the exclusive lock on
     * a queue (paper 000 section 4.3: 30 s).
     */
    public Builder checkpointLockTimeout(Duration timeout) {
      return set(Settings.CHECKPOINT_LOCK_TIMEOUT, timeout);
    }

    /**
     * {@link Settings#PROPAGATION_PERIOD}: how much of its lease a checkpoint must have left to
     * still put a page (paper 000 section 4.3: 5 s).
     */
    public Builder propagationPeriod(Duration period) {
      return set(Settings.PROPAGATION_PERIOD, period);
    }

    /**
     * {@link Settings#WRITER_LANES}: how many commits of this handle the monotonic and atomic
     * protocols number and send at once (see docs/protocols.md).
     */
    public Builder writerLanes(int lanes) {
      return set(Settings.WRITER_LANES, lanes);
    }

    /** {@link Settings#MAX_RECORDS_PER_CHECKPOINT}: X (paper 000: 256). */
    public Builder maxRecordsPerCheckpoint(int records) {
      return set(Settings.MAX_RECORDS_PER_CHECKPOINT, records);
    }

    /** {@link Settings#CHECKPOINT_WRITES} (see {@link CheckpointWrites}). */
    public Builder checkpointWrites(CheckpointWrites writes) {
      return set(Settings.CHECKPOINT_WRITES, writes);
    }

    /**
     * {@link Settings#ATOMIC_TIMEOUT}: an atomic log's transaction without a commit record is
     * deleted only when its commit time is this much older than the recoverer's clock (so a live
     * client's commit in flight survives).
     */
    public Builder atomicTimeout(Duration timeout) {
      return set(Settings.ATOMIC_TIMEOUT, timeout);
    }

    /**
     * {@link Settings#TRANSACTION_TIMEOUT}: reads of an older transaction fail with {@link
     * io.stratus.TransactionTimeoutException}; archived versions older than this plus the lease
     * are collected.
     */
    public Builder transactionTimeout(Duration timeout) {
      return set(Settings.TRANSACTION_TIMEOUT, timeout);
    }

    /**
     * {@link Settings#ISOLATION_LEASE_TIMEOUT}: how long a record lock and an unvalidated commit
     * id last when their holder dies; {@link #build} refuses less than the rule of {@link
     * IsolationSettings} (paper 000, section 5.4).
     */
    public Builder isolationLeaseTimeout(Duration timeout) {
      return set(Settings.ISOLATION_LEASE_TIMEOUT, timeout);
    }

    /** {@link Settings#SNAPSHOT_REUSE}. */
    public Builder snapshotReuse(Duration reuse) {
      return set(Settings.SNAPSHOT_REUSE, reuse);
    }

    /** {@link Settings#CHECKPOINT_SEED}. */
    public Builder checkpointSeed(long seed) {
      return set(Settings.CHECKPOINT_SEED, seed);
    }

    /**
     * Where checkpoints run (never on the application's threads), under the protocols with
     * checkpoints. Default: daemon threads owned by the protocol. The database does not shut a
     * given executor down.
     */
    public Builder checkpointExecutor(Executor executor) {
      this.checkpointExecutor = Args.notNull(executor, "executor");
      return this;
    }

    /**
     * {@link Settings#CLOSE_TIMEOUT}: the most {@link Database#close()} spends settling what the
     * handle owes before it lets go: letting running checkpoints finish, propagating pending
     * commits (atomic protocols) and checkpointing every queue the handle sent records to, so
     * that a handle opened next sees all of them at once. What is still owed when it runs out is
     * logged as a warning and left in {@link DatabaseStats#owedCheckpoints()}; other clients'
     * checkpoints apply it later. Zero: close waits for nothing.
     */
    public Builder closeTimeout(Duration timeout) {
      return set(Settings.CLOSE_TIMEOUT, timeout);
    }

    /** {@link Settings#POOL_BYTES}: the buffer pool's bound in bytes of cached pages. */
    public Builder poolBytes(long bytes) {
      return set(Settings.POOL_BYTES, bytes);
    }

    /** {@link Settings#CLIENT_ID}: unique among the database's clients. */
    public Builder clientId(String clientId) {
      return set(Settings.CLIENT_ID, clientId);
    }

    /** The time source of leases, checkpoint intervals and timestamps (default: system UTC). */
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
     *     protocol ({@link Setting#appliesTo}), the cloud services lack one the protocol uses
     *     ({@link ProtocolSettings#services()}), or settings break a rule between them (the message
     *     names the ones set here)
     */
    public DatabaseConfig build() {
      ProtocolKind protocol = get(Settings.PROTOCOL);
      for (Setting<?> s : set.keySet()) {
        if (!s.appliesTo(protocol)) {
          throw notApplicable(s.name(), protocol, s.protocols());
        }
      }
      if (checkpointExecutor != null && !protocol.accepts(ProtocolOption.CHECKPOINTS)) {
        // The executor is no setting of the table, but belongs to the checkpoints all the same.
        throw notApplicable(
            "checkpointExecutor", protocol, Settings.CHECKPOINT_INTERVAL.protocols());
      }
      // Every missing service named now, not when the protocol first needs one at open.
      protocol.checkServices(services);
      Setting.Values given = Setting.given(set);
      List<Setting.Rule> rules = new ArrayList<>(cloudRules(this, protocol));
      rules.addAll(ProtocolSettings.rules(protocol));
      Setting.Rule.check(rules, given);
      ProtocolSettings settings = ProtocolSettings.of(protocol, given);
      Map<Setting<?>, Object> values = new HashMap<>();
      for (Setting<?> s : Settings.all()) {
        values.put(s, given.get(s)); // a default drawn at random (the client id) is drawn once
      }
      return new DatabaseConfig(this, values, settings);
    }

    private static InvalidConfigurationException notApplicable(
        String name, ProtocolKind protocol, Set<ProtocolKind> kinds) {
      StringJoiner names = new StringJoiner(", ");
      for (ProtocolKind k : kinds) {
        names.add(k.name().toLowerCase(Locale.ROOT));
      }
      return new InvalidConfigurationException(
          name
              + " does not apply to the "
              + protocol.name().toLowerCase(Locale.ROOT)
              + " protocol; protocols with it: "
              + names);
    }
  }
}
