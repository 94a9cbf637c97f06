package io.stratus.core.contract;

import io.stratus.CommitFailedException;
import io.stratus.CommitStateUnknownException;
import io.stratus.StratusException;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.CrashPoints;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.decorate.FaultInterceptor;
import io.stratus.cloudapi.decorate.FaultPlan;
import io.stratus.cloudapi.decorate.InjectedFault;
import io.stratus.cloudapi.decorate.ScriptedCrashPoints;
import io.stratus.cloudapi.inprocess.QueueBehavior;
import io.stratus.cloudapi.inprocess.StorageConsistency;
import io.stratus.core.Database;
import io.stratus.core.SwitchedFaults;
import io.stratus.core.Transaction;
import io.stratus.protocols.CheckpointSummary;
import io.stratus.protocols.CrashPoint;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.ProtocolOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * One seeded history of the fault soak: {@link #CLIENTS} clients (separate handles, {@link
 * #THREADS} request threads each) run one workload ({@link SoakWorkload}) round by round over the
 * in-process cloud with every weak knob and fault on at once:
 *
 * <ul>
 *   <li>queues that reorder, duplicate and return short or empty receives while messages exist
 *       ({@link QueueBehavior#weak()}); messages received by a client that then dies stay hidden
 *       until their visibility timeout;
 *   <li>storage reads stale for {@link #STALE} after a write;
 *   <li>per client: sends that fail, sends whose reply is lost (the effect applied, the caller
 *       told "unknown"), reads and receives refused; for the isolating protocols, commit-id
 *       increments whose reply is lost (advanced-queue sends only ever lose their reply here,
 *       they never fail);
 *   <li>lock- and counter-service restarts while request threads run;
 *   <li>client crashes at random registered crash points ({@link CrashPoint}); a surviving
 *       client recovers the dead one's work ({@code recoverAbandonedClients}), and a new handle
 *       takes the dead one's place;
 *   <li>a checkpointer that outlives its lock: a checkpoint is held at a put ({@link PutGate},
 *       {@link #heldPut}) past its lock lease while another client commits and checkpoints, then
 *       goes on;
 *   <li>clock skew: every client's clock is off by a seeded amount within {@link #MAX_SKEW}.
 * </ul>
 *
 * <p>After quiescence the workload judges the history by what the protocol declares. Each run
 * returns its {@link SoakResult}; faults are decided per (seed, call ordinal) and crashes per
 * (seed, point, occurrence), so a seed replays its schedule, modulo how the request threads of
 * one round interleave.
 */
final class FaultSoak {
  static final int CLIENTS = 3;
  static final int THREADS = 2;
  static final int ROUNDS = 5;
  static final Duration STALE = Duration.ofSeconds(30);

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

  /** Per reach of a registered point while the faults are on ({@code -Dstratus.soak.crashes}). */
  private static final double CRASH_PROBABILITY =
      Double.parseDouble(System.getProperty("stratus.soak.crashes", "0.02"));

  private final ProtocolKind kind;
  private final long seed;
  private final Random random;
  private final SoakWorkload workload;
  private final Map<String, Integer> faults = new TreeMap<>();
  private final List<Client> clients = new ArrayList<>();
  private final List<Client> dead = new ArrayList<>();
  private ContractCloud cloud;

  FaultSoak(ProtocolKind kind, long seed) {
    this.kind = kind;
    this.seed = seed;
    this.random = new Random(seed);
    this.workload =
        random.nextBoolean()
            ? new SoakWorkload.Tpcw(kind, CLIENTS * THREADS)
            : new SoakWorkload.Bank(kind, CLIENTS * THREADS);
  }

  /** One client slot: its current handle, its faults and crash points, its incarnation. */
  private final class Client {
    final int index;
    final int incarnation;
    final SwitchedFaults switched;
    final FaultInterceptor calls;
    final ScriptedCrashPoints crash;
    volatile boolean crashesOn;
    final Database db;

    Client(int index, int incarnation) {
      this.index = index;
      this.incarnation = incarnation;
      long s = seed * 1_000_003L + index * 101L + incarnation;
      FaultPlan plan =
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
              // Last, so that the rules above draw as they did before it was added.
              .loseReply(
                  FaultPlan.Selector.operations(Operation.COUNTER_INCREMENT)
                      .withTargetPrefix(ContractCloud.DB + "/si/"),
                  0.03)
              .build();
      this.calls = new FaultInterceptor(plan, s, cloud.clock);
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
              cloud
                  .config(name(), switched)
                  .pageSize(4096)
                  .crashPoints(gated)
                  .clock(new SkewedClock(cloud.clock, Duration.ofMillis(skewMillis))));
    }

    String name() {
      return "c" + index + "." + incarnation;
    }

    void faultsOn(boolean on) {
      switched.switchTo(on);
      crashesOn = on;
    }
  }

  /** Runs the history and judges it. */
  SoakResult run() throws Exception {
    long started = System.nanoTime();
    try (ContractCloud c =
        new ContractCloud(kind, seed, QueueBehavior.weak(), StorageConsistency.eventual(STALE))) {
      cloud = c;
      for (int i = 0; i < CLIENTS; i++) {
        clients.add(new Client(i, 0));
      }
      workload.load(clients.get(0).db);
      settle(c, clients.get(0).db);
      ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(CLIENTS * THREADS);
      try {
        int gatedRound =
            kind.accepts(ProtocolOption.CHECKPOINTS) && random.nextBoolean()
                ? random.nextInt(ROUNDS)
                : -1;
        for (int round = 0; round < ROUNDS; round++) {
          clients.forEach(cl -> cl.faultsOn(true));
          List<Future<?>> work = new ArrayList<>();
          for (Client cl : clients) {
            for (int t = 0; t < THREADS; t++) {
              int session = cl.index * THREADS + t;
              String name = cl.name() + "/t" + t;
              Random r = new Random(seed * 7919L + round * 131L + session);
              int rnd = round;
              Database db = cl.db;
              work.add(
                  pool.submit(
                      () -> {
                        workload.transact(db, name, session, rnd, r);
                        return null;
                      }));
            }
          }
          restartMaybe(c);
          for (Future<?> f : work) {
            f.get(2, TimeUnit.MINUTES);
          }
          c.clock.advance(Duration.ofMillis(1));
          if (round == gatedRound) {
            clients.forEach(cl -> cl.faultsOn(false));
            gatedCheckpoint(c, round); // before anything else checkpoints the round's records
            clients.forEach(cl -> cl.faultsOn(true));
          }
          c.runBackground();
          if (random.nextBoolean()) {
            Client cp = clients.get(random.nextInt(clients.size()));
            ContractCloud.quietly(() -> survive(() -> cp.db.checkpointAll()));
          }
          clients.forEach(cl -> cl.faultsOn(false));
          replaceTheDead(c);
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
      SoakResult.Judgement j = workload.judge(views, c.open("reader"));
      for (Client cl : clients) {
        count(cl);
      }
      for (Client cl : dead) {
        count(cl);
      }
      return new SoakResult(
          kind,
          seed,
          workload.name(),
          faults,
          j.transactions(),
          j.anomalies(),
          j.lostWrites(),
          j.descriptions(),
          System.nanoTime() - started);
    } finally {
      cloud = null;
    }
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
      Database survivor = clients.get(0).db;
      ContractCloud.quietly(survivor::recoverAbandonedClients);
      settle(c, survivor); // the new handles start on what the dead ones committed
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
      Database held = c.open(c.config("gated." + seed + "." + attempt, gate).pageSize(4096));
      CompletableFuture<CheckpointSummary> worker = new CompletableFuture<>();
      Thread t =
          new Thread(
              () -> {
                try {
                  worker.complete(held.checkpointAll());
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
    int session = other.index * THREADS;
    int extra = ROUNDS + round;
    workload.transact(
        other.db,
        other.name() + "/t0",
        session,
        extra,
        new Random(seed * 7919L + extra * 131L + session));
    ContractCloud.quietly(() -> other.db.checkpointAll());
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
   * ends with time).
   */
  private static void settle(ContractCloud c, Database db) {
    for (int attempt = 0; ; attempt++) {
      try {
        c.settle(db);
        return;
      } catch (io.stratus.StratusException e) {
        if (!e.isRetryable() || attempt >= 5) {
          throw e;
        }
        c.clock.advance(ContractCloud.LEASES);
      }
    }
  }

  /** Adds a client's injected faults and crash to the tally. */
  private void count(Client cl) {
    for (InjectedFault f : cl.calls.injectedFaults()) {
      String kind = f.kind().name().toLowerCase().replace('_', '-');
      boolean increment = f.operation() == Operation.COUNTER_INCREMENT;
      faults.merge(increment ? kind + "-increment" : kind, 1, Integer::sum);
    }
  }

  /** Runs {@code body}; a simulated crash of the client is noted by its crash points. */
  private static void survive(Runnable body) {
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
