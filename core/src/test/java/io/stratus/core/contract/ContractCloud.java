package io.stratus.core.contract;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.CheckpointSummary;
import io.stratus.StratusException;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.SupportsQueueInspection;
import io.stratus.cloudapi.decorate.CallInterceptor;
import io.stratus.cloudapi.decorate.Decorators;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.cloudapi.inprocess.QueueBehavior;
import io.stratus.cloudapi.inprocess.StorageConsistency;
import io.stratus.cloudapi.time.ManualClock;
import io.stratus.core.Database;
import io.stratus.core.DatabaseConfig;
import io.stratus.core.Key;
import io.stratus.core.Record;
import io.stratus.core.RecordCursor;
import io.stratus.core.RetryPolicy;
import io.stratus.core.Transaction;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.ProtocolOption;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/**
 * One in-process cloud on a manual clock for one contract test, and the database handles the test
 * opens on it, all running one protocol. Handles get small pages (a few dozen records split a
 * leaf) and a short TTL; background checkpoints go to a {@link StepExecutor} per handle, so the
 * test decides when they run. Everything opened is closed with the cloud.
 *
 * <p>Or the same on real services ({@link RealServices}: LocalStack and ZooKeeper), the clients
 * still on the manual clock; then {@link #cloud} is null, the services are reliable and strongly
 * consistent as they are, and tests that need the in-process cloud's knobs do not run.
 */
final class ContractCloud implements AutoCloseable {
  static final String DB = "db/contract";
  static final String COLLECTION = "items";
  static final int PAGE_SIZE = 1024;
  static final Duration TTL = Duration.ofSeconds(10);

  /** Longer than the lock timeout (30 s) and the atomic timeout (60 s): every lease has lapsed. */
  static final Duration LEASES = Duration.ofSeconds(61);

  /** Passes of {@link #settle} before it gives up. */
  static final int SETTLE_PASSES = 10;

  final ProtocolKind kind;
  final long seed;
  final ManualClock clock = new ManualClock();

  /** The in-process cloud; null on real services. */
  final InProcessCloud cloud;

  final Duration staleWindow;
  private final CloudServices services;
  private final AutoCloseable resources;
  private final List<Database> opened = new ArrayList<>();
  private final List<StepExecutor> executors = new ArrayList<>();

  ContractCloud(ProtocolKind kind, long seed) {
    this(kind, seed, QueueBehavior.reliable(), StorageConsistency.strong());
  }

  ContractCloud(ProtocolKind kind, long seed, QueueBehavior queues, StorageConsistency storage) {
    this(kind, seed, queues, storage, b -> b);
  }

  ContractCloud(
      ProtocolKind kind,
      long seed,
      QueueBehavior queues,
      StorageConsistency storage,
      UnaryOperator<InProcessCloud.Builder> tweak) {
    this.kind = kind;
    this.seed = seed;
    this.staleWindow = storage.isStrong() ? Duration.ZERO : storage.staleWindow();
    this.cloud =
        tweak
            .apply(
                InProcessCloud.builder()
                    .clock(clock)
                    .seed(seed)
                    .conditionalPut(true)
                    .queueBehavior(queues)
                    .storageConsistency(storage))
            .build();
    this.services = cloud.services();
    this.resources = cloud;
  }

  /** A contract cloud for {@code kind} on real services, its clients on the manual clock. */
  ContractCloud(ProtocolKind kind, long seed, RealServices real) {
    this.kind = kind;
    this.seed = seed;
    this.staleWindow = Duration.ZERO;
    this.cloud = null;
    RealServices.Connection c = real.connect(clock);
    this.services = c.services();
    this.resources = c.resources();
  }

  /** The raw services, seen by no handle's interceptors. */
  CloudServices services() {
    return services;
  }

  /**
   * A configuration of client {@code clientId} for this cloud's protocol, seen through {@code
   * interceptors}, with its own step executor for background work.
   */
  DatabaseConfig.Builder config(String clientId, CallInterceptor... interceptors) {
    return config(clientId, new StepExecutor(), interceptors);
  }

  /**
   * {@link #config(String, CallInterceptor...)} with {@code executor} for the handle's background
   * work, which the caller may also run itself ({@link StepExecutor#runAll}), e.g. on a request
   * thread while other handles commit; {@link #runBackground} runs it too.
   */
  DatabaseConfig.Builder config(
      String clientId, StepExecutor executor, CallInterceptor... interceptors) {
    CloudServices s = interceptors.length == 0 ? services : Decorators.wrap(services, interceptors);
    synchronized (executors) {
      executors.add(executor);
    }
    DatabaseConfig.Builder b =
        DatabaseConfig.builder(s, DB)
            .clock(clock)
            .pageSize(PAGE_SIZE)
            .ttl(TTL)
            .protocol(kind)
            .clientId(clientId)
            // Retries at open and begin back off on this sleeper: on the manual clock nothing
            // changes while a thread waits, so waiting for real time would only slow the tests.
            .retryPolicy(RetryPolicy.builder().seed(seed).sleeper(d -> {}).build());
    return kind.accepts(ProtocolOption.CHECKPOINTS)
        ? b.checkpointExecutor(executor).checkpointSeed(seed)
        : b;
  }

  /**
   * {@code config} with the checkpoint settings {@code settings} when the protocol has
   * checkpoints (a configuration may not name settings its protocol lacks).
   */
  DatabaseConfig.Builder checkpoints(
      DatabaseConfig.Builder config, UnaryOperator<DatabaseConfig.Builder> settings) {
    return kind.accepts(ProtocolOption.CHECKPOINTS) ? settings.apply(config) : config;
  }

  Database open(DatabaseConfig.Builder config) {
    Database db = Database.open(config.build());
    synchronized (opened) {
      opened.add(db);
    }
    return db;
  }

  Database open(String clientId, CallInterceptor... interceptors) {
    return open(config(clientId, interceptors));
  }

  /** Creates the collection and bulk-loads keys 0 to n-1 with "v0-key". */
  static void load(Database db, int n) {
    db.createCollection(COLLECTION);
    List<Record> records = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      records.add(new Record(Key.of((long) i), bytes(initial(i))));
    }
    db.bulkLoad(COLLECTION, records);
  }

  /** Creates the collection and bulk-loads {@code keys} (ascending) with "v0-key". */
  static void load(Database db, List<Long> keys) {
    db.createCollection(COLLECTION);
    List<Record> records = new ArrayList<>();
    for (long k : keys) {
      records.add(new Record(Key.of(k), bytes(initial(k))));
    }
    db.bulkLoad(COLLECTION, records);
  }

  /** The value key {@code k} is loaded with. */
  static String initial(long k) {
    return "v0-" + k;
  }

  /** Runs every handle's queued background work (and what it queues) until none is left. */
  void runBackground() {
    List<StepExecutor> all;
    synchronized (executors) {
      all = List.copyOf(executors);
    }
    for (StepExecutor e : all) {
      e.runAll();
    }
  }

  /**
   * Quiescence: background work done, leases lapsed and hidden messages visible again, every queue
   * checkpointed (and, atomic, every client recovered) by {@code checkpointer} until a pass after
   * all of that finds nothing left, stale storage settled, and caches past their TTL. Does nothing
   * a protocol without queues needs; it costs such a protocol nothing either.
   *
   * <p>A pass is final when its {@code checkpointAll} is {@link CheckpointSummary#quiescent()},
   * applied and wrote nothing, and the database's simple queues hold no message ({@link
   * #queuedMessages}): the clock moved past every lock lease, visibility timeout and stale window
   * before it, so no message was hidden from it (a duplicate delivery included) and no page it
   * read was stale. The queue count is needed because receives may come back short, even empty,
   * while messages exist: a few empty receives in a row end a queue's checkpoints and make a
   * pass look quiet with a message still queued. A pass that did work (the previous pass's
   * duplicates, a checkpoint that read a page its own client had just written and met a stale
   * copy) or left messages is followed by another, up to {@link #SETTLE_PASSES}.
   *
   * @throws NotSettled when no pass was final: the history cannot be judged
   */
  void settle(Database checkpointer) {
    settle(checkpointer, () -> {});
  }

  /**
   * {@link #settle(Database)}, running {@code eachPass} in every pass after the clock moved and
   * before {@code checkpointer}'s checkpoints: what the other live handles do meanwhile (a live
   * process renews its writer lease on a timer, which does not run on the manual clock).
   */
  void settle(Database checkpointer, Runnable eachPass) {
    runBackground();
    CheckpointSummary last = null;
    Map<String, Long> left = Map.of();
    for (int pass = 1; pass <= SETTLE_PASSES; pass++) {
      clock.advance(LEASES.plus(staleWindow));
      eachPass.run();
      checkpointer.admin().recoverAbandonedClients();
      last = checkpointer.admin().checkpointAll();
      runBackground();
      if (last.quiescent() && last.recordsApplied() == 0 && last.pagesWritten() == 0) {
        left = queuedMessages();
        if (left.isEmpty()) {
          clock.advance(TTL.plus(staleWindow).plusSeconds(1));
          return;
        }
      }
    }
    throw new NotSettled(
        last,
        "did not settle: "
            + SETTLE_PASSES
            + " passes of checkpointAll, each"
            + " after every lease and visibility timeout, still found work; the last reported "
            + last
            + (left.isEmpty() ? "" : ", messages left " + left));
  }

  /**
   * The messages (visible or in flight) in each of the database's simple queues that holds any,
   * counted without receiving, so nothing is hidden and no randomness of the queues is drawn.
   * Duplicate copies that the weak queues keep to deliver again are not counted (as SQS would not
   * count a copy it has not made yet): one that short receives kept from the final pass goes
   * unnoticed.
   */
  Map<String, Long> queuedMessages() {
    SupportsQueueInspection queues = SupportsQueueInspection.of(services.simpleQueues());
    Map<String, Long> out = new TreeMap<>();
    for (String uri : CloudFutures.await(queues.listQueues(DB + "/"))) {
      long n = CloudFutures.await(queues.inspect(uri, 0)).messages();
      if (n > 0) {
        out.put(uri, n);
      }
    }
    return out;
  }

  /**
   * {@link #settle} found no final pass: checkpoints kept failing, queues stayed busy or records
   * deferred. Not an anomaly of the history (it was never judged), but a failure of its own.
   */
  static final class NotSettled extends AssertionError {
    /** The last pass's summary. */
    final transient CheckpointSummary last;

    NotSettled(CheckpointSummary last, String message) {
      super(message);
      this.last = last;
    }
  }

  /** Commits one transaction updating {@code key} to {@code value}; asserts the key existed. */
  static void update(Database db, long key, String value) {
    try (Transaction tx = db.begin()) {
      assertThat(tx.update(COLLECTION, Key.of(key), bytes(value)))
          .as("key %d exists when updated", key)
          .isTrue();
      tx.commit();
    }
  }

  /** The value of {@code key} in a new transaction of {@code db}, null if absent. */
  static String read(Database db, long key) {
    try (Transaction tx = db.begin()) {
      return tx.read(COLLECTION, Key.of(key)).map(ContractCloud::string).orElse(null);
    }
  }

  /**
   * Every record, by a scan; asserts the tree is well-formed as a scan sees it: keys strictly
   * ascending (no key twice, none out of order).
   */
  static Map<Long, String> scan(Database db) {
    Map<Long, String> out = new TreeMap<>();
    long previous = Long.MIN_VALUE;
    try (Transaction tx = db.begin();
        RecordCursor c = tx.scan(COLLECTION)) {
      while (c.hasNext()) {
        Record r = c.next();
        long k = r.key().decoder().nextLong();
        assertThat(k).as("scan order after key %d", previous).isGreaterThan(previous);
        previous = k;
        out.put(k, string(r.payload()));
      }
    }
    return out;
  }

  /** Runs {@code r}, ignoring an injected cloud fault or a retryable failure it ends in. */
  static void quietly(Runnable r) {
    try {
      r.run();
    } catch (CloudException e) {
      // an injected fault; a later pass does the work
    } catch (StratusException e) {
      if (!e.isRetryable()) {
        throw e;
      }
    }
  }

  /** The names of the queues under {@code prefix} (e.g. the pending-update queues). */
  List<String> queues(String prefix) {
    return CloudFutures.await(services().simpleQueues().listQueues(prefix));
  }

  static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static String string(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }

  @Override
  public void close() {
    synchronized (opened) {
      for (Database db : opened) {
        try {
          db.close();
        } catch (RuntimeException e) {
          // a handle whose client was killed may fail to close; the cloud goes anyway
        }
      }
    }
    try {
      resources.close();
    } catch (Exception e) {
      throw new IllegalStateException("closing the contract cloud's services failed", e);
    }
  }
}
