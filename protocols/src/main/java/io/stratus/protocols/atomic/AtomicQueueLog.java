package io.stratus.protocols.atomic;

import io.stratus.CommitFailedException;
import io.stratus.CommitStateUnknownException;
import io.stratus.RecordTooLargeException;
import io.stratus.RecoverySummary;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.CrashPoints;
import io.stratus.cloudapi.OutcomeUnknownException;
import io.stratus.protocols.BackgroundFailures;
import io.stratus.protocols.CrashPoint;
import io.stratus.protocols.ProtocolContext;
import io.stratus.protocols.WriteSet;
import io.stratus.protocols.engine.CoalescingTask;
import io.stratus.protocols.engine.CommitLog;
import io.stratus.protocols.engine.EngineParts;
import io.stratus.protocols.engine.Routed;
import io.stratus.protocols.engine.Sequencing;
import io.stratus.protocols.log.AtomicMessages;
import io.stratus.protocols.log.LogRecord;
import io.stratus.protocols.log.PuQueues;
import io.stratus.protocols.log.QueueSender;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The {@link CommitLog} of the atomic protocol (paper 000, section 5.1, Algorithms 3 and 4; paper
 * 001, section 5.1), the engine's strategy for where a commit goes: a per-client ATOMIC queue
 * {@code <databaseUri>/atomic/<clientId>} in front of the PU queues, so that all or none of a
 * transaction's updates are applied. It sends commits and propagates them; {@link
 * AtomicQueueSweeper} sweeps the queues after it.
 *
 * <p><b>Commit</b> (application thread): the engine has routed the records; number them with this
 * client's monotonic-write counters (on a writer lane of the {@link Sequencing}, one commit per
 * lane at a time).
 * If records and commit record fit into one message — the common case — send that one
 * <b>complete-transaction</b> message: one queue round trip. Otherwise pack the records into as
 * few numbered messages as fit, send them at once, then the commit record (commit key, message
 * and record counts). Once the complete message or the commit record is sent the transaction is
 * committed and {@link #commit} returns. Crash points {@code atomic.before-log}, {@code
 * atomic.after-log} (two-step form only), {@code atomic.after-commit-record}.
 *
 * <p><b>Counters and failures</b> (monotonic writes, as in the papers' experiments). Counters are
 * taken at commit and travel in the ATOMIC messages, so every propagation of a winner — the
 * client's own, a recoverer's, a second one after a clean-up died — carries the same counters and
 * checkpoints drop the repeats: a re-propagated winner never overwrites a newer value. A send
 * whose outcome is unknown is repeated (duplicates are harmless); a commit that is known not to
 * have a commit record (a loser, never propagated) gives its counters back, which is safe while
 * its lane is held; a commit whose outcome stays unknown is settled as a winner in the background
 * (sent until known to have arrived), so its counters are never a gap and later commits cannot
 * overtake it. Hence no filler records are needed (see docs/protocols.md). Winners are reported
 * to the engine at once, so its read-your-writes overlay shows them.
 *
 * <p><b>Propagation</b> (checkpoint executor, never the application's thread): send the records to
 * the PU queues exactly as the basic commit does ({@code atomic.after-propagate}); a clean-up
 * pass, a separate task that never holds propagation back, then deletes the propagated
 * transactions' messages from the ATOMIC queue ({@code atomic.after-cleanup}). Pending propagations are a queue that {@link #drain} empties on
 * the caller's thread too, so an operator flush (or a benchmark that holds the executor back)
 * completes them. A propagation is tried {@link #PROPAGATION_ATTEMPTS} times; one that still fails
 * stays pending for the next propagation (the next commit's, {@link #drain}'s, close's, or the one
 * the scheduler's next sweep asks for), and its transactions stay winners in the ATOMIC queue,
 * which a clean-up or recovery pass propagates too. Never dropped: their records are numbered, and
 * records missing from a writer's chain hold all its later records back.
 *
 * <p><b>Recovery</b> ({@link AtomicQueueSweeper}): at open the client runs a pass over its own queue;
 * {@link #drain} runs one over its own and over every other client's queue; {@link
 * #recoverAbandonedClients} over the others' only. Every pass holds the queue's lock, and losers
 * are deleted only past the atomic timeout (see {@link AtomicQueueSweeper} for the safety argument).
 *
 * <p><b>Commit keys</b>: an incarnation nonce (random, fixed at open) plus the transaction id, so a
 * restarted client whose transaction ids start again at 1 never mixes its commits with leftovers
 * of its predecessor. Thread-safe: the pending queue and key sets are concurrent.
 */
public final class AtomicQueueLog implements CommitLog {
  private static final System.Logger LOG = System.getLogger(AtomicQueueLog.class.getName());

  /**
   * A committed transaction whose records are not propagated yet; {@code resend}: ATOMIC queue
   * messages to send (again) first — the commit's outcome was unknown, and the client makes it
   * a winner by sending until one attempt is known to have arrived (empty: none).
   */
  private record Pending(String key, Routed routed, List<byte[]> resend) {}

  /** Resends of an ATOMIC queue message whose outcome is unknown. */
  private static final int RESENDS = 3;

  /**
   * Attempts of one propagation before it is left for the next one: sending the same records
   * again is harmless (their counters make the copies duplicates), and each attempt that fails
   * keeps this writer's later records waiting behind the missing ones.
   */
  static final int PROPAGATION_ATTEMPTS = 3;

  private final EngineParts parts;
  private final Sequencing sequencing;
  private final Clock clock;
  private final BackgroundFailures failures;
  private final CrashPoints crashPoints;
  private final String nonce;
  private final String queue;
  private final AtomicQueueSweeper sweeper;
  private final QueueSender sender;
  private final ConcurrentLinkedQueue<Pending> pending = new ConcurrentLinkedQueue<>();

  /** Committed here, not propagated yet: passes propagate them only when they see them whole. */
  private final Set<String> pendingKeys = ConcurrentHashMap.newKeySet();

  /** Of {@link #pendingKeys}, those a pass propagated: the flush does not send them again. */
  private final Set<String> sentByPasses = ConcurrentHashMap.newKeySet();

  /** Propagated here, messages not deleted yet: passes delete them without sending again. */
  private final Set<String> propagated = ConcurrentHashMap.newKeySet();

  /** Commit records this process sent or saw: never taken for losers. */
  private final Set<String> knownCommitted = ConcurrentHashMap.newKeySet();

  /**
   * Propagation on the checkpoint executor, one run serving every commit that arrived meanwhile;
   * each run asks for a clean-up.
   */
  private final CoalescingTask propagation;

  /**
   * The clean-up pass, apart from propagation: a pass receives the whole ATOMIC queue, which under
   * load takes many round trips, and propagation waiting for it held every commit's records back
   * from the PU queues (tree checkpoints found their queues empty, and the own-writes overlay grew
   * with the backlog).
   */
  private final CoalescingTask cleanUps;

  /**
   * How long after its commit time a two-step transaction may still send its commit record: three
   * quarters of the atomic timeout, leaving the rest for clock skew and the send itself.
   */
  private final long commitDeadlineMillis;

  /**
   * The atomic log over the engine's parts; runs a recovery pass over this client's own ATOMIC
   * queue before it returns.
   */
  public AtomicQueueLog(EngineParts parts) {
    this.parts = parts;
    this.sequencing = parts.sequencing();
    ProtocolContext ctx = parts.context();
    this.clock = ctx.clock();
    this.failures = new BackgroundFailures(LOG, ctx.clock());
    this.crashPoints = ctx.crashPoints();
    this.commitDeadlineMillis = ctx.checkpoints().atomicTimeout().toMillis() * 3 / 4;
    this.nonce =
        Long.toString(ctx.clock().millis(), 36)
            + "-"
            + UUID.randomUUID().toString().substring(0, 8);
    this.sender = parts.sender();
    this.sweeper =
        new AtomicQueueSweeper(
            ctx, ctx.clientId() + "#" + nonce, parts.names(), sender, knownCommitted);
    this.queue = sweeper.queueOf(ctx.clientId());
    this.cleanUps = new CoalescingTask(parts.scheduler(), this::cleanUp);
    this.propagation =
        new CoalescingTask(
            parts.scheduler(),
            () -> {
              propagatePending();
              cleanUps.request();
            });
    CloudFutures.await(
        ctx.services().locks().setTimeout(sweeper.prefix(), ctx.checkpoints().lockTimeout()));
    recoverOwn();
  }

  @Override
  public void commit(WriteSet ws, Routed routed) {
    String tx = ws.transaction().transactionId();
    String key = nonce + "/" + tx;
    // One commit per writer lane at a time: its counters are either used by a winner, given back
    // by a loser, or (outcome unknown) used by a winner the flush settles later.
    try (Sequencing.Slot lane = sequencing.acquire()) {
      // The commit time is taken once the lane is held: recoverers age the transaction by it, and
      // time spent waiting for a lane must not count against its atomic timeout.
      long now = clock.millis();
      lane.number(routed.byQueue());
      List<LogRecord> all = new ArrayList<>(routed.records());
      for (List<LogRecord> rs : routed.byQueue().values()) {
        all.addAll(rs);
      }
      crashPoints.reach(CrashPoint.ATOMIC_BEFORE_LOG.id());
      Optional<byte[]> single = AtomicMessages.complete(key, now, all, sender.maxMessageSize());
      if (single.isPresent()) {
        commitInOneMessage(tx, key, routed, single.get(), lane);
      } else {
        commitInTwoSteps(tx, key, now, routed, all, lane);
      }
      lane.completed(routed.byQueue()); // a known winner: later commits come after it
      crashPoints.reach(CrashPoint.ATOMIC_AFTER_COMMIT_RECORD.id());
    }
    parts.events().winner(routed);
    pending.add(new Pending(key, routed, List.of()));
    propagation.request();
  }

  /**
   * The commit's outcome is unknown after its resends. Its counters must not become a gap that
   * stalls this client's later records, and later records must not overtake it: so the client
   * settles it as a winner — the flush keeps sending the message until one send is known to have
   * arrived (a duplicate is harmless), then propagates it like any commit. Until then checkpoints
   * defer this client's later records of the same chains (order is kept). If the client dies
   * first, recovery applies all or nothing; if nothing had arrived, the later records of its lane
   * wait for good (see docs/protocols.md).
   */
  private CommitStateUnknownException settleLater(
      String tx, String key, Routed routed, byte[] message, QueueSender.Sent sent) {
    pendingKeys.add(key);
    parts.events().winner(routed); // a winner to be: later records of its keys follow
    pending.add(new Pending(key, routed, List.of(message)));
    propagation.request();
    return unknown(tx, sent);
  }

  /**
   * The common case: records and commit record in one complete-transaction message, so the
   * commit costs one queue round trip. Sent means committed; not sent means nothing exists.
   */
  private void commitInOneMessage(
      String tx, String key, Routed routed, byte[] message, Sequencing.Slot lane) {
    knownCommitted.add(key); // before it can exist: our own passes must not touch it
    pendingKeys.add(key);
    sendCommitting(tx, key, routed, message, lane, "sending it to the ATOMIC queue failed");
  }

  /**
   * Sends the message whose arrival commits the transaction (the complete message or the commit
   * record): sent, it is committed; maybe sent, it is settled as a winner later; not sent, it is
   * a loser that gives its counters back.
   */
  private void sendCommitting(
      String tx,
      String key,
      Routed routed,
      byte[] message,
      Sequencing.Slot lane,
      String whatFailed) {
    Resolved r = sendResolving(List.of(message));
    if (r.sent().ok()) {
      return;
    }
    if (r.maybe()) {
      // Settled as a winner, so its records will reach the PU queues: commits on other lanes
      // that begin from now on are ordered after it, as after a known winner.
      lane.completed(routed.byQueue());
      throw settleLater(tx, key, routed, message, r.sent());
    }
    pendingKeys.remove(key);
    knownCommitted.remove(key);
    lane.giveBack(routed.byQueue());
    throw failed(whatFailed, tx, r.sent(), false);
  }

  /** A transaction too large for one message: its log records, then the commit record last. */
  private void commitInTwoSteps(
      String tx, String key, long now, Routed routed, List<LogRecord> all, Sequencing.Slot lane) {
    List<byte[]> messages;
    try {
      messages = AtomicMessages.pack(key, now, all, sender.maxMessageSize());
    } catch (RecordTooLargeException e) {
      lane.giveBack(routed.byQueue()); // refused before anything was sent
      throw e;
    }
    Resolved logs = sendResolving(messages);
    if (!logs.sent().ok()) {
      // No commit record: whatever arrived is a loser, never propagated; the counters are free.
      lane.giveBack(routed.byQueue());
      throw failed("sending its log records to the ATOMIC queue failed", tx, logs.sent(), true);
    }
    crashPoints.reach(CrashPoint.ATOMIC_AFTER_LOG.id());
    // Paper 000, Algorithm 5, line 5: the commit record goes only while the transaction is well
    // within its timeout; older, another client may already have deleted its log records as a
    // loser's, and the commit record would commit half of it.
    if (clock.millis() - now > commitDeadlineMillis) {
      lane.giveBack(routed.byQueue());
      throw new CommitFailedException(
          "atomic commit of transaction "
              + tx
              + ": sending its log"
              + " records took longer than "
              + commitDeadlineMillis
              + " ms, too close to the atomic"
              + " timeout; no commit record was sent, so none of it will be applied",
          true,
          null);
    }
    knownCommitted.add(key); // before it can exist: our own passes must not take it for a loser
    pendingKeys.add(key);
    sendCommitting(
        tx,
        key,
        routed,
        AtomicMessages.commitRecord(key, now, messages.size(), all.size()),
        lane,
        "sending its commit record failed");
  }

  /** A send's last outcome, and whether any attempt may have delivered something. */
  private record Resolved(QueueSender.Sent sent, boolean maybe) {}

  /**
   * Sends to the ATOMIC queue; while the outcome is unknown, sends again (up to {@link
   * #RESENDS} times: duplicates are harmless, see {@link AtomicQueueSweeper}), since one success turns an
   * unknown outcome into a known one.
   */
  private Resolved sendResolving(List<byte[]> messages) {
    QueueSender.Sent sent = sender.sendMessages(queue, messages);
    boolean maybe = sent.anythingSent();
    for (int i = 0; i < RESENDS && !sent.ok() && maybe; i++) {
      sent = sender.sendMessages(queue, messages);
      maybe |= sent.anythingSent();
    }
    return new Resolved(sent, maybe && !sent.ok());
  }

  private static CommitStateUnknownException unknown(String tx, QueueSender.Sent sent) {
    return new CommitStateUnknownException(
        "atomic commit of transaction "
            + tx
            + ": the"
            + " commit record may or may not have been sent; recovery will apply all or nothing",
        sent.failures().get(0));
  }

  /**
   * A failure before any commit record exists: the transaction has no effect. Retryable when
   * every failure is; a send whose outcome is unknown counts as retryable for log messages (they
   * are losers whether they arrived or not).
   */
  private static RuntimeException failed(
      String what, String tx, QueueSender.Sent sent, boolean unknownIsHarmless) {
    boolean retryable =
        sent.failures().stream()
            .allMatch(
                f ->
                    f instanceof CloudException c
                        && (c.isRetryable()
                            || (unknownIsHarmless && c instanceof OutcomeUnknownException)));
    CommitFailedException e =
        new CommitFailedException(
            "atomic commit of transaction "
                + tx
                + ": "
                + what
                + "; no commit record was sent, so none of it will be applied",
            retryable,
            sent.failures().get(0));
    for (int i = 1; i < sent.failures().size(); i++) {
      e.addSuppressed(sent.failures().get(i));
    }
    return e;
  }

  /**
   * Propagates every pending commit to the PU queues, then cleans the ATOMIC queue up. Runs on the
   * caller's thread (an operator's flush, {@link #drain}); the background does the same in two
   * tasks.
   */
  void flush() {
    propagatePending();
    cleanUp();
  }

  /** Deletes the propagated transactions' messages from the ATOMIC queue (one pass). */
  private void cleanUp() {
    if (propagated.isEmpty()) {
      return;
    }
    try {
      AtomicQueueSweeper.Pass pass = sweeper.run(queue, pendingKeys, propagated, sentByPasses);
      propagated.removeAll(pass.finished());
    } catch (CloudException e) {
      failures.report("clean-up", "cleaning " + queue + " up failed; a later pass will", e);
      return;
    }
    crashPoints.reach(CrashPoint.ATOMIC_AFTER_CLEANUP.id());
  }

  /** Sends every pending commit's records to the PU queues; one propagation at a time. */
  private synchronized void propagatePending() {
    Pending p;
    List<Pending> later = new ArrayList<>();
    List<Pending> batch = new ArrayList<>();
    Set<PuQueues.Target> sentByPass = new LinkedHashSet<>();
    while ((p = pending.poll()) != null) {
      if (sentByPasses.remove(p.key())) {
        // A clean-up or recovery pass saw it whole and propagated it already.
        pendingKeys.remove(p.key());
        sentByPass.addAll(p.routed().targets());
        continue;
      }
      if (!p.resend().isEmpty()) {
        if (!sender.sendMessages(queue, p.resend()).ok()) {
          later.add(p); // still not known to have arrived: the next flush tries again
          continue;
        }
      }
      batch.add(p);
    }
    pending.addAll(later);
    if (!sentByPass.isEmpty()) {
      parts.events().queued(sentByPass);
    }
    propagate(batch);
  }

  /**
   * Sends the records of every commit in {@code batch} to their PU queues at once: one round trip
   * and as few messages as fit, however many commits piled up while the previous flush ran (one
   * send per commit capped propagation at one commit per round trip). Order within a queue does
   * not matter: the records carry their counters. On failure the batch's winners are left to the
   * next pass over the ATOMIC queue, which propagates them again (idempotent).
   */
  private void propagate(List<Pending> batch) {
    if (batch.isEmpty()) {
      return;
    }
    Map<String, List<LogRecord>> byQueue = new LinkedHashMap<>();
    Set<PuQueues.Target> targets = new LinkedHashSet<>();
    for (Pending b : batch) {
      for (Map.Entry<String, List<LogRecord>> e : b.routed().byQueue().entrySet()) {
        byQueue.computeIfAbsent(e.getKey(), q -> new ArrayList<>()).addAll(e.getValue());
      }
      targets.addAll(b.routed().targets());
    }
    try {
      sender.sendAll(byQueue, PROPAGATION_ATTEMPTS);
    } catch (CloudException e) {
      // Still pending: the next propagation (the next commit's, drain's, close's) sends them
      // again, or a clean-up pass that sees them whole does. Dropped here, the records already
      // numbered would leave a gap in this writer's chains that held every later record back.
      pending.addAll(batch);
      parts.scheduler().retryAtNextSweep(propagation::request);
      failures.report(
          "propagation",
          "propagating "
              + batch.size()
              + " committed transactions"
              + " from "
              + queue
              + " failed; the next propagation or clean-up pass sends them again",
          e);
      return;
    }
    crashPoints.reach(CrashPoint.ATOMIC_AFTER_PROPAGATE.id());
    for (Pending b : batch) {
      propagated.add(b.key());
      pendingKeys.remove(b.key());
    }
    parts.events().queued(targets);
  }

  @Override
  public long backgroundFailures() {
    return failures.count();
  }

  /** Algorithm 4 on this client's own queue (at open, and from {@link #drain}). */
  private AtomicQueueSweeper.Pass recoverOwn() {
    try {
      AtomicQueueSweeper.Pass pass = sweeper.run(queue, pendingKeys, propagated, sentByPasses);
      propagated.removeAll(pass.finished());
      return pass;
    } catch (CloudException e) {
      failures.report("recovery", "recovering " + queue + " failed; checkpointAll will retry", e);
      return AtomicQueueSweeper.Pass.SKIPPED;
    }
  }

  @Override
  public RecoverySummary recoverAbandonedClients() {
    int queues = 0;
    int skipped = 0;
    int winners = 0;
    int losers = 0;
    int waiting = 0;
    int incomplete = 0;
    for (String q : sweeper.list()) {
      if (q.equals(queue)) {
        continue;
      }
      queues++;
      AtomicQueueSweeper.Pass pass;
      try {
        pass = sweeper.run(q, Set.of(), Set.of(), new HashSet<>());
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
      incomplete += pass.incomplete();
    }
    return new RecoverySummary(queues, winners, losers, waiting, skipped, incomplete);
  }

  /**
   * Completes pending propagations and clean-ups and recovers this client's and abandoned clients'
   * ATOMIC queues; the engine then checkpoints every PU queue.
   */
  @Override
  public int drain() {
    flush();
    AtomicQueueSweeper.Pass own = recoverOwn();
    int waiting = own.ran() ? own.waiting() : 1; // a skipped pass may leave anything: say so
    try {
      RecoverySummary others = recoverAbandonedClients();
      waiting += others.waiting() + others.skipped();
    } catch (CloudException e) {
      LOG.log(
          Level.WARNING, "listing the ATOMIC queues failed; abandoned clients not recovered", e);
      waiting++;
    }
    // Propagations pending after this flush (a failed send) and this client's own commits the
    // recovery pass had to leave alone are work that remains.
    return waiting + pending.size();
  }

  @Override
  public void close() {
    try {
      propagatePending(); // a graceful close settles unknown outcomes and propagates what it can
    } catch (RuntimeException e) {
      LOG.log(Level.DEBUG, "final flush at close failed; recovery will propagate", e);
    }
  }
}
