package io.stratus.protocols;

import io.stratus.CommitFailedException;
import io.stratus.CommitStateUnknownException;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.CrashPoints;
import io.stratus.cloudapi.OutcomeUnknownException;
import io.stratus.pagemanager.PageStore;
import io.stratus.protocols.log.AtomicMessages;
import io.stratus.protocols.log.LogRecord;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The atomic protocol (paper 000, section 5.1, Algorithms 3 and 4; paper 001, section 5.1): the
 * basic protocol with a per-client ATOMIC queue {@code <databaseUri>/atomic/<clientId>} in front
 * of the PU queues, so that all or none of a transaction's updates are applied.
 *
 * <p><b>Commit</b> (application thread): route the records as the basic commit does; pack all of
 * them into as few numbered messages as fit and send them at once to the ATOMIC queue; then send
 * the commit record (commit key, message and record counts). Once the commit record is sent the
 * transaction is committed and {@link #commit} returns. Crash points {@code atomic.before-log},
 * {@code atomic.after-log}, {@code atomic.after-commit-record}.
 *
 * <p><b>Propagation</b> (checkpoint executor, never the application's thread): send the records to
 * the PU queues exactly as the basic commit does ({@code atomic.after-propagate}), then a clean-up
 * pass deletes the propagated transactions' messages from the ATOMIC queue ({@code
 * atomic.after-cleanup}). Pending propagations are a queue that {@link #checkpointAll} drains on
 * the caller's thread too, so an operator flush (or a benchmark that holds the executor back)
 * completes them. A failed propagation is left to recovery: the transaction stays a winner in the
 * ATOMIC queue and the next pass propagates it.
 *
 * <p><b>Recovery</b> ({@link AtomicLog}): at open the client runs a pass over its own queue;
 * {@link #checkpointAll} runs one over its own and over every other client's queue; {@link
 * #recoverAbandonedClients} over the others' only. Every pass holds the queue's lock, and losers
 * are deleted only past the atomic timeout (see {@link AtomicLog} for the safety argument).
 *
 * <p><b>Commit keys</b>: an incarnation nonce (random, fixed at open) plus the transaction id, so a
 * restarted client whose transaction ids start again at 1 never mixes its commits with leftovers
 * of its predecessor. Thread-safe: the pending queue and key sets are concurrent.
 */
final class AtomicProtocol implements CommitProtocol {
  private static final System.Logger LOG = System.getLogger(AtomicProtocol.class.getName());

  /** A committed transaction whose records are not propagated yet. */
  private record Pending(String key, BasicCommit.Routed routed) {}

  private final BasicProtocol basic;
  private final Clock clock;
  private final CrashPoints crashPoints;
  private final String nonce;
  private final String queue;
  private final AtomicLog log;
  private final QueueSender sender;
  private final ConcurrentLinkedQueue<Pending> pending = new ConcurrentLinkedQueue<>();
  /** Committed here, not propagated yet: passes leave them alone. */
  private final Set<String> pendingKeys = ConcurrentHashMap.newKeySet();
  /** Propagated here, messages not deleted yet: passes delete them without sending again. */
  private final Set<String> propagated = ConcurrentHashMap.newKeySet();
  /** Commit records this process sent or saw: never taken for losers. */
  private final Set<String> knownCommitted = ConcurrentHashMap.newKeySet();

  AtomicProtocol(ProtocolContext ctx) {
    this.basic = new BasicProtocol(ctx);
    try {
      this.clock = ctx.clock();
      this.crashPoints = ctx.crashPoints();
      this.nonce = Long.toString(ctx.clock().millis(), 36) + "-"
          + UUID.randomUUID().toString().substring(0, 8);
      this.sender = basic.sender();
      this.log = new AtomicLog(ctx, ctx.clientId() + "#" + nonce, basic.names(), sender,
          knownCommitted);
      this.queue = log.queueOf(ctx.clientId());
      CloudFutures.await(ctx.services().locks().setTimeout(log.prefix(),
          ctx.checkpoints().lockTimeout()));
      recoverOwn();
    } catch (RuntimeException | Error e) {
      basic.close();
      throw e;
    }
  }

  @Override
  public ProtocolKind kind() {
    return ProtocolKind.ATOMIC;
  }

  /** This client's ATOMIC queue. */
  String atomicQueue() {
    return queue;
  }

  @Override
  public PageStore readView(TransactionInfo tx, PageStore pages) {
    return basic.readView(tx, pages);
  }

  @Override
  public CommitResult commit(WriteSet ws) {
    BasicCommit.Routed routed = basic.commitPart().prepare(ws);
    if (routed.records() == 0) {
      return CommitResult.empty();
    }
    String tx = ws.transaction().transactionId();
    String key = nonce + "/" + tx;
    long now = clock.millis();
    List<LogRecord> all = new ArrayList<>(routed.records());
    for (List<LogRecord> rs : routed.byQueue().values()) {
      all.addAll(rs);
    }
    crashPoints.reach("atomic.before-log");
    List<byte[]> messages = AtomicMessages.pack(key, now, all, sender.maxMessageSize());
    QueueSender.Sent logs = sender.sendMessages(queue, messages);
    if (!logs.ok()) {
      // No commit record: whatever arrived is a loser, never applied.
      throw failed("sending its log records to the ATOMIC queue failed", tx, logs, true);
    }
    crashPoints.reach("atomic.after-log");
    knownCommitted.add(key); // before it can exist: our own passes must not take it for a loser
    pendingKeys.add(key);
    QueueSender.Sent commit = sender.sendMessages(queue, List.of(
        AtomicMessages.commitRecord(key, now, messages.size(), all.size())));
    if (!commit.ok()) {
      pendingKeys.remove(key);
      if (commit.anythingSent()) {
        // Maybe committed: a later pass propagates it if the commit record arrived.
        throw new CommitStateUnknownException("atomic commit of transaction " + tx + ": the"
            + " commit record may or may not have been sent; recovery will apply all or nothing",
            commit.failures().get(0));
      }
      knownCommitted.remove(key);
      throw failed("sending its commit record failed", tx, commit, false);
    }
    crashPoints.reach("atomic.after-commit-record");
    pending.add(new Pending(key, routed));
    basic.scheduler().execute(this::flush);
    return new CommitResult(Map.of(), 0, 0, routed.records());
  }

  /**
   * A failure before any commit record exists: the transaction has no effect. Retryable when
   * every failure is; a send whose outcome is unknown counts as retryable for log messages (they
   * are losers whether they arrived or not).
   */
  private static RuntimeException failed(String what, String tx, QueueSender.Sent sent,
      boolean unknownIsHarmless) {
    boolean retryable = sent.failures().stream().allMatch(f -> f instanceof CloudException c
        && (c.isRetryable() || (unknownIsHarmless && c instanceof OutcomeUnknownException)));
    CommitFailedException e = new CommitFailedException("atomic commit of transaction " + tx
        + ": " + what + "; no commit record was sent, so none of it will be applied", retryable,
        sent.failures().get(0));
    for (int i = 1; i < sent.failures().size(); i++) {
      e.addSuppressed(sent.failures().get(i));
    }
    return e;
  }

  /**
   * Propagates every pending commit to the PU queues, then cleans the ATOMIC queue up. Runs on
   * the checkpoint executor, and on the caller's thread from {@link #checkpointAll}.
   */
  void flush() {
    Pending p;
    while ((p = pending.poll()) != null) {
      try {
        sender.sendAll(p.routed().byQueue());
      } catch (CloudException e) {
        pendingKeys.remove(p.key()); // a winner in the ATOMIC queue: the next pass sends it
        LOG.log(Level.DEBUG, "propagating " + p.key() + " failed; recovery will", e);
        continue;
      }
      crashPoints.reach("atomic.after-propagate");
      propagated.add(p.key());
      pendingKeys.remove(p.key());
      basic.scheduler().afterCommit(p.routed().targets());
    }
    if (!propagated.isEmpty()) {
      try {
        AtomicLog.Pass pass = log.run(queue, pendingKeys, propagated);
        propagated.removeAll(pass.finished());
      } catch (CloudException e) {
        LOG.log(Level.DEBUG, "cleaning " + queue + " up failed; a later pass will", e);
        return;
      }
      crashPoints.reach("atomic.after-cleanup");
    }
  }

  /** Algorithm 4 on this client's own queue (at open, and from {@link #checkpointAll}). */
  private AtomicLog.Pass recoverOwn() {
    try {
      AtomicLog.Pass pass = log.run(queue, pendingKeys, propagated);
      propagated.removeAll(pass.finished());
      return pass;
    } catch (CloudException e) {
      LOG.log(Level.WARNING, "recovering " + queue + " failed; checkpointAll will retry", e);
      return AtomicLog.Pass.SKIPPED;
    }
  }

  @Override
  public RecoverySummary recoverAbandonedClients() {
    int queues = 0;
    int skipped = 0;
    int winners = 0;
    int losers = 0;
    int waiting = 0;
    for (String q : log.list()) {
      if (q.equals(queue)) {
        continue;
      }
      queues++;
      AtomicLog.Pass pass;
      try {
        pass = log.run(q, Set.of(), Set.of());
      } catch (CloudException e) {
        skipped++;
        continue;
      }
      if (!pass.ran()) {
        skipped++;
      }
      winners += pass.winners();
      losers += pass.losers();
      waiting += pass.waiting();
    }
    return new RecoverySummary(queues, winners, losers, waiting, skipped);
  }

  /**
   * Completes pending propagations and clean-ups, recovers this client's and abandoned clients'
   * ATOMIC queues, then checkpoints every PU queue (as the basic protocol does).
   */
  @Override
  public CheckpointSummary checkpointAll() {
    flush();
    recoverOwn();
    try {
      recoverAbandonedClients();
    } catch (CloudException e) {
      LOG.log(Level.DEBUG, "listing the ATOMIC queues failed", e);
    }
    return basic.checkpointAll();
  }

  /** Commits whose propagation is pending (for tests). */
  int pendingPropagations() {
    return pending.size();
  }

  @Override
  public long backgroundCheckpointsRun() {
    return basic.backgroundCheckpointsRun();
  }

  @Override
  public long backgroundCheckpointsFailed() {
    return basic.backgroundCheckpointsFailed();
  }

  @Override
  public void close() {
    basic.close();
  }
}
