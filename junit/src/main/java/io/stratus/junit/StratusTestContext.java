package io.stratus.junit;

import io.stratus.InvalidConfigurationException;
import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.decorate.Call;
import io.stratus.cloudapi.decorate.CallInterceptor;
import io.stratus.cloudapi.decorate.Decorators;
import io.stratus.cloudapi.decorate.FaultInterceptor;
import io.stratus.cloudapi.decorate.FaultPlan;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.cloudapi.time.ManualClock;
import io.stratus.core.Database;
import io.stratus.core.DatabaseConfig;
import io.stratus.core.RetryPolicy;
import io.stratus.protocols.ProtocolOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * One test's world under {@link StratusTest}: an in-process cloud, the manual clock everything
 * reads, the seed of every random choice, the fault interceptor of the annotation's fault knobs,
 * and the database handles the test opened (closed by the extension after the test, after its
 * {@code @AfterEach} methods).
 *
 * <p>{@link #database()} is the test's handle, the one a {@code Database} parameter receives. A
 * test that needs more — a second client, a restarted instance, other settings or faults — takes
 * a builder from {@link #config()} (or {@link #config(CloudServices)} for services of its own,
 * such as the cloud behind a {@link FaultInterceptor} with another {@link FaultPlan}), changes it,
 * and opens it with {@link #open}.
 *
 * <p>Faults of the annotation's knobs start once a handle from {@link #config()} has opened, so
 * that every test starts from a working database; from then on they hit every call of that
 * handle, its checkpoints' calls included. Retries wait on the manual clock: a back-off moves
 * it forward instead of sleeping.
 *
 * <p>Thread-safe: the test's threads may share the handles and call every method.
 */
public final class StratusTestContext {
  private final StratusTest settings;
  private final long seed;
  private final ManualClock clock = new ManualClock();
  private final InProcessCloud cloud;
  private final FaultInterceptor faults;
  private final Object lock = new Object();
  private final List<Database> opened = new ArrayList<>();

  /** Builders from config() not opened yet, each with its gate (found by identity). */
  private final List<Gated> unopened = new ArrayList<>();

  private int clients;
  private @Nullable Database database;

  StratusTestContext(StratusTest settings, long seed) {
    this.settings = settings;
    this.seed = seed;
    this.cloud = InProcessCloud.builder().clock(clock).seed(seed).build();
    this.faults = new FaultInterceptor(plan(settings), seed, clock);
  }

  private static FaultPlan plan(StratusTest settings) {
    FaultPlan.Builder plan = FaultPlan.builder();
    try {
      // != 0 rather than > 0: a negative or NaN rate reaches the plan, which refuses it.
      if (settings.failureRate() != 0) {
        plan.fail(FaultPlan.Selector.all(), settings.failureRate());
      }
      if (settings.lostReplyRate() != 0) {
        plan.loseReply(FaultPlan.Selector.all(), settings.lostReplyRate());
      }
    } catch (IllegalArgumentException e) {
      throw new InvalidConfigurationException(
          "@StratusTest(failureRate = "
              + settings.failureRate()
              + ", lostReplyRate = "
              + settings.lostReplyRate()
              + "): each rate must be a probability from 0 to 1 ("
              + e.getMessage()
              + ")");
    }
    return plan.build();
  }

  /** The seed of every random choice of this test; a failing test reports it. */
  public long seed() {
    return seed;
  }

  /** The clock of the cloud and of every handle from {@link #config()}; it stands still. */
  public ManualClock clock() {
    return clock;
  }

  /** The test's cloud, for its own knobs (e.g. {@link InProcessCloud#restartLockService()}). */
  public InProcessCloud cloud() {
    return cloud;
  }

  /**
   * The interceptor of the annotation's fault knobs, shared by the handles from {@link #config()}:
   * the faults it injected, and {@link FaultInterceptor#killClient()} to let those handles' calls
   * fail as if their process had died.
   */
  public FaultInterceptor faults() {
    return faults;
  }

  /**
   * A configuration of a new handle on the test's cloud, with the annotation's protocol, database
   * URI and fault knobs, this test's clock, a retry policy seeded with the test's seed that waits
   * on that clock, checkpoints run on the calling thread (protocols with checkpoints), and a
   * client id of its own ({@code client-1}, {@code client-2}, ... in the order of the calls);
   * change what the test needs and open it with {@link #open}. Name the protocol on the
   * annotation rather than on the builder: naive, which has no checkpoints, refuses the
   * checkpoint setting another protocol's builder carries.
   */
  public DatabaseConfig.Builder config() {
    Gate gate = new Gate(faults);
    DatabaseConfig.Builder b = config(Decorators.wrap(cloud.services(), gate));
    synchronized (lock) {
      unopened.add(new Gated(b, gate));
    }
    return b;
  }

  /**
   * As {@link #config()}, on {@code services} as they are (no fault knobs): for a cloud the test
   * decorated itself, e.g. {@code Decorators.wrap(context.cloud().services(), new
   * FaultInterceptor(plan, context.seed(), context.clock()))}.
   */
  public DatabaseConfig.Builder config(CloudServices services) {
    int client;
    synchronized (lock) {
      client = ++clients;
    }
    DatabaseConfig.Builder b =
        DatabaseConfig.builder(services, settings.databaseUri())
            .protocol(settings.protocol())
            .clock(clock)
            .clientId("client-" + client)
            .retryPolicy(
                RetryPolicy.builder()
                    .seed(seed)
                    // A back-off moves the test's clock instead of waiting: nothing in the test
                    // waits for real time, and leases and timeouts see the time pass.
                    .sleeper(clock::advance)
                    .build());
    if (settings.protocol().accepts(ProtocolOption.CHECKPOINTS)) {
      // Checkpoints run on the thread whose commit, read or close found them due, not on
      // threads of their own: a test's cloud calls then come in one order, and its seed
      // replays the same faults on the same calls.
      b.checkpointExecutor(Runnable::run);
    }
    return b;
  }

  /**
   * The test's handle: opened from {@link #config()} at the first call, the same one afterwards.
   */
  public Database database() {
    synchronized (lock) {
      if (database == null) {
        database = open(config());
      }
      return database;
    }
  }

  /** Opens {@code config}; the handle is closed after the test (closing it earlier is fine). */
  public Database open(DatabaseConfig.Builder config) {
    Database db = Database.open(config.build());
    Gate gate = null;
    synchronized (lock) {
      opened.add(db);
      for (int i = 0; i < unopened.size() && gate == null; i++) {
        if (unopened.get(i).builder() == config) {
          gate = unopened.remove(i).gate();
        }
      }
    }
    if (gate != null) {
      gate.open();
    }
    return db;
  }

  /** Closes every handle the test opened, the last opened first. */
  void close() {
    List<Database> handles;
    synchronized (lock) {
      handles = new ArrayList<>(opened);
      opened.clear();
    }
    RuntimeException failure = null;
    for (int i = handles.size() - 1; i >= 0; i--) {
      try {
        handles.get(i).close();
      } catch (RuntimeException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  private record Gated(DatabaseConfig.Builder builder, Gate gate) {}

  /**
   * Lets calls pass untouched until its handle has opened, then through the faults: the handle is
   * known only after {@link Database#open} returned, while its services are fixed before.
   */
  private static final class Gate implements CallInterceptor {
    private final FaultInterceptor faults;
    private volatile boolean open;

    Gate(FaultInterceptor faults) {
      this.faults = faults;
    }

    void open() {
      open = true;
    }

    @Override
    public <T> CompletableFuture<T> intercept(
        Call<T> call, Supplier<CompletableFuture<T>> proceed) {
      return open ? faults.intercept(call, proceed) : proceed.get();
    }
  }
}
