package io.stratus.protocols.checkpoint;

import io.stratus.CorruptPageException;
import io.stratus.StalePageException;
import io.stratus.btree.BLinkTree;
import io.stratus.btree.TreeChange;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.CrashPoints;
import io.stratus.cloudapi.LockGrant;
import io.stratus.cloudapi.LockService;
import io.stratus.cloudapi.SimpleQueueService;
import io.stratus.cloudapi.StorageService;
import io.stratus.pagemanager.BufferPool;
import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageKind;
import io.stratus.pagemanager.PageWriter;
import io.stratus.protocols.CheckpointWrites;
import io.stratus.protocols.CrashPoint;
import io.stratus.protocols.DamageReports;
import io.stratus.protocols.DeadLetters;
import io.stratus.protocols.LogicalChange;
import io.stratus.protocols.ProtocolContext;
import io.stratus.protocols.StorageLayout;
import io.stratus.protocols.lease.ExclusiveLease;
import io.stratus.protocols.lease.ExclusivePasses;
import io.stratus.protocols.log.HandBack;
import io.stratus.protocols.log.LogRecord;
import io.stratus.protocols.log.PuQueues;
import io.stratus.protocols.log.PuQueues.Target;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * Runs one checkpoint of one pending-update queue (paper 000, Algorithm 2 for a data page, section
 * 4.4 for a B-tree), on whatever thread calls {@link #run}.
 *
 * <p>Steps: take the exclusive lock on the queue's URI (the send time is noted before the request;
 * the lease ends at send time + the granted duration); receive up to X records with the lock
 * timeout as visibility timeout; read the affected pages fresh from storage; apply the records in
 * commit order — (write stamp, commit time, client id, transaction id by length then text, which
 * is numeric order for the record manager's {@code <client>-<n>} ids); put the changed pages while the lease
 * has more than the propagation period left (conditional puts in {@link
 * CheckpointWrites#CONDITIONAL} mode); delete the applied messages; release the lock; install the
 * written pages into the buffer pool. A crash anywhere loses nothing: the messages are deleted
 * only after the pages are put, and applying a record twice is harmless.
 *
 * <p><b>Data pages.</b> An update whose key a split has moved away since the writer routed it
 * (beyond the page's high key: the leaf found by right links; a root leaf that became an inner
 * page: the leaf found down the tree) is applied to that leaf in the same checkpoint, under the
 * lock of that leaf's queue, which its own checkpoints take too; when that lock is not available
 * the record waits in the queue like a record after a gap. It stays in its writer's chain of this
 * page, so monotonic writes hold across the split (the papers do not say how a split and pending
 * updates meet; forwarding the record to the other page's queue, as an earlier version did, put
 * it outside every chain). An update whose key is absent (deleted since) is dropped. A page that
 * overflows is split through the B-link tree ({@link BLinkTree#applySorted}), like any tree
 * change. The page's last checkpoint time ({@link CheckpointTimes}) is set to now.
 *
 * <p><b>Late records.</b> A record carries its commit's write stamp into the tree change, and the
 * tree applies it only over an entry with an older stamp (the Thomas write rule, {@link
 * io.stratus.btree.TreeChange}): a record that reaches the page after a later writer's record of
 * the same key was applied (behind a gap in its chain, hidden by a dead checkpoint's receive,
 * propagated late by atomic recovery) is consumed without overwriting the later value. A stamped
 * delete leaves its stamp in the leaf as a tombstone, so a create older than the delete that
 * arrives later is consumed the same way; tombstones older than the horizon the engine gives
 * ({@code forgetTombstonesBefore}: by then no older record can arrive) are dropped from the leaves
 * a checkpoint writes.
 *
 * <p><b>Trees.</b> Inserts and deletes become tree changes applied with {@link
 * BLinkTree#applySorted}; the root's tree checkpoint time ({@link CheckpointTimes}) is set to now
 * (a deviation: the paper kept it in the root item's metadata).
 *
 * <p><b>Monotonic writes.</b> Before applying, the records are filtered by the writers' counter
 * chains recorded in the page's (or root's) header ({@link WriteChains}): duplicates are skipped,
 * records after a gap are deferred and their messages not deleted; chains of writers gone are
 * retired and new chains wait while the header budget is full; the header is staged on the page
 * before the records are applied (a header that no longer fits splits its page, a root
 * included). Records with counter 0 (the basic protocol) pass unchanged.
 *
 * <p><b>Damage.</b> A message that fails its checksum (or has an unknown format) is never
 * applied: the run, which holds the queue's lock, moves it into the dead-letter area ({@link
 * DeadLetters}). A corrupt page blocks only the records that would change it: the page's own
 * queue gives up (reported once, {@link DamageReports}); a tree checkpoint that meets a corrupt
 * page on the way to some records locates every record's leaf and applies those whose way is
 * healthy, leaving the others queued; their writers' chains go on past them, holding their
 * counters until the page is repaired ({@link WriteChains}), so a writer's records for healthy
 * pages are not held back with them. Crash points: {@link CrashPoint#CHECKPOINT_PAGE_AFTER_LOCK} and the page's other steps (after
 * receive, put, delete), and the same four for a tree.
 *
 * <p><b>Handing back.</b> A run that ends without applying messages it received (records after a
 * gap or blocked, a page that does not exist or is corrupt, a lease too short to put, a cloud
 * failure) hands them back to the queue when the queue can ({@link HandBack}), at the very end,
 * after its last put and delete and before it releases its locks: the next run receives them at
 * once instead of after the visibility timeout. Records after a gap are the exception when the
 * queue may hold more than the run received: the record closing the gap may lie behind them, so
 * the run first receives on (up to {@link #RECEIVE_AHEAD} shares), and what still waits then
 * stays hidden, so that the next runs reach what lies behind it. Damaged messages that could not be set aside stay
 * hidden, which spaces out the attempts. A simulated process death hands nothing back.
 *
 * <p><b>Mutual exclusion.</b> Every run takes the queue's lock as an owner of its own (client id,
 * process nonce, run number), and the locks of leaves its moved records land on as that owner's
 * "moved" owner; a lock service treats a second acquire by the same owner as a renewal, so an
 * owner per client let two runs of one client write one page at once. Within the process, one
 * run per queue at a time ({@link #run} gives up when one is running, {@link #runAfterOthers}
 * waits for it). Any failure releases every lock the run holds; only a simulated process death
 * does not, as a real one would not. Thread-safe.
 */
public final class Checkpointer {
  private static final System.Logger LOG = System.getLogger(Checkpointer.class.getName());

  /**
   * How many shares of {@link CheckpointSettings#maxRecordsPerCheckpoint} records a run receives
   * at most while records wait behind a gap (see {@link #apply}).
   */
  static final int RECEIVE_AHEAD = 8;

  /**
   * Commit order of log records (see the class comment): by write stamp, the order the write
   * stamp rule keeps on the pages whatever order records arrive in; then by commit time (records
   * without stamps).
   */
  static final Comparator<LogRecord> COMMIT_ORDER =
      Comparator.comparingLong(LogRecord::writeStamp)
          .thenComparingLong(LogRecord::commitTimeMillis)
          .thenComparing(LogRecord::clientId)
          .thenComparingInt(r -> r.transactionId().length())
          .thenComparing(LogRecord::transactionId);

  /**
   * What one checkpoint did.
   *
   * @param busy it did not run because another checkpoint of the queue holds its lock (in this
   *     process or another): its records are someone else's to apply now
   * @param deferred records it received but left queued (after a gap in their chain, behind an
   *     unmet lane dependency, or waiting for room in the header)
   * @param handedBack records of the messages it received, left in the queue and handed back,
   *     receivable again at once (0 when the queue cannot change visibility: they stay hidden for
   *     the lock timeout); the deferred records among them, and the others those messages hold
   * @param drained its receiving ended because the queue answered empty as many times in a row as
   *     the caller asked (or the queue did not exist), not at the record limit: with {@code
   *     completed} and no {@code deferred} records, nothing that was visible in the queue when
   *     the run began is left in it
   */
  public record Outcome(
      boolean completed,
      boolean busy,
      int received,
      int applied,
      int deferred,
      int pagesWritten,
      String why,
      int handedBack,
      boolean drained) {
    public static Outcome busy(String why) {
      return new Outcome(false, true, 0, 0, 0, 0, why, 0, false);
    }

    public static Outcome gaveUp(String why, int received) {
      return new Outcome(false, false, received, 0, 0, 0, why, 0, false);
    }

    /** This outcome, with the {@code records} of the messages it handed back. */
    Outcome withHandedBack(int records) {
      return new Outcome(
          completed, busy, received, applied, deferred, pagesWritten, why, records, drained);
    }

    /**
     * Completed and took records out of the queue (applied them, or skipped them as applied
     * before): a run that gave up, or deferred all it received, took none.
     */
    public boolean tookRecords() {
      return completed && received > deferred;
    }

    /** Completed, deferred nothing and ended on empty receives: nothing visible was left. */
    public boolean leftNothing() {
      return completed && deferred == 0 && drained;
    }
  }

  private final String clientId;

  /** This process's checkpoint runs, each its own lock owner. */
  private final ExclusivePasses passes;

  /** Where corrupt pages are reported (each once). */
  private final DamageReports damage;

  /** Where damaged messages go: out of the queue, kept for an operator. */
  private final DeadLetters deadLetters;

  /** One checkpoint of a queue per process at a time. */
  private final ConcurrentHashMap<String, ReentrantLock> mutexes = new ConcurrentHashMap<>();

  private final StorageService storage;

  /** Puts, stamps and installs the pages a checkpoint writes. */
  private final PageWriter writer;

  /** Whether pages are put on the version read (CONDITIONAL) or plainly (TIMING_ONLY). */
  private final boolean conditionalPuts;

  private final SimpleQueueService queues;

  /** Hands what a run received and did not apply back to the queue, when the queue can. */
  private final HandBack handBack;

  private final LockService locks;
  private final BufferPool pool;
  private final Clock clock;
  private final CrashPoints crashPoints;
  private final PuQueues names;
  private final Duration lockTimeout;
  private final long propagationMillis;
  private final int maxRecords;

  /** This handle's writer lease and the probes of other writers' (monotonic writes). */
  private final WriterLeases leases;

  /** How long a chain must not have advanced before it may be retired (see WriteChains). */
  private final long horizonMillis;

  /** The write stamp below which tombstones may be forgotten now. */
  private final LongSupplier forgetTombstonesBefore;

  /**
   * Per queue, the records (and writers) its last checkpoint here left waiting for room in the
   * header ({@link WriteChains}); queues with none are absent.
   */
  private final Map<String, Room> waitingForRoom = new ConcurrentHashMap<>();

  /** Records and writers waiting for room in one queue's header. */
  private record Room(int records, int writers) {}

  /**
   * @param writes how pages are put: {@link CheckpointWrites#CONDITIONAL} (the storage must offer
   *     conditional puts) or {@link CheckpointWrites#TIMING_ONLY}, not {@code AUTO}
   * @param forgetTombstonesBefore the write stamp below which no record can arrive any more, now:
   *     tombstones older than it are dropped from the leaves a checkpoint writes
   */
  public Checkpointer(
      ProtocolContext ctx,
      CheckpointWrites writes,
      PuQueues names,
      LongSupplier forgetTombstonesBefore) {
    if (writes == CheckpointWrites.AUTO) {
      throw new IllegalArgumentException("resolve AUTO checkpoint writes before");
    }
    this.clientId = ctx.clientId();
    this.storage = ctx.services().storage();
    this.writer = new PageWriter(storage, ctx.bufferPool());
    this.conditionalPuts = writes == CheckpointWrites.CONDITIONAL;
    this.queues = ctx.services().simpleQueues();
    this.locks = ctx.services().locks();
    this.pool = ctx.bufferPool();
    this.clock = ctx.clock();
    this.passes = ExclusivePasses.ofProcess(locks, clock, clientId);
    this.handBack = new HandBack(queues, clock);
    this.crashPoints = ctx.crashPoints();
    this.names = names;
    this.lockTimeout = ctx.checkpoints().lockTimeout();
    this.propagationMillis = ctx.checkpoints().propagationPeriod().toMillis();
    this.maxRecords = ctx.checkpoints().maxRecordsPerCheckpoint();
    this.leases = new WriterLeases(locks, ctx.databaseUri(), clientId, clock, lockTimeout);
    this.horizonMillis = horizonFor(lockTimeout);
    this.forgetTombstonesBefore = forgetTombstonesBefore;
    this.damage = ctx.damage();
    this.deadLetters = DeadLetters.of(ctx);
  }

  /**
   * The retirement horizon: three death times of a writer lease (and at least 15 minutes), so a
   * chain is retired only long after its incarnation stopped renewing, and every message of it
   * hidden by a receive (for a lock timeout each) has reappeared many times over.
   */
  public static long horizonFor(Duration lockTimeout) {
    return Math.max(
        Duration.ofMinutes(15).toMillis(),
        3 * lockTimeout.multipliedBy(WriterLeases.DEATH_FACTOR).toMillis());
  }

  /** This handle's writer lease and the probes of other writers' leases. */
  public WriterLeases leases() {
    return leases;
  }

  /** {@link #run(Target, int)}, receiving until the first empty receive. */
  public Outcome run(Target target) {
    return run(target, 1);
  }

  /**
   * Records that this handle's latest checkpoint of each queue left waiting for room in the page
   * header: their writers' chains have no entry yet and the header's budget is full until chains
   * of closed or dead writers retire (a horizon of at least 15 minutes).
   */
  public long recordsWaitingForRoom() {
    return waitingForRoom.values().stream().mapToLong(Room::records).sum();
  }

  /** The writers (incarnation and lane) of {@link #recordsWaitingForRoom()}, per queue. */
  public long writersWaitingForRoom() {
    return waitingForRoom.values().stream().mapToLong(Room::writers).sum();
  }

  /**
   * Checkpoints the queue of {@code target} once, unless this process is checkpointing it already
   * (then it gives up at once: the running one applies what is there). For background work. It
   * receives until {@code emptyReceives} receives in a row (at least 1) came back empty: a queue
   * may answer empty although messages wait, so a caller that concludes from {@link
   * Outcome#leftNothing()} that nothing is left asks for more than one.
   *
   * @throws CloudException when a cloud call fails (the checkpoint changed nothing it should not:
   *     a later one applies the records)
   */
  public Outcome run(Target target, int emptyReceives) {
    checkEmptyReceives(emptyReceives);
    String queue = names.queueOf(target);
    ReentrantLock mutex = mutexOf(queue);
    if (!mutex.tryLock()) {
      return Outcome.busy("a checkpoint of this queue is running in this process");
    }
    try {
      return runExclusively(target, queue, false, emptyReceives);
    } finally {
      mutex.unlock();
    }
  }

  /**
   * Checkpoints the queue of {@code target} once, after any checkpoint of it that this process is
   * running has ended (waiting at most {@code waitMillis}, then busy): what an operator's flush and
   * a closing handle need, which must not report a queue done while a background checkpoint of it
   * still holds its messages. Receives as {@link #run(Target, int)} does.
   *
   * @throws CloudException when a cloud call fails
   */
  public Outcome runAfterOthers(Target target, int emptyReceives, long waitMillis) {
    checkEmptyReceives(emptyReceives);
    return runAfterOthers(target, false, emptyReceives, waitMillis);
  }

  /**
   * An operator's repair of a queue whose writers' chains wait for a message that will never come
   * (it was damaged and set aside into the dead-letter area, or discarded): one checkpoint, after
   * any running one, that first moves each writer's recorded counter up to just before the
   * smallest counter of that writer's records it received, then applies as usual. Records of the
   * missing counters that arrive later are skipped as applied: use it only once the missing
   * messages are known to be gone, not merely hidden.
   *
   * @throws CloudException when a cloud call fails
   */
  public Outcome closeGaps(Target target) {
    return runAfterOthers(target, true, 1, lockTimeout.toMillis());
  }

  private static void checkEmptyReceives(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("a run ends after at least one empty receive, got " + n);
    }
  }

  private Outcome runAfterOthers(
      Target target, boolean closeGaps, int emptyReceives, long waitMillis) {
    String queue = names.queueOf(target);
    ReentrantLock mutex = mutexOf(queue);
    try {
      if (!mutex.tryLock(waitMillis, TimeUnit.MILLISECONDS)) {
        return Outcome.busy("a checkpoint of this queue in this process did not end");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Outcome.gaveUp("interrupted while waiting for this process's checkpoint", 0);
    }
    try {
      return runExclusively(target, queue, closeGaps, emptyReceives);
    } finally {
      mutex.unlock();
    }
  }

  /** The in-process mutex of {@code queue}: one checkpoint of a queue per process at a time. */
  private ReentrantLock mutexOf(String queue) {
    return mutexes.computeIfAbsent(queue, q -> new ReentrantLock());
  }

  /**
   * One checkpoint, this process's only one of the queue, under a lock owner that names this run
   * alone ({@link ExclusivePasses}): with the client id as owner, a second run of the same client
   * was granted the lock as a renewal while the first still held it, and both wrote the page.
   */
  private Outcome runExclusively(
      Target target, String queue, boolean closeGaps, int emptyReceives) {
    Steps step = target.isTree() ? Steps.TREE : Steps.PAGE;
    ExclusiveLease pass = passes.acquire(queue);
    if (!pass.held()) {
      return Outcome.busy("lock held by another checkpoint");
    }
    Held held = new Held(pass.deadline(), pass.owner());
    DirectPageStore.Lease lease = () -> held.deadline - clock.millis() > propagationMillis;
    RunMessages in = new RunMessages(queues, queue, clock, lockTimeout, deadLetters, handBack);
    AtomicInteger handed = new AtomicInteger();
    // Whatever ends the run but a crash (a cloud failure, a bug, a page that would not fit), the
    // locks go back at once: held until the lease ends, they would stop every other checkpoint
    // of the queue. The messages too, where the queue can take them back.
    Outcome outcome =
        pass.run(
            () -> {
              try {
                crashPoints.reach(step.afterLock().id());
                return checkpoint(target, queue, step, lease, held, closeGaps, emptyReceives, in);
              } catch (DirectPageStore.Abandoned e) {
                // The checkpoint had to stop (its lease, a lost race): a later run tries again.
                return Outcome.gaveUp(e.getMessage(), in.records.size());
              } catch (StalePageException e) {
                // Nothing was put (a stale page is met while reading, before the first put): a
                // later run finds the tree as it is then.
                return Outcome.gaveUp(e.getMessage(), in.records.size());
              }
            },
            () -> {
              handed.set(in.handBack());
              try {
                held.releaseAll();
              } finally {
                pass.release();
              }
            });
    return outcome.withHandedBack(handed.get());
  }

  /**
   * What a data-page checkpoint found of records whose keys a split moved to other leaves (the
   * leaf of each, located once), the locks it took on those leaves, and the earliest end of all
   * its leases.
   */
  private final class Held {
    long deadline;

    /** The lock owner of this run. */
    final String owner;

    /** Page URI to whether its queue's lock was granted. */
    final Map<String, Boolean> pages = new HashMap<>();

    /** Record (by identity) to the other leaf now responsible for its key. */
    final IdentityHashMap<LogRecord, String> movedTo = new IdentityHashMap<>();

    public Held(long deadline, String owner) {
      this.deadline = deadline;
      this.owner = owner;
    }

    /** The owner of the locks this run takes on other leaves' queues. */
    public String movedOwner() {
      return owner + "/moved";
    }

    /**
     * Takes the lock of {@code pageUri}'s queue (once per checkpoint), as that page's own
     * checkpoints do, so that no checkpoint of it runs while this one writes it; false when
     * another holds it. The owner is distinct from this client's own checkpoints, so a
     * checkpoint of that page that this client is running is not joined but waited for.
     */
    public boolean lock(String pageUri) {
      return pages.computeIfAbsent(
          pageUri,
          u -> {
            long sentAt = clock.millis();
            LockGrant g =
                CloudFutures.await(locks.acquireExclusive(names.pageQueue(u), movedOwner()));
            if (g.granted()) {
              deadline = Math.min(deadline, sentAt + g.validFor().toMillis());
            }
            return g.granted();
          });
    }

    public boolean holds(String pageUri) {
      return Boolean.TRUE.equals(pages.get(pageUri));
    }

    /** Whether {@code r} belongs to another leaf whose lock was not granted (it waits). */
    public boolean blocked(LogRecord r) {
      String leaf = movedTo.get(r);
      return leaf != null && !holds(leaf);
    }

    public void releaseAll() {
      for (Map.Entry<String, Boolean> e : pages.entrySet()) {
        if (e.getValue()) {
          release(names.pageQueue(e.getKey()), movedOwner());
        }
      }
      pages.clear();
    }
  }

  private Outcome checkpoint(
      Target target,
      String queue,
      Steps step,
      DirectPageStore.Lease lease,
      Held held,
      boolean closeGaps,
      int emptyReceives,
      RunMessages in) {
    leases.renewIfDue(); // a handle that checkpoints is alive, whether or not its queue has work
    in.receive(maxRecords, emptyReceives);
    crashPoints.reach(step.afterReceive().id());
    if (in.handles.isEmpty()) {
      return new Outcome(true, false, 0, 0, 0, 0, "queue empty", 0, in.drained);
    }
    Set<LogRecord> none = Set.of();
    try {
      return apply(target, queue, step, lease, held, in, none, closeGaps);
    } catch (CorruptPageException e) {
      // Nothing was put yet: pages are read (and found corrupt) before the first put.
      damage.corruptPage(e.uri(), e.getMessage());
      if (e.uri().equals(target.uri())) {
        return Outcome.gaveUp("page " + e.uri() + " is corrupt", in.records.size());
      }
    }
    Set<LogRecord> blocked = behindCorruptPages(target, in.records);
    try {
      return apply(target, queue, step, lease, held, in, blocked, closeGaps);
    } catch (CorruptPageException e) {
      damage.corruptPage(e.uri(), e.getMessage());
      return Outcome.gaveUp("page " + e.uri() + " is corrupt", in.records.size());
    }
  }

  /**
   * The records whose way to their leaf (inner pages, the leaf, right links) passes a corrupt
   * page, by identity: located one by one in a fresh read of the tree.
   */
  private Set<LogRecord> behindCorruptPages(Target target, List<LogRecord> records) {
    DirectPageStore store =
        new DirectPageStore(storage, writer, conditionalPuts, pool.config().pageSize());
    Set<LogRecord> blocked = Collections.newSetFromMap(new IdentityHashMap<>());
    boolean secondary = target.kind() == PuQueues.Kind.INDEX_TREE;
    for (LogRecord r : records) {
      try {
        String leaf = treeOf(r.treeUri()).leafFor(store, r.toTreeChange(secondary).key());
        store.read(leaf);
      } catch (CorruptPageException e) {
        damage.corruptPage(e.uri(), e.getMessage());
        blocked.add(r);
      }
    }
    return blocked;
  }

  /**
   * Applies the received records but {@code blocked} (which wait in the queue) and puts the pages,
   * deletes the applied messages, installs the pages.
   *
   * @throws CorruptPageException when a page read on the way is corrupt (before anything is put)
   */
  private Outcome apply(
      Target target,
      String queue,
      Steps step,
      DirectPageStore.Lease lease,
      Held held,
      RunMessages in,
      Set<LogRecord> blocked,
      boolean closeGaps) {
    DirectPageStore store =
        new DirectPageStore(storage, writer, conditionalPuts, pool.config().pageSize());
    long now = clock.millis();
    Optional<Page> first = store.read(target.uri());
    if (first.isEmpty()) {
      if (target.isTree()) {
        throw new DirectPageStore.Abandoned("tree " + target.uri() + " has no root");
      }
      return Outcome.gaveUp("data page " + target.uri() + " does not exist", in.handles.size());
    }
    if (closeGaps) {
      first = Optional.of(CheckpointPages.withGapsClosed(first.get(), in.records, target));
      store.stage(first.get());
    }
    // Records whose key a split moved to another page are applied there, under that page's lock;
    // when it is not available now they wait like records after a gap.
    if (!target.isTree()) {
      lockMovedPages(first.get(), in.records, store, held, blocked);
    }
    // Monotonic writes: each writer's chain in counter order, exactly once (WriteChains).
    Predicate<LogRecord> waits = r -> blocked.contains(r) || held.blocked(r);
    WriteChains.Filtered chains =
        filterChains(in.records, first.get(), target, store, now, waits, blocked);
    // Records after a gap wait for the record that closes it, and that one may sit behind them in
    // the queue, further back than one run's share: a run that only ever received the waiting
    // records (handed back, they come first again) would never reach it. So the run receives on
    // while anything waits and the queue may hold more, up to a few shares.
    for (int share = 1;
        share < RECEIVE_AHEAD && !chains.deferred().isEmpty() && in.mayHoldMore();
        share++) {
      int before = in.records.size();
      in.receiveOn(before + maxRecords);
      if (in.records.size() == before) {
        break;
      }
      if (!blocked.isEmpty()) {
        // The run met damage: the records received ahead may lead there too, and one of them
        // reaching the corrupt page would make the whole run give up.
        blocked.addAll(behindCorruptPages(target, in.records.subList(before, in.records.size())));
      }
      if (!target.isTree()) {
        lockMovedPages(first.get(), in.records, store, held, blocked);
      }
      chains = filterChains(in.records, first.get(), target, store, now, waits, blocked);
    }
    if (in.mayHoldMore()) {
      // Still more behind them: the waiting messages stay hidden when the run ends, so the next
      // runs receive what lies behind them rather than the same ones again. Not the chained ones
      // blocked by damage: the next runs must see them to let their chains go on past them.
      in.keepHidden(
          chains.deferred().stream()
              .filter(r -> !blocked.contains(r) || r.clientCounter() == 0)
              .toList());
    }
    if (chains.waiting() > 0) {
      waitingForRoom.put(queue, new Room(chains.waiting(), chains.waitingWriters()));
    } else {
      waitingForRoom.remove(queue);
    }
    List<LogRecord> records = chains.apply();
    long forget = forgetTombstonesBefore.getAsLong();
    CheckpointPages.warnIfOlderThan(forget, records, queue);
    int applied;
    if (target.isTree()) {
      applied = applyToTree(target, records, store, now, chains, forget);
    } else {
      applied = applyToPage(target.uri(), records, store, now, chains, held, forget).orElse(0);
    }
    Map<String, String> versions = store.flush(lease, target.uri()); // counters last
    crashPoints.reach(step.afterPut().id());
    in.delete(in.handlesWithout(chains.deferred()));
    crashPoints.reach(step.afterDelete().id());
    store.install(versions);
    return new Outcome(
        true,
        false,
        in.records.size(),
        applied,
        chains.deferred().size(),
        versions.size(),
        "done",
        0,
        in.drained);
  }

  /**
   * Filters the records by the writers' chains ({@link WriteChains}) under this checkpoint's
   * header budget, retiring chains of writers gone, and stages {@code page} with the resulting
   * header, so that the changes applied next (and any split they cause) already account for it.
   */
  private WriteChains.Filtered filterChains(
      List<LogRecord> records,
      Page page,
      Target target,
      DirectPageStore store,
      long now,
      Predicate<LogRecord> blocked,
      Set<LogRecord> damaged) {
    WriteChains.Policy policy =
        new WriteChains.Policy(
            now,
            CheckpointPages.headerBudget(store.pageSize(), rootOf(target, records)),
            horizonMillis,
            leases.deathTime().toMillis(),
            leases::probe);
    WriteChains.Filtered chains =
        WriteChains.filter(
            records, page, target.isTree(), target.uri(), blocked, damaged::contains, policy);
    store.stage(chains.header(page));
    return chains;
  }

  /**
   * The root URI of the tree whose root {@code target} feeds, empty for a data page that is not a
   * root: a tree's queue feeds its root, and a data page is its tree's root while the tree is one
   * leaf (its records name that tree).
   */
  private static Optional<String> rootOf(Target target, List<LogRecord> records) {
    if (target.isTree()) {
      return Optional.of(target.uri());
    }
    for (LogRecord r : records) {
      if (target.uri().equals(r.treeUri())) {
        return Optional.of(target.uri());
      }
    }
    return Optional.empty();
  }

  /** Applies a tree queue's inserts and deletes; returns how many records were applied. */
  private int applyToTree(
      Target target,
      List<LogRecord> records,
      DirectPageStore store,
      long now,
      WriteChains.Filtered filtered,
      long forget) {
    boolean secondary = target.kind() == PuQueues.Kind.INDEX_TREE;
    List<TreeChange> changes = new ArrayList<>(records.size());
    for (LogRecord r : records) {
      changes.add(r.toTreeChange(secondary));
    }
    BLinkTree tree = treeOf(target.uri());
    // The root first, with its new header (staged by filterChains) and time, split if it no
    // longer fits: the changes below then split pages that already account for the header.
    Page root = CheckpointPages.readRoot(store, target.uri());
    tree.rewrite(store, CheckpointTimes.of(root).withTree(now).writeTo(root));
    tree.applySorted(store, changes, forget);
    CheckpointPages.confirmLeaves(tree, store, changes);
    root = CheckpointPages.readRoot(store, target.uri());
    ChainState chains = ChainState.of(root);
    CheckpointTimes times = CheckpointTimes.of(root);
    if (!chains.counters().equals(filtered.counters())
        || !chains.held().equals(filtered.held())
        || times.treeMillis() != now) {
      CheckpointPages.writeHeader(
          store,
          root.toBuilder()
              .protocolState(
                  chains
                      .withCounters(filtered.counters(), filtered.held())
                      .encode(times.withTree(now)))
              .build(),
          target.uri());
    }
    return changes.size();
  }

  /**
   * Applies a data page queue's updates; empty when the page does not exist (the messages stay).
   * An update whose key a split has moved to another leaf is applied to that leaf, whose lock
   * {@link #lockMovedPages} took.
   */
  private Optional<Integer> applyToPage(
      String pageUri,
      List<LogRecord> records,
      DirectPageStore store,
      long now,
      WriteChains.Filtered chains,
      Held held,
      long forget) {
    Optional<Page> read = store.read(pageUri);
    if (read.isEmpty()) {
      return Optional.empty();
    }
    Page page = read.get();
    Map<String, List<TreeChange>> byTree = new LinkedHashMap<>();
    // Each key's state after the records before it (present, and its write stamp): a writer's
    // delete and re-create of a key follow its pending update into this queue, so one batch may
    // hold all three; a record older than the key's state is dropped (the write-stamp rule the
    // tree applies too), and must not change what later records of the batch find.
    Map<String, TreeMap<byte[], KeyState>> states = new HashMap<>();
    int applied = 0;
    for (LogRecord r : records) {
      byte[] key = r.change().key();
      String leafUri = held.movedTo.getOrDefault(r, pageUri);
      Page leaf =
          leafUri.equals(pageUri)
              ? page
              : store
                  .read(leafUri)
                  .orElseThrow(
                      () -> new DirectPageStore.Abandoned("leaf " + leafUri + " is missing"));
      TreeMap<byte[], KeyState> known =
          states.computeIfAbsent(r.treeUri(), u -> new TreeMap<>(Arrays::compareUnsigned));
      KeyState state = known.computeIfAbsent(key, k -> KeyState.of(leaf, k));
      TreeChange change = r.toTreeChange(false);
      if (!change.supersedes(state.stamp())) {
        continue; // a later writer's value is there already
      }
      boolean apply =
          switch (r.kind()) {
            case UPDATE -> state.present(); // absent: deleted since (by another writer), dropped
            case INSERT -> true; // a put: creates or replaces
            // absent: its stamp stays as the tombstone, so an older insert arriving later is
            // dropped
            case DELETE -> state.present() || change.stamp() > 0;
          };
      if (apply) {
        byTree.computeIfAbsent(r.treeUri(), u -> new ArrayList<>()).add(change);
        known.put(key, new KeyState(r.kind() != LogicalChange.Kind.DELETE, change.stamp()));
        applied++;
      }
    }
    for (Map.Entry<String, List<TreeChange>> e : byTree.entrySet()) {
      treeOf(e.getKey()).applySorted(store, e.getValue(), forget);
    }
    for (LogRecord r : records) {
      String moved = held.movedTo.get(r);
      if (moved != null) {
        store.confirm(moved); // decided on by its contents, like the page itself
      }
    }
    for (String written : store.writes().keySet()) {
      Page w = store.writes().get(written);
      // A page read as a leaf counts even if it is written as an inner page: a stale copy of the
      // root from before its split (storage whose reads lag) takes the records and splits again;
      // its put would fail, but only after this page's counters were put, claiming them applied.
      boolean leaf = w.kind() == PageKind.LEAF || store.readAsLeaf(written);
      if (leaf && !store.isNew(written) && !written.equals(pageUri) && !held.holds(written)) {
        // The tree changed between locating the leaves and applying, or a copy read was stale:
        // try again later.
        throw new DirectPageStore.Abandoned(
            "a record would land on leaf "
                + written
                + ", whose lock this checkpoint does not hold");
      }
    }
    Page now0 = store.read(pageUri).orElseThrow();
    CheckpointPages.writeHeader(
        store,
        now0.toBuilder()
            .protocolState(
                ChainState.of(now0)
                    .withCounters(chains.counters(), chains.held())
                    .encode(CheckpointTimes.of(now0).withPage(now)))
            .build(),
        StorageLayout.rootOf(now0.uri()));
    return Optional.of(applied);
  }

  /**
   * Whether a key is present, and the write stamp of what it holds: its entry's, or for an absent
   * key its tombstone's (0: none).
   */
  private record KeyState(boolean present, long stamp) {
    static KeyState of(Page leaf, byte[] key) {
      int i = leaf.indexOf(key);
      return i >= 0
          ? new KeyState(true, leaf.stamp(i))
          : new KeyState(false, leaf.tombstoneStamp(key));
    }
  }

  /**
   * Finds, for the records routed to {@code page} whose keys a split moved away, the leaves now
   * responsible, and locks them ({@code held}).
   */
  private void lockMovedPages(
      Page page,
      List<LogRecord> records,
      DirectPageStore store,
      Held held,
      Set<LogRecord> blocked) {
    for (LogRecord r : records) {
      if (blocked.contains(r)) {
        continue;
      }
      String leaf = CheckpointPages.responsibleLeaf(store, page, r);
      if (!leaf.equals(page.uri())) {
        held.movedTo.put(r, leaf);
        held.lock(leaf);
      }
    }
  }

  /** The tree handle of a root URI, naming new pages like the record manager does. */
  public static BLinkTree treeOf(String rootUri) {
    return CheckpointPages.treeOf(rootUri);
  }

  /** The crash points of one checkpoint's steps: a tree's or a data page's. */
  private record Steps(
      CrashPoint afterLock, CrashPoint afterReceive, CrashPoint afterPut, CrashPoint afterDelete) {
    static final Steps TREE =
        new Steps(
            CrashPoint.CHECKPOINT_TREE_AFTER_LOCK,
            CrashPoint.CHECKPOINT_TREE_AFTER_RECEIVE,
            CrashPoint.CHECKPOINT_TREE_AFTER_PUT,
            CrashPoint.CHECKPOINT_TREE_AFTER_DELETE);
    static final Steps PAGE =
        new Steps(
            CrashPoint.CHECKPOINT_PAGE_AFTER_LOCK,
            CrashPoint.CHECKPOINT_PAGE_AFTER_RECEIVE,
            CrashPoint.CHECKPOINT_PAGE_AFTER_PUT,
            CrashPoint.CHECKPOINT_PAGE_AFTER_DELETE);
  }

  private void release(String queue, String owner) {
    try {
      CloudFutures.await(locks.release(queue, owner));
    } catch (CloudException e) {
      // the lease lapses by itself
    }
  }
}
