package io.stratus.protocols.advanced;

import io.stratus.CommitFailedException;
import io.stratus.CommitStateUnknownException;
import io.stratus.DatabaseInRecoveryException;
import io.stratus.RecordTooLargeException;
import io.stratus.RecoverySummary;
import io.stratus.cloudapi.CloudException;
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
import java.security.SecureRandom;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The {@link CommitLog} of the advanced atomic protocol (paper 000, section 5.3, Algorithms 5 and
 * 6), the engine's strategy for where a commit goes: the keyed queues of {@link
 * KeyedAtomicQueues}, two advanced queues shared by every client of the database, ATOMIC ({@code
 * <databaseUri>/aatomic/log}) for log messages and ATOMIC COMMIT ({@code
 * <databaseUri>/aatomic/commit}) for commit records, every message keyed by its transaction's
 * <em>commit key</em>, so any client can fetch exactly one transaction's messages by key. This
 * class numbers, sends and propagates commits; the queues, their sends and their recovery are
 * {@link KeyedAtomicQueues}'.
 *
 * <p><b>Why shared, keyed queues.</b> The atomic protocol's per-client simple queues are recovered
 * by sweeping them with receives that hide what they return and may come back short, so a
 * recoverer can never be sure it saw a whole transaction and must wait for its owner's lease.
 * Advanced queues are complete and do not hide: a commit record found means every log message sent
 * before it is there to be fetched by its key. So any client can finish any crashed client's
 * transaction as soon as it is older than the atomic timeout, and the database is never left
 * half-applied for longer than that.
 *
 * <p><b>Commit</b> (application thread, on a writer lane as in the atomic protocol): number the
 * records; when records and commit record fit into one message, send that complete message to
 * ATOMIC COMMIT — one round trip (a deviation from Algorithm 5, which always sends the log first:
 * today's messages are large enough for most transactions, see docs/protocols.md). Otherwise send
 * the log messages to ATOMIC at once, then — only while the transaction is within three quarters
 * of the atomic timeout (Algorithm 5, line 5) — the commit record to ATOMIC COMMIT. Crash points
 * {@code aatomic.before-log}, {@code aatomic.after-log} (two-step only), {@code
 * aatomic.after-commit-record}.
 *
 * <p><b>Propagation</b> (checkpoint executor): send the records to the PU queues ({@code
 * aatomic.after-propagate}), then delete the transaction's log messages by key and, last, its
 * commit record ({@code aatomic.after-cleanup}). Deleting the log first keeps the rule recovery
 * relies on: log messages are missing only once the transaction has been propagated. A
 * propagation is tried {@link #PROPAGATION_ATTEMPTS} times; one that still fails stays pending
 * for the next propagation (the next commit's, {@link #drain}'s, close's).
 *
 * <p><b>Recovery</b> (Algorithm 6, {@link KeyedAtomicQueues}): before a commit, at most once per atomic timeout / 5
 * (and at every commit while recovery is needed), a client looks for commit records older than
 * the atomic timeout. Finding some, it takes the recovery lock (the exclusive lock on the ATOMIC
 * COMMIT queue's URI, one owner per pass) and propagates each such transaction — its complete
 * message, or its commit record's log messages fetched by key — then deletes them. If another
 * client holds the lock, the commit is refused with {@link DatabaseInRecoveryException}
 * (retryable; nothing was sent). The same pass deletes orphans: log messages older than the atomic
 * timeout without a commit record (their transaction never committed). Several recoverers, or a
 * crash during recovery, do no harm: records carry their writers' chain counters, so a second
 * propagation is dropped by the checkpoints.
 *
 * <p><b>Commit keys</b> are random positive longs drawn per transaction, and every message also
 * carries the writer's incarnation and transaction id, by which recovery groups messages; two
 * transactions drawing one key would only share a fetch. Thread-safe.
 */
public final class KeyedQueueLog implements CommitLog {
  private static final System.Logger LOG = System.getLogger(KeyedQueueLog.class.getName());

  /**
   * A committed transaction whose records are not propagated yet; {@code resend}: the message
   * that commits it, to send again first (its outcome was unknown), or empty.
   */
  private record Pending(long key, boolean twoStep, Routed routed, Optional<byte[]> resend) {}

  /**
   * Attempts of one propagation before it is left for the next one (sending the same records
   * again is harmless: their counters make the copies duplicates).
   */
  static final int PROPAGATION_ATTEMPTS = 3;

  private final EngineParts parts;
  private final Sequencing sequencing;
  private final Clock clock;
  private final BackgroundFailures failures;
  private final CrashPoints crashPoints;
  private final QueueSender sender;
  private final KeyedAtomicQueues atomicity;
  private final int maxMessageSize;
  private final SecureRandom keys = new SecureRandom();
  private final ConcurrentLinkedQueue<Pending> pending = new ConcurrentLinkedQueue<>();

  /** Propagation on the checkpoint executor, one run serving every commit that arrived meanwhile. */
  private final CoalescingTask propagation;

  /** The log over the engine's parts; creates the two queues when they are missing. */
  public KeyedQueueLog(EngineParts parts) {
    this.parts = parts;
    ProtocolContext ctx = parts.context();
    this.sequencing = parts.sequencing();
    this.clock = ctx.clock();
    this.failures = new BackgroundFailures(LOG, ctx.clock());
    this.crashPoints = ctx.crashPoints();
    this.sender = parts.sender();
    PuQueues names = parts.names();
    this.atomicity =
        new KeyedAtomicQueues(
            ctx,
            records -> {
              Map<String, List<LogRecord>> byQueue = new LinkedHashMap<>();
              for (LogRecord r : records) {
                byQueue.computeIfAbsent(names.queueOf(r), q -> new ArrayList<>()).add(r);
              }
              sender.sendAll(byQueue);
            });
    // Committed records go on to the PU queues (simple queues): a commit whose records would not
    // fit there could never be propagated, so it is refused at commit against both limits.
    this.maxMessageSize = Math.min(atomicity.maxMessageSize(), sender.maxMessageSize());
    this.propagation = new CoalescingTask(parts.scheduler(), this::propagatePending);
  }

  @Override
  public void commit(WriteSet ws, Routed routed) {
    String tx = ws.transaction().transactionId();
    atomicity.checkBeforeCommit(tx);
    long key = newKey();
    String commitKey = atomicity.owner() + "/" + tx;
    boolean twoStep;
    try (Sequencing.Slot lane = sequencing.acquire()) {
      long now = clock.millis();
      lane.number(routed.byQueue());
      List<LogRecord> all = new ArrayList<>(routed.records());
      for (List<LogRecord> rs : routed.byQueue().values()) {
        all.addAll(rs);
      }
      crashPoints.reach(CrashPoint.AATOMIC_BEFORE_LOG.id());
      Optional<byte[]> single = AtomicMessages.complete(commitKey, now, all, maxMessageSize);
      twoStep = single.isEmpty();
      if (single.isPresent()) {
        sendCommitting(tx, key, false, routed, single.get(), lane);
      } else {
        List<byte[]> messages;
        try {
          messages = AtomicMessages.pack(commitKey, now, all, maxMessageSize);
        } catch (RecordTooLargeException e) {
          lane.giveBack(routed.byQueue()); // refused before anything was sent
          throw e;
        }
        if (atomicity.send(atomicity.logQueue(), messages, key)
            instanceof KeyedAtomicQueues.Sent.Failed logs) {
          // No commit record: what arrived is an orphan that recovery deletes once it is old.
          lane.giveBack(routed.byQueue());
          throw failed(tx, "sending its log messages failed", logs, true);
        }
        crashPoints.reach(CrashPoint.AATOMIC_AFTER_LOG.id());
        if (clock.millis() - now > atomicity.commitDeadlineMillis()) {
          lane.giveBack(routed.byQueue());
          throw new CommitFailedException(
              "advanced atomic commit of transaction "
                  + tx
                  + ": sending its log messages took longer than "
                  + atomicity.commitDeadlineMillis()
                  + " ms, too close to the atomic timeout; no commit record was sent, so none of it"
                  + " will be applied",
              true,
              null);
        }
        sendCommitting(
            tx,
            key,
            true,
            routed,
            AtomicMessages.commitRecord(commitKey, now, messages.size(), all.size()),
            lane);
      }
      lane.completed(routed.byQueue());
      crashPoints.reach(CrashPoint.AATOMIC_AFTER_COMMIT_RECORD.id());
    }
    parts.events().winner(routed);
    pending.add(new Pending(key, twoStep, routed, Optional.empty()));
    propagation.request();
  }

  /** A positive key below {@code Long.MAX_VALUE}, so (key - 1, key + 1) is a valid range. */
  private long newKey() {
    return (keys.nextLong() >>> 2) + 1;
  }

  /**
   * Sends the message whose arrival commits the transaction (complete message or commit record):
   * sent, committed; maybe sent, settled as a winner later; not sent, nothing happened.
   */
  private void sendCommitting(
      String tx, long key, boolean twoStep, Routed routed, byte[] message, Sequencing.Slot lane) {
    if (!(atomicity.send(atomicity.commitQueue(), List.of(message), key)
        instanceof KeyedAtomicQueues.Sent.Failed s)) {
      return;
    }
    if (s.maybe()) {
      // Settled as a winner: the flush sends it again until one send is known to have arrived.
      lane.completed(routed.byQueue());
      parts.events().winner(routed);
      pending.add(new Pending(key, twoStep, routed, Optional.of(message)));
      propagation.request();
      throw new CommitStateUnknownException(
          "advanced atomic commit of transaction "
              + tx
              + ": the commit record may or may not have arrived; it is sent again until it has",
          s.failure());
    }
    lane.giveBack(routed.byQueue());
    throw failed(tx, "sending its commit record failed", s, false);
  }

  private static CommitFailedException failed(
      String tx, String what, KeyedAtomicQueues.Sent.Failed s, boolean unknownIsHarmless) {
    CloudException c = s.failure();
    boolean retryable =
        c.isRetryable() || (unknownIsHarmless && c instanceof OutcomeUnknownException);
    return new CommitFailedException(
        "advanced atomic commit of transaction "
            + tx
            + ": "
            + what
            + "; no commit record was sent, so none of it will be applied",
        retryable,
        s.failure());
  }

  // ---- propagation ----

  /**
   * Sends every pending commit's records to the PU queues in one batch, then deletes their
   * messages from the two queues; one propagation at a time.
   */
  private synchronized void propagatePending() {
    List<Pending> batch = new ArrayList<>();
    List<Pending> later = new ArrayList<>();
    Pending p;
    while ((p = pending.poll()) != null) {
      if (p.resend().isPresent()) {
        if (atomicity.send(atomicity.commitQueue(), List.of(p.resend().get()), p.key())
            instanceof KeyedAtomicQueues.Sent.Failed) {
          later.add(p); // still not known to have arrived: the next flush tries again
          continue;
        }
        p = new Pending(p.key(), p.twoStep(), p.routed(), Optional.empty());
      }
      batch.add(p);
    }
    pending.addAll(later);
    if (batch.isEmpty()) {
      return;
    }
    Map<String, List<LogRecord>> byQueue = new LinkedHashMap<>();
    Set<PuQueues.Target> targets = new LinkedHashSet<>();
    for (Pending b : batch) {
      b.routed()
          .byQueue()
          .forEach((q, rs) -> byQueue.computeIfAbsent(q, x -> new ArrayList<>()).addAll(rs));
      targets.addAll(b.routed().targets());
    }
    try {
      sender.sendAll(byQueue, PROPAGATION_ATTEMPTS);
    } catch (CloudException e) {
      // Still pending: the next propagation (the next commit's, drain's, close's) sends them
      // again; their commit records stay, so recovery would too if this client died. Dropped
      // here, the records already numbered would leave a gap in this writer's chains that held
      // every later record back.
      pending.addAll(batch);
      parts.scheduler().retryAtNextSweep(propagation::request);
      failures.report(
          "propagation",
          "propagating "
              + batch.size()
              + " committed transactions"
              + " failed; the next propagation sends them again",
          e);
      return;
    }
    crashPoints.reach(CrashPoint.AATOMIC_AFTER_PROPAGATE.id());
    parts.events().queued(targets);
    List<Long> keys = new ArrayList<>();
    Set<Long> twoStep = new HashSet<>();
    for (Pending b : batch) {
      keys.add(b.key());
      if (b.twoStep()) {
        twoStep.add(b.key());
      }
    }
    try {
      atomicity.cleanUp(keys, twoStep);
    } catch (CloudException e) {
      failures.report(
          "clean-up", "cleaning up " + batch.size() + " commits failed; recovery" + " will", e);
      return;
    }
    crashPoints.reach(CrashPoint.AATOMIC_AFTER_CLEANUP.id());
  }

  @Override
  public long backgroundFailures() {
    return failures.count();
  }

  @Override
  public RecoverySummary recoverAbandonedClients() {
    return atomicity.recoverAbandonedClients();
  }

  /**
   * Propagates this handle's pending commits on the calling thread, then recovers every commit
   * record in the queue (an operator's flush).
   */
  @Override
  public int drain() {
    propagatePending();
    int waiting = pending.size();
    try {
      RecoverySummary s = recoverAbandonedClients();
      waiting += s.waiting() + s.skipped();
    } catch (CloudException e) {
      failures.report("recovery", "recovering the advanced atomicity queues failed", e);
      waiting++;
    }
    return waiting;
  }

  @Override
  public void close() {
    try {
      propagatePending(); // a graceful close settles unknown outcomes and propagates what it can
    } catch (RuntimeException e) {
      LOG.log(Level.DEBUG, "final propagation at close failed; recovery will propagate", e);
    }
  }
}
