package io.stratus.core.contract;

import io.stratus.CommitStateUnknownException;
import io.stratus.StratusException;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.decorate.FaultInterceptor;
import io.stratus.cloudapi.decorate.FaultPlan;
import io.stratus.cloudapi.inprocess.QueueBehavior;
import io.stratus.cloudapi.inprocess.StorageConsistency;
import io.stratus.core.Database;
import io.stratus.core.DatabaseConfig;
import io.stratus.core.Key;
import io.stratus.core.SwitchedFaults;
import io.stratus.core.Transaction;
import io.stratus.protocols.Guarantee;
import io.stratus.protocols.ProtocolKind;
import io.stratus.testkit.Checker;
import io.stratus.testkit.Checkers;
import io.stratus.testkit.Guarantees;
import io.stratus.testkit.History;
import io.stratus.testkit.HistoryRecorder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One seeded history run: clients run random read-and-update transactions against one cloud while
 * a {@link HistoryRecorder} notes every read, write and outcome; after quiescence every client's
 * view is recorded and the history is checked with the checkers {@link #checkersFor} selects from
 * the protocol's declared guarantees.
 *
 * <p>Two shapes. <b>Clients</b>: several handles, each a session of sequential transactions, run
 * round by round (each round every client transacts once, then background work and sometimes a
 * checkpoint run, then the clock passes the TTL so pools refresh, possibly from stale storage).
 * <b>Threads</b>: request threads sharing one handle, each a session, committing concurrently.
 * Every session updates only keys of its own share (so no two concurrent transactions write one
 * key and completion order is the write order), but the shares interleave on every page.
 */
final class HistoryHarness {
  static final int KEYS = 120;
  private static final int ROUNDS = 10;
  private static final int THREAD_TRANSACTIONS = 12;

  /** Room for many writers' counters in the leaves' headers: no data-page split in the run. */
  private static final int PAGE_SIZE = 4096;

  /** The cloud of a run. */
  record Setting(QueueBehavior queues, StorageConsistency storage, boolean faults) {
    static Setting reliable() {
      return new Setting(QueueBehavior.reliable(), StorageConsistency.strong(), false);
    }

    /** Every weak knob at once: stale storage for two minutes, weak queues, injected faults. */
    static Setting weak() {
      return new Setting(
          QueueBehavior.weak(), StorageConsistency.eventual(Duration.ofMinutes(2)), true);
    }
  }

  private final ProtocolKind kind;
  private final long seed;
  private final Setting setting;
  private final Boolean monotonicReadsGuard;
  private final RealServices real;
  private final Random random;
  private final HistoryRecorder recorder = new HistoryRecorder();

  /**
   * A run of {@code kind} under {@code setting}; {@code guard} overrides the buffer pool's
   * monotonic-reads guard when not null.
   */
  HistoryHarness(ProtocolKind kind, long seed, Setting setting, Boolean guard) {
    this(kind, seed, setting, guard, null);
  }

  /** A run of {@code kind} on real services, which are as reliable as they are. */
  HistoryHarness(ProtocolKind kind, long seed, RealServices real) {
    this(kind, seed, Setting.reliable(), null, real);
  }

  private HistoryHarness(
      ProtocolKind kind, long seed, Setting setting, Boolean guard, RealServices real) {
    this.kind = kind;
    this.seed = seed;
    this.setting = setting;
    this.monotonicReadsGuard = guard;
    this.real = real;
    this.random = new Random(seed);
  }

  /**
   * The checkers that state {@code guarantees} for a history recorded under {@code queues}, every
   * key's first write settled before its next one (see {@link #checkersFor(Set, QueueBehavior,
   * Optional)}).
   */
  static Guarantees checkersFor(Set<Guarantee> guarantees, QueueBehavior queues) {
    return checkersFor(guarantees, queues, Optional.empty());
  }

  /**
   * The checkers that state {@code guarantees} for a history recorded under {@code queues}.
   * Every protocol's values are someone's writes. DURABLE is "the latest committed write
   * survives" where the protocol also orders writes or the queues neither reorder nor duplicate;
   * otherwise a late or redelivered redo record may re-apply an older committed value, and
   * durability means only that no update is lost outright. That includes a key's first write: a
   * duplicate of an insert's record, delivered after the key's delete or update was applied,
   * inserts the first value again, so a final state showing it proves a lost update only where
   * that insert was settled (applied and drained by quiescence) before the key's next write.
   * {@code settled} names those transactions (the load); empty means every key's first write.
   * MONOTONIC_WRITES brings writes-follow-reads along: both rest on applying each record once, in
   * the writer's order.
   */
  static Guarantees checkersFor(
      Set<Guarantee> guarantees, QueueBehavior queues, Optional<Set<String>> settled) {
    List<Checker> c = new ArrayList<>();
    c.add(Checkers.valuesWereWritten());
    if (guarantees.contains(Guarantee.DURABLE)) {
      boolean ordered = guarantees.contains(Guarantee.MONOTONIC_WRITES) || queues.isReliable();
      c.add(
          ordered
              ? Checkers.committedWritesSurvive()
              : settled.map(Checkers::updatesTakeEffect).orElseGet(Checkers::updatesTakeEffect));
    }
    if (guarantees.contains(Guarantee.CONVERGES)) {
      c.add(Checkers.convergence());
    }
    if (guarantees.contains(Guarantee.MONOTONIC_WRITES)) {
      c.add(Checkers.monotonicWrites());
      c.add(Checkers.writesFollowReads());
    }
    if (guarantees.contains(Guarantee.READ_YOUR_WRITES)) {
      c.add(Checkers.readYourWrites());
    }
    if (guarantees.contains(Guarantee.MONOTONIC_READS)) {
      c.add(Checkers.monotonicReads());
    }
    if (guarantees.contains(Guarantee.ATOMIC)) {
      c.add(Checkers.atomicity());
    }
    return Guarantees.of(c.toArray(Checker[]::new));
  }

  /**
   * Asserts a history of {@link #runClients} on a reliable cloud valid by every checker the
   * protocol's guarantees select.
   */
  static void assertClientsValid(ProtocolKind kind, History h) {
    h.check(checkersFor(kind.guarantees(), QueueBehavior.reliable())).assertValid();
  }

  /**
   * Asserts a history of {@link #runThreads} on a reliable cloud valid: besides what the
   * guarantees select, every protocol promises one handle that its commits which returned survive.
   */
  static void assertThreadsValid(ProtocolKind kind, History h) {
    Guarantees checks = checkersFor(kind.guarantees(), QueueBehavior.reliable());
    if (!checks.checkerNames().contains("committedWritesSurvive")) {
      checks = checks.with(Checkers.committedWritesSurvive());
    }
    h.check(checks).assertValid();
  }

  /** Three handles, one session each, round by round; returns the recorded history. */
  History runClients() {
    try (ContractCloud cloud = newCloud()) {
      SwitchedFaults faults = faults(cloud);
      List<Database> clients = new ArrayList<>();
      for (int c = 0; c < 3; c++) {
        clients.add(cloud.open(config(cloud, "client-" + c, faults)));
      }
      load(cloud, clients.get(0));
      faults.switchTo(setting.faults());
      for (int round = 0; round < ROUNDS; round++) {
        for (int c = 0; c < clients.size(); c++) {
          transaction(clients.get(c), "client-" + c, c, clients.size(), round, random);
          cloud.clock.advance(Duration.ofMillis(1)); // commit-time order = completion order
        }
        cloud.runBackground();
        if (random.nextBoolean()) {
          ContractCloud.quietly(
              () -> clients.get(random.nextInt(clients.size())).admin().checkpointAll());
        }
        cloud.clock.advance(ContractCloud.TTL.plusSeconds(1)); // pools refresh
      }
      faults.switchTo(false);
      cloud.settle(clients.get(0));
      cloud.settle(clients.get(1));
      for (int c = 0; c < clients.size(); c++) {
        recorder.finalState("client-" + c, view(clients.get(c)));
      }
      return recorder.snapshot();
    }
  }

  /**
   * Three request threads sharing one handle commit concurrently; a second handle only reads the
   * final state. Returns the recorded history, sessions named by thread.
   */
  History runThreads() throws Exception {
    try (ContractCloud cloud = newCloud()) {
      SwitchedFaults faults = faults(cloud);
      Database shared = cloud.open(config(cloud, "shared", faults));
      load(cloud, shared);
      faults.switchTo(setting.faults());
      int threads = 3;
      List<CompletableFuture<Void>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int share = t;
        Random own = new Random(seed * 31 + t);
        CompletableFuture<Void> f = new CompletableFuture<>();
        Thread thread =
            new Thread(
                () -> {
                  try {
                    for (int i = 0; i < THREAD_TRANSACTIONS; i++) {
                      transaction(shared, "thread-" + share, share, threads, i, own);
                    }
                    f.complete(null);
                  } catch (Throwable e) {
                    f.completeExceptionally(e);
                  }
                },
                "request-" + t);
        thread.start();
        done.add(f);
      }
      for (CompletableFuture<Void> f : done) {
        f.get(60, TimeUnit.SECONDS);
      }
      faults.switchTo(false);
      cloud.settle(shared);
      Database reader = cloud.open(config(cloud, "reader", null));
      recorder.finalState("shared", view(shared));
      recorder.finalState("reader", view(reader));
      return recorder.snapshot();
    }
  }

  private ContractCloud newCloud() {
    return real == null
        ? new ContractCloud(kind, seed, setting.queues(), setting.storage())
        : new ContractCloud(kind, seed, real);
  }

  private DatabaseConfig.Builder config(ContractCloud cloud, String client, SwitchedFaults faults) {
    DatabaseConfig.Builder b = faults == null ? cloud.config(client) : cloud.config(client, faults);
    b.pageSize(PAGE_SIZE);
    if (monotonicReadsGuard != null) {
      b.monotonicReads(monotonicReadsGuard);
    }
    return b;
  }

  /** Sends that fail or lose their replies, and reads and receives refused, while switched on. */
  private SwitchedFaults faults(ContractCloud cloud) {
    FaultPlan plan =
        FaultPlan.builder()
            .fail(FaultPlan.Selector.operations(Operation.QUEUE_SEND_BATCH), 0.04)
            .loseReply(FaultPlan.Selector.operations(Operation.QUEUE_SEND_BATCH), 0.04)
            .unavailable(
                FaultPlan.Selector.operations(
                    Operation.STORAGE_GET,
                    Operation.STORAGE_GET_IF_CHANGED,
                    Operation.QUEUE_RECEIVE),
                0.02)
            .build();
    return new SwitchedFaults(new FaultInterceptor(plan, seed, cloud.clock));
  }

  /**
   * Loads by one committed transaction and quiescence rather than a bulk load: the tree
   * checkpoint leaves its leaves half full, so the writers' counters fit into their headers.
   */
  private void load(ContractCloud cloud, Database db) {
    db.createCollection(ContractCloud.COLLECTION);
    HistoryRecorder.Recording loading = recorder.begin("loader");
    try (Transaction tx = db.begin()) {
      for (long k = 0; k < KEYS; k++) {
        tx.create(
            ContractCloud.COLLECTION, Key.of(k), ContractCloud.bytes(ContractCloud.initial(k)));
        loading.write(Long.toString(k), ContractCloud.initial(k));
      }
      tx.commit();
    }
    loading.ok();
    cloud.settle(db);
  }

  /**
   * One transaction of session {@code session}: reads a sample of the keys (all of them on the
   * clients shape), then updates two keys of its share far apart (usually on different pages, so
   * that atomicity means something).
   */
  private void transaction(
      Database db, String session, int share, int shares, int round, Random r) {
    HistoryRecorder.Recording rec = recorder.begin(session);
    try (Transaction tx = db.begin()) {
      for (long k = 0; k < KEYS; k += 1 + r.nextInt(3)) {
        rec.read(
            Long.toString(k),
            tx.read(ContractCloud.COLLECTION, Key.of(k)).map(ContractCloud::string).orElse(null));
      }
      int own = KEYS / shares;
      long k1 = (long) r.nextInt(own / 2) * shares + share;
      long k2 = (long) (own / 2 + r.nextInt(own / 2)) * shares + share;
      for (long k : new long[] {k1, k2}) {
        String value = session + "/r" + round + "/" + k;
        if (tx.update(ContractCloud.COLLECTION, Key.of(k), ContractCloud.bytes(value))) {
          rec.write(Long.toString(k), value);
        }
      }
      tx.commit();
      rec.ok();
    } catch (CommitStateUnknownException e) {
      rec.unknown();
    } catch (StratusException | CloudException e) {
      rec.failed(); // a read or the commit failed: nothing of it took effect
    }
  }

  private static Map<String, String> view(Database db) {
    Map<String, String> out = new HashMap<>();
    ContractCloud.scan(db).forEach((k, v) -> out.put(Long.toString(k), v));
    return out;
  }
}
