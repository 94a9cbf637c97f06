package io.stratus.protocols.advanced;

import io.stratus.CommitFailedException;
import io.stratus.CommitStateUnknownException;
import io.stratus.CorruptLogMessageException;
import io.stratus.DatabaseInRecoveryException;
import io.stratus.cloudapi.AdvancedMessage;
import io.stratus.cloudapi.AdvancedQueueService;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.CrashPoints;
import io.stratus.cloudapi.LockGrant;
import io.stratus.cloudapi.LockService;
import io.stratus.cloudapi.OutcomeUnknownException;
import io.stratus.protocols.ProtocolContext;
import io.stratus.protocols.RecoverySummary;
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
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The {@link CommitLog} of advanced atomicity (paper 000, section 5.3, Algorithms 5 and 6): two
 * advanced queues shared by every client of the database, ATOMIC ({@code
 * <databaseUri>/aatomic/log}) for log messages and ATOMIC COMMIT ({@code
 * <databaseUri>/aatomic/commit}) for commit records, every message keyed by its transaction's
 * <em>commit key</em>, so any client can fetch exactly one transaction's messages by key.
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
 * relies on: log messages are missing only once the transaction has been propagated.
 *
 * <p><b>Recovery</b> (Algorithm 6): before a commit, at most once per {@link #recoveryCheckMillis}
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
public final class AdvancedAtomicLog implements CommitLog {
  private static final System.Logger LOG = System.getLogger(AdvancedAtomicLog.class.getName());
  /** Messages fetched per receive during recovery. */
  static final int RECEIVE_MAX = 1000;
  /** Rounds of stale commit records one recovery pass handles at most. */
  private static final int MAX_ROUNDS = 100;
  /** Resends of a message whose outcome is unknown. */
  private static final int RESENDS = 3;

  /**
   * A committed transaction whose records are not propagated yet; {@code resend}: the message
   * that commits it, to send again first (its outcome was unknown), or empty.
   */
  private record Pending(long key, boolean twoStep, Routed routed, Optional<byte[]> resend) {}

  /** What a recovery check found. */
  enum Recovery {
    /** No stale commit record. */
    NOT_NEEDED,
    /** Stale commit records were recovered by this client. */
    RECOVERED,
    /** Another client holds the recovery lock. */
    BUSY
  }

  private final EngineParts parts;
  private final Sequencing sequencing;
  private final Clock clock;
  private final CrashPoints crashPoints;
  private final AdvancedQueueService queues;
  private final LockService locks;
  private final PuQueues names;
  private final QueueSender sender;
  private final String logQueue;
  private final String commitQueue;
  private final String owner;
  private final Duration atomicTimeout;
  private final long commitDeadlineMillis;
  private final long recoveryCheckMillis;
  private final int maxMessageSize;
  private final SecureRandom keys = new SecureRandom();
  private final ConcurrentLinkedQueue<Pending> pending = new ConcurrentLinkedQueue<>();
  /** Propagation on the checkpoint executor, one run serving every commit that arrived meanwhile. */
  private final CoalescingTask propagation;
  private final AtomicLong passes = new AtomicLong();
  private volatile long lastCheckMillis = Long.MIN_VALUE;
  private volatile boolean recoveryNeeded;
  /** Whether a thread of this handle is running the recovery check. */
  private final AtomicBoolean checking = new AtomicBoolean();

  /** The log over the engine's parts; creates the two queues when they are missing. */
  public AdvancedAtomicLog(EngineParts parts) {
    this.parts = parts;
    ProtocolContext ctx = parts.context();
    if (!ctx.services().hasAdvancedQueues()) {
      throw new io.stratus.InvalidRequestException(
          "the advanced atomic protocol needs the advanced queue service");
    }
    this.sequencing = parts.sequencing();
    this.clock = ctx.clock();
    this.crashPoints = ctx.crashPoints();
    this.queues = ctx.services().advancedQueues();
    this.locks = ctx.services().locks();
    this.names = parts.names();
    this.sender = parts.sender();
    String prefix = prefixOf(ctx.databaseUri());
    this.logQueue = prefix + "log";
    this.commitQueue = prefix + "commit";
    this.owner = ctx.clientId() + "#" + Long.toString(clock.millis(), 36) + "-"
        + UUID.randomUUID().toString().substring(0, 8);
    this.atomicTimeout = ctx.checkpoints().atomicTimeout();
    this.commitDeadlineMillis = atomicTimeout.toMillis() * 3 / 4;
    this.recoveryCheckMillis = Math.max(1, atomicTimeout.toMillis() / 5);
    this.maxMessageSize = queues.limits().maxAdvancedMessageSize();
    this.propagation = new CoalescingTask(parts.scheduler(), this::propagatePending);
    CloudFutures.await(queues.createQueue(logQueue));
    CloudFutures.await(queues.createQueue(commitQueue));
    CloudFutures.await(locks.setTimeout(prefix, ctx.checkpoints().lockTimeout()));
  }

  /** The URI prefix of a database's advanced atomicity queues (and of its recovery lock). */
  public static String prefixOf(String databaseUri) {
    return databaseUri + "/aatomic/";
  }

  @Override
  public void commit(WriteSet ws, Routed routed) {
    String tx = ws.transaction().transactionId();
    checkRecovery(tx);
    long key = newKey();
    String commitKey = owner + "/" + tx;
    boolean twoStep;
    try (Sequencing.Slot lane = sequencing.acquire()) {
      long now = clock.millis();
      lane.number(routed.byQueue());
      List<LogRecord> all = new ArrayList<>(routed.records());
      for (List<LogRecord> rs : routed.byQueue().values()) {
        all.addAll(rs);
      }
      crashPoints.reach("aatomic.before-log");
      Optional<byte[]> single = AtomicMessages.complete(commitKey, now, all, maxMessageSize);
      twoStep = single.isEmpty();
      if (single.isPresent()) {
        sendCommitting(tx, key, false, routed, single.get(), lane);
      } else {
        List<byte[]> messages = AtomicMessages.pack(commitKey, now, all, maxMessageSize);
        Sent logs = send(logQueue, messages, key);
        if (!logs.ok()) {
          // No commit record: what arrived is an orphan that recovery deletes once it is old.
          lane.giveBack(routed.byQueue());
          throw failed(tx, "sending its log messages failed", logs, true);
        }
        crashPoints.reach("aatomic.after-log");
        if (clock.millis() - now > commitDeadlineMillis) {
          lane.giveBack(routed.byQueue());
          throw new CommitFailedException("advanced atomic commit of transaction " + tx
              + ": sending its log messages took longer than " + commitDeadlineMillis
              + " ms, too close to the atomic timeout; no commit record was sent, so none of it"
              + " will be applied", true, null);
        }
        sendCommitting(tx, key, true, routed,
            AtomicMessages.commitRecord(commitKey, now, messages.size(), all.size()), lane);
      }
      lane.completed(routed.byQueue());
      crashPoints.reach("aatomic.after-commit-record");
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
   * Algorithm 6 before a commit: at most once per check period, and at every commit while a
   * recovery is needed.
   */
  private void checkRecovery(String tx) {
    long now = clock.millis();
    long last = lastCheckMillis;
    if (!recoveryNeeded && last != Long.MIN_VALUE && now >= last
        && now - last < recoveryCheckMillis) {
      return;
    }
    // One check per handle at a time: the request threads that find a check due together would
    // otherwise each ask the queues, and each but one be refused the recovery lock its own
    // handle holds. The others go by the last result.
    if (!checking.compareAndSet(false, true)) {
      throwIfInRecovery(tx);
      return;
    }
    try {
      Recovery r;
      try {
        r = recoverStale(false);
      } catch (CloudException e) {
        throw new CommitFailedException("advanced atomic commit of transaction " + tx
            + ": checking for transactions to recover failed; nothing was sent",
            e.isRetryable(), e);
      }
      lastCheckMillis = now;
      recoveryNeeded = r == Recovery.BUSY;
    } finally {
      checking.set(false);
    }
    throwIfInRecovery(tx);
  }

  private void throwIfInRecovery(String tx) {
    if (recoveryNeeded) {
      throw new DatabaseInRecoveryException("advanced atomic commit of transaction " + tx
          + ": another client is recovering a crashed client's transaction; nothing was sent");
    }
  }

  /**
   * Sends the message whose arrival commits the transaction (complete message or commit record):
   * sent, committed; maybe sent, settled as a winner later; not sent, nothing happened.
   */
  private void sendCommitting(String tx, long key, boolean twoStep, Routed routed,
      byte[] message, Sequencing.Slot lane) {
    Sent s = send(commitQueue, List.of(message), key);
    if (s.ok()) {
      return;
    }
    if (s.maybe()) {
      // Settled as a winner: the flush sends it again until one send is known to have arrived.
      lane.completed(routed.byQueue());
      parts.events().winner(routed);
      pending.add(new Pending(key, twoStep, routed, Optional.of(message)));
      propagation.request();
      throw new CommitStateUnknownException("advanced atomic commit of transaction " + tx
          + ": the commit record may or may not have arrived; it is sent again until it has",
          s.failure());
    }
    lane.giveBack(routed.byQueue());
    throw failed(tx, "sending its commit record failed", s, false);
  }

  private static CommitFailedException failed(String tx, String what, Sent s,
      boolean unknownIsHarmless) {
    boolean retryable = s.failure() instanceof CloudException c
        && (c.isRetryable() || (unknownIsHarmless && c instanceof OutcomeUnknownException));
    return new CommitFailedException("advanced atomic commit of transaction " + tx + ": " + what
        + "; no commit record was sent, so none of it will be applied", retryable, s.failure());
  }

  /** A send's outcome: ok, or the last failure and whether anything may have arrived. */
  private record Sent(boolean ok, boolean maybe, Throwable failure) {}

  /** Sends {@code messages} with {@code key}, all at once; resends while the outcome is unknown. */
  private Sent send(String queue, List<byte[]> messages, long key) {
    boolean maybe = false;
    Throwable last = null;
    for (int attempt = 0; attempt <= RESENDS; attempt++) {
      List<CompletableFuture<Long>> sends = new ArrayList<>(messages.size());
      for (byte[] m : messages) {
        sends.add(queues.send(queue, m, key));
      }
      last = null;
      boolean unknown = false;
      for (CompletableFuture<Long> f : sends) {
        try {
          CloudFutures.await(f);
        } catch (CloudException e) {
          last = e;
          unknown |= e instanceof OutcomeUnknownException;
        }
      }
      if (last == null) {
        return new Sent(true, false, null);
      }
      maybe |= unknown;
      if (!unknown && !maybe) {
        return new Sent(false, false, last); // known not sent: no point in sending again
      }
    }
    return new Sent(false, maybe, last);
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
        if (!send(commitQueue, List.of(p.resend().get()), p.key()).ok()) {
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
      b.routed().byQueue().forEach((q, rs) ->
          byQueue.computeIfAbsent(q, x -> new ArrayList<>()).addAll(rs));
      targets.addAll(b.routed().targets());
    }
    try {
      sender.sendAll(byQueue);
    } catch (CloudException e) {
      // The commit records stay; recovery propagates them once they are old.
      LOG.log(Level.DEBUG, "propagating " + batch.size() + " commits failed; recovery will", e);
      return;
    }
    crashPoints.reach("aatomic.after-propagate");
    parts.events().queued(targets);
    try {
      List<CompletableFuture<Integer>> deletes = new ArrayList<>();
      for (Pending b : batch) {
        if (b.twoStep()) {
          deletes.add(queues.deleteByKey(logQueue, b.key() - 1, b.key() + 1));
        }
      }
      awaitAll(deletes);
      deletes.clear();
      for (Pending b : batch) {
        deletes.add(queues.deleteByKey(commitQueue, b.key() - 1, b.key() + 1));
      }
      awaitAll(deletes);
    } catch (CloudException e) {
      LOG.log(Level.DEBUG, "cleaning up " + batch.size() + " commits failed; recovery will", e);
      return;
    }
    crashPoints.reach("aatomic.after-cleanup");
  }

  private static void awaitAll(List<? extends CompletableFuture<?>> futures) {
    CloudException first = null;
    for (CompletableFuture<?> f : futures) {
      try {
        CloudFutures.await(f);
      } catch (CloudException e) {
        if (first == null) {
          first = e;
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }

  // ---- recovery ----

  /** What one recovery pass did. */
  private static final class Tally {
    int winners;
    int orphans;
    int incomplete;
  }

  /**
   * One recovery pass under the recovery lock: every commit record older than the atomic timeout
   * ({@code all}: every commit record, whatever its age — an operator's call) is propagated and
   * deleted, then orphaned log messages older than the atomic timeout are deleted.
   */
  Recovery recoverStale(boolean all) {
    return recover(all, new Tally());
  }

  private Recovery recover(boolean all, Tally tally) {
    // Both questions at once: one round trip for the check that runs before commits.
    CompletableFuture<List<AdvancedMessage>> commits = staleCommitRecords(all);
    CompletableFuture<List<AdvancedMessage>> oldLogs = all ? null
        : queues.receiveOlderThan(logQueue, 1, atomicTimeout);
    Set<Long> leftAlone = new HashSet<>();
    Map<String, List<AdvancedMessage>> stale = byCommitKey(CloudFutures.await(commits), leftAlone);
    boolean orphansDue = all || !CloudFutures.await(oldLogs).isEmpty();
    if (stale.isEmpty() && !orphansDue) {
      return Recovery.NOT_NEEDED;
    }
    String passOwner = owner + "#" + passes.incrementAndGet();
    LockGrant grant = CloudFutures.await(locks.acquireExclusive(commitQueue, passOwner));
    if (!grant.granted()) {
      // Only committed transactions make the database inconsistent; orphans are harmless and the
      // lock's holder deletes them.
      return stale.isEmpty() ? Recovery.NOT_NEEDED : Recovery.BUSY;
    }
    long deadline = clock.millis() + grant.validFor().toMillis() / 2;
    try {
      for (int round = 0; round < MAX_ROUNDS && !stale.isEmpty(); round++) {
        for (List<AdvancedMessage> t : stale.values()) {
          if (clock.millis() > deadline) {
            return Recovery.RECOVERED; // the rest is left to the next pass, under a new lease
          }
          recoverOne(t, tally, leftAlone);
        }
        stale = byCommitKey(CloudFutures.await(staleCommitRecords(all)), leftAlone);
      }
      deleteOrphans(tally);
      return Recovery.RECOVERED;
    } finally {
      try {
        CloudFutures.await(locks.release(commitQueue, passOwner));
      } catch (CloudException e) {
        LOG.log(Level.DEBUG, "releasing the recovery lock failed; it lapses with its lease", e);
      }
    }
  }

  private CompletableFuture<List<AdvancedMessage>> staleCommitRecords(boolean all) {
    return all ? queues.receiveAfterId(commitQueue, RECEIVE_MAX, 0)
        : queues.receiveOlderThan(commitQueue, RECEIVE_MAX, atomicTimeout);
  }

  /**
   * The commit messages grouped by the commit key inside them, without those this pass leaves
   * alone. A damaged commit message is left in the queue (logged, and left alone from then on):
   * deleting it could drop a committed transaction, and an operator can still inspect it.
   */
  private Map<String, List<AdvancedMessage>> byCommitKey(List<AdvancedMessage> ms,
      Set<Long> leftAlone) {
    Map<String, List<AdvancedMessage>> out = new LinkedHashMap<>();
    for (AdvancedMessage m : ms) {
      if (leftAlone.contains(m.id())) {
        continue;
      }
      try {
        String k = AtomicMessages.decode(m.payload()).commitKey();
        out.computeIfAbsent(k, x -> new ArrayList<>()).add(m);
      } catch (CorruptLogMessageException e) {
        leftAlone.add(m.id());
        LOG.log(Level.WARNING, "damaged message " + m.id() + " in " + commitQueue
            + " left in the queue: " + e.getMessage());
      }
    }
    return out;
  }

  /**
   * Propagates the transaction of {@code commitMessages} (copies of its complete message or
   * commit record, all decodable) — its records, or those of the log messages of its key — and
   * deletes its messages, log first. A transaction with a damaged log message is left alone
   * (its ids join {@code leftAlone}): applying the rest would apply part of it.
   */
  private void recoverOne(List<AdvancedMessage> commitMessages, Tally tally,
      Set<Long> leftAlone) {
    AtomicMessages.Entry commit = AtomicMessages.decode(commitMessages.get(0).payload());
    long key = commitMessages.get(0).key();
    List<LogRecord> records = new ArrayList<>();
    List<AdvancedMessage> logs = new ArrayList<>();
    if (commit.complete()) {
      records.addAll(commit.records());
    } else {
      Map<Integer, List<LogRecord>> byIndex = new TreeMap<>();
      for (AdvancedMessage m : CloudFutures.await(
          queues.receiveByKey(logQueue, RECEIVE_MAX, key - 1, key + 1))) {
        AtomicMessages.Entry e;
        try {
          e = AtomicMessages.decode(m.payload());
        } catch (CorruptLogMessageException ex) {
          LOG.log(Level.WARNING, "damaged message " + m.id() + " in " + logQueue + " under the"
              + " key of committed transaction " + commit.commitKey() + ": it is left alone, with"
              + " its commit record: " + ex.getMessage());
          commitMessages.forEach(c -> leftAlone.add(c.id()));
          tally.incomplete++;
          return;
        }
        if (e.commitKey().equals(commit.commitKey())) { // another transaction may share the key
          logs.add(m);
          byIndex.putIfAbsent(e.messageIndex(), e.records());
        }
      }
      if (byIndex.size() < commit.messageCount()) {
        // Log messages are deleted only after the transaction was propagated: this one was, by
        // a clean-up that died before deleting its commit record. Sending again is harmless.
        tally.incomplete++;
      }
      byIndex.values().forEach(records::addAll);
    }
    if (!records.isEmpty()) {
      Map<String, List<LogRecord>> byQueue = new LinkedHashMap<>();
      for (LogRecord r : records) {
        byQueue.computeIfAbsent(names.queueOf(r), q -> new ArrayList<>()).add(r);
      }
      sender.sendAll(byQueue);
      crashPoints.reach("aatomic.recovery.after-propagate");
    }
    List<CompletableFuture<Void>> deletes = new ArrayList<>();
    for (AdvancedMessage m : logs) {
      deletes.add(queues.delete(logQueue, m.id()));
    }
    awaitAll(deletes);
    deletes.clear();
    for (AdvancedMessage m : commitMessages) {
      deletes.add(queues.delete(commitQueue, m.id()));
    }
    awaitAll(deletes);
    tally.winners++;
  }

  /**
   * Deletes log messages older than the atomic timeout that have no commit record: their
   * transaction sent no commit record within three quarters of the timeout, so it never will.
   */
  private void deleteOrphans(Tally tally) {
    List<AdvancedMessage> old =
        CloudFutures.await(queues.receiveOlderThan(logQueue, RECEIVE_MAX, atomicTimeout));
    Map<Long, List<AdvancedMessage>> byKey = new LinkedHashMap<>();
    for (AdvancedMessage m : old) {
      byKey.computeIfAbsent(m.key(), k -> new ArrayList<>()).add(m);
    }
    for (Map.Entry<Long, List<AdvancedMessage>> e : byKey.entrySet()) {
      long key = e.getKey();
      if (!CloudFutures.await(queues.receiveByKey(commitQueue, 1, key - 1, key + 1)).isEmpty()) {
        continue; // committed: the next pass recovers it once its commit record is old
      }
      List<CompletableFuture<Void>> deletes = new ArrayList<>();
      for (AdvancedMessage m : e.getValue()) {
        deletes.add(queues.delete(logQueue, m.id()));
      }
      awaitAll(deletes);
      tally.orphans++;
    }
  }

  @Override
  public RecoverySummary recoverAbandonedClients() {
    Tally tally = new Tally();
    Recovery r = recover(true, tally);
    int waiting =
        CloudFutures.await(queues.receiveAfterId(commitQueue, RECEIVE_MAX, 0)).size();
    return new RecoverySummary(1, tally.winners, tally.orphans, waiting,
        r == Recovery.BUSY ? 1 : 0, tally.incomplete);
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
      LOG.log(Level.WARNING, "recovering the advanced atomicity queues failed", e);
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
