package io.stratus.bench.tpcw.sigmod;

import io.stratus.CheckpointSummary;
import io.stratus.DuplicateKeyException;
import io.stratus.StratusException;
import io.stratus.bench.tpcw.bookstore.BookstoreSchema;
import io.stratus.bench.tpcw.bookstore.ComplexOrder;
import io.stratus.bench.tpcw.bookstore.DataGenerator;
import io.stratus.bench.tpcw.bookstore.Scale;
import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.QueueMessage;
import io.stratus.cloudapi.SimpleQueueService;
import io.stratus.cloudapi.decorate.Call;
import io.stratus.cloudapi.decorate.CallInterceptor;
import io.stratus.cloudapi.decorate.CloudMeter;
import io.stratus.cloudapi.decorate.Decorators;
import io.stratus.cloudapi.decorate.LatencyInterceptor;
import io.stratus.cloudapi.decorate.LatencyProfiles;
import io.stratus.cloudapi.decorate.MeterSnapshot;
import io.stratus.cloudapi.decorate.MeteringInterceptor;
import io.stratus.cloudapi.decorate.PriceTable;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.cloudapi.time.ManualClock;
import io.stratus.cloudapi.time.Scheduler;
import io.stratus.core.Database;
import io.stratus.core.DatabaseAdmin;
import io.stratus.core.DatabaseConfig;
import io.stratus.core.RetryPolicy;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.ProtocolOption;
import io.stratus.protocols.StorageLayout;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * One run of paper 001's complex transaction ({@link ComplexOrder}) with one protocol: a fresh
 * in-process cloud, the bookstore loaded, N clients (each its own database handle, as separate
 * processes would be) running the transaction, then every pending update drained and charged.
 *
 * <p><b>Phases.</b> Loading is free of latency and charged to nobody. A warm-up of a few
 * transactions per client fills the clients' caches; it is then drained ({@link
 * DatabaseAdmin#checkpointAll()} on every handle until nothing is left) and not counted. The
 * measured transactions follow, and another drain applies everything they committed. Cost is
 * metered by {@link CostAttribution}: the transactions' own calls on one side, every background
 * call of the measured phase (checkpoints, the atomic protocol's propagation and clean-up, the
 * final drain) on the other; a meter of all calls checks that the two add up ({@link
 * Result#conserved()}), and the pending-update and ATOMIC queues are counted empty at the end
 * ({@link Result#pendingMessages()}).
 *
 * <p><b>Two modes.</b> {@link Mode#TIMED}: each client is a thread running its transactions
 * back to back through the latency profile, on {@link ScaledTime}; background work runs on a
 * shared pool; the run reports the time per transaction. {@link Mode#SIMULATED}: one thread, a
 * {@link ManualClock} and no latency: each client starts a transaction every {@link
 * Spec#spacing()} of simulated time (the time per transaction a timed run measured), the
 * clients' transactions interleaved in start order, and background work runs right after the
 * transaction that asked for it ({@link Background#runQueued}). Nothing waits, so hundreds of simulated minutes take seconds, and the run repeats exactly from
 * its seed: the checkpoint-interval sweep uses it.
 */
final class SigmodRun {
  /** How clients are driven (see the class comment). */
  enum Mode {
    TIMED,
    SIMULATED
  }

  /** The start of simulated time (order dates and ids are drawn from it). */
  static final Instant EPOCH = Instant.parse("2026-01-01T00:00:00Z");

  /** Paper 001 section 6.1: the client's cache was limited to 5 MB. */
  static final long POOL_BYTES = 5L * 1024 * 1024;

  private static final String DATABASE = "sigmod/bookstore";

  /** The threads of a handle's own checkpoint pool, which the shared pool replaces. */
  private static final int BACKGROUND_THREADS_PER_CLIENT = 4;

  /** Order ids a transaction draws before it gives up on duplicates. */
  private static final int ORDER_ID_DRAWS = 4;

  /**
   * What to run.
   *
   * @param profile latency profile name (eu, ec2, none); also decides transfer pricing
   * @param warmUp unmeasured transactions per client before the measured ones
   * @param transactions measured transactions per client
   * @param timeScale {@link ScaledTime} factor of a timed run
   * @param spacing simulated time between the starts of one client's transactions (simulated
   *     runs)
   */
  record Spec(
      ProtocolKind protocol,
      Mode mode,
      String profile,
      int clients,
      int warmUp,
      int transactions,
      Duration checkpointInterval,
      Scale scale,
      int pageSize,
      Duration ttl,
      int timeScale,
      Duration spacing,
      long seed) {
    Spec {
      Objects.requireNonNull(protocol, "protocol");
      Objects.requireNonNull(mode, "mode");
      LatencyProfiles.byName(profile);
      if (clients < 1 || warmUp < 0 || transactions < 1 || timeScale < 1) {
        throw new IllegalArgumentException(
            "clients and transactions must be positive, the warm-up"
                + " not negative, the time scale at least 1");
      }
      if (mode == Mode.SIMULATED && (spacing == null || spacing.isNegative())) {
        throw new IllegalArgumentException("a simulated run needs a non-negative spacing");
      }
    }
  }

  /**
   * What a run measured, over its measured phase and final drain.
   *
   * @param committed measured transactions committed
   * @param failed measured transactions that failed for good (retries used up, or not retryable)
   * @param retries attempts run again after a retryable failure
   * @param totalNanos simulated time of all committed measured transactions
   * @param maxNanos the longest one
   * @param serialNanos the latency of all their calls made one by one ({@link SerialLatency})
   * @param serialMaxNanos the largest such sum of one transaction
   * @param recordsRead records the committed attempts read
   * @param recordsWritten records the committed attempts wrote
   * @param transactions calls of the measured transactions
   * @param background every other call of the measured phase, the final drain included
   * @param all every call of the measured phase, metered apart from the attribution
   * @param checkpoints checkpoints completed in the measured phase and the drain
   * @param pendingMessages messages left in the pending-update and ATOMIC queues after the drain
   */
  record Result(
      Spec spec,
      long committed,
      long failed,
      long retries,
      long totalNanos,
      long maxNanos,
      long serialNanos,
      long serialMaxNanos,
      long recordsRead,
      long recordsWritten,
      MeterSnapshot transactions,
      MeterSnapshot background,
      MeterSnapshot all,
      long checkpoints,
      long pendingMessages,
      Duration wallTime) {

    /** Average simulated seconds per committed transaction. */
    double averageSeconds() {
      return committed == 0 ? Double.NaN : totalNanos / 1e9 / committed;
    }

    double maxSeconds() {
      return maxNanos / 1e9;
    }

    /** Average seconds per transaction had its calls been made one by one. */
    double serialSeconds() {
      return committed == 0 ? Double.NaN : serialNanos / 1e9 / committed;
    }

    double serialMaxSeconds() {
      return serialMaxNanos / 1e9;
    }

    /** Whether the transaction and background meters together saw exactly every call. */
    boolean conserved() {
      for (Operation op : Operation.values()) {
        if (!transactions.stats(op).plus(background.stats(op)).equals(all.stats(op))) {
          return false;
        }
      }
      return true;
    }

    /** Dollars per 1,000 committed transactions of {@code part} under {@code prices}. */
    BigDecimal perThousand(MeterSnapshot part, PriceTable prices) {
      if (committed == 0) {
        return BigDecimal.ZERO;
      }
      PriceTable priced =
          spec.profile().equalsIgnoreCase("ec2") ? prices.withoutTransfer() : prices;
      return part.cost(priced)
          .multiply(BigDecimal.valueOf(1000))
          .divide(BigDecimal.valueOf(committed), 6, RoundingMode.HALF_UP);
    }
  }

  private final Spec spec;

  SigmodRun(Spec spec) {
    this.spec = spec;
  }

  /** Runs the spec: loads, warms up, measures, drains; never throws for a failed transaction. */
  Result run() {
    long wallStart = System.nanoTime();
    return spec.mode() == Mode.TIMED ? timed(wallStart) : simulated(wallStart);
  }

  // ---- the two modes ----

  private Result timed(long wallStart) {
    try (ScaledTime time = new ScaledTime(EPOCH, spec.timeScale())) {
      Background background = Background.threads(BACKGROUND_THREADS_PER_CLIENT * spec.clients());
      try {
        Fixture f = new Fixture(time, time, time::threadNanos, background);
        return f.measure(
            wallStart,
            (clients, count, meter, tally) -> runThreads(f, clients, count, meter, tally));
      } finally {
        background.close();
      }
    }
  }

  private Result simulated(long wallStart) {
    ManualClock clock = new ManualClock(EPOCH);
    Background background = Background.simulated();
    long[] now = {0};
    Fixture f = new Fixture(clock, null, () -> now[0], background);
    return f.measure(
        wallStart,
        (clients, count, meter, tally) -> {
          record Next(long at, int client) {}
          PriorityQueue<Next> queue =
              new PriorityQueue<>(
                  (a, b) ->
                      a.at != b.at
                          ? Long.compare(a.at, b.at)
                          : Integer.compare(a.client, b.client));
          long base = now[0];
          for (int c = 0; c < clients.size(); c++) {
            queue.add(new Next(base, c));
          }
          int[] done = new int[clients.size()];
          long spacing = spec.spacing().toNanos();
          long end = base;
          while (!queue.isEmpty()) {
            Next n = queue.poll();
            clock.advance(Duration.ofNanos(n.at - now[0]));
            now[0] = n.at;
            f.transaction(clients.get(n.client), meter, tally, spacing);
            background.runQueued();
            end = Math.max(end, n.at + spacing);
            if (++done[n.client] < count) {
              queue.add(new Next(n.at + spacing, n.client));
            }
          }
          clock.advance(Duration.ofNanos(end - now[0])); // the last transactions end
          now[0] = end;
        });
  }

  private static void runThreads(
      Fixture f, List<Client> clients, int count, CloudMeter meter, Tally tally) {
    ExecutorService pool =
        Executors.newFixedThreadPool(
            clients.size(),
            r -> {
              Thread t = new Thread(r, "sigmod-client");
              t.setDaemon(true);
              return t;
            });
    try {
      List<Future<?>> work = new ArrayList<>();
      for (Client c : clients) {
        work.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < count; i++) {
                    f.transaction(c, meter, tally, -1);
                  }
                }));
      }
      for (Future<?> w : work) {
        w.get();
      }
    } catch (Exception e) {
      throw new IllegalStateException("a client failed: " + e.getMessage(), e);
    } finally {
      pool.shutdownNow();
    }
  }

  // ---- the database, its clients and the measurement ----

  /** Runs {@code count} transactions per client, charging them to {@code meter}. */
  private interface Driver {
    void drive(List<Client> clients, int count, CloudMeter meter, Tally tally);
  }

  /** One client: its handle and its transactions. */
  private record Client(Database db, ComplexOrder orders, RetryPolicy retries) {}

  /** Counts of one phase (thread-safe). */
  private static final class Tally {
    final LongAdder committed = new LongAdder();
    final LongAdder failed = new LongAdder();
    final LongAdder retries = new LongAdder();
    final LongAdder totalNanos = new LongAdder();
    final LongAdder read = new LongAdder();
    final LongAdder written = new LongAdder();
    final AtomicLong maxNanos = new AtomicLong();

    final LongAdder serialNanos = new LongAdder();
    final AtomicLong serialMaxNanos = new AtomicLong();

    void serial(long nanos) {
      serialNanos.add(nanos);
      serialMaxNanos.accumulateAndGet(nanos, Math::max);
    }

    void took(long nanos) {
      totalNanos.add(nanos);
      maxNanos.accumulateAndGet(nanos, Math::max);
    }
  }

  /** The cloud, the loaded bookstore and the client handles of one run. */
  private final class Fixture {
    final Clock clock;
    final Background background;
    final InProcessCloud cloud;
    final CloudMeter load = new CloudMeter();
    final CostAttribution attribution = new CostAttribution(load);
    final SerialLatency serial = new SerialLatency(LatencyProfiles.byName(spec.profile()));
    final CloudMeter all = new CloudMeter();
    final AtomicBoolean latencyOn = new AtomicBoolean();
    final CloudServices services;
    final LongSupplier nanos;

    Fixture(Clock clock, Scheduler scheduler, LongSupplier nanos, Background background) {
      this.clock = clock;
      this.nanos = nanos;
      this.background = background;
      this.cloud = InProcessCloud.builder().seed(spec.seed()).clock(clock).build();
      CallInterceptor latency =
          scheduler == null
              ? passThrough()
              : switchable(
                  new LatencyInterceptor(LatencyProfiles.byName(spec.profile()), scheduler),
                  latencyOn);
      this.services =
          Decorators.wrap(
              cloud.services(), attribution, serial, new MeteringInterceptor(all), latency);
    }

    Result measure(long wallStart, Driver driver) {
      try (Database loader = open("loader", null)) {
        BookstoreSchema.install(loader);
        new DataGenerator(loader, spec.scale(), spec.seed(), clock).load();
      }
      List<Client> clients = new ArrayList<>();
      try {
        for (int c = 0; c < spec.clients(); c++) {
          long seed = spec.seed() * 1_000_003L + c;
          clients.add(
              new Client(
                  open("client-" + c, background),
                  new ComplexOrder(spec.scale(), seed),
                  RetryPolicy.builder().maxAttempts(5).seed(seed).build()));
        }
        latencyOn.set(true);
        CloudMeter warmUp = new CloudMeter();
        attribution.chargeBackgroundTo(warmUp);
        if (spec.warmUp() > 0) {
          driver.drive(clients, spec.warmUp(), warmUp, new Tally());
          drain(clients);
        }
        CloudMeter transactions = new CloudMeter();
        CloudMeter backgroundMeter = new CloudMeter();
        attribution.chargeBackgroundTo(backgroundMeter);
        MeterSnapshot allBefore = all.snapshot();
        long checkpointsBefore = backgroundCheckpoints(clients);
        Tally tally = new Tally();
        driver.drive(clients, spec.transactions(), transactions, tally);
        long drained = drain(clients);
        long checkpoints = backgroundCheckpoints(clients) - checkpointsBefore + drained;
        MeterSnapshot allAfter = all.snapshot();
        MeterSnapshot tx = transactions.snapshot();
        MeterSnapshot bg = backgroundMeter.snapshot();
        attribution.chargeBackgroundTo(new CloudMeter());
        long pending = pendingMessages();
        return new Result(
            spec,
            tally.committed.sum(),
            tally.failed.sum(),
            tally.retries.sum(),
            tally.totalNanos.sum(),
            tally.maxNanos.get(),
            tally.serialNanos.sum(),
            tally.serialMaxNanos.get(),
            tally.read.sum(),
            tally.written.sum(),
            tx,
            bg,
            allAfter.minus(allBefore),
            checkpoints,
            pending,
            Duration.ofNanos(System.nanoTime() - wallStart));
      } finally {
        for (Client c : clients) {
          c.db().close();
        }
      }
    }

    /**
     * Runs one planned transaction for {@code c}, charged to {@code meter}; {@code spacing} is
     * its simulated duration, or negative to measure it on the clock.
     */
    void transaction(Client c, CloudMeter meter, Tally tally, long spacing) {
      ComplexOrder.Plan plan = c.orders().next();
      long started = nanos.getAsLong();
      long[] attempts = {0};
      LongAdder serialNanos = new LongAdder();
      ComplexOrder.Outcome o = null;
      for (int draws = 0; o == null && draws < ORDER_ID_DRAWS; draws++) {
        try {
          o =
              attribution.charge(
                  meter,
                  () ->
                      serial.measure(
                          serialNanos,
                          () ->
                              c.db()
                                  .run(
                                      c.retries(),
                                      tx -> {
                                        attempts[0]++;
                                        return c.orders().execute(tx, plan, clock.millis());
                                      })));
        } catch (DuplicateKeyException e) {
          // another client drew the same order id: run again with a new one
        } catch (StratusException e) {
          break; // retries used up, or a failure that says nothing about retrying
        }
      }
      tally.retries.add(Math.max(0, attempts[0] - 1));
      if (o == null) {
        tally.failed.increment();
        return;
      }
      tally.committed.increment();
      tally.read.add(o.recordsRead());
      tally.written.add(o.recordsWritten());
      tally.serial(serialNanos.sum());
      tally.took(spacing >= 0 ? spacing : nanos.getAsLong() - started);
    }

    Database open(String clientId, Background executor) {
      DatabaseConfig.Builder b =
          BookstoreSchema.configure(DatabaseConfig.builder(services, DATABASE))
              .protocol(spec.protocol())
              .pageSize(spec.pageSize())
              .ttl(spec.ttl())
              .poolBytes(POOL_BYTES)
              .clock(clock)
              .clientId(clientId);
      if (spec.protocol().accepts(ProtocolOption.CHECKPOINTS)) {
        b.checkpointInterval(spec.checkpointInterval()).checkpointSeed(spec.seed());
        if (executor != null) {
          b.checkpointExecutor(executor);
        }
      }
      return Database.open(b.build());
    }

    /**
     * Applies everything pending: waits for background work, then checkpoints every handle's
     * queues until a round finds nothing to do; returns the checkpoints the drain ran.
     */
    long drain(List<Client> clients) {
      background.awaitIdle();
      latencyOn.set(false); // the drain is charged, not timed
      try {
        return drainRounds(clients);
      } finally {
        latencyOn.set(true);
      }
    }

    private long drainRounds(List<Client> clients) {
      long checkpoints = 0;
      for (int round = 0; round < 20; round++) {
        background.awaitIdle();
        long applied = 0;
        boolean quiescent = true;
        for (Client c : clients) {
          CheckpointSummary s = c.db().admin().checkpointAll();
          background.awaitIdle();
          checkpoints += s.checkpoints();
          applied += s.recordsApplied();
          quiescent &= s.quiescent();
        }
        if (quiescent && applied == 0) {
          break;
        }
      }
      return checkpoints;
    }

    long backgroundCheckpoints(List<Client> clients) {
      return clients.stream().mapToLong(c -> c.db().stats().checkpointsRun()).sum();
    }

    /**
     * Messages left in the database's pending-update and ATOMIC queues, received through the
     * undecorated services (neither metered nor delayed).
     */
    long pendingMessages() {
      SimpleQueueService queues = cloud.services().simpleQueues();
      StorageLayout layout = new StorageLayout(DATABASE);
      long n = 0;
      for (String prefix : List.of(layout.pendingUpdatePrefix(), layout.atomicPrefix())) {
        for (String uri : queues.listQueues(prefix).join()) {
          for (List<QueueMessage> got = receive(queues, uri);
              !got.isEmpty();
              got = receive(queues, uri)) {
            n += got.size();
          }
        }
      }
      return n;
    }

    private List<QueueMessage> receive(SimpleQueueService queues, String uri) {
      return queues.receive(uri, queues.limits().maxBatchSize(), Duration.ofHours(1)).join();
    }
  }

  /**
   * Where the handles' background work runs. Timed runs: a pool of threads whose idleness can be
   * awaited. Simulated runs: a queue that the driver empties on its own thread right after the
   * transaction that filled it ({@link #runQueued}), so that every checkpoint runs when it is due,
   * however many are due: the sweep measures the interval, not the capacity of a thread pool.
   */
  static final class Background implements Executor {
    private final ExecutorService pool;
    private final ConcurrentLinkedQueue<Runnable> queued = new ConcurrentLinkedQueue<>();
    private final Object lock = new Object();
    private int inFlight;

    private Background(ExecutorService pool) {
      this.pool = pool;
    }

    static Background threads(int workers) {
      return new Background(
          Executors.newFixedThreadPool(
              workers,
              r -> {
                Thread t = new Thread(r, "sigmod-background");
                t.setDaemon(true);
                return t;
              }));
    }

    static Background simulated() {
      return new Background(null);
    }

    @Override
    public void execute(Runnable task) {
      if (pool == null) {
        queued.add(task);
        return;
      }
      synchronized (lock) {
        inFlight++;
      }
      pool.execute(
          () -> {
            try {
              task.run();
            } finally {
              synchronized (lock) {
                inFlight--;
                lock.notifyAll();
              }
            }
          });
    }

    /** Simulated runs: runs the queued tasks, and those they queue, on this thread. */
    void runQueued() {
      for (Runnable t = queued.poll(); t != null; t = queued.poll()) {
        t.run();
      }
    }

    /** Returns once no task is queued or running; queued tasks run on this thread. */
    void awaitIdle() {
      runQueued();
      synchronized (lock) {
        while (inFlight > 0) {
          try {
            lock.wait();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while draining", e);
          }
        }
      }
    }

    void close() {
      if (pool != null) {
        pool.shutdownNow();
      }
    }
  }

  private static CallInterceptor passThrough() {
    return new CallInterceptor() {
      @Override
      public <T> CompletableFuture<T> intercept(
          Call<T> call, Supplier<CompletableFuture<T>> proceed) {
        return proceed.get();
      }
    };
  }

  /** {@code latency} while {@code on}; loading is not delayed. */
  private static CallInterceptor switchable(CallInterceptor latency, AtomicBoolean on) {
    return new CallInterceptor() {
      @Override
      public <T> CompletableFuture<T> intercept(
          Call<T> call, Supplier<CompletableFuture<T>> proceed) {
        return on.get() ? latency.intercept(call, proceed) : proceed.get();
      }
    };
  }

  @Override
  public String toString() {
    return "SigmodRun["
        + spec.protocol().name().toLowerCase(Locale.ROOT)
        + ", "
        + spec.mode()
        + "]";
  }
}
