package io.stratus.protocols.engine;

import io.stratus.CommitFailedException;
import io.stratus.protocols.ProtocolContext;
import io.stratus.protocols.checkpoint.WriteChains;
import io.stratus.protocols.checkpoint.WriterLeases;
import io.stratus.protocols.log.LaneDependency;
import io.stratus.protocols.log.LogRecord;
import io.stratus.protocols.log.WriterIds;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import org.jspecify.annotations.Nullable;

/**
 * The writer lanes of one monotonic-writes incarnation — the {@link Sequencing} strategy of the
 * monotonic and atomic protocols: how a database handle shared by many
 * request threads numbers its records (paper 001, section 5.2) without putting all its commits in
 * one line.
 *
 * <p><b>Why lanes.</b> A chain of counters per (writer, queue) stays gap-free only if the writer
 * numbers and sends one commit at a time: a commit that fails after later ones took counters would
 * leave a gap that stalls them for good, and after a crash nobody could fill it. One chain per
 * handle therefore serializes every commit of a web server behind one queue round trip (measured:
 * TPC-W update interactions took ten times longer with 10 browsers). So a handle has up to
 * {@link io.stratus.protocols.Settings#WRITER_LANES} lanes by default ({@link
 * ProtocolContext#writerLanes()}), each a writer of
 * its own ({@code <incarnation>.<lane>}, its own chains) and each numbering and sending one commit
 * at a time, so every lane keeps the gap-free argument.
 *
 * <p><b>Order between lanes.</b> Monotonic writes are owed to the handle's sessions, whose requests
 * hop between threads. Real time gives the order that matters: a commit that begins after another
 * completed must be applied after it. The handle remembers per queue the last counter each lane
 * <em>completed</em> (every record known to have arrived, or sure to: a commit whose outcome is
 * unknown counts too, because the handle sends it again until it arrives; never one that failed),
 * and the first record of a commit per queue carries those counters of the other lanes ({@link
 * LaneDependency}); a checkpoint applies it only once they are applied ({@link WriteChains}). A
 * dependency is therefore always on records that exist or will while the handle lives, so it does
 * not stall (if the process dies before an unknown commit arrived, its dependants wait, like the
 * later records of its own lane).
 * Commits that overlap in time carry no order between them, as two concurrent requests have none.
 *
 * <p><b>Choice of lane.</b> The most recently released free lane (a stack: commits that do not
 * overlap keep using the same lane, so page headers gain one chain entry per lane actually used);
 * when all are busy, a new lane, up to the maximum; then the caller waits for whichever is
 * released first. As many lanes exist as commits were ever in flight at once. Thread-safe: a
 * lane belongs to the committing thread from {@link #acquire} until {@link Lane#close}, so its
 * chains need no lock of their own (the free stack's hand-over orders the accesses); the
 * completed counters are atomic.
 */
public final class WriterLanes implements Sequencing {
  /** One lane, held by one commit at a time ({@link #acquire} to {@link #close}). */
  final class Lane implements Sequencing.Slot {
    private final int index;

    /** The writer id of this lane's records ({@code <incarnation>.<lane>}). */
    private final String writer;

    /** The thread holding the lane, or null when it is free. */
    private volatile @Nullable Thread owner;

    /** The next counter per PU queue; accessed by the owner only. */
    private final Map<String, Long> next = new HashMap<>();

    private Lane(int index, String writer) {
      this.index = index;
      this.writer = writer;
    }

    @Override
    public void number(Map<String, List<LogRecord>> byQueue) {
      WriterLanes.this.number(this, byQueue);
    }

    @Override
    public void completed(Map<String, List<LogRecord>> byQueue) {
      WriterLanes.this.completed(this, byQueue);
    }

    @Override
    public void giveBack(Map<String, List<LogRecord>> byQueue) {
      WriterLanes.this.giveBack(this, byQueue);
    }

    /** Releases the lane. */
    @Override
    public void close() {
      checkHeld(this);
      owner = null;
      free.offerFirst(this);
    }
  }

  private final String incarnation;
  private final int max;

  /** Lanes made so far (on demand, up to {@code max}). */
  private final AtomicInteger made = new AtomicInteger();

  /** The free lanes, most recently released first. */
  private final LinkedBlockingDeque<Lane> free = new LinkedBlockingDeque<>();

  /** Per PU queue: the last counter each lane completed there (0: none). */
  private final ConcurrentHashMap<String, AtomicLongArray> completed = new ConcurrentHashMap<>();

  /** The lease that keeps this incarnation's chains from being retired; null: none held. */
  private final WriterLeases leases;

  /** The handle's write stamps; each numbered commit takes one (so they grow with counters). */
  private final CommitStamps stamps;

  /**
   * @param incarnation the writer incarnation ({@code <clientId>#<nonce>})
   * @param max how many lanes at most (at least 1); they are made as concurrent commits need them
   * @param leases where the incarnation's lease is held while the lanes are open; null: none (unit
   *     tests of the numbering alone)
   * @param stamps the handle's write stamps
   */
  WriterLanes(String incarnation, int max, WriterLeases leases, CommitStamps stamps) {
    if (max < 1) {
      throw new IllegalArgumentException("at least one writer lane, got " + max);
    }
    this.incarnation = incarnation;
    this.max = max;
    this.leases = leases;
    this.stamps = stamps;
    if (leases != null) {
      // Checkpoints may retire chains only of incarnations whose lease is free (WriteChains).
      leases.hold(incarnation);
    }
  }

  /**
   * The writer lanes of a new incarnation of the handle {@code ctx} ({@code
   * <clientId>#<time>-<random>}), up to {@link ProtocolContext#writerLanes()} lanes, holding the
   * incarnation's lease in {@code leases} until {@link #close}, stamping commits from {@code
   * stamps}.
   */
  public static WriterLanes open(ProtocolContext ctx, WriterLeases leases, CommitStamps stamps) {
    String incarnation =
        ctx.clientId()
            + "#"
            + Long.toString(ctx.clock().millis(), 36)
            + "-"
            + UUID.randomUUID().toString().substring(0, 8);
    return new WriterLanes(incarnation, ctx.writerLanes(), leases, stamps);
  }

  @Override
  public boolean gapsStall() {
    return true;
  }

  /** Gives the incarnation's lease up: its chains may be retired once no record is pending. */
  @Override
  public void close() {
    if (leases != null) {
      leases.release();
    }
  }

  /**
   * A lane for one commit, held until {@link Lane#close}; waits while all are busy.
   *
   * @throws CommitFailedException (retryable) when interrupted while waiting: nothing was sent
   */
  @Override
  public Lane acquire() {
    Lane l = free.pollFirst();
    while (l == null) {
      int n = made.get();
      if (n < max) {
        if (made.compareAndSet(n, n + 1)) {
          l = new Lane(n, WriterIds.of(incarnation, n)); // all lanes busy: one more
        }
        continue;
      }
      try {
        l = free.takeFirst();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new CommitFailedException(
            "interrupted while waiting for a writer lane; nothing" + " was sent", true, e);
      }
    }
    l.owner = Thread.currentThread();
    return l;
  }

  /**
   * Numbers each queue's records with the next counters of {@code lane}'s chain for that queue;
   * the first record per queue also carries the other lanes' completed counters there. The
   * commit's records get a fresh write stamp: taken while the lane is held, it is larger than the
   * stamps of the lane's earlier commits and of every commit this one depends on, so the write
   * stamp rule and the chains agree on one writer's order.
   */
  private void number(Lane lane, Map<String, List<LogRecord>> byQueue) {
    checkHeld(lane);
    long stamp = stamps.next();
    for (Map.Entry<String, List<LogRecord>> e : byQueue.entrySet()) {
      long next = lane.next.getOrDefault(e.getKey(), 1L);
      List<LaneDependency> after = dependencies(lane, e.getKey());
      List<LogRecord> numbered = new ArrayList<>(e.getValue().size());
      for (LogRecord r : e.getValue()) {
        LogRecord n = r.withCounter(lane.writer, next++).withWriteStamp(stamp);
        numbered.add(numbered.isEmpty() && !after.isEmpty() ? n.withAfter(after) : n);
      }
      lane.next.put(e.getKey(), next);
      e.setValue(numbered);
    }
  }

  private List<LaneDependency> dependencies(Lane lane, String queue) {
    AtomicLongArray done = completed.get(queue);
    if (done == null) {
      return List.of();
    }
    List<LaneDependency> out = new ArrayList<>();
    for (int i = 0; i < done.length(); i++) {
      long c = done.get(i);
      if (i != lane.index && c > 0) {
        out.add(new LaneDependency(i, c));
      }
    }
    return out;
  }

  /**
   * The numbered records of a commit on {@code lane} are known to have arrived, or will arrive
   * (an unknown outcome the handle settles by sending again until they do; atomic: a winner that
   * will be propagated): commits that begin from now on are ordered after them. Called before the
   * commit returns or throws.
   */
  private void completed(Lane lane, Map<String, List<LogRecord>> byQueue) {
    checkHeld(lane);
    for (Map.Entry<String, List<LogRecord>> e : byQueue.entrySet()) {
      List<LogRecord> rs = e.getValue();
      long last = rs.get(rs.size() - 1).clientCounter();
      completed
          .computeIfAbsent(e.getKey(), q -> new AtomicLongArray(max))
          .accumulateAndGet(lane.index, last, Math::max);
    }
  }

  /**
   * A commit whose records will never reach a PU queue (nothing was sent, or an atomic loser)
   * returns its counters: the lane has been held since numbering, so they are its chains' last.
   */
  private void giveBack(Lane lane, Map<String, List<LogRecord>> byQueue) {
    checkHeld(lane);
    for (Map.Entry<String, List<LogRecord>> e : byQueue.entrySet()) {
      lane.next.put(e.getKey(), e.getValue().get(0).clientCounter());
    }
  }

  private static void checkHeld(Lane lane) {
    if (lane.owner != Thread.currentThread()) {
      throw new IllegalStateException("writer lane " + lane.index + " is not held by this thread");
    }
  }
}
