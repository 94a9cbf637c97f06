package io.stratus.protocols.checkpoint;

import io.stratus.pagemanager.BufferPool;
import io.stratus.pagemanager.Page;
import io.stratus.protocols.BackgroundFailures;
import io.stratus.protocols.ProtocolContext;
import io.stratus.protocols.log.PuQueues;
import io.stratus.protocols.log.PuQueues.Target;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The checkpoint strategy of paper 000, section 4.5: writers, and readers in exceptional cases,
 * start checkpoints; checkpoints never run on the application's thread but on the checkpoint
 * executor (the context's, or a pool of {@link #THREADS} daemon threads owned and shut down here).
 *
 * <ul>
 *   <li><b>Writer</b>: after a commit, for each data page and tree it sent records to, if
 *       |now - last checkpoint| exceeds the checkpoint interval (the absolute value, as the paper
 *       says, so a clock far off in either direction still triggers), a checkpoint is scheduled.
 *       The last checkpoint time is the data page's {@code lastCheckpointMillis}, or the tree
 *       root's {@code treeCheckpointMillis}, as this client's pool has them (no extra request).
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
 * record not yet covered by a checkpoint of its own, and a <em>sweep</em> schedules one for each
 * queue owed longer than the interval. A queue leaves the list when a checkpoint this handle
 * started after that time completes (one that another client holds does not count). Sweeps run
 * after each commit and read (they cost a look at the earliest due time unless one is due) and,
 * when this scheduler owns its threads, on a timer armed only while something is owed: an idle
 * handle, or one whose records are all checkpointed, sets no timer and makes no request. So a
 * record committed by a handle that stays open is checkpointed within about two intervals (and
 * the retries a busy or failing queue needs), whoever touches its page. With an executor handed in
 * the embedding owns background timing: sweeps then run only with commits, reads and {@link
 * #sweep} (what tests drive with their clocks).
 *
 * <p>At most one checkpoint per queue is scheduled or running per client at a time. Failures of a
 * scheduled checkpoint are logged and counted; the records stay queued for a later one.
 */
public final class CheckpointScheduler implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(CheckpointScheduler.class.getName());

  /** Threads of the owned executor: checkpoints mostly wait for the cloud, so more than cores. */
  static final int THREADS = 4;

  /** A reader-side chance below which no draw is made (one in ten million reads). */
  static final double NEGLIGIBLE_CHANCE = 1e-7;

  /** How long {@link #close} waits for interrupted background work to stop. */
  private static final long CLOSE_WAIT_SECONDS = 10;

  private final Checkpointer checkpointer;
  private final PuQueues names;
  private final BufferPool pool;
  private final Clock clock;
  private final BackgroundFailures failures;
  private final long intervalMillis;

  /** A run that received this many may have left more in the queue. */
  private final int maxRecords;

  private final Executor executor;
  private final ExecutorService owned;
  private final Random random;
  private final Set<String> scheduled = ConcurrentHashMap.newKeySet();

  /** Queues this handle sent records to, with the time of the first record no checkpoint of
   *  this handle has covered yet. */
  private final ConcurrentHashMap<Target, Long> owed = new ConcurrentHashMap<>();

  /** The earliest time a sweep has work: the oldest owed time plus the interval. */
  private final AtomicLong nextDue = new AtomicLong(Long.MAX_VALUE);

  /** Runs sweeps while something is owed; only when this scheduler owns its threads. */
  private final ScheduledExecutorService timer;

  private final AtomicBoolean timerArmed = new AtomicBoolean();
  private final AtomicLong ran = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private volatile boolean closed;

  /** How long {@link #close} lets running work finish: a checkpoint's lease and a margin. */
  private final long closeWaitMillis;

  public CheckpointScheduler(ProtocolContext ctx, Checkpointer checkpointer, PuQueues names) {
    this.checkpointer = checkpointer;
    this.names = names;
    this.pool = ctx.bufferPool();
    this.clock = ctx.clock();
    this.failures = new BackgroundFailures(LOG, ctx.clock());
    this.intervalMillis = ctx.checkpointInterval().toMillis();
    this.maxRecords = ctx.checkpoints().maxRecordsPerCheckpoint();
    this.random = new Random(ctx.checkpoints().seed());
    this.closeWaitMillis = ctx.checkpoints().lockTimeout().toMillis() + 5_000;
    if (ctx.checkpointExecutor() != null) {
      this.executor = ctx.checkpointExecutor();
      this.owned = null;
    } else {
      this.owned = ctx.newDaemonPool("checkpoint", THREADS);
      this.executor = owned;
    }
    this.timer =
        owned == null
            ? null
            : Executors.newSingleThreadScheduledExecutor(
                r -> {
                  Thread t = new Thread(r, "stratus-checkpoint-sweep-" + ctx.clientId());
                  t.setDaemon(true);
                  return t;
                });
  }

  /** Writer side: called after a commit sent records to {@code targets}. */
  public void afterCommit(Collection<Target> targets) {
    long now = clock.millis();
    for (Target t : targets) {
      if (owed.putIfAbsent(t, now) == null) {
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

  /** Reader side: called for every page a transaction reads. */
  public void onRead(Page page) {
    sweepIfDue(clock.millis());
    if (names.isDataPage(page)) {
      consider(new Target(PuQueues.Kind.DATA_PAGE, page.uri()), page.lastCheckpointMillis());
    }
    Optional<Target> tree = names.rootOf(page);
    if (tree.isPresent()) {
      consider(tree.get(), page.treeCheckpointMillis());
    }
  }

  private void consider(Target t, long lastMillis) {
    long x = Math.abs(clock.millis() - lastMillis);
    if (x <= intervalMillis) {
      return;
    }
    // java.util.Random is thread-safe without a lock (a compare-and-set on its seed); every read of
    // a page due for a checkpoint draws, so a lock here made request threads queue up. A page last
    // checkpointed ages ago (never: time 0) has a chance so small that drawing for it would only
    // cost every read a compare-and-set on the shared seed. The draw comes before the check of
    // the scheduled set, which needs the queue's name (a new string) on every read.
    double chance = (double) intervalMillis / x;
    if (chance >= NEGLIGIBLE_CHANCE && random.nextDouble() < chance) {
      schedule(t); // does nothing when one is scheduled or running
    }
  }

  private Optional<Long> lastCheckpoint(Target t) {
    return switch (t.kind()) {
      case DATA_PAGE -> pool.fetch(t.uri()).map(Page::lastCheckpointMillis);
      case PRIMARY_TREE, INDEX_TREE -> pool.fetch(t.uri()).map(Page::treeCheckpointMillis);
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
    for (Map.Entry<Target, Long> e : owed.entrySet()) {
      long due = e.getValue() + intervalMillis;
      if (due <= now) {
        n += schedule(e.getKey()) ? 1 : 0;
        due = now + intervalMillis; // not before the next interval, unless it completes first
      }
      next = Math.min(next, due);
    }
    nextDue.set(next);
    return n;
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
    if (timer == null || closed || owed.isEmpty() || !timerArmed.compareAndSet(false, true)) {
      return;
    }
    try {
      timer.schedule(this::onTimer, intervalMillis, TimeUnit.MILLISECONDS);
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
    if (closed || !scheduled.add(queue)) {
      return false;
    }
    try {
      executor.execute(
          () -> {
            try {
              if (!closed) {
                long startedAt = clock.millis();
                Checkpointer.Outcome o = checkpointer.run(t);
                ran.incrementAndGet();
                if (o.completed() && o.deferred() == 0 && o.received() < maxRecords) {
                  // What this handle sent before the run started is applied: the run took all it
                  // received and left nothing waiting. Later sends keep the queue owed.
                  owed.computeIfPresent(t, (k, since) -> since <= startedAt ? null : since);
                } else if (!o.busy()) { // busy: another run applies the records
                  failed.incrementAndGet();
                }
              }
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
          });
      return true;
    } catch (RejectedExecutionException e) {
      scheduled.remove(queue);
      return false;
    }
  }

  /**
   * Runs {@code task} on the checkpoint executor (the atomic protocol's propagation); false when
   * closed or rejected, and the task then did not run.
   */
  public boolean execute(Runnable task) {
    if (closed) {
      return false;
    }
    try {
      executor.execute(
          () -> {
            if (closed) {
              return;
            }
            try {
              task.run();
            } catch (RuntimeException e) {
              // Background work must not kill its thread; what it did not finish is retried later
              // (or, once closed, was cut short on purpose).
              LOG.log(closed ? Level.DEBUG : Level.WARNING, "background task failed", e);
            }
          });
      return true;
    } catch (RejectedExecutionException e) {
      return false;
    }
  }

  public long checkpointsRun() {
    return ran.get();
  }

  public long checkpointsFailed() {
    return failed.get();
  }

  @Override
  public void close() {
    closed = true; // queued tasks that have not started skip themselves
    if (timer != null) {
      timer.shutdownNow();
    }
    if (owned != null) {
      // Running work is let finish, not interrupted: a checkpoint or clean-up cut short leaves
      // the messages it received hidden for a whole visibility timeout, and a reader right after
      // a graceful close would miss acknowledged writes. It is bounded by its lease.
      owned.shutdown();
      try {
        if (!owned.awaitTermination(closeWaitMillis, TimeUnit.MILLISECONDS)) {
          owned.shutdownNow();
          LOG.log(
              Level.WARNING,
              "background checkpoint work still running "
                  + closeWaitMillis
                  + " ms after close; interrupted");
          owned.awaitTermination(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        owned.shutdownNow();
        Thread.currentThread().interrupt();
      }
    }
  }
}
