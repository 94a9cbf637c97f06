package io.stratus.protocols.isolation;

import io.stratus.CheckpointSummary;
import io.stratus.InvalidRequestException;
import io.stratus.cloudapi.SupportsConditionalPut;
import io.stratus.protocols.BackgroundFailures;
import io.stratus.protocols.CheckpointWrites;
import io.stratus.protocols.ProtocolContext;
import io.stratus.protocols.checkpoint.BackgroundWork;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * When the isolating protocols apply the archive to the pages: the writer side of paper 000,
 * section 4.5 per tree, and the operator's checkpoint of every tree.
 *
 * <p>Why a part of its own, and not the queue engine's {@link
 * io.stratus.protocols.checkpoint.CheckpointScheduler}: that scheduler serves pending-update
 * queues — it reads a page's last checkpoint time from the page, draws reader-side checkpoints and
 * keeps the queues a handle owes, because a queue deletes what nobody applies within its
 * retention. The archive keeps every commit until a checkpoint collects it, and snapshots read it
 * whether or not it is applied, so none of that is needed here: a tree this handle committed to is
 * checkpointed when this handle's last checkpoint of it is older than the interval, on the
 * handle's {@link BackgroundWork} (the same executor part the scheduler runs on).
 *
 * <p>Thread-safe.
 */
final class ArchiveCheckpoints {
  private static final System.Logger LOG = System.getLogger(ArchiveCheckpoints.class.getName());

  private final Clock clock;
  private final long intervalMillis;
  private final SnapshotArchive archive;
  private final SnapshotCheckpointer checkpointer;
  private final BackgroundWork background;
  private final BackgroundFailures failures;
  private final Map<String, Long> lastCheckpoint = new ConcurrentHashMap<>();
  private final Set<String> queued = ConcurrentHashMap.newKeySet();
  private final AtomicLong run = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();

  /**
   * @param archivedThrough the commit id every record up to which is archived (checkpoints apply
   *     no further)
   * @throws InvalidRequestException the settings ask for conditional checkpoint writes and the
   *     storage has none
   */
  ArchiveCheckpoints(
      ProtocolContext ctx,
      SnapshotArchive archive,
      LongSupplier archivedThrough,
      BackgroundWork background) {
    this.clock = ctx.clock();
    this.intervalMillis = ctx.checkpointInterval().toMillis();
    this.archive = archive;
    this.background = background;
    this.failures = new BackgroundFailures(LOG, clock);
    CheckpointWrites w = ctx.checkpoints().writes();
    boolean conditional = SupportsConditionalPut.of(ctx.services().storage()) != null;
    if (w == CheckpointWrites.CONDITIONAL && !conditional) {
      throw new InvalidRequestException(
          "checkpoint writes CONDITIONAL need storage with" + " conditional puts");
    }
    this.checkpointer =
        new SnapshotCheckpointer(
            ctx,
            archive,
            archivedThrough,
            w == CheckpointWrites.AUTO ? conditional : w == CheckpointWrites.CONDITIONAL);
  }

  /** Writer side: a tree whose last checkpoint by this handle is older than the interval. */
  void afterCommit(Set<String> roots) {
    long now = clock.millis();
    for (String root : roots) {
      Long last = lastCheckpoint.putIfAbsent(root, now);
      if (last == null || now - last < intervalMillis || !queued.add(root)) {
        continue;
      }
      lastCheckpoint.put(root, now);
      background.execute(
          () -> {
            queued.remove(root);
            try {
              run.incrementAndGet();
              checkpointer.run(root);
            } catch (RuntimeException e) {
              failed.incrementAndGet();
              failures.report(
                  "checkpoint",
                  "background checkpoint of "
                      + root
                      + " failed; its records stay queued until a later checkpoint",
                  e);
            }
          });
    }
  }

  /**
   * Checkpoints every tree with an archive up to {@code target}, a few runs each. A tree with a
   * corrupt page is counted as a failure and left as it was; the others are checkpointed all the
   * same.
   *
   * @param recoveryBusy 1 when the recovery before it found another client recovering, else 0
   */
  CheckpointSummary runAll(long target, int recoveryBusy) {
    int trees = 0;
    int runs = 0;
    int busy = 0;
    int damaged = 0;
    long applied = 0;
    long pages = 0;
    List<String> reasons = new ArrayList<>();
    for (String queue : archive.queues()) {
      String root = archive.rootOf(queue);
      trees++;
      for (int attempt = 0; attempt < 3; attempt++) {
        SnapshotCheckpointer.Outcome o = checkpointer.run(root);
        if (o.busy()) {
          busy++;
          break;
        }
        if (o.damaged()) {
          damaged++; // reported once by the checkpointer; the other trees go on
          reasons.add(root + ": a page of the tree is corrupt (see the warning logged for it)");
          break;
        }
        runs++;
        applied += o.applied();
        pages += o.pagesWritten();
        if (!o.ran() || o.through() >= target) {
          break;
        }
      }
    }
    return new CheckpointSummary(
        trees, runs, applied, pages, damaged, busy, 0, recoveryBusy, reasons);
  }

  /** Background checkpoints started. */
  long checkpointsRun() {
    return run.get();
  }

  /** Background checkpoints that failed. */
  long checkpointsFailed() {
    return failed.get();
  }
}
