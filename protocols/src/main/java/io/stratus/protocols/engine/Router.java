package io.stratus.protocols.engine;

import io.stratus.CommitFailedException;
import io.stratus.cloudapi.CloudException;
import io.stratus.pagemanager.BufferPool;
import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageStore;
import io.stratus.protocols.LogicalChange;
import io.stratus.protocols.ProtocolContext;
import io.stratus.protocols.WriteSet;
import io.stratus.protocols.checkpoint.Checkpointer;
import io.stratus.protocols.log.Changes;
import io.stratus.protocols.log.LogRecord;
import io.stratus.protocols.log.PuQueues;
import io.stratus.protocols.log.PuQueues.Kind;
import io.stratus.protocols.log.PuQueues.Target;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Turns a write set into log records per pending-update queue (paper 000, Algorithm 1, before
 * the send); the engine's first step of every commit, whatever log the records then go to.
 *
 * <ol>
 *   <li><b>Collapse</b> the changes of one key (per tree) within the transaction: insert + update
 *       = insert of the last payload; update + update = the last; insert + delete = nothing;
 *       delete + insert = update (a put).
 *   <li><b>Route</b>: inserts and deletes to the tree's (or index's) queue; an update to the queue
 *       of the data page that holds the key in the committed view (the buffer pool's clean pages,
 *       not the transaction's private copies, whose local splits are never stored). A key on no
 *       stored data page yet (its insert is still pending) is sent as an insert (a put) to the
 *       tree's queue instead, so the update is never dropped. A key with a pending record of this
 *       handle ({@link ReadYourWrites#pendingTarget}) follows that record into its queue, whatever
 *       its kind, so one chain orders them.
 * </ol>
 *
 * <p>Records are made unnumbered, with the client id as writer; the {@link Sequencing} strategy
 * numbers them. Thread-safe (no state of its own).
 */
final class Router {
  private final String clientId;
  private final Clock clock;
  private final BufferPool pool;
  private final PuQueues names;
  private final ReadYourWrites ownWrites;
  private final CommitStamps stamps;

  Router(ProtocolContext ctx, PuQueues names, ReadYourWrites ownWrites, CommitStamps stamps) {
    this.stamps = stamps;
    this.clientId = ctx.clientId();
    this.clock = ctx.clock();
    this.pool = ctx.bufferPool();
    this.names = names;
    this.ownWrites = ownWrites;
  }

  /**
   * Collapses and routes the write set, sending nothing.
   *
   * @throws CommitFailedException when reading the committed pages fails (nothing was sent)
   */
  Routed route(WriteSet ws) {
    List<LogicalChange> changes = Changes.collapse(ws.changes());
    if (changes.isEmpty()) {
      return Routed.NOTHING;
    }
    try {
      return route(ws, changes);
    } catch (CloudException e) {
      throw new CommitFailedException(
          "commit of transaction "
              + ws.transaction().transactionId()
              + ": reading the committed pages failed, nothing was"
              + " sent ("
              + e.getMessage()
              + ")",
          e.isRetryable(),
          e);
    }
  }

  private Routed route(WriteSet ws, List<LogicalChange> changes) {
    long now = clock.millis();
    long stamp = stamps.next(); // a numbering strategy stamps again when it numbers the records
    String tx = ws.transaction().transactionId();
    PageStore committed = new PoolView(pool);
    Map<String, List<LogRecord>> byQueue = new LinkedHashMap<>();
    Set<Target> targets = new LinkedHashSet<>();
    for (LogicalChange c : changes) {
      LogicalChange sendAs;
      Target target;
      Optional<Target> follow =
          c.secondaryIndex() ? Optional.empty() : ownWrites.pendingTarget(c.treeUri(), c.key());
      if (c.secondaryIndex()) {
        target = new Target(Kind.INDEX_TREE, c.treeUri());
        sendAs = c;
      } else if (follow.isPresent()) {
        // This handle's earlier record of the key is still pending in a queue; whatever this one
        // is (update, delete, re-create), it follows into the same chain, so one checkpoint
        // applies them in commit order. Split between two queues, the older could be applied
        // after the newer (an update on the page after a delete and re-create on the tree, or an
        // upsert on the tree after an update on the page).
        target = follow.get();
        sendAs = routedTo(c, target);
      } else if (c.kind() != LogicalChange.Kind.UPDATE) {
        target = new Target(Kind.PRIMARY_TREE, c.treeUri());
        sendAs = routedTo(c, target);
      } else {
        String leaf = Checkpointer.treeOf(c.treeUri()).leafFor(committed, c.key());
        Optional<Page> page = committed.read(leaf);
        target =
            page.isPresent() && page.get().indexOf(c.key()) >= 0
                ? new Target(Kind.DATA_PAGE, leaf)
                : new Target(Kind.PRIMARY_TREE, c.treeUri()); // its insert is pending: an upsert
        sendAs = routedTo(c, target);
      }
      targets.add(target);
      byQueue
          .computeIfAbsent(names.queueOf(target), q -> new ArrayList<>())
          .add(new LogRecord(sendAs, clientId, 0, tx, now, 0).withWriteStamp(stamp));
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
      return new LogicalChange(
          c.kind(), c.treeUri(), c.key(), c.value(), Optional.of(target.uri()));
    }
    LogicalChange.Kind kind =
        c.kind() == LogicalChange.Kind.UPDATE ? LogicalChange.Kind.INSERT : c.kind();
    return new LogicalChange(kind, c.treeUri(), c.key(), c.value(), Optional.empty());
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

    @Override
    public boolean readsMayLag() {
      return pool.readsMayLag();
    }
  }
}
