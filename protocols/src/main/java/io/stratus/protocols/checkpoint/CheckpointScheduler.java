package io.stratus.protocols.checkpoint;

import io.stratus.pagemanager.BufferPool;
import io.stratus.pagemanager.Page;
import io.stratus.protocols.ProtocolContext;
import io.stratus.protocols.log.PuQueues.Target;
import io.stratus.protocols.log.PuQueues;
import java.lang.System.Logger.Level;
import io.stratus.protocols.BackgroundFailures;
import java.time.Clock;
import java.util.Collection;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
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
  private final Executor executor;
  private final ExecutorService owned;
  private final Random random;
  private final Set<String> scheduled = ConcurrentHashMap.newKeySet();
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
    this.random = new Random(ctx.checkpoints().seed());
    this.closeWaitMillis = ctx.checkpoints().lockTimeout().toMillis() + 5_000;
    if (ctx.checkpointExecutor() != null) {
      this.executor = ctx.checkpointExecutor();
      this.owned = null;
    } else {
      this.owned = ctx.newDaemonPool("checkpoint", THREADS);
      this.executor = owned;
    }
  }

  /** Writer side: called after a commit sent records to {@code targets}. */
  public void afterCommit(Collection<Target> targets) {
    long now = clock.millis();
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

  /** Schedules a checkpoint of {@code t} unless one is scheduled or running; whether it did. */
  public boolean schedule(Target t) {
    String queue = names.queueOf(t);
    if (closed || !scheduled.add(queue)) {
      return false;
    }
    try {
      executor.execute(() -> {
        try {
          if (!closed) {
            Checkpointer.Outcome o = checkpointer.run(t);
            ran.incrementAndGet();
            if (!o.completed() && !o.busy()) { // busy: another run applies the records
              failed.incrementAndGet();
            }
          }
        } catch (RuntimeException e) {
          failed.incrementAndGet();
          failures.report("checkpoint", "checkpoint of " + queue + " failed; its records stay"
              + " queued until a later checkpoint", e);
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
      executor.execute(() -> {
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
    if (owned != null) {
      // Running work is let finish, not interrupted: a checkpoint or clean-up cut short leaves
      // the messages it received hidden for a whole visibility timeout, and a reader right after
      // a graceful close would miss acknowledged writes. It is bounded by its lease.
      owned.shutdown();
      try {
        if (!owned.awaitTermination(closeWaitMillis, TimeUnit.MILLISECONDS)) {
          owned.shutdownNow();
          LOG.log(Level.WARNING, "background checkpoint work still running "
              + closeWaitMillis + " ms after close; interrupted");
          owned.awaitTermination(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        owned.shutdownNow();
        Thread.currentThread().interrupt();
      }
    }
  }
}
