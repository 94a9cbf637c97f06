package io.stratus.core.contract;

import io.stratus.CheckpointSummary;
import io.stratus.CommitFailedException;
import io.stratus.CommitStateUnknownException;
import io.stratus.StratusException;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.CrashPoints;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.decorate.CallInterceptor;
import io.stratus.cloudapi.decorate.FaultInterceptor;
import io.stratus.cloudapi.decorate.FaultPlan;
import io.stratus.cloudapi.decorate.InjectedFault;
import io.stratus.cloudapi.decorate.ScriptedCrashPoints;
import io.stratus.cloudapi.inprocess.IndexBehavior;
import io.stratus.cloudapi.inprocess.QueueBehavior;
import io.stratus.cloudapi.inprocess.StorageConsistency;
import io.stratus.core.Database;
import io.stratus.core.DatabaseConfig;
import io.stratus.core.SwitchedFaults;
import io.stratus.core.Transaction;
import io.stratus.protocols.CrashPoint;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.ProtocolOption;
import io.stratus.protocols.checkpoint.Checkpointer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * One seeded history of the fault soak: {@link #CLIENTS} clients (separate handles, one or more
 * request threads each) run one workload ({@link SoakWorkload}) round by round over the in-process
 * cloud with every weak knob and fault on at once. The history's settings ({@link SoakSettings}:
 * page size, request threads, transactions per round, secondary index, where background work
 * runs, checkpoint settings, writer lanes, a loader, a restart, late re-sends) are drawn from its
 * seed. The faults:
 *
 * <ul>
 *   <li>queues that reorder, duplicate and return short or empty receives while messages exist
 *       ({@link QueueBehavior#weak()}); messages received by a client that then dies stay hidden
 *       until their visibility timeout;
 *   <li>storage reads stale for {@link #STALE} after a write;
 *   <li>per client, on every call path ({@link #plan}): sends that fail or lose their reply (the
 *       effect applied, the caller told "unknown"), reads and receives refused, receives whose
 *       reply is lost (the messages hidden until their visibility timeout), message deletes and
 *       hand-backs that fail or lose their reply, page puts and deletes that fail or lose their
 *       reply, lock and counter calls refused or (acquires, releases) with their reply lost, and
 *       for the isolating protocols commit-id increments whose reply is lost. They hit request
 *       threads and background work alike: propagation, clean-up passes and checkpoints (run by
 *       request threads between their transactions, or at the round's end), and the recovery of
 *       crashed clients;
 *   <li>lock- and counter-service restarts while request threads run;
 *   <li>client crashes at random registered crash points ({@link CrashPoint}); a surviving
 *       client recovers the dead one's work ({@code recoverAbandonedClients}), and a new handle
 *       takes the dead one's place;
 *   <li>a checkpointer that outlives its lock: a checkpoint is held at a put ({@link PutGate},
 *       {@link #heldPut}) past its lock lease while another client commits and checkpoints, then
 *       goes on;
 *   <li>handles that go away on purpose: a loader that commits and closes, a client that closes
 *       and reopens under a new client id (both under the faults);
 *   <li>clock skew: every client's clock is off by a seeded amount within {@link #MAX_SKEW}.
 *   <li>pages of the collection or its index damaged in storage for a round or two ({@link
 *       PageDamage}), judged while damaged, then repaired through the verifier.
 * </ul>
 *
 * <p>After quiescence (fault-free, so that the history can be judged) the workload judges the
 * history by what the protocol declares, and the index and the trees are checked ({@link
 * SoakIndex}). Each run returns its {@link SoakResult}; faults are decided per (seed, call
 * ordinal) and crashes per (seed, point, occurrence), so a seed replays its schedule, modulo how
 * the request threads of one round interleave.
 */
final class FaultSoak {
  static final int CLIENTS = 3;
  static final int ROUNDS = 5;

  /** The first key a loader writes; above every key the workloads use. */
  static final long LOADER_KEYS = 5000;

  static final Duration STALE = Duration.ofSeconds(30);

  /** Settles ({@link ContractCloud#settle}) tried in a row while each still works. */
  static final int SETTLES = 4;

  /** Past the retirement horizon of chains of writers with the soak's longest lock timeout. */
  private static final Duration ROOM_WAIT =
      Duration.ofMillis(Checkpointer.horizonFor(Duration.ofSeconds(30))).plusMinutes(1);

  /** Failed commits in a row after which a loader gives up. */
  static final int LOADER_PATIENCE = 3;

  /** Tries of the gated checkpoint whose services refused it (see {@link #gatedCheckpoint}). */
  static final int GATED_ATTEMPTS = 3;

  /**
   * How far a client's clock may be off the cloud's, either way. The protocols compare one
   * client's timestamps with another's in two places: snapshot marks, which allow {@link
   * io.stratus.protocols.IsolationSettings#NETWORK_MARGIN} (1 s), and the atomic timeout
   * against a commit's time, which allows a quarter of the timeout (commits give up after three
   * quarters); leases are judged on one clock and are not affected. Clients within half a
   * second of the cloud disagree by at most one second. {@code -Dstratus.soak.maxSkewMillis}
   * changes it (to find what a protocol tolerates).
   */
  static final Duration MAX_SKEW =
      Duration.ofMillis(Long.getLong("stratus.soak.maxSkewMillis", 500));

  /** How long a slow index-service call takes ({@link #latency}). */
  static final Duration INDEX_LATENCY = Duration.ofMillis(400);

  /** Per reach of a registered point while the faults are on ({@code -Dstratus.soak.crashes}). */
  private static final double CRASH_PROBABILITY =
      Double.parseDouble(System.getProperty("stratus.soak.crashes", "0.02"));

  private final ProtocolKind kind;
  private final long seed;
  private final Random random;
  private final SoakSettings settings;
  private final int threads;
  private final SoakWorkload workload;
  private final Map<String, Integer> faults = new ConcurrentSkipListMap<>();
  private final List<Client> clients = new ArrayList<>();
  private final List<Client> dead = new ArrayList<>();
  private final List<FaultInterceptor> loaders = new CopyOnWriteArrayList<>();

  /** The sessions' queries through a service-held index. */
  private final SoakQueries queries;

  private ContractCloud cloud;
  private PageDamage damage;

  /** What was judged while pages were damaged, and of their repair. */
  private SoakResult.Judgement whileDamaged = new SoakResult.Judgement(0, Map.of(), 0, List.of());

  FaultSoak(ProtocolKind kind, long seed) {
    this.kind = kind;
    this.seed = seed;
    this.random = new Random(seed);
    this.settings = SoakSettings.draw(kind, seed, ROUNDS, CLIENTS);
    this.threads = settings.threads();
    this.queries = new SoakQueries(kind, faults);
    int sessions = CLIENTS * threads;
    this.workload =
        random.nextBoolean()
            ? new SoakWorkload.Tpcw(kind, sessions, threads, settings.lateResends())
            : new SoakWorkload.Bank(kind, sessions);
  }

  /** The history's drawn settings. */
  SoakSettings settings() {
    return settings;
  }

  /** The history's workload's name. */
  String workloadName() {
    return workload.name();
  }

  /** One client slot: its current handle, its faults and crash points, its incarnation. */
  private final class Client {
    final int index;
    final int incarnation;
    final SwitchedFaults switched;
    final FaultInterceptor calls;
    final ScriptedCrashPoints crash;
    final StepExecutor background = new StepExecutor();
    volatile boolean crashesOn;
    final Database db;

    Client(int index, int incarnation) {
      this.index = index;
      this.incarnation = incarnation;
      long s = seed * 1_000_003L + index * 101L + incarnation;
      this.calls = new FaultInterceptor(plan(settings), s, latency());
      this.switched = new SwitchedFaults(calls);
      this.crash =
          new ScriptedCrashPoints()
              .armRandomly(
                  Stream.of(CrashPoint.values()).map(CrashPoint::id).collect(Collectors.toSet()),
                  s,
                  CRASH_PROBABILITY)
              .onCrash(calls::killClient);
      CrashPoints gated =
          point -> {
            if (crashesOn) {
              crash.reach(point);
            }
          };
      long skewMillis =
          MAX_SKEW.toMillis() == 0
              ? 0
              : new Random(s).nextLong(-MAX_SKEW.toMillis(), MAX_SKEW.toMillis() + 1);
      this.db =
          cloud.open(
              config(name(), background, switched)
                  .crashPoints(gated)
                  .clock(new SkewedClock(cloud.clock, Duration.ofMillis(skewMillis))));
    }

    String name() {
      return "c" + index + "." + incarnation;
    }

    void faultsOn(boolean on) {
      faultsOn(on, on);
    }

    void faultsOn(boolean on, boolean crashes) {
      switched.switchTo(on);
      crashesOn = on && crashes;
    }
  }

  /**
   * The faults of one client, switched on while rounds run. The first four rules are the soak's
   * first plan (kept first so that they draw as they did); the rest put faults on every other call
   * path: message deletes and hand-backs, receives whose reply is lost, page puts and deletes,
   * lock and counter calls, queue creation, listing and inspection; with a service-held index,
   * the index service's calls too. {@code
   * -Dstratus.soak.faultPaths=first} keeps to the first four (to tell whether a finding needs the
   * others).
   */
  static FaultPlan plan(SoakSettings settings) {
    FaultPlan.Builder b =
        FaultPlan.builder()
            .fail(FaultPlan.Selector.operations(Operation.QUEUE_SEND_BATCH), 0.03)
            .loseReply(
                FaultPlan.Selector.operations(
                    Operation.QUEUE_SEND_BATCH, Operation.ADVANCED_QUEUE_SEND),
                0.03)
            .unavailable(
                FaultPlan.Selector.operations(
                    Operation.STORAGE_GET,
                    Operation.STORAGE_GET_IF_CHANGED,
                    Operation.QUEUE_RECEIVE),
                0.01)
            .loseReply(
                FaultPlan.Selector.operations(Operation.COUNTER_INCREMENT)
                    .withTargetPrefix(ContractCloud.DB + "/si/"),
                0.03);
    if ("first".equals(System.getProperty("stratus.soak.faultPaths"))) {
      return b.build();
    }
    b.fail(
            FaultPlan.Selector.operations(
                Operation.QUEUE_SEND,
                Operation.QUEUE_DELETE_MESSAGE,
                Operation.QUEUE_DELETE_BATCH,
                Operation.QUEUE_CHANGE_VISIBILITY,
                Operation.QUEUE_CHANGE_VISIBILITY_BATCH,
                Operation.ADVANCED_QUEUE_SEND,
                Operation.ADVANCED_QUEUE_DELETE_MESSAGE,
                Operation.ADVANCED_QUEUE_DELETE_BY_KEY),
            0.03)
        .loseReply(
            FaultPlan.Selector.operations(
                Operation.QUEUE_SEND,
                Operation.QUEUE_RECEIVE,
                Operation.QUEUE_DELETE_MESSAGE,
                Operation.QUEUE_DELETE_BATCH,
                Operation.QUEUE_CHANGE_VISIBILITY,
                Operation.QUEUE_CHANGE_VISIBILITY_BATCH,
                Operation.ADVANCED_QUEUE_DELETE_MESSAGE,
                Operation.ADVANCED_QUEUE_DELETE_BY_KEY),
            0.02)
        .unavailable(
            FaultPlan.Selector.operations(
                Operation.ADVANCED_QUEUE_RECEIVE,
                Operation.STORAGE_GET_METADATA,
                Operation.STORAGE_GET_IF_MODIFIED_SINCE,
                Operation.STORAGE_LIST,
                Operation.QUEUE_CREATE,
                Operation.QUEUE_LIST,
                Operation.QUEUE_INSPECT,
                Operation.ADVANCED_QUEUE_CREATE,
                Operation.ADVANCED_QUEUE_LIST,
                Operation.LOCK_ACQUIRE_EXCLUSIVE,
                Operation.LOCK_ACQUIRE_SHARED,
                Operation.LOCK_ACQUIRE_INTENTION,
                Operation.LOCK_GET_TIMEOUT,
                Operation.LOCK_SET_TIMEOUT,
                Operation.COUNTER_INCREMENT,
                Operation.COUNTER_VALIDATE,
                Operation.COUNTER_HIGHEST_VALIDATED,
                Operation.COUNTER_SET_TIMEOUT),
            0.01)
        .fail(
            FaultPlan.Selector.operations(
                Operation.STORAGE_PUT,
                Operation.STORAGE_PUT_IF_ABSENT,
                Operation.STORAGE_PUT_IF_VERSION,
                Operation.STORAGE_DELETE,
                Operation.LOCK_RELEASE),
            0.01)
        .loseReply(
            FaultPlan.Selector.operations(
                Operation.STORAGE_PUT,
                Operation.STORAGE_PUT_IF_ABSENT,
                Operation.STORAGE_PUT_IF_VERSION,
                Operation.STORAGE_DELETE,
                Operation.LOCK_ACQUIRE_EXCLUSIVE,
                Operation.LOCK_ACQUIRE_SHARED,
                Operation.LOCK_ACQUIRE_INTENTION,
                Operation.LOCK_RELEASE),
            0.01);
    if (settings.serviceIndex()) {
      // The index service's calls: entry puts at commit that fail or lose their reply (the
      // commit fails retryably), queries and gets refused or with their reply lost (the reading
      // transaction fails retryably), and every index call sometimes slow ({@link #latency}).
      b.fail(
              FaultPlan.Selector.operations(
                  Operation.INDEX_PUT,
                  Operation.INDEX_PUT_BATCH,
                  Operation.INDEX_DELETE,
                  Operation.INDEX_DELETE_BATCH),
              0.03)
          .loseReply(
              FaultPlan.Selector.operations(
                  Operation.INDEX_PUT,
                  Operation.INDEX_PUT_BATCH,
                  Operation.INDEX_QUERY,
                  Operation.INDEX_GET),
              0.03)
          .unavailable(
              FaultPlan.Selector.operations(Operation.INDEX_QUERY, Operation.INDEX_GET), 0.03)
          .delay(FaultPlan.Selector.services(Operation.Service.INDEX), 0.05, INDEX_LATENCY);
    }
    return b.build();
  }

  /**
   * A configuration of client {@code id} with the history's settings: page size, writer lanes,
   * checkpoint settings, the index's extractor; background work on {@code background}.
   */
  private DatabaseConfig.Builder config(
      String id, StepExecutor background, CallInterceptor... calls) {
    DatabaseConfig.Builder b = settings.apply(cloud.config(id, background, calls));
    return settings.index()
        ? b.indexExtractor(ContractCloud.COLLECTION, SoakSettings.INDEX, SoakIndex.EXTRACTOR)
        : b;
  }

  /**
   * The scheduler of the faults' delays: a delayed call is made once the cloud's clock has moved
   * on by the delay, and the caller moves it (the history's clock is manual: a call waiting for
   * another thread to move it would hold its round up), so time passes on every handle's clock
   * while the call is slow, as it would with a slow service.
   */
  private io.stratus.cloudapi.time.Scheduler latency() {
    ContractCloud c = cloud;
    return d -> {
      c.clock.advance(d);
      return java.util.concurrent.CompletableFuture.completedFuture(null);
    };
  }

  /** Runs the history and judges it. */
  SoakResult run() throws Exception {
    long started = System.nanoTime();
    try (ContractCloud c =
        new ContractCloud(
            kind,
            seed,
            QueueBehavior.weak(),
            StorageConsistency.eventual(STALE),
            b ->
                settings.serviceIndex()
                    ? b.indexBehavior(IndexBehavior.eventual(settings.queryLag()))
                    : b)) {
      cloud = c;
      damage = new PageDamage(c, seed);
      for (int i = 0; i < CLIENTS; i++) {
        clients.add(new Client(i, 0));
      }
      Database first = clients.get(0).db;
      if (settings.index()) {
        // At deployment, before anything writes, and apart: on eventually consistent storage a
        // catalog change, or a handle's fresh read of the catalog, right after another may meet
        // the copy from before it (the index then goes unmaintained for a TTL).
        first.createCollection(ContractCloud.COLLECTION);
        c.clock.advance(STALE.plusSeconds(1));
        first.createIndex(
            ContractCloud.COLLECTION,
            SoakSettings.INDEX,
            SoakIndex.EXTRACTOR,
            settings.placement());
        c.clock.advance(STALE.plus(ContractCloud.TTL).plusSeconds(1));
      }
      workload.load(first);
      settle(c, first);
      ExecutorService pool = Executors.newFixedThreadPool(CLIENTS * threads + 1);
      try {
        int gatedRound =
            kind.accepts(ProtocolOption.CHECKPOINTS) && random.nextBoolean()
                ? random.nextInt(ROUNDS)
                : -1;
        for (int round = 0; round < ROUNDS; round++) {
          workload.beforeRound(round, new Random(seed * 6007L + round));
          boolean replaceable = handlesMayBeReplaced(round);
          clients.forEach(cl -> cl.faultsOn(true, replaceable));
          // The gated checkpoint must find the round's records still queued.
          boolean interleaved = settings.interleaved() && round != gatedRound;
          List<Future<?>> work = new ArrayList<>();
          for (Client cl : clients) {
            for (int t = 0; t < threads; t++) {
              work.add(pool.submit(session(cl, t, round, interleaved)));
            }
          }
          if (round == settings.loaderRound()) {
            int rnd = round;
            work.add(
                pool.submit(
                    () -> {
                      loader(c, rnd);
                      return null;
                    }));
          }
          restartMaybe(c);
          if (round == settings.damageRound()) {
            damage.strike(settings.treeIndex()); // while the round's threads commit
            faults.merge("damaged-page", damage.pages().size(), Integer::sum);
          }
          for (Future<?> f : work) {
            f.get(2, TimeUnit.MINUTES);
          }
          c.clock.advance(Duration.ofMillis(1));
          if (round == gatedRound) {
            clients.forEach(cl -> cl.faultsOn(false));
            gatedCheckpoint(c, round); // before anything else checkpoints the round's records
            clients.forEach(cl -> cl.faultsOn(true, replaceable));
          }
          c.runBackground();
          if (random.nextBoolean()) {
            Client cp = clients.get(random.nextInt(clients.size()));
            ContractCloud.quietly(() -> survive(() -> cp.db.admin().checkpointAll()));
          }
          boolean restarted = round == settings.restartRound() && replaceable && restart();
          clients.forEach(cl -> cl.faultsOn(false));
          replaceTheDead(c);
          if (restarted && workload.newHandlesNeedSettling()) {
            c.clock.advance(ContractCloud.LEASES);
            settle(c, clients.get(settings.restartClient()).db);
          }
          if (round == settings.damageEnd(ROUNDS)) {
            judgeAndRepair(c);
          }
          c.clock.advance(ContractCloud.TTL.plusSeconds(1));
        }
      } finally {
        pool.shutdownNow();
      }
      clients.forEach(cl -> cl.faultsOn(false));
      replaceTheDead(c);
      settle(c, clients.get(0).db);
      settle(c, clients.get(1).db);
      List<Database> views = clients.stream().map(cl -> cl.db).toList();
      Database reader = c.open(config("reader", new StepExecutor()));
      SoakResult.Judgement j =
          workload
              .judge(views, reader)
              .plus(SoakIndex.check(reader, kind, settings, workload.writesByKey()))
              .plus(whileDamaged)
              .plus(queries.judged());
      for (Client cl : clients) {
        count(cl.calls);
      }
      for (Client cl : dead) {
        count(cl.calls);
      }
      loaders.forEach(this::count);
      workload.scheduled().forEach((k, v) -> faults.merge(k, v, Integer::sum));
      return new SoakResult(
          kind,
          seed,
          workload.name(),
          settings,
          faults,
          j.transactions(),
          j.anomalies(),
          j.lostWrites(),
          j.descriptions(),
          System.nanoTime() - started);
    } finally {
      cloud = null;
      damage = null;
    }
  }

  /**
   * The end of the damage window, with the faults off: passes of every live handle's checkpoints
   * while the pages are still damaged ({@link PageDamage#settle}); a fresh reader then judges every
   * key it can read ({@link SoakWorkload#judgeReadable}) and the handles' counts of corrupt pages
   * ({@link PageDamage#counted}); then the operator's repair ({@link PageDamage#repair}) and a
   * settle, which applies what waited.
   */
  private void judgeAndRepair(ContractCloud c) {
    Database settler = clients.get(0).db;
    CheckpointSummary last = PageDamage.settle(c, settler, others(settler));
    Database reader = c.open(config("damage-reader." + seed, new StepExecutor()));
    SoakResult.Judgement readable = workload.judgeReadable(reader);
    if (kind.accepts(ProtocolOption.WRITER_LANES)) {
      // Writer chains hold at most MAX_HELD counters per page header: beyond that, a writer's
      // later records for healthy pages wait behind the damage too (documented), so what a
      // readable key misses here is tallied, not judged; the judgement after the repair is.
      readable.anomalies().forEach((k, v) -> faults.merge(k + "-waiting", v, Integer::sum));
      readable = readable.withoutFindings();
    }
    whileDamaged =
        whileDamaged
            .plus(readable)
            .plus(damage.counted(clients.stream().map(cl -> cl.db).toList(), last))
            .plus(damage.repair(c, reader));
    faults.merge("repaired-page", damage.pages().size(), Integer::sum);
    // What waited is applied before anyone commits again: handles that took a session over
    // during the damage read what their predecessors committed only once it is applied.
    settle(c, settler);
  }

  /** Checkpoints of every live handle but {@code db}, as live processes make them. */
  private Runnable others(Database db) {
    return () -> {
      for (Client cl : clients) {
        if (cl.db != db && !cl.crash.crashed()) {
          ContractCloud.quietly(() -> cl.db.admin().checkpointAll());
        }
      }
    };
  }

  /**
   * Request thread {@code t} of client {@code cl} in round {@code round}: its session's
   * transactions of the round, one after the other, each followed (when {@code interleaved}) by
   * the handle's queued background work, while the other threads commit.
   */
  private Callable<Void> session(Client cl, int t, int round, boolean interleaved) {
    int session = cl.index * threads + t;
    String name = cl.name() + "/t" + t;
    Random r = new Random(seed * 7919L + round * 131L + session);
    Database db = cl.db;
    return () -> {
      for (int i = 0; i < settings.steps(); i++) {
        workload.transact(db, name, session, round, round * settings.steps() + i, r);
        if (settings.serviceIndex()) {
          queries.run(db, name, new Random(seed * 3571L + round * 89L + session * 7L + i));
        }
        if (interleaved) {
          cl.background.runAll();
        }
      }
      return null;
    };
  }

  /**
   * A loader process: a handle of its own (one thread) commits {@link
   * SoakSettings#loaderCommits} one-record creates under the faults, runs its background work
   * every few commits while the clock moves on a little, and closes; it gives up after {@link
   * #LOADER_PATIENCE} failed commits in a row, as a loader process exits on errors. (Under the
   * isolating protocols a begin that waits for the commit counter to validate a commit id polls it
   * for half a second of real time before it fails, and while the manual clock does not move
   * on the next begin waits as long: a loader that kept going took minutes of real time.) What it was told is judged
   * with the rest of the history: its acknowledged records must be there at the end.
   */
  private void loader(ContractCloud c, int round) {
    StepExecutor background = new StepExecutor();
    FaultInterceptor calls =
        new FaultInterceptor(plan(settings), seed * 1_000_003L + 977 + round, latency());
    SwitchedFaults switched = new SwitchedFaults(calls);
    String name = "loader." + round;
    Database db = c.open(config(name, background, switched));
    loaders.add(calls);
    switched.switchTo(true);
    int failedInARow = 0;
    for (int i = 0; i < settings.loaderCommits() && failedInARow < LOADER_PATIENCE; i++) {
      Outcome o = workload.loaderCommit(db, name, LOADER_KEYS + round * 1000L + i);
      failedInARow = o == Outcome.FAILED ? failedInARow + 1 : 0;
      c.clock.advance(Duration.ofMillis(20));
      if (i % 4 == 3) {
        background.runAll();
      }
    }
    faults.merge(
        failedInARow < LOADER_PATIENCE ? "loader-exit" : "loader-gave-up", 1, Integer::sum);
    ContractCloud.quietly(db::close); // what is still queued in its executor is dropped
  }

  /**
   * Client {@link SoakSettings#restartClient} closes its handle under the faults (a deployment,
   * a restart) and a new handle with a new client id takes its sessions over; whether it did (a
   * client that crashed this round is replaced anyway).
   */
  private boolean restart() {
    int i = settings.restartClient();
    Client old = clients.get(i);
    if (old.crash.crashed()) {
      return false;
    }
    ContractCloud.quietly(() -> survive(old.db::close));
    old.faultsOn(false);
    dead.add(old);
    faults.merge("client-restart", 1, Integer::sum);
    clients.set(i, new Client(old.index, old.incarnation + 1));
    return true;
  }

  /**
   * A lock- or counter-service restart while the round's threads run, sometimes; {@code
   * -Dstratus.soak.restarts=locks|counters|none} narrows it.
   */
  private void restartMaybe(ContractCloud c) {
    int r = random.nextInt(6);
    String only = System.getProperty("stratus.soak.restarts", "locks,counters");
    if (r == 0 && only.contains("locks")) {
      c.cloud.restartLockService();
      faults.merge("lock-service-restart", 1, Integer::sum);
    } else if (r == 1 && only.contains("counters")) {
      c.cloud.restartCounterService();
      faults.merge("counter-service-restart", 1, Integer::sum);
    }
  }

  /**
   * Whether a client may crash or restart in {@code round}, and so be replaced by a new handle at
   * its end: not while pages are damaged if the workload's new handles must start on a settled
   * database (the bank without isolation reads what it then overwrites; records behind damage
   * cannot settle, and beyond the held counters' bound a writer's later records wait too, so a
   * new handle would read values its predecessor already changed — a lost update the protocols
   * without isolation allow across handles).
   */
  private boolean handlesMayBeReplaced(int round) {
    return !workload.newHandlesNeedSettling()
        || settings.damageRound() < 0
        || round < settings.damageRound()
        || round > settings.damageEnd(ROUNDS);
  }

  /** Replaces every crashed client: a survivor recovers its work, a new handle takes its slot. */
  private void replaceTheDead(ContractCloud c) {
    boolean any = false;
    for (int i = 0; i < clients.size(); i++) {
      Client cl = clients.get(i);
      if (cl.crash.crashed()) {
        dead.add(cl);
        faults.merge("client-crash", 1, Integer::sum);
        clients.set(i, new Client(cl.index, cl.incarnation + 1));
        any = true;
      }
    }
    if (any) {
      c.clock.advance(ContractCloud.LEASES); // the dead clients' leases lapse
      Client survivor = clients.get(0);
      survivor.switched.switchTo(true); // recovery meets the faults too (not the crashes)
      ContractCloud.quietly(survivor.db.admin()::recoverAbandonedClients);
      survivor.switched.switchTo(false);
      settle(c, survivor.db); // the new handles start on what the dead ones committed
    }
  }

  /**
   * A checkpoint held at one of its puts ({@link #heldPut}) past its lock lease while another
   * client commits a transaction and checkpoints the same queues or trees; then the held put goes
   * on (and must not undo the other's work). A gated checkpoint that could not start (a restarted
   * lock or counter service still refusing, which lasts up to two minutes under the isolating
   * protocols, or a lock a dead client holds) made no put to hold; it is tried again with a new
   * handle once those leases lapsed, at most {@link #GATED_ATTEMPTS} times.
   */
  private void gatedCheckpoint(ContractCloud c, int round) throws Exception {
    for (int attempt = 1; attempt <= GATED_ATTEMPTS; attempt++) {
      String thread = "soak-gated-" + seed + "." + attempt;
      PutGate gate = new PutGate(thread, heldPut(kind));
      Database held = c.open(config("gated." + seed + "." + attempt, new StepExecutor(), gate));
      CompletableFuture<CheckpointSummary> worker = new CompletableFuture<>();
      Thread t =
          new Thread(
              () -> {
                try {
                  worker.complete(held.admin().checkpointAll());
                } catch (Throwable e) {
                  worker.completeExceptionally(e);
                }
              },
              thread);
      t.start();
      boolean isHeld = gate.awaitHeldOrDone(worker);
      if (isHeld) {
        outliveLock(c, round);
      }
      gate.open();
      boolean blocked = false;
      try {
        CheckpointSummary done = worker.get(1, TimeUnit.MINUTES);
        blocked = done.queuesBusy() > 0;
      } catch (ExecutionException e) {
        boolean refused =
            e.getCause() instanceof CloudException
                || (e.getCause() instanceof StratusException se && se.isRetryable());
        if (!refused) {
          throw e;
        }
        blocked = true;
      }
      if (isHeld || !blocked || gate.puts() > 0) {
        return;
      }
      c.clock.advance(ContractCloud.LEASES); // the refusal, or the dead client's lock, lapses
    }
  }

  /**
   * While the gated checkpoint holds a put: its lock lapses, and another live client commits a
   * transaction of its first session and checkpoints. The transaction is numbered as round
   * {@code ROUNDS + round}, which no regular round uses (the TPC-W-like workload names fresh keys
   * by round).
   */
  private void outliveLock(ContractCloud c, int round) {
    Client other = clients.stream().filter(cl -> !cl.crash.crashed()).findFirst().orElse(null);
    if (other == null) {
      return; // every client died this round: nobody takes the lock over
    }
    faults.merge("checkpoint-outlived-lock", 1, Integer::sum);
    c.clock.advance(ContractCloud.LEASES); // its lock lapses while it is held
    int session = other.index * threads;
    int extra = ROUNDS + round;
    workload.transact(
        other.db,
        other.name() + "/t0",
        session,
        extra,
        ROUNDS * settings.steps() + round,
        new Random(seed * 7919L + extra * 131L + session));
    ContractCloud.quietly(() -> other.db.admin().checkpointAll());
  }

  /**
   * Which put of the gated checkpoint is held (1 = its first). Under the queue protocols one
   * {@code checkpointAll} checkpoints the data pages' queues and the trees' queues and puts their
   * pages, so the second put is held: part of its work is stored, part is not. A snapshot
   * checkpoint (the protocols with {@link ProtocolOption#ISOLATION}) puts a tree's changed pages
   * on the versions read, its root last; the soak's workloads have one tree, which fits into its
   * root leaf, so a {@code checkpointAll} makes one put (the root) and a gate from the second put
   * never holds it. Its first put is held instead: the run has read the root and computed the new
   * one, and puts it after its lease.
   */
  static int heldPut(ProtocolKind kind) {
    return kind.accepts(ProtocolOption.ISOLATION) ? 1 : 2;
  }

  /**
   * Quiescence ({@link ContractCloud#settle}) by {@code db}, again after a pause while a
   * restarted service still refuses requests (a retryable failure: the service's refusal window
   * ends with time), and again, up to {@link #SETTLES} times in all, while the last pass still
   * applied records, wrote pages, failed or found a queue busy (the other live handles, below,
   * checkpoint in the same passes, so the settler often meets pages they have just written and
   * gives up on them while they make the progress): a long backlog (a loader's hundreds of records in 16-record
   * checkpoint shares, reordered by the queues) takes more passes than one settle makes, and so
   * does the header bookkeeping that retires the chains of closed and dead writers (a page
   * written per pass until the horizon has passed); that is slow, not stuck (tallied as {@code
   * settled-late}). In every pass the other live handles checkpoint first, as live processes renew
   * their writer leases (their timers do not run on the manual clock): otherwise a settle longer
   * than the retirement horizon made them look dead to the settler's probes and retired their
   * chains under them. A history is not settled when a settle's last pass did nothing and
   * failed nothing (records left waiting: a gap, a dependency), or after {@link #SETTLES}.
   * Records that wait for room in a header are waited for once, past the retirement horizon
   * (tallied as {@code waited-for-room}). {@code -Dstratus.soak.dumpUnsettled=true} prints its
   * queues and page headers ({@link SoakDump}).
   */
  private void settle(ContractCloud c, Database db) {
    if (damage.active()) {
      PageDamage.settle(c, db, others(db)); // what waits for the damaged pages cannot settle
      return;
    }
    Runnable others = others(db);
    int settles = 1;
    boolean waitedForRoom = false;
    for (int attempt = 0; ; attempt++) {
      try {
        c.settle(db, others);
        if (settles > 1) {
          faults.merge("settled-late", 1, Integer::sum);
        }
        return;
      } catch (ContractCloud.NotSettled e) {
        boolean moving =
            e.last != null
                && (e.last.recordsApplied() > 0
                    || e.last.pagesWritten() > 0
                    || e.last.failures() > 0
                    || e.last.queuesBusy() > 0);
        if (moving && settles < SETTLES) {
          settles++;
          continue;
        }
        if (!waitedForRoom && db.stats().recordsWaitingForRoom() > 0) {
          // Records wait for room in a full header (small pages, many writer lanes): a new chain
          // starts once chains of closed and dead writers retire, the retirement horizon after
          // they stopped (the documented bound), so the settle waits that out once.
          waitedForRoom = true;
          faults.merge("waited-for-room", 1, Integer::sum);
          c.clock.advance(ROOM_WAIT);
          continue;
        }
        if (Boolean.getBoolean("stratus.soak.dumpUnsettled")) {
          SoakDump.queues(c);
        }
        throw e;
      } catch (StratusException e) {
        if (!e.isRetryable() || attempt >= 5) {
          throw e;
        }
        c.clock.advance(ContractCloud.LEASES);
      }
    }
  }

  /**
   * Adds a handle's injected faults to the tally, by kind, and by the path of the calls beyond
   * the first plan's (sends, page reads and receives; commit-id increments are their own).
   */
  private void count(FaultInterceptor calls) {
    for (InjectedFault f : calls.injectedFaults()) {
      String kind = f.kind().name().toLowerCase().replace('_', '-');
      faults.merge(kind + path(f.operation()), 1, Integer::sum);
    }
  }

  private static String path(Operation op) {
    return switch (op) {
      case QUEUE_SEND_BATCH, ADVANCED_QUEUE_SEND, STORAGE_GET, STORAGE_GET_IF_CHANGED -> "";
      case QUEUE_RECEIVE, ADVANCED_QUEUE_RECEIVE -> "-receive";
      case COUNTER_INCREMENT -> "-increment";
      case QUEUE_DELETE_MESSAGE,
          QUEUE_DELETE_BATCH,
          ADVANCED_QUEUE_DELETE_MESSAGE,
          ADVANCED_QUEUE_DELETE_BY_KEY ->
          "-message-delete";
      case QUEUE_CHANGE_VISIBILITY, QUEUE_CHANGE_VISIBILITY_BATCH -> "-hand-back";
      case STORAGE_PUT, STORAGE_PUT_IF_ABSENT, STORAGE_PUT_IF_VERSION, STORAGE_DELETE -> "-put";
      default -> "-" + op.service().name().toLowerCase().replace('_', '-');
    };
  }

  /** Runs {@code body}; a simulated crash of the client is noted by its crash points. */
  static void survive(Runnable body) {
    try {
      body.run();
    } catch (io.stratus.cloudapi.decorate.SimulatedCrashException e) {
      // the client died; the round's end replaces it
    }
  }

  /** The outcome of one commit attempt, for the workloads' books. */
  enum Outcome {
    OK,
    FAILED,
    UNKNOWN
  }

  /**
   * Commits {@code tx}: OK, FAILED (a definite failure, nothing applied), or UNKNOWN (the
   * outcome was not learned: a lost reply, or the client died while committing).
   */
  static Outcome commit(Transaction tx) {
    try {
      tx.commit();
      return Outcome.OK;
    } catch (CommitStateUnknownException e) {
      return Outcome.UNKNOWN;
    } catch (CommitFailedException e) {
      return Outcome.FAILED;
    } catch (RuntimeException e) {
      return Outcome.UNKNOWN; // the client died in the commit, or a cloud call's reply was lost
    }
  }
}
