package io.stratus.protocols;

import io.stratus.CommitStateUnknownException;
import io.stratus.InvalidRequestException;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.SupportsConditionalPut;
import io.stratus.pagemanager.BufferPool;
import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageStore;
import io.stratus.pagemanager.PageTransaction;
import io.stratus.protocols.PuQueues.Target;
import io.stratus.protocols.log.LogRecord;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The basic protocol (paper 000, section 4): a commit sends log records to pending-update (PU)
 * queues and writes no page; checkpoints apply the records to the pages later.
 *
 * <p><b>Queues</b> (see {@link PuQueues}): {@code <databaseUri>/pu/t/<treeUri>} for the inserts
 * and deletes of a collection's primary tree, {@code <databaseUri>/pu/i/<treeUri>} for those of a
 * secondary index, {@code <databaseUri>/pu/p/<pageUri>} for the updates of one data page. A
 * checkpointer knows from a queue's name what it applies.
 *
 * <p><b>Parts</b>: {@link BasicCommit} (Algorithm 1, all sends concurrent), {@link Checkpointer}
 * (Algorithm 2 and the B-tree checkpoint of section 4.4), {@link CheckpointScheduler} (writer and
 * reader strategy of section 4.5, on the checkpoint executor), {@link #checkpointAll()} for
 * operators and tests.
 *
 * <p><b>Guarantees</b>: a record whose commit returned is durable and eventually applied (even
 * when checkpointers crash); eventual consistency; no atomicity (a commit that fails part-way may
 * be applied in part, {@link io.stratus.CommitStateUnknownException}); no read-your-writes: the
 * commit returns no page versions, so the transaction's private copies are dropped and this
 * client sees its writes once they are checkpointed (the monotonic protocol adds that). Updates of
 * one key are applied in commit order within one checkpoint; across checkpoints, a reordered or
 * duplicated message can apply an older update after a newer one (paper 000, section 4.3: the
 * indeterminism the monotonic protocol's counters remove).
 *
 * <p>Needs simple queues and locks; sets the lock timeout of {@code <databaseUri>/pu/} to the
 * checkpoint lock timeout when it opens. Thread-safe.
 */
final class BasicProtocol implements CommitProtocol {
  private static final System.Logger LOG = System.getLogger(BasicProtocol.class.getName());

  private final ProtocolContext ctx;
  private final PuQueues names;
  private final QueueSender sender;
  private final BasicCommit commit;
  private final Checkpointer checkpointer;
  private final CheckpointScheduler scheduler;
  private final CheckpointWrites writes;
  private final boolean monotonic;
  /** Read-your-writes overlay (monotonic only); null otherwise. */
  private final OwnWrites ownWrites;

  BasicProtocol(ProtocolContext ctx) {
    this(ctx, false);
  }

  /**
   * @param monotonic whether commits number their records for monotonic writes ({@link
   *     WriteChains}; the MONOTONIC protocol); checkpoints honour counters either way
   */
  BasicProtocol(ProtocolContext ctx, boolean monotonic) {
    this.ctx = ctx;
    this.monotonic = monotonic;
    if (!ctx.services().hasSimpleQueues() || !ctx.services().hasLocks()) {
      throw new InvalidRequestException(
          "the basic protocol needs the simple queue service and the lock service");
    }
    SupportsConditionalPut conditional = SupportsConditionalPut.of(ctx.services().storage());
    CheckpointWrites w = ctx.checkpoints().writes();
    if (w == CheckpointWrites.AUTO) {
      w = conditional != null ? CheckpointWrites.CONDITIONAL : CheckpointWrites.TIMING_ONLY;
    } else if (w == CheckpointWrites.CONDITIONAL && conditional == null) {
      throw new InvalidRequestException("checkpoint writes CONDITIONAL need storage with"
          + " conditional puts, and " + ctx.services().storage() + " has none");
    }
    this.writes = w;
    this.names = new PuQueues(ctx.databaseUri());
    this.sender = new QueueSender(ctx.services().simpleQueues());
    String writer = monotonic
        ? ctx.clientId() + "#" + Long.toString(ctx.clock().millis(), 36) + "-"
            + java.util.UUID.randomUUID().toString().substring(0, 8)
        : null;
    this.ownWrites = monotonic ? new OwnWrites() : null;
    this.commit = new BasicCommit(ctx, names, sender, writer, ownWrites);
    this.checkpointer = new Checkpointer(
        ctx, w == CheckpointWrites.CONDITIONAL ? conditional : null, names);
    CloudFutures.await(ctx.services().locks().setTimeout(names.prefix(),
        ctx.checkpoints().lockTimeout()));
    this.scheduler = new CheckpointScheduler(ctx, checkpointer, names);
    if (writer != null) {
      // Checkpoints may retire chains only of incarnations whose lease is free (WriteChains).
      checkpointer.leases().hold(writer);
    }
  }

  @Override
  public ProtocolKind kind() {
    return monotonic ? ProtocolKind.MONOTONIC : ProtocolKind.BASIC;
  }

  /** The write mode in effect (AUTO resolved). */
  CheckpointWrites checkpointWrites() {
    return writes;
  }

  CheckpointScheduler scheduler() {
    return scheduler;
  }

  /**
   * Adds a sent commit's records to the read-your-writes overlay, and now and then schedules the
   * background prune of the records known applied.
   */
  void rememberOwnWrites(Map<String, List<LogRecord>> byQueue) {
    if (ownWrites.add(byQueue)) {
      scheduler.execute(this::pruneOwnWrites);
    }
  }

  /** Forgets the overlay's records known applied for longer than the TTL (see OwnWrites). */
  int pruneOwnWrites() {
    if (ownWrites == null) {
      return 0;
    }
    BufferPool pool = ctx.bufferPool();
    return ownWrites.prune(pool::fetch, ctx.clock().millis(), pool.config().ttl().toMillis());
  }

  @Override
  public long pendingOwnWrites() {
    return ownWrites == null ? 0 : ownWrites.pending();
  }

  /** The read-your-writes overlay; null unless monotonic. */
  OwnWrites ownWrites() {
    return ownWrites;
  }

  Checkpointer checkpointer() {
    return checkpointer;
  }

  PuQueues names() {
    return names;
  }

  BasicCommit commitPart() {
    return commit;
  }

  QueueSender sender() {
    return sender;
  }

  @Override
  public CommitResult commit(WriteSet ws) {
    BasicCommit.Routed routed;
    try {
      routed = commit.commit(ws);
    } catch (CommitStateUnknownException e) {
      if (monotonic) {
        scheduler.execute(commit::resendUnsettled); // settle it: no gap in the chains
      }
      throw e;
    }
    if (ownWrites != null && routed.records() > 0) {
      rememberOwnWrites(routed.byQueue());
    }
    if (routed.records() > 0) {
      scheduler.afterCommit(routed.targets());
    }
    return new CommitResult(Map.of(), 0, 0, routed.records());
  }

  @Override
  public PageStore readView(TransactionInfo tx, PageStore pages) {
    return new PageStore() {
      @Override
      public Optional<Page> read(String uri) {
        Optional<Page> p = pages.read(uri);
        p.ifPresent(scheduler::onRead);
        if (ownWrites == null || (pages instanceof PageTransaction t
            && t.writes().containsKey(uri))) {
          return p; // a private copy already holds what the transaction saw and did
        }
        return p.map(page -> ownWrites.overlay(pages, page));
      }

      @Override
      public void write(Page page) {
        pages.write(page);
      }

      @Override
      public String newPageUri(String prefix) {
        return pages.newPageUri(prefix);
      }

      @Override
      public int pageSize() {
        return pages.pageSize();
      }
    };
  }

  /**
   * Checkpoints every PU queue of the database on the calling thread: trees first (their splits
   * move keys that data-page checkpoints then follow), then data pages; each queue until a few
   * receives in a row find it empty, bounded; the listing is repeated (bounded) while a pass
   * applied anything, so queues created meanwhile are applied too.
   */
  @Override
  public CheckpointSummary checkpointAll() {
    commit.resendUnsettled();
    int queuesSeen = 0;
    int done = 0;
    int failures = 0;
    long applied = 0;
    long pages = 0;
    long deferred = 0; // records left queued (hidden for the rest of this call: counted once)
    Set<Target> busy = new HashSet<>();
    for (int pass = 0; pass < 5; pass++) {
      List<String> listed = new ArrayList<>(
          CloudFutures.await(ctx.services().simpleQueues().listQueues(names.prefix())));
      List<Target> targets = new ArrayList<>();
      for (String q : listed) {
        names.parse(q).ifPresent(targets::add);
      }
      targets.sort(Comparator.comparing((Target t) -> t.kind() == PuQueues.Kind.DATA_PAGE)
          .thenComparing(Target::uri));
      queuesSeen = Math.max(queuesSeen, targets.size());
      long appliedThisPass = 0;
      for (Target t : targets) {
        int empties = 0;
        for (int round = 0; round < 1000 && empties < 3; round++) {
          Checkpointer.Outcome o;
          try {
            o = checkpointer.runAfterOthers(t); // never beside a background run
          } catch (CloudException e) {
            failures++;
            break;
          }
          if (o.busy()) {
            busy.add(t);
            break;
          }
          if (!o.completed()) {
            failures++;
            break;
          }
          done++;
          applied += o.applied();
          appliedThisPass += o.received() - o.deferred();
          pages += o.pagesWritten();
          deferred += o.deferred();
          busy.remove(t);
          empties = o.received() == 0 ? empties + 1 : 0;
        }
      }
      if (appliedThisPass == 0) {
        break;
      }
    }
    pruneOwnWrites();
    return new CheckpointSummary(queuesSeen, done, applied, pages, failures, busy.size(),
        deferred, 0);
  }

  /** The queues with a checkpoint scheduled or running (for tests and monitoring). */
  Set<String> scheduledCheckpoints() {
    return scheduler.scheduledQueues();
  }

  @Override
  public long backgroundCheckpointsRun() {
    return scheduler.checkpointsRun();
  }

  @Override
  public long backgroundCheckpointsFailed() {
    return scheduler.checkpointsFailed();
  }

  @Override
  public void close() {
    scheduler.close();
    settleUnknownCommits();
    checkpointer.leases().release();
  }

  /**
   * A graceful close settles what it can: records of commits whose outcome stayed unknown are
   * sent again (a few times), so that the later records of their writer lanes, which checkpoints
   * hold back until they arrive, do not wait for good once the handle is gone.
   */
  void settleUnknownCommits() {
    if (!monotonic) {
      return;
    }
    for (int i = 0; i < 3; i++) {
      if (!commit.resendUnsettled()) {
        return;
      }
    }
    LOG.log(Level.WARNING, "closing with commits whose outcome is still unknown; later records of"
        + " their writer lanes wait until those records arrive");
  }
}
