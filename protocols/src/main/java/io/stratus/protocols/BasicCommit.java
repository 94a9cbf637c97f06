package io.stratus.protocols;

import io.stratus.CommitFailedException;
import io.stratus.CommitStateUnknownException;
import io.stratus.btree.SecondaryKeys;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.CrashPoints;
import io.stratus.pagemanager.BufferPool;
import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageStore;
import io.stratus.protocols.PuQueues.Kind;
import io.stratus.protocols.PuQueues.Target;
import io.stratus.protocols.log.LogRecord;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The commit of the basic protocol (paper 000, Algorithm 1): the transaction's logical changes
 * become log records sent to PU queues; no page is written.
 *
 * <ol>
 *   <li><b>Collapse</b> the changes of one key (per tree) within the transaction: insert + update
 *       = insert of the last payload; update + update = the last; insert + delete = nothing;
 *       delete + insert = update (a put).
 *   <li><b>Route</b>: inserts and deletes to the tree's (or index's) queue; an update to the queue
 *       of the data page that holds the key in the committed view (the buffer pool's clean pages,
 *       not the transaction's private copies, whose local splits are never stored). A key on no
 *       stored data page yet (its insert is still pending) is sent as an insert (a put) to the
 *       tree's queue instead, so the update is never dropped.
 *   <li><b>Send</b> everything concurrently ({@link QueueSender}); crash points {@code
 *       basic.before-send}, {@code basic.after-send}.
 * </ol>
 *
 * <p>Failures: nothing sent and every failure retryable: {@link CommitFailedException}
 * (retryable); nothing sent, a permanent failure: not retryable; anything sent or an outcome
 * unknown: {@link CommitStateUnknownException} (no atomicity: some records may be applied).
 */
final class BasicCommit {
  /** The writer of unnumbered records (the basic protocol): the client id. */
  private final String clientId;
  private final Clock clock;
  private final CrashPoints crashPoints;
  private final BufferPool pool;
  private final PuQueues names;
  private final QueueSender sender;
  /** Monotonic writes: commits whose outcome stayed unknown, to send until they arrive. */
  private final ConcurrentLinkedQueue<Map<String, List<LogRecord>>> unsettled =
      new ConcurrentLinkedQueue<>();
  /** Monotonic writes: this client's records not yet seen applied; null when off. */
  private final OwnWrites ownWrites;
  /** Monotonic writes: the writer lanes of this incarnation; null when off. */
  private final WriterLanes lanes;

  BasicCommit(ProtocolContext ctx, PuQueues names, QueueSender sender) {
    this(ctx, names, sender, null, null);
  }

  /**
   * @param writer the writer incarnation of monotonic writes ({@code <clientId>#<nonce>}, see
   *     {@link WriteChains} and {@link WriterLanes}); null: no counters (the basic protocol)
   * @param ownWrites this client's pending records (monotonic), which updates of a key follow to
   *     the data page its pending update went to; null: none
   */
  BasicCommit(ProtocolContext ctx, PuQueues names, QueueSender sender, String writer,
      OwnWrites ownWrites) {
    this.ownWrites = ownWrites;
    this.lanes = writer == null ? null : new WriterLanes(writer, ctx.writerLanes());
    this.clientId = ctx.clientId();
    this.clock = ctx.clock();
    this.crashPoints = ctx.crashPoints();
    this.pool = ctx.bufferPool();
    this.names = names;
    this.sender = sender;
  }

  /** The records sent and the targets (data pages, trees) they went to. */
  record Routed(Map<String, List<LogRecord>> byQueue, Set<Target> targets, int records) {}

  /** Commits; returns the targets written to (for the writer-side checkpoint strategy). */
  Routed commit(WriteSet ws) {
    Routed routed = prepare(ws);
    if (routed.records() == 0) {
      return routed;
    }
    crashPoints.reach("basic.before-send");
    QueueSender.Sent sent = lanes == null ? sender.send(routed.byQueue()) : sendChained(routed);
    if (!sent.ok()) {
      throw failure(ws, routed, sent);
    }
    crashPoints.reach("basic.after-send");
    return routed;
  }

  /**
   * Collapses and routes the write set into log records per PU queue, sending nothing (the atomic
   * protocol sends them to its ATOMIC queue first).
   *
   * @throws CommitFailedException when reading the committed pages fails (nothing was sent)
   */
  Routed prepare(WriteSet ws) {
    List<LogicalChange> changes = collapse(ws.changes());
    if (changes.isEmpty()) {
      return new Routed(Map.of(), Set.of(), 0);
    }
    try {
      return route(ws, changes);
    } catch (CloudException e) {
      throw new CommitFailedException("commit of transaction "
          + ws.transaction().transactionId() + ": reading the committed pages failed, nothing was"
          + " sent (" + e.getMessage() + ")", e.isRetryable(), e);
    }
  }

  private Routed route(WriteSet ws, List<LogicalChange> changes) {
    long now = clock.millis();
    String tx = ws.transaction().transactionId();
    PageStore committed = new PoolView(pool);
    Map<String, List<LogRecord>> byQueue = new LinkedHashMap<>();
    Set<Target> targets = new LinkedHashSet<>();
    for (LogicalChange c : changes) {
      LogicalChange sendAs;
      Target target;
      Optional<Target> follow = c.secondaryIndex() || ownWrites == null ? Optional.empty()
          : ownWrites.pendingTarget(c.treeUri(), c.key());
      if (c.secondaryIndex()) {
        target = new Target(Kind.INDEX_TREE, c.treeUri());
        sendAs = c;
      } else if (follow.isPresent()) {
        // Monotonic writes: this client's earlier record of the key is still pending in a queue;
        // whatever this one is (update, delete, re-create), it follows into the same chain, so
        // one checkpoint applies them in commit order. Split between two queues, the older could
        // be applied after the newer (an update on the page after a delete and re-create on the
        // tree, or an upsert on the tree after an update on the page).
        target = follow.get();
        sendAs = routedTo(c, target);
      } else if (c.kind() != LogicalChange.Kind.UPDATE) {
        target = new Target(Kind.PRIMARY_TREE, c.treeUri());
        sendAs = routedTo(c, target);
      } else {
        String leaf = Checkpointer.treeOf(c.treeUri()).leafFor(committed, c.key());
        Optional<Page> page = committed.read(leaf);
        target = page.isPresent() && page.get().indexOf(c.key()) >= 0
            ? new Target(Kind.DATA_PAGE, leaf)
            : new Target(Kind.PRIMARY_TREE, c.treeUri()); // its insert is pending: an upsert
        sendAs = routedTo(c, target);
      }
      targets.add(target);
      byQueue.computeIfAbsent(names.queueOf(target), q -> new ArrayList<>())
          .add(new LogRecord(sendAs, clientId, 0, tx, now, 0));
    }
    return new Routed(byQueue, targets, changes.size());
  }

  /**
   * {@code c} as sent to {@code target}'s queue: on a data page it keeps its kind and names the
   * page (every checkpoint of the page applies updates, inserts and deletes); on a tree an update
   * becomes an insert (a put, so that it is never dropped for a key whose insert is pending) and
   * no page is named.
   */
  private static LogicalChange routedTo(LogicalChange c, Target target) {
    if (target.kind() == Kind.DATA_PAGE) {
      return new LogicalChange(c.kind(), c.treeUri(), c.key(), c.value(),
          Optional.of(target.uri()));
    }
    LogicalChange.Kind kind = c.kind() == LogicalChange.Kind.UPDATE
        ? LogicalChange.Kind.INSERT : c.kind();
    return new LogicalChange(kind, c.treeUri(), c.key(), c.value(), Optional.empty());
  }

  /**
   * Monotonic writes: numbers and sends on one writer lane, held until the outcome is settled, so
   * that no commit leaves a gap in the lane's chains — nothing sent: the counters are given back;
   * outcome unknown: everything is sent again (a few times; duplicates are skipped by their
   * counters), and when every resend fails too, the records are kept and sent again in the
   * background ({@link #resendUnsettled}) until they all arrive. Only a commit whose records all
   * arrived counts as completed for the order between lanes ({@link WriterLanes}).
   */
  private QueueSender.Sent sendChained(Routed routed) {
    try (WriterLanes.Lane lane = lanes.acquire()) {
      lanes.number(lane, routed.byQueue());
      QueueSender.Sent sent = sender.send(routed.byQueue());
      boolean everSent = sent.anythingSent();
      for (int retry = 0; retry < 3 && !sent.ok() && everSent; retry++) {
        sent = sender.send(routed.byQueue());
        everSent |= sent.anythingSent();
      }
      if (sent.ok()) {
        lanes.completed(lane, routed.byQueue());
      } else if (everSent) {
        // Some records may be missing: keep sending in the background until all arrive, so
        // the chains get no gap and nothing overtakes them (later records wait in checkpoints).
        // They will arrive, so later commits on other lanes are ordered after them too: without
        // that dependency a later commit was applied first and the resend then overwrote it.
        unsettled.add(routed.byQueue());
        lanes.completed(lane, routed.byQueue());
        if (ownWrites != null) {
          // They will arrive, so they are pending: later records of their keys follow them into
          // their queues (and the writer reads them, as it would a known commit).
          ownWrites.add(routed.byQueue());
        }
        sent = sent.orMaybeSent();
      } else {
        lanes.giveBack(lane, routed.byQueue());
      }
      return sent;
    }
  }

  /**
   * Sends the records of commits whose outcome stayed unknown again (monotonic writes), until
   * each send is known to have arrived; duplicates are skipped by their counters. Runs on the
   * checkpoint executor and from {@code checkpointAll}.
   *
   * @return whether some are still not known to have arrived
   */
  boolean resendUnsettled() {
    List<Map<String, List<LogRecord>>> later = new ArrayList<>();
    Map<String, List<LogRecord>> u;
    while ((u = unsettled.poll()) != null) {
      if (!sender.send(u).ok()) {
        later.add(u);
      }
    }
    unsettled.addAll(later);
    return !later.isEmpty();
  }

  /** The writer lanes (monotonic writes); null for the basic protocol. */
  WriterLanes lanes() {
    return lanes;
  }

  /** The changes with those of one key collapsed, in the order of each key's first change. */
  static List<LogicalChange> collapse(List<LogicalChange> changes) {
    Map<String, LogicalChange.Kind> first = new LinkedHashMap<>();
    Map<String, LogicalChange> last = new LinkedHashMap<>();
    HexFormat hex = HexFormat.of();
    for (LogicalChange c : changes) {
      byte[] k = c.secondaryIndex() ? SecondaryKeys.compose(c.key(), c.value()) : c.key();
      String id = (c.secondaryIndex() ? "i " : "t ") + c.treeUri() + ' ' + hex.formatHex(k);
      first.putIfAbsent(id, c.kind());
      last.put(id, c);
    }
    List<LogicalChange> out = new ArrayList<>(last.size());
    for (Map.Entry<String, LogicalChange> e : last.entrySet()) {
      LogicalChange c = e.getValue();
      LogicalChange.Kind f = first.get(e.getKey());
      LogicalChange.Kind kind;
      if (c.kind() == LogicalChange.Kind.DELETE) {
        if (f == LogicalChange.Kind.INSERT) {
          continue; // created and deleted within the transaction
        }
        kind = LogicalChange.Kind.DELETE;
      } else if (f == LogicalChange.Kind.INSERT) {
        kind = LogicalChange.Kind.INSERT;
      } else if (f == LogicalChange.Kind.DELETE) {
        kind = c.secondaryIndex() ? LogicalChange.Kind.INSERT : LogicalChange.Kind.UPDATE;
      } else {
        kind = c.kind();
      }
      out.add(kind == c.kind() ? c : new LogicalChange(kind, c.treeUri(), c.key(), c.value(),
          c.dataPageUri(), c.secondaryIndex()));
    }
    return out;
  }

  private static RuntimeException failure(WriteSet ws, Routed routed, QueueSender.Sent sent) {
    Throwable first = sent.failures().get(0);
    String what = "basic commit of transaction " + ws.transaction().transactionId() + " ("
        + routed.records() + " records to " + routed.byQueue().size() + " queues): ";
    RuntimeException mapped;
    if (sent.anythingSent()) {
      mapped = new CommitStateUnknownException(what + sent.sent() + " of " + sent.batches()
          + " batches sent; some records may be applied", first);
    } else {
      boolean retryable = sent.failures().stream()
          .allMatch(f -> f instanceof CloudException && ((CloudException) f).isRetryable());
      mapped = new CommitFailedException(what + "nothing was sent (" + first.getMessage() + ")",
          retryable, first);
    }
    for (int i = 1; i < sent.failures().size(); i++) {
      mapped.addSuppressed(sent.failures().get(i));
    }
    return mapped;
  }

  /** The committed view: clean pages from the buffer pool; read-only. */
  static final class PoolView implements PageStore {
    private final BufferPool pool;

    PoolView(BufferPool pool) {
      this.pool = pool;
    }

    @Override
    public Optional<Page> read(String uri) {
      return pool.fetch(uri);
    }

    @Override
    public void write(Page page) {
      throw new UnsupportedOperationException("the committed view is read-only");
    }

    @Override
    public String newPageUri(String prefix) {
      throw new UnsupportedOperationException("the committed view is read-only");
    }

    @Override
    public int pageSize() {
      return pool.config().pageSize();
    }
  }
}
