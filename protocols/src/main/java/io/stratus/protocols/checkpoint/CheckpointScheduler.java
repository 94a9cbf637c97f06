package io.stratus.protocols.checkpoint;

import io.stratus.cloudapi.decorate.SimulatedCrashException;
import io.stratus.pagemanager.BufferPool;
import io.stratus.pagemanager.Page;
import io.stratus.protocols.BackgroundFailures;
import io.stratus.protocols.Pause;
import io.stratus.protocols.ProtocolContext;
import io.stratus.protocols.log.PuQueues;
import io.stratus.protocols.log.PuQueues.Target;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.StringJoiner;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;
import org.jspecify.annotations.Nullable;

/**
 * The checkpoint strategy of paper 000, section 4.5: writers, and readers in exceptional cases,
 * start checkpoints; checkpoints never run on the application's thread but on the checkpoint
 * executor ({@link BackgroundWork}: the context's, or a pool of {@link #THREADS} daemon threads owned
 * and shut down here).
 *
 * <ul>
 *   <li><b>Writer</b>: after a commit, for each data page and tree it sent records to, if
 *       |now - last checkpoint| exceeds the checkpoint interval (the absolute value, as the paper
 *       says, so a clock far off in either direction still triggers), a checkpoint is scheduled.
 *       The last checkpoint time is the data page's, or the tree root's tree time ({@link
 *       CheckpointTimes}), as this client's pool has them (no extra request).
 *   <li><b>Reader</b>: a transaction that reads a data page or a tree root whose last checkpoint
 *       is x &gt; interval ago schedules one with probability interval / x, drawn from a random
 *       seeded by the checkpoint settings (so a test replays from its seed). The longer a page has
 *       gone unchecked, the less likely it has pending updates.
 * </ul>
 *
 * <p><b>Owed checkpoints</b> (beyond the paper). The two rules above only fire when somebody
 * touches the page again; a record committed to a page nobody reads or writes afterwards waited
 * for an operator's checkpoint, and a queue deletes messages older than its retention (SQS: at
 * most 14 days), so such a record could be lost although its commit returned. So the writer owes
 * a checkpoint to every queue it sent to: it remembers the queue with the time of its first
 * record not yet covered by a checkpoint of its own and the number of its last send there, and a
 * <em>sweep</em> schedules one for each queue owed longer than the interval. A queue leaves the
 * list when a checkpoint of its own that began after that last send left nothing in the queue:
 * completed, deferred nothing and ended its receiving on {@link #EMPTY_RECEIVES_TO_CLEAR} empty
 * receives in a row (one that another client holds does not count). A run that stopped at the
 * record limit is followed by another at once. Sweeps run after each commit and read (they cost a
 * look at the earliest due time unless one is due) and, when this scheduler owns its threads, on a
 * timer armed only while something is owed: an idle handle, or one whose records are all
 * checkpointed, sets no timer and makes no request. So a record committed by a handle that stays
 * open is checkpointed within about two intervals (and the retries a busy or failing queue needs),
 * whoever touches its page. With an executor handed in the embedding owns background timing:
 * sweeps then run only with commits, reads and {@link #sweep} (what tests drive with their
 * clocks). A graceful close pays what is left ({@link #settle}).
 *
 * <p>At most one checkpoint per queue is scheduled or running per client at a time. Failures of a
 * scheduled checkpoint are logged and counted; the records stay queued for a later one.
 */
public final class CheckpointScheduler implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(CheckpointScheduler.class.getName());

  /** Threads of the owned executor: checkpoints mostly wait for the cloud, so more than cores. */
  static final int THREADS = 4;

  /**
   * How many receives in a row must come back empty before a run of an owed queue counts as having
   * left nothing of this handle's records: 3, as {@code checkpointAll} does. A queue may answer a
   * receive with nothing although messages wait (SQS's short polling asks some of its servers).
   */
  public static final int EMPTY_RECEIVES_TO_CLEAR = 3;

  /** A reader-side chance below which no draw is made (one in ten million reads). */
  static final double NEGLIGIBLE_CHANCE = 1e-7;

  /** Rounds in a row without progress after which {@link #settle} gives up. */
  static final int SETTLE_IDLE_ROUNDS = 5;

  /** The first pause of {@link #settle} after a round without progress; it doubles. */
  static final long SETTLE_PAUSE_MILLIS = 50;

  private final Checkpointer checkpointer;
  private final Pause pause;
  private final PuQueues names;

  /** The tree whose root a page read is ({@link #onRead}). */
  private final RootMemo roots;

  private final BufferPool pool;
  private final Clock clock;
  private final BackgroundFailures failures;
  private final long intervalMillis;

  private final BackgroundWork background;
  private final Random random;
  private final Set<String> scheduled = ConcurrentHashMap.newKeySet();

  /** Queues this handle sent records to that no checkpoint of its own has covered yet. */
  private final ConcurrentHashMap<Target, Debt> owed = new ConcurrentHashMap<>();

  /**
   * Numbers this handle's sends in the order their records reached their queues (a send is
   * numbered once it completed): a run that reads the number before it receives covers every send
   * numbered up to it, and none after, whatever the clock says.
   */
  private final AtomicLong sends = new AtomicLong();

  /** Requests to run at the next sweep ({@link #retryAtNextSweep}). */
  private final ConcurrentLinkedQueue<Runnable> retries = new ConcurrentLinkedQueue<>();

  /** The earliest time a sweep has work: the oldest owed time plus the interval. */
  private final AtomicLong nextDue = new AtomicLong(Long.MAX_VALUE);

  /** Runs sweeps while something is owed; null unless this scheduler owns its threads. */
  private final @Nullable ScheduledExecutorService timer;

  private final AtomicBoolean timerArmed = new AtomicBoolean();
  private final AtomicLong ran = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();

  /** How long a flush waits for a checkpoint of the same queue this process is running. */
  private final long lockTimeoutMillis;

  /** The most a close spends on running work and owed checkpoints. */
  private final long closeTimeoutMillis;

  public CheckpointScheduler(ProtocolContext ctx, Checkpointer checkpointer, PuQueues names) {
    this.checkpointer = checkpointer;
    this.names = names;
    this.roots = new RootMemo(names::rootOf);
    this.pool = ctx.bufferPool();
    this.clock = ctx.clock();
    this.pause = ctx.pause();
    this.failures = new BackgroundFailures(LOG, ctx.clock());
    this.intervalMillis = ctx.checkpointInterval().toMillis();
    this.random = new Random(ctx.checkpoints().seed());
    this.closeTimeoutMillis = ctx.checkpoints().closeTimeout().toMillis();
    this.lockTimeoutMillis = ctx.checkpoints().lockTimeout().toMillis();
    this.background = new BackgroundWork(ctx, "checkpoint", THREADS);
    this.timer =
        !background.ownsThreads()
            ? null
            : Executors.newSingleThreadScheduledExecutor(
                r -> {
                  Thread t = new Thread(r, "stratus-checkpoint-sweep-" + ctx.clientId());
                  t.setDaemon(true);
                  return t;
                });
  }

  /**
   * What this handle owes one queue.
   *
   * @param sinceMillis when the oldest of its records no checkpoint of this handle has covered was
   *     sent (or a little earlier): the debt is due an interval after it
   * @param lastSend the number of the handle's last send to the queue
   */
  private record Debt(long sinceMillis, long lastSend) {
    Debt plus(long send) {
      return new Debt(sinceMillis, Math.max(lastSend, send));
    }
  }

  /** Writer side: called after a commit's records reached the queues of {@code targets}. */
  public void afterCommit(Collection<Target> targets) {
    long now = clock.millis();
    long send = sends.incrementAndGet();
    for (Target t : targets) {
      boolean[] fresh = {false};
      owed.compute(
          t,
          (k, old) -> {
            fresh[0] = old == null;
            return fresh[0] ? new Debt(now, send) : old.plus(send);
          });
      if (fresh[0]) {
        nextDue.accumulateAndGet(now + intervalMillis, Math::min);
      }
    }
    armTimer();
    sweepIfDue(now);
    for (Target t : targets) {
      Optional<Long> last;
      try {
        last = lastCheckpoint(t);
      } catch (RuntimeException e) {
        continue; // the commit has happened; a checkpoint decision is not worth failing it
      }
      if (last.isPresent() && Math.abs(now - last.get()) > intervalMillis) {
        schedule(t);
      }
    }
  }

  /** The time of this scheduler's clock, for {@link #onRead}. */
  public long now() {
    return clock.millis();
  }

  /**
   * Reader side: called for every page a transaction reads, with the time of the read ({@link
   * #now}, or a time the caller read for an earlier page of the same transaction: a read at a
   * time a little old only draws a little less often). A queue's {@link Target} is made only when
   * the page is due and the draw picks it: this runs on every page of every read, cached or not.
   */
  public void onRead(Page page, long now) {
    sweepIfDue(now);
    if (names.isDataPage(page)) {
      double chance = chance(now, CheckpointTimes.orNever(page).pageMillis());
      if (chance > 0 && random.nextDouble() < chance) {
        schedule(new Target(PuQueues.Kind.DATA_PAGE, page.uri()));
      }
    }
    Optional<Target> tree = roots.treeOf(page);
    if (tree.isPresent()) {
      double chance = chance(now, CheckpointTimes.orNever(page).treeMillis());
      if (chance > 0 && random.nextDouble() < chance) {
        schedule(tree.get()); // does nothing when one is scheduled or running
      }
    }
  }

  /**
   * The chance with which a reader at {@code now} schedules a checkpoint of a queue last
   * checkpointed at {@code lastMillis}: 0 while the interval has not passed, else the interval over
   * the time since, and 0 when that is negligible.
   */
  private double chance(long now, long lastMillis) {
    long x = Math.abs(now - lastMillis);
    if (x <= intervalMillis) {
      return 0;
    }
    // java.util.Random is thread-safe without a lock (a compare-and-set on its seed); every read of
    // a page due for a checkpoint draws, so a lock here made request threads queue up. A page last
    // checkpointed ages ago (never: time 0) has a chance so small that drawing for it would only
    // cost every read a compare-and-set on the shared seed. The draw comes before the check of
    // the scheduled set, which needs the queue's name (a new string) on every read.
    double chance = (double) intervalMillis / x;
    return chance >= NEGLIGIBLE_CHANCE ? chance : 0;
  }

  private Optional<Long> lastCheckpoint(Target t) {
    return switch (t.kind()) {
      case DATA_PAGE -> pool.fetch(t.uri()).map(p -> CheckpointTimes.of(p).pageMillis());
      case PRIMARY_TREE, INDEX_TREE ->
          pool.fetch(t.uri()).map(p -> CheckpointTimes.of(p).treeMillis());
    };
  }

  /**
   * Schedules a checkpoint of every queue owed for longer than the interval (see the class
   * comment); returns how many it scheduled.
   */
  public int sweep() {
    long now = clock.millis();
    long next = Long.MAX_VALUE;
    int n = 0;
    for (Runnable r = retries.poll(); r != null; r = retries.poll()) {
      r.run(); // a request for work on the executor, which may ask again if it fails again
    }
    for (Map.Entry<Target, Debt> e : owed.entrySet()) {
      long due = e.getValue().sinceMillis() + intervalMillis;
      if (due <= now) {
        n += schedule(e.getKey()) ? 1 : 0;
        due = now + intervalMillis; // not before the next interval, unless it completes first
      }
      next = Math.min(next, due);
    }
    nextDue.set(next);
    return n;
  }

  /**
   * Runs {@code request} at the next sweep, an interval from now at the latest while this
   * scheduler owns its threads (else with the next commit, read or {@link #sweep}): background
   * work that failed, such as a propagation, asks for itself again this way rather than at once
   * (a service that refuses now likely refuses a moment later) or never (a handle that commits
   * nothing more would leave it for good). {@code request} must be quick: it should hand work to
   * the executor, not do it.
   */
  public void retryAtNextSweep(Runnable request) {
    if (background.closed()) {
      return;
    }
    retries.add(request);
    nextDue.accumulateAndGet(clock.millis() + intervalMillis, Math::min);
    armTimer();
  }

  /** Queues this handle owes a checkpoint (sent to, not yet covered by a checkpoint of its own). */
  public int owedQueues() {
    return owed.size();
  }

  private void sweepIfDue(long now) {
    if (now >= nextDue.get()) {
      sweep();
    }
  }

  /** Arms the timer when something is owed and it is not armed; it disarms when nothing is. */
  private void armTimer() {
    if (timer == null
        || background.closed()
        || (owed.isEmpty() && retries.isEmpty())
        || !timerArmed.compareAndSet(false, true)) {
      return;
    }
    // At the earliest due time, and at least once an interval: a debt kept by a run that saw
    // later sends comes due an interval after that run began, not after the last sweep.
    long delay = Math.max(1, Math.min(intervalMillis, nextDue.get() - clock.millis()));
    try {
      timer.schedule(this::onTimer, delay, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      timerArmed.set(false);
    }
  }

  private void onTimer() {
    timerArmed.set(false);
    try {
      sweep();
    } catch (RuntimeException e) {
      failures.report("checkpoint sweep", "sweeping owed checkpoints failed", e);
    }
    armTimer();
  }

  /** Schedules a checkpoint of {@code t} unless one is scheduled or running; whether it did. */
  public boolean schedule(Target t) {
    String queue = names.queueOf(t);
    if (background.closed() || !scheduled.add(queue)) {
      return false;
    }
    boolean taken =
        background.execute(
            () -> {
              boolean again = false;
              try {
                again = runScheduled(t);
              } catch (RuntimeException e) {
                failed.incrementAndGet();
                failures.report(
                    "checkpoint",
                    "checkpoint of "
                        + queue
                        + " failed; its records stay"
                        + " queued until a later checkpoint",
                    e);
              } finally {
                scheduled.remove(queue);
              }
              if (again) {
                schedule(t);
              }
            });
    if (!taken) {
      scheduled.remove(queue);
    }
    return taken;
  }

  /**
   * One scheduled checkpoint of {@code t}; whether another should follow at once: this one
   * stopped at the record limit having taken records out, so more may wait, and an owed queue
   * with more than a run's worth would otherwise take an interval per run.
   */
  private boolean runScheduled(Target t) {
    Checkpointer.Outcome o = runOwing(t, checkpointer::run);
    ran.incrementAndGet();
    if (!o.leftNothing() && !o.busy()) { // busy: another run applies the records
      failed.incrementAndGet();
    }
    return o.completed() && !o.drained() && o.received() > o.deferred();
  }

  /**
   * Checkpoints {@code t} once on the calling thread, after any checkpoint of it this process is
   * running (waiting at most a lock timeout), and settles this handle's debt to the queue by the
   * outcome as a background run does: what an operator's flush ({@code checkpointAll}) runs, so
   * that a flushed handle owes nothing.
   *
   * @throws io.stratus.cloudapi.CloudException when a cloud call fails
   */
  public Checkpointer.Outcome runNow(Target t) {
    return runOwing(
        t, (target, empties) -> checkpointer.runAfterOthers(target, empties, lockTimeoutMillis));
  }

  /**
   * Runs a checkpoint of {@code t} through {@code run} and settles this handle's debt to the queue
   * by its outcome. The sends the debt counts are numbered after their records reached the queue,
   * and the number reached so far is read before the run's first receive: a run that left nothing
   * ({@link Checkpointer.Outcome#leftNothing()}) therefore saw every record of the sends numbered
   * up to it, and clears the debt when its last send is among them. A send numbered after keeps
   * the queue owed, due an interval after the run began (a run that compared times instead cleared
   * the debt of records sent while it applied what it had received). An owed queue is received
   * until {@link #EMPTY_RECEIVES_TO_CLEAR} receives in a row came back empty, since one empty
   * receive does not mean an empty queue.
   */
  private Checkpointer.Outcome runOwing(
      Target t, BiFunction<Target, Integer, Checkpointer.Outcome> run) {
    long covered = sends.get();
    long startedAt = clock.millis();
    Checkpointer.Outcome o = run.apply(t, owed.containsKey(t) ? EMPTY_RECEIVES_TO_CLEAR : 1);
    if (o.leftNothing()) {
      Debt left =
          owed.computeIfPresent(
              t,
              (k, d) ->
                  d.lastSend() <= covered
                      ? null
                      : new Debt(Math.max(d.sinceMillis(), startedAt), d.lastSend()));
      if (left != null) {
        nextDue.accumulateAndGet(left.sinceMillis() + intervalMillis, Math::min);
      }
    }
    return o;
  }

  /**
   * Runs {@code task} on the checkpoint executor (the atomic protocol's propagation); false when
   * closed or rejected, and the task then did not run.
   */
  public boolean execute(Runnable task) {
    return background.execute(
        () -> {
          try {
            task.run();
          } catch (RuntimeException e) {
            // Background work must not kill its thread; what it did not finish is retried later
            // (or, once closed, was cut short on purpose).
            LOG.log(background.closed() ? Level.DEBUG : Level.WARNING, "background task failed", e);
          }
        });
  }

  public long checkpointsRun() {
    return ran.get();
  }

  public long checkpointsFailed() {
    return failed.get();
  }

  /** {@link #stop} with the close timeout from now. */
  @Override
  public void close() {
    stop(clock.millis() + closeTimeoutMillis);
  }

  /**
   * Stops taking background work and lets what runs finish until {@code deadlineMillis} (on the
   * handle's clock), then interrupts it. Running work is let finish rather than interrupted: a
   * checkpoint or clean-up cut short leaves the messages it received hidden for a whole visibility
   * timeout, and a reader right after a graceful close would miss acknowledged writes; it is
   * bounded by its lease. Idempotent.
   */
  public void stop(long deadlineMillis) {
    background.stopTaking(); // queued tasks that have not started skip themselves
    if (timer != null) {
      timer.shutdownNow();
    }
    if (!background.stop(deadlineMillis)) {
      LOG.log(
          Level.WARNING,
          "background checkpoint work still running when the close timeout ("
              + closeTimeoutMillis
              + " ms) ran out; interrupted: the messages it had received stay hidden for up to"
              + " the checkpoint lock timeout");
    }
  }

  /**
   * For a graceful close, after {@link #stop}: checkpoints every queue this handle still owes, on
   * the calling thread, until each is paid (as a background run pays it) or {@code deadlineMillis}
   * passes on the handle's clock, so that a handle opened next sees everything this one
   * committed. No run starts after the deadline; one running then ends within its lease. A queue
   * whose checkpoint fails, finds another client's checkpoint holding it, or applies nothing (its
   * records wait for a missing earlier record of their writer) is tried again in the next round,
   * after a pause that doubles from {@link #SETTLE_PAUSE_MILLIS}; after {@link #SETTLE_IDLE_ROUNDS}
   * rounds in a row without progress the close gives up. What is left is logged as a warning and
   * stays in {@link #owedQueues()}.
   *
   * @return how many queues are still owed
   */
  public int settle(long deadlineMillis) {
    int idle = 0;
    @Nullable RuntimeException lastFailure = null;
    @Nullable String lastWhy = null;
    while (!owed.isEmpty() && idle < SETTLE_IDLE_ROUNDS && clock.millis() < deadlineMillis) {
      boolean progress = false;
      for (Target t : List.copyOf(owed.keySet())) {
        if (clock.millis() >= deadlineMillis) {
          break;
        }
        try {
          long wait = Math.max(0, deadlineMillis - clock.millis()); // for a running one here
          Checkpointer.Outcome o =
              runOwing(t, (target, empties) -> checkpointer.runAfterOthers(target, empties, wait));
          progress |= !owed.containsKey(t) || o.tookRecords();
          if (!o.leftNothing()) {
            lastWhy =
                o.deferred() > 0 ? "records wait for an earlier record of their writer" : o.why();
          }
        } catch (SimulatedCrashException e) {
          return owed.size(); // the process died: it does no more work
        } catch (RuntimeException e) {
          lastFailure = e;
          lastWhy = "a checkpoint failed (" + e.getMessage() + ")";
        }
      }
      idle = progress ? 0 : idle + 1;
      if (!progress && !owed.isEmpty() && idle < SETTLE_IDLE_ROUNDS && !pauseAfter(idle)) {
        break;
      }
    }
    int left = owed.size();
    if (left > 0) {
      warnLeft(left, clock.millis() >= deadlineMillis ? null : lastWhy, lastFailure);
    }
    return left;
  }

  /** Waits before the next round of {@link #settle}; false when interrupted. */
  private boolean pauseAfter(int idle) {
    pause.pause(Duration.ofMillis(SETTLE_PAUSE_MILLIS << (idle - 1)));
    return !Thread.currentThread().isInterrupted();
  }

  /**
   * Warns that {@code left} queues stay owed: because of {@code why}, or the close timeout when
   * null; {@code cause} is the last failure, if any.
   */
  private void warnLeft(int left, @Nullable String why, @Nullable RuntimeException cause) {
    StringJoiner queues = new StringJoiner(", ");
    owed.keySet().stream().limit(5).forEach(t -> queues.add(names.queueOf(t)));
    LOG.log(
        Level.WARNING,
        "closing the handle left records it committed unapplied in "
            + left
            + (left == 1 ? " queue (" : " queues (")
            + queues
            + (left > 5 ? ", ..." : "")
            + "): "
            + (why == null
                ? "the close timeout (" + closeTimeoutMillis + " ms) ran out"
                : why + ", and retrying did not help")
            + ". They stay queued until a checkpoint applies them: another client's"
            + " checkpointAll (bin/stratus checkpoint-all), or readers of their pages. Raise"
            + " DatabaseConfig.Builder.closeTimeout to let close wait longer;"
            + " DatabaseStats.owedCheckpoints counts the queues.",
        cause);
  }
}
