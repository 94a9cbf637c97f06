package io.stratus.protocols.engine;

import io.stratus.CheckpointSummary;
import io.stratus.CorruptPageException;
import io.stratus.InvalidRequestException;
import io.stratus.RecoverySummary;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.SupportsConditionalPut;
import io.stratus.pagemanager.BufferPool;
import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageKind;
import io.stratus.pagemanager.PageStore;
import io.stratus.pagemanager.PageTransaction;
import io.stratus.pagemanager.ReadInterposer;
import io.stratus.protocols.CheckpointWrites;
import io.stratus.protocols.CommitProtocol;
import io.stratus.protocols.CommitResult;
import io.stratus.protocols.ProtocolContext;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.ProtocolStats;
import io.stratus.protocols.ProtocolTransaction;
import io.stratus.protocols.TransactionInfo;
import io.stratus.protocols.WriteSet;
import io.stratus.protocols.checkpoint.CheckpointScheduler;
import io.stratus.protocols.checkpoint.Checkpointer;
import io.stratus.protocols.checkpoint.WriterLeases;
import io.stratus.protocols.log.PuQueues;
import io.stratus.protocols.log.PuQueues.Target;
import io.stratus.protocols.log.QueueSender;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The queue-commit engine: one implementation of {@link CommitProtocol} for every protocol that
 * commits through pending-update (PU) queues (paper 000, section 4), assembled from three
 * strategies ({@link Assembly}):
 *
 * <ul>
 *   <li>{@link Sequencing}: how commits are ordered — none, or writer lanes with counters;
 *   <li>{@link ReadYourWrites}: how reads see the handle's own pending writes — not at all, or
 *       through an overlay;
 *   <li>{@link CommitLog}: where a commit goes — the PU queues directly, or an ATOMIC queue first
 *       and the PU queues by propagation.
 * </ul>
 *
 * <p>The engine owns what every such protocol shares: routing ({@link Router}), the queue sender,
 * the {@link Checkpointer} (Algorithm 2 and the B-tree checkpoint of section 4.4), the {@link
 * CheckpointScheduler} (the writer and reader strategy of section 4.5, on the checkpoint
 * executor), the read view and {@link #checkpointAll()}. A commit is: route, then hand the records
 * to the log; the log numbers them through the sequencing and reports winners (which the overlay
 * remembers) and queued targets (which may schedule checkpoints). Checkpoints honour counters
 * whichever sequencing made the records.
 *
 * <p><b>Queues</b> ({@link PuQueues}): {@code <databaseUri>/pu/t/<treeUri>} for the inserts and
 * deletes of a collection's primary tree, {@code <databaseUri>/pu/i/<treeUri>} for those of a
 * secondary index, {@code <databaseUri>/pu/p/<pageUri>} for the updates of one data page.
 *
 * <p><b>Lifecycle</b>: the engine makes the checkpointer and scheduler, then the strategies, then
 * the log; it closes them in reverse: the scheduler stops taking work and lets running work
 * finish, the log settles what it can, the queues the handle owes are checkpointed (all of it
 * within the close timeout), the sequencing gives its writer lease back. Needs simple
 * queues and locks; sets the lock timeout of {@code <databaseUri>/pu/} to the checkpoint lock
 * timeout when it opens. Thread-safe.
 */
public final class QueueEngine implements CommitProtocol {

  /**
   * A protocol as an assembly of the engine's strategies.
   *
   * @param kind which protocol the assembly is
   * @param sequencing makes the ordering strategy (given the context and the checkpointer's writer
   *     leases, which writer lanes hold)
   * @param readYourWrites makes the read strategy
   * @param log makes the commit log from the engine's parts
   */
  public record Assembly(
      ProtocolKind kind,
      SequencingFactory sequencing,
      Supplier<ReadYourWrites> readYourWrites,
      Function<EngineParts, CommitLog> log) {}

  /** Makes a {@link Sequencing} for a handle. */
  @FunctionalInterface
  public interface SequencingFactory {
    /**
     * The sequencing strategy of one handle.
     *
     * @param stamps the handle's write stamps: a strategy that numbers records MUST give each
     *
     *     commit's records a stamp from it while the commit holds its place, so that one writer's
     *     stamps grow with its counters
     */
    Sequencing open(ProtocolContext ctx, WriterLeases leases, CommitStamps stamps);
  }

  private final ProtocolKind kind;
  private final ProtocolContext ctx;
  private final PuQueues names;
  private final Checkpointer checkpointer;
  private final CheckpointScheduler scheduler;
  private final Sequencing sequencing;
  private final ReadYourWrites ownWrites;
  private final Router router;
  private final CommitLog log;
  private final CommitStamps stamps;

  /** Opens the protocol {@code assembly} over {@code ctx}. */
  public QueueEngine(ProtocolContext ctx, Assembly assembly) {
    this.kind = assembly.kind();
    this.ctx = ctx;
    kind.checkServices(ctx.services());
    SupportsConditionalPut conditional = SupportsConditionalPut.of(ctx.services().storage());
    CheckpointWrites w = ctx.checkpoints().writes();
    if (w == CheckpointWrites.AUTO) {
      w = conditional != null ? CheckpointWrites.CONDITIONAL : CheckpointWrites.TIMING_ONLY;
    } else if (w == CheckpointWrites.CONDITIONAL && conditional == null) {
      throw new InvalidRequestException(
          "checkpoint writes CONDITIONAL need storage with"
              + " conditional puts, and "
              + ctx.services().storage()
              + " has none");
    }
    this.names = new PuQueues(ctx.databaseUri());
    QueueSender sender = new QueueSender(ctx.services().simpleQueues());
    this.checkpointer =
        new Checkpointer(
            ctx,
            w,
            names,
            new TombstoneHorizon(
                ctx.clock(), ctx.services().simpleQueues().limits().messageRetention()));
    CloudFutures.await(
        ctx.services().locks().setTimeout(names.prefix(), ctx.checkpoints().lockTimeout()));
    this.scheduler = new CheckpointScheduler(ctx, checkpointer, names);
    this.stamps = new CommitStamps(ctx.clock(), ctx.clientId());
    Sequencing s = null;
    try {
      s = assembly.sequencing().open(ctx, checkpointer.leases(), stamps);
      this.sequencing = s;
      this.ownWrites = assembly.readYourWrites().get();
      this.router = new Router(ctx, names, ownWrites, stamps);
      this.log =
          assembly
              .log()
              .apply(new EngineParts(ctx, names, sender, scheduler, sequencing, new Events()));
    } catch (RuntimeException | Error e) {
      scheduler.close();
      if (s != null) {
        s.close();
      }
      throw e;
    }
  }

  /** The engine's side of the log's reports. */
  private final class Events implements CommitLog.CommitEvents {
    @Override
    public void winner(Routed routed) {
      if (ownWrites.remember(routed.byQueue())) {
        scheduler.execute(QueueEngine.this::pruneOwnWrites);
      }
    }

    @Override
    public void queued(Collection<Target> targets) {
      scheduler.afterCommit(targets);
    }
  }

  @Override
  public ProtocolKind kind() {
    return kind;
  }

  Checkpointer checkpointer() {
    return checkpointer;
  }

  PuQueues names() {
    return names;
  }

  /**
   * Forgets the overlay's records known applied for longer than the TTL (see OwnWrites). A corrupt
   * page shows nothing applied: its records stay, which is the truth while it blocks them.
   */
  private int pruneOwnWrites() {
    BufferPool pool = ctx.bufferPool();
    return ownWrites.prune(
        uri -> {
          try {
            return pool.fetch(uri);
          } catch (CorruptPageException e) {
            ctx.damage().corruptPage(e.uri(), e.getMessage());
            return Optional.empty();
          }
        },
        ctx.clock().millis(),
        pool.config().ttl().toMillis());
  }

  /** Routes the transaction's changes and hands the records to the log. */
  private CommitResult commit(WriteSet ws) {
    Routed routed = router.route(ws);
    if (routed.records() == 0) {
      return CommitResult.empty();
    }
    log.commit(ws, routed);
    return new CommitResult(Map.of(), 0, 0, routed.records());
  }

  /**
   * How many leaf reads of one transaction draw for reader-side checkpoints at one reading of the
   * clock (see the read view).
   */
  static final int LEAVES_PER_CLOCK_READ = 16;

  /**
   * A transaction with its reads through the overlay ({@link ReadYourWrites#reads}), open until
   * it finishes: the overlay keeps what the leaf copies it holds may lack.
   */
  @Override
  public ProtocolTransaction begin(TransactionInfo tx) {
    return new EngineTransaction(tx, ownWrites.reads());
  }

  /** One transaction of the engine: its reads, and commits through {@link #commit}. */
  private final class EngineTransaction implements ProtocolTransaction {
    private final TransactionInfo info;
    private final ReadYourWrites.Reads reads;

    EngineTransaction(TransactionInfo info, ReadYourWrites.Reads reads) {
      this.info = info;
      this.reads = reads;
    }

    @Override
    public TransactionInfo info() {
      return info;
    }

    @Override
    public PageStore readView(PageStore pages) {
      return new ReadInterposer(pages) {
        /**
         * The time the checkpoint draws use; MIN_VALUE before the first page. Why not the clock
         * at every page: the draws were a sixth of a cached point read of the queue protocols,
         * most of it the clock read. A draw at a time a little old only draws a little less
         * often (the chance grows with the time since the page's last checkpoint), so the
         * transaction's first page reads the clock, and then every {@link
         * #LEAVES_PER_CLOCK_READ}-th leaf.
         */
        private long drawMillis = Long.MIN_VALUE;

        private int leavesRead;

        // Runs for every page of every read, cached or not: so no lambdas, and a new Optional
        // only when the overlay changed a leaf.
        @Override
        public Optional<Page> read(String uri) {
          Optional<Page> p = pages.read(uri);
          if (p.isEmpty()) {
            return p;
          }
          Page page = p.get();
          boolean leaf = page.kind() == PageKind.LEAF;
          if (drawMillis == Long.MIN_VALUE || (leaf && ++leavesRead % LEAVES_PER_CLOCK_READ == 0)) {
            drawMillis = scheduler.now();
          }
          long now = drawMillis;
          scheduler.onRead(page, now);
          stamps.observe(page.maxStamp());
          if (!leaf || (pages instanceof PageTransaction t && t.wrote(uri))) {
            return p; // inner pages hold no records; a private copy holds what it saw and did
          }
          Page shown = reads.overlay(pages, page);
          return shown == page ? p : Optional.of(shown);
        }
      };
    }

    @Override
    public void readKey(String treeUri, byte[] key) {
      // The queue protocols validate no reads.
    }

    @Override
    public CommitResult commit(WriteSet ws) {
      return QueueEngine.this.commit(ws);
    }

    @Override
    public void finish(boolean committed) {
      reads.close();
    }
  }

  @Override
  public RecoverySummary recoverAbandonedClients() {
    return log.recoverAbandonedClients();
  }

  @Override
  public boolean closeGaps(String queue) {
    Optional<Target> target = names.parse(queue);
    return target.isPresent() && checkpointer.closeGaps(target.get()).completed();
  }

  /**
   * Drains the log (settles, propagates, recovers), then checkpoints every PU queue of the
   * database on the calling thread: trees first (their splits move keys that data-page
   * checkpoints then follow), then data pages; each queue until a few receives in a row find it
   * empty, bounded; the listing is repeated (bounded) while a pass applied anything, so queues
   * created meanwhile are applied too. Commits the log still holds count as waiting.
   */
  @Override
  public CheckpointSummary checkpointAll() {
    int waiting = log.drain();
    Set<String> appliedTo = new HashSet<>();
    CheckpointSummary summary = checkpointQueues(appliedTo);
    forgetOwnWritesApplied(appliedTo);
    pruneOwnWrites();
    return summary.plusWaiting(waiting);
  }

  /**
   * Forgets at once this handle's records in the queues {@code chainPages} that the pool shows
   * applied: the runs that applied them installed the pages they wrote, so the count of pending
   * own writes is not left waiting for the background prune's TTL.
   */
  private void forgetOwnWritesApplied(Set<String> chainPages) {
    if (chainPages.isEmpty()) {
      return;
    }
    try (PageTransaction view = ctx.bufferPool().begin()) {
      ownWrites.forgetApplied(view, chainPages);
    } catch (CloudException e) {
      // The records stay pending; a later read or prune forgets them.
    }
  }

  /** Checkpoints every queue; adds the URIs of those whose runs applied records to {@code appliedTo}. */
  private CheckpointSummary checkpointQueues(Set<String> appliedTo) {
    int queuesSeen = 0;
    int done = 0;
    int failures = 0;
    long applied = 0;
    long pages = 0;
    long deferred = 0; // records left queued, each counted once
    List<String> reasons = new ArrayList<>();
    Set<Target> busy = new HashSet<>();
    for (int pass = 0; pass < 5; pass++) {
      List<String> listed =
          new ArrayList<>(
              CloudFutures.await(ctx.services().simpleQueues().listQueues(names.prefix())));
      List<Target> targets = new ArrayList<>();
      for (String q : listed) {
        names.parse(q).ifPresent(targets::add);
      }
      targets.sort(
          Comparator.comparing((Target t) -> t.kind() == PuQueues.Kind.DATA_PAGE)
              .thenComparing(Target::uri));
      queuesSeen = Math.max(queuesSeen, targets.size());
      long appliedThisPass = 0;
      for (Target t : targets) {
        int empties = 0;
        // Records a run left queued are hidden for the rest of this call, unless it handed them
        // back: then the next run receives them again, and counts them again.
        int handedBackDeferred = 0;
        for (int round = 0; round < 1000 && empties < 3; round++) {
          Checkpointer.Outcome o;
          try {
            o = scheduler.runNow(t); // never beside a background run; pays what is owed
          } catch (CloudException e) {
            failures++;
            reasons.add(names.queueOf(t) + ": " + e.getMessage());
            break;
          }
          if (o.busy()) {
            busy.add(t);
            break;
          }
          if (!o.completed()) {
            failures++;
            reasons.add(names.queueOf(t) + ": " + o.why());
            break;
          }
          done++;
          applied += o.applied();
          if (o.applied() > 0) {
            appliedTo.add(t.uri());
          }
          // Records taken out of the queue: those of messages left there do not count, hidden
          // (the deferred ones) or handed back (all of those messages' records).
          int taken = o.received() - Math.max(o.deferred(), o.handedBack());
          appliedThisPass += taken;
          pages += o.pagesWritten();
          deferred += o.deferred() - handedBackDeferred;
          handedBackDeferred = o.handedBack() > 0 ? o.deferred() : 0;
          busy.remove(t);
          // A run that took nothing out of the queue made no progress: like an empty one (with
          // messages handed back, the next run would receive the same ones again and again).
          empties = o.received() > o.handedBack() ? 0 : empties + 1;
        }
      }
      if (appliedThisPass == 0) {
        break;
      }
    }
    return new CheckpointSummary(
        queuesSeen, done, applied, pages, failures, busy.size(), deferred, 0, reasons);
  }

  @Override
  public ProtocolStats stats() {
    return new ProtocolStats(
        scheduler.checkpointsRun(),
        scheduler.checkpointsFailed(),
        log.backgroundFailures(),
        ownWrites.pending(),
        scheduler.owedQueues(),
        checkpointer.recordsWaitingForRoom(),
        checkpointer.writersWaitingForRoom());
  }

  /**
   * A graceful close, within the close timeout ({@link
   * io.stratus.protocols.CheckpointSettings#closeTimeout()}): the scheduler stops and lets running
   * checkpoints finish, the log settles what it can (the atomic logs propagate their pending
   * commits), then every queue the handle owes is checkpointed on the calling thread, so that a
   * handle opened next — a restarted process with a new client id — sees everything this one
   * committed. What the time did not cover is warned about and stays in the owed checkpoints
   * of {@link #stats()}. The sequencing gives its writer lease back last.
   */
  @Override
  public void close() {
    long deadline = ctx.clock().millis() + ctx.checkpoints().closeTimeout().toMillis();
    try {
      scheduler.stop(deadline);
      log.close();
      scheduler.settle(deadline);
    } finally {
      sequencing.close();
    }
  }
}
