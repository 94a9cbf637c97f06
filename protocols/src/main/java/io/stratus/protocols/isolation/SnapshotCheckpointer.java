package io.stratus.protocols.isolation;

import io.stratus.CorruptPageException;
import io.stratus.btree.BLinkTree;
import io.stratus.btree.PieceState;
import io.stratus.btree.TreeChange;
import io.stratus.cloudapi.AdvancedMessage;
import io.stratus.cloudapi.AdvancedQueueService;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.CrashPoints;
import io.stratus.cloudapi.LockService;
import io.stratus.pagemanager.BufferPool;
import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageKind;
import io.stratus.pagemanager.PageWriter;
import io.stratus.protocols.CrashPoint;
import io.stratus.protocols.IsolationSettings;
import io.stratus.protocols.ProtocolContext;
import io.stratus.protocols.StorageLayout;
import io.stratus.protocols.checkpoint.DirectPageStore;
import io.stratus.protocols.isolation.SnapshotArchive.Version;
import io.stratus.protocols.lease.ExclusiveLease;
import io.stratus.protocols.lease.ExclusivePasses;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * Checkpoints of snapshot isolation: applies a tree's archive to its pages in commit-id order up to
 * the highest validated commit id, stamps every leaf it writes with that id, records the progress
 * on the root, and collects archived records no transaction can need any more.
 *
 * <p><b>One run</b> (under the exclusive lock {@code <databaseUri>/si/ckpt/<root>}, one owner per
 * run, and this process's mutex of the tree): read the validated commit id {@code target} (after
 * the recovery check: every commit up to it is in the archive); read the root fresh and the commit
 * id through which the archive was applied ({@link SnapshotState#appliedThrough}); receive the
 * archive's records in between; apply them — per key the newest — with {@link
 * BLinkTree#applySorted}, stamping every leaf the records land on with {@code target} before it is
 * written and split (the pieces keep the stamp, {@link PieceState#COPIED}) — also one whose entries
 * they leave as they were, such as a key inserted and deleted again since the last run; rewrite the root last with a mark
 * ({@code now}, {@code target}). Every page is put on the version read (conditional puts) and the
 * root only after all others succeeded, so a run that dies or loses a race leaves the mark where
 * it was and the next run applies the same records again (redo records with full after images,
 * newest per key: idempotent).
 *
 * <p><b>Why the stamp is exact.</b> A leaf stamped {@code c} holds, for its key range, the newest
 * record up to {@code c} of every key, and the archive holds no record of its range between its
 * stamp and the root's mark of the time it was read (the run that advanced the mark wrote every
 * leaf with such records first, changed or not). A reader rolls a leaf forward or back from its
 * stamp with the records of its range ({@link SnapshotView}); a leaf left at an older stamp would
 * need records the collection may take, and a reader with part of them cached (an insert, not the
 * delete after it) would read a state that never was.
 *
 * <p><b>Garbage collection</b> after a run: a record may go once (a) every copy of every page a
 * reader may still be given reflects it — its commit id is at most the mark the root had {@link
 * #STALE_COPIES} or the TTL ago, whichever is longer, plus {@link
 * IsolationSettings#NETWORK_MARGIN}: a cached copy older than the TTL is not used, and eventually
 * consistent storage may serve a root as it was before a checkpoint for a while after it, to a
 * reader that rolls it forward from the archive — and (b) no running transaction can have a
 * snapshot below it: it is older than the lease timeout plus the transaction timeout (a snapshot
 * is at least every commit id issued a lease before its begin, and a transaction lives at most
 * the transaction timeout). Crash points {@code
 * isolation.checkpoint.after-lock}, {@code .after-put}. Thread-safe.
 */
final class SnapshotCheckpointer {
  private static final System.Logger LOG = System.getLogger(SnapshotCheckpointer.class.getName());

  /** How long after a put storage may still serve the version it replaced ({@link BufferPool}). */
  static final Duration STALE_COPIES = BufferPool.STALE_COPIES;

  /** Archived messages one collection looks at, at most. */
  private static final int GC_MAX = 1000;

  /**
   * What one run did.
   *
   * @param damaged it gave up at a corrupt page of the tree (reported to the handle's damage
   *     reports): the tree's records wait in its archive until the page is repaired
   */
  record Outcome(
      boolean ran, boolean busy, int applied, int pagesWritten, long through, boolean damaged) {
    static final Outcome NOTHING = new Outcome(false, false, 0, 0, 0, false);
    static final Outcome BUSY = new Outcome(false, true, 0, 0, 0, false);
    static final Outcome DAMAGED = new Outcome(false, false, 0, 0, 0, true);
  }

  private final ProtocolContext ctx;
  private final SnapshotArchive archive;
  private final LongSupplier validated;
  private final AdvancedQueueService queues;
  private final PageWriter writer;
  private final boolean conditionalPuts;
  private final Clock clock;
  private final CrashPoints crashPoints;
  private final String lockPrefix;
  private final ExclusivePasses passes;
  private final AtomicLong collected = new AtomicLong();
  private final Map<String, ReentrantLock> mutexes = new ConcurrentHashMap<>();
  private final long reflectedAgeMillis;
  private final long unneededAgeMillis;

  /**
   * @param validated the highest validated commit id, after the recovery check (every commit up
   *     to it is archived)
   */
  SnapshotCheckpointer(
      ProtocolContext ctx,
      SnapshotArchive archive,
      LongSupplier validated,
      boolean conditionalPuts) {
    this.ctx = ctx;
    this.archive = archive;
    this.validated = validated;
    LockService locks = ctx.services().locks();
    this.queues = ctx.services().advancedQueues();
    this.writer = new PageWriter(ctx.services().storage(), ctx.bufferPool());
    this.conditionalPuts = conditionalPuts;
    this.clock = ctx.clock();
    this.crashPoints = ctx.crashPoints();
    this.lockPrefix = ctx.layout().snapshotCheckpointLockPrefix();
    this.passes = ExclusivePasses.ofProcess(locks, clock, ctx.clientId());
    IsolationSettings iso = ctx.isolation();
    Duration ttl = ctx.bufferPool().config().ttl();
    this.reflectedAgeMillis =
        (ttl.compareTo(STALE_COPIES) > 0 ? ttl : STALE_COPIES)
            .plus(IsolationSettings.NETWORK_MARGIN)
            .toMillis();
    this.unneededAgeMillis =
        iso.leaseTimeout()
            .plus(iso.transactionTimeout())
            .plus(IsolationSettings.NETWORK_MARGIN)
            .toMillis();
    CloudFutures.await(locks.setTimeout(lockPrefix, ctx.checkpoints().lockTimeout()));
  }

  /** Archived records this handle deleted as no longer needed. */
  long collected() {
    return collected.get();
  }

  /**
   * Checkpoints the tree rooted at {@code root} once, unless this process checkpoints it already
   * or another client holds its lock ({@link Outcome#busy}).
   */
  Outcome run(String root) {
    ReentrantLock mutex = mutexes.computeIfAbsent(root, r -> new ReentrantLock());
    if (!mutex.tryLock()) {
      return Outcome.BUSY;
    }
    try {
      return runLocked(root);
    } finally {
      mutex.unlock();
    }
  }

  private Outcome runLocked(String root) {
    ExclusiveLease pass = passes.acquire(lockPrefix + root);
    if (!pass.held()) {
      return Outcome.BUSY;
    }
    long margin = ctx.checkpoints().propagationPeriod().toMillis();
    DirectPageStore.Lease lease = () -> pass.deadline() - clock.millis() > margin;
    return pass.runThenRelease(
        () -> {
          try {
            crashPoints.reach(CrashPoint.ISOLATION_CHECKPOINT_AFTER_LOCK.id());
            Outcome o = apply(root, lease);
            collect(root);
            return o;
          } catch (DirectPageStore.Abandoned e) {
            LOG.log(Level.DEBUG, "checkpoint of " + root + " gave up: " + e.getMessage());
            return Outcome.NOTHING;
          } catch (CorruptPageException e) {
            // Nothing was put: every page is read before the first put. The tree waits whole (see
            // the class comment); the handle's other trees go on.
            ctx.damage().corruptPage(e.uri(), e.getMessage());
            return Outcome.DAMAGED;
          }
        });
  }

  private Outcome apply(String root, DirectPageStore.Lease lease) {
    long target = validated.getAsLong();
    DirectPageStore store =
        new DirectPageStore(
            ctx.services().storage(),
            writer,
            conditionalPuts,
            ctx.bufferPool().config().pageSize());
    Page rootPage = store.read(root).orElse(null);
    if (rootPage == null) {
      return Outcome.NOTHING;
    }
    SnapshotState rootState = SnapshotState.of(rootPage);
    long from = rootState.appliedThrough();
    if (target <= from) {
      return new Outcome(true, false, 0, 0, from, false);
    }
    List<Version> versions = archive.fetch(root, from, target);
    List<TreeChange> changes = new ArrayList<>(versions.size());
    for (Version v : versions) {
      changes.add(v.redo()); // commit-id order: the newest of a key comes last and wins
    }
    BLinkTree tree = StorageLayout.tree(root).withPieceState(PieceState.COPIED);
    tree.applySorted(store, changes, leaf -> stamp(leaf, target));
    Page newRoot = store.read(root).orElseThrow();
    SnapshotState s = SnapshotState.of(newRoot);
    if (newRoot.kind() == PageKind.LEAF) {
      s = s.withCommitId(target); // a root leaf reflects the whole tree
    }
    long now = clock.millis();
    s = s.withMark(new SnapshotState.Mark(now, target), now - reflectedAgeMillis);
    tree.rewrite(store, s.applyTo(newRoot));
    int pages = store.writes().size();
    Map<String, String> written = store.flush(lease, root);
    crashPoints.reach(CrashPoint.ISOLATION_CHECKPOINT_AFTER_PUT.id());
    store.install(written);
    return new Outcome(true, false, versions.size(), pages, target, false);
  }

  private static Page stamp(Page leaf, long commitId) {
    return SnapshotState.of(leaf).withCommitId(commitId).applyTo(leaf);
  }

  /**
   * Deletes archived records of the tree that every cached page reflects and no running
   * transaction can need (see the class comment); bounded per call.
   */
  private void collect(String root) {
    Page rootPage = ctx.bufferPool().fetch(root).orElse(null);
    if (rootPage == null) {
      return;
    }
    long reflected = SnapshotState.of(rootPage).appliedAt(clock.millis() - reflectedAgeMillis);
    if (reflected == 0) {
      return;
    }
    String queue = archive.queueOf(root);
    List<AdvancedMessage> old =
        CloudFutures.await(
            queues.receiveOlderThan(queue, GC_MAX, Duration.ofMillis(unneededAgeMillis)));
    List<CompletableFuture<Void>> deletes = new ArrayList<>();
    for (AdvancedMessage m : old) {
      if (m.key() <= reflected) {
        deletes.add(queues.delete(queue, m.id()));
      }
    }
    for (CompletableFuture<Void> d : deletes) {
      CloudFutures.await(d);
    }
    collected.addAndGet(deletes.size());
  }
}
