package io.stratus.protocols.advanced;

import io.stratus.CommitFailedException;
import io.stratus.CorruptLogMessageException;
import io.stratus.DatabaseInRecoveryException;
import io.stratus.RecoverySummary;
import io.stratus.cloudapi.AdvancedMessage;
import io.stratus.cloudapi.AdvancedQueueService;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.CrashPoints;
import io.stratus.cloudapi.LockService;
import io.stratus.cloudapi.OutcomeUnknownException;
import io.stratus.protocols.CrashPoint;
import io.stratus.protocols.DamageReports;
import io.stratus.protocols.DeadLetters;
import io.stratus.protocols.ProtocolContext;
import io.stratus.protocols.StorageLayout;
import io.stratus.protocols.lease.ExclusiveLease;
import io.stratus.protocols.lease.ExclusivePasses;
import io.stratus.protocols.log.AtomicMessages;
import io.stratus.protocols.log.LogPayloads;
import io.stratus.protocols.log.LogRecord;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The keyed queues of advanced atomicity and their recovery (paper 000, section 5.3, Algorithm
 * 6), shared by the protocols that commit through them (the advanced atomic protocol's {@link
 * KeyedQueueLog}, the isolating protocols): ATOMIC ({@code <databaseUri>/aatomic/log}) for log
 * messages and ATOMIC COMMIT ({@code <databaseUri>/aatomic/commit}) for commit records, advanced
 * queues shared by every client of the database, every message keyed by its transaction.
 *
 * <p>What a protocol decides itself: the key of a transaction (advanced atomicity draws a random
 * one, snapshot isolation uses the commit id) and where committed records go ({@link Propagator}:
 * the PU queues, or the snapshot archive). What this class decides for all: sending with resends
 * while an outcome is unknown ({@link #send}), the recovery check before a commit ({@link
 * #checkBeforeCommit}) and the recovery itself.
 *
 * <p><b>Recovery</b> (Algorithm 6): a client looks for commit records older than the atomic
 * timeout. Finding some, it takes the recovery lock (the exclusive lock on the ATOMIC COMMIT
 * queue's URI, one owner per pass) and propagates each such transaction — its complete message,
 * or its commit record's log messages fetched by key — then deletes them, log first. If another
 * client holds the lock, the commit is refused with {@link DatabaseInRecoveryException}
 * (retryable; nothing was sent). The same pass deletes orphans: log messages older than the atomic
 * timeout without a commit record (their transaction never committed). Several recoverers, or a
 * crash during recovery, do no harm: propagating a transaction twice is idempotent for every
 * {@link Propagator}. Thread-safe.
 *
 * <p><b>Damage.</b> A message of ATOMIC COMMIT that cannot be decoded (garbage, a bad checksum, an
 * unknown format) is set aside into the dead-letter area ({@link DeadLetters}) by the pass that
 * holds the recovery lock, together with the log messages under its key when no readable commit
 * record has that key (were it a damaged commit record, they are its transaction's, and recovery
 * would otherwise delete them as orphans): it no longer comes back to every pass nor counts as a
 * waiting transaction, and an operator can replay it. A committed transaction with a damaged log
 * message stays whole in its queues, never applied in part. Both are counted and warned about
 * once per handle ({@link DamageReports}).
 */
public final class KeyedAtomicQueues {
  /** Messages fetched per receive during recovery. */
  static final int RECEIVE_MAX = 1000;

  /** Rounds of stale commit records one recovery pass handles at most. */
  private static final int MAX_ROUNDS = 100;

  /** Resends of a message whose outcome is unknown. */
  private static final int RESENDS = 3;

  /**
   * Sends a committed transaction's records on to where checkpoints find them. MUST be idempotent:
   * recovery may propagate a transaction that was propagated before (a crash between propagation
   * and clean-up), or two recoverers the same one.
   */
  @FunctionalInterface
  public interface Propagator {
    void propagate(List<LogRecord> records);
  }

  /** What a recovery check found. */
  public enum Recovery {
    /** No stale commit record. */
    NOT_NEEDED,
    /** Stale commit records were recovered by this client. */
    RECOVERED,
    /** Another client holds the recovery lock. */
    BUSY
  }

  private final Clock clock;
  private final CrashPoints crashPoints;
  private final AdvancedQueueService queues;
  private final Propagator propagator;
  private final DamageReports damage;
  private final DeadLetters deadLetters;
  private final String logQueue;
  private final String commitQueue;
  private final String owner;
  private final Duration atomicTimeout;
  private final long commitDeadlineMillis;
  private final long recoveryCheckMillis;
  private final int maxMessageSize;

  /** This handle's recovery passes, each its own owner of the recovery lock. */
  private final ExclusivePasses passes;

  private volatile long lastCheckMillis = Long.MIN_VALUE;
  private volatile boolean recoveryNeeded;

  /** The lease of the recovery lock: how long a stopped recoverer can hold commits back. */
  private volatile Duration recoveryLockLease;

  /** Whether a thread of this handle is running the recovery check. */
  private final AtomicBoolean checking = new AtomicBoolean();

  /**
   * The two queues of the database of {@code ctx} (created when missing) and their recovery,
   * which sends recovered records to {@code propagator}.
   */
  public KeyedAtomicQueues(ProtocolContext ctx, Propagator propagator) {
    if (!ctx.services().hasAdvancedQueues() || !ctx.services().hasLocks()) {
      throw new io.stratus.InvalidRequestException(
          "advanced atomicity needs the advanced queue service and the lock service");
    }
    this.clock = ctx.clock();
    this.crashPoints = ctx.crashPoints();
    this.queues = ctx.services().advancedQueues();
    LockService locks = ctx.services().locks();
    this.propagator = propagator;
    this.damage = ctx.damage();
    this.deadLetters = DeadLetters.of(ctx);
    StorageLayout layout = ctx.layout();
    String prefix = layout.advancedAtomicPrefix();
    this.logQueue = layout.advancedAtomicLog();
    this.commitQueue = layout.advancedAtomicCommits();
    this.owner =
        ctx.clientId()
            + "#"
            + Long.toString(clock.millis(), 36)
            + "-"
            + UUID.randomUUID().toString().substring(0, 8);
    this.passes = new ExclusivePasses(locks, clock, owner + "#");
    this.atomicTimeout = ctx.checkpoints().atomicTimeout();
    this.commitDeadlineMillis = atomicTimeout.toMillis() * 3 / 4;
    this.recoveryCheckMillis = Math.max(1, atomicTimeout.toMillis() / 5);
    this.maxMessageSize = queues.limits().maxAdvancedMessageSize();
    this.recoveryLockLease = ctx.checkpoints().lockTimeout();
    CloudFutures.await(queues.createQueue(logQueue));
    CloudFutures.await(queues.createQueue(commitQueue));
    CloudFutures.await(locks.setTimeout(prefix, ctx.checkpoints().lockTimeout()));
  }

  /** This handle's incarnation: unique among all clients and restarts, the prefix of commit keys. */
  public String owner() {
    return owner;
  }

  /** The ATOMIC queue (log messages of two-step transactions). */
  public String logQueue() {
    return logQueue;
  }

  /** The ATOMIC COMMIT queue (commit records and complete transactions). */
  public String commitQueue() {
    return commitQueue;
  }

  /** The largest message the queues take. */
  public int maxMessageSize() {
    return maxMessageSize;
  }

  /**
   * How long after its start a two-step commit may still send its commit record: three quarters
   * of the atomic timeout (Algorithm 5, line 5), so it is never recovered before it arrived.
   */
  public long commitDeadlineMillis() {
    return commitDeadlineMillis;
  }

  /** How often a handle looks for transactions to recover, at most: the atomic timeout / 5. */
  public long recoveryCheckMillis() {
    return recoveryCheckMillis;
  }

  /**
   * Algorithm 6 before a commit of transaction {@code tx}: at most once per check period, and at
   * every commit while a recovery is needed.
   *
   * @throws DatabaseInRecoveryException while another client holds the recovery lock
   * @throws CommitFailedException when the check itself failed (nothing was sent)
   */
  public void checkBeforeCommit(String tx) {
    long now = clock.millis();
    long last = lastCheckMillis;
    if (!recoveryNeeded
        && last != Long.MIN_VALUE
        && now >= last
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
        throw new CommitFailedException(
            "commit of transaction "
                + tx
                + ": checking for transactions to recover failed; nothing was sent",
            e.isRetryable(),
            e);
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
      throw new DatabaseInRecoveryException(
          "commit of transaction "
              + tx
              + ": another client holds the recovery lock ("
              + commitQueue
              + ") while transactions of a crashed client wait to be recovered; nothing was sent."
              + " If that client stopped too, its lock lapses at most "
              + recoveryLockLease.toMillis() / 1000.0
              + " s after it took it (the checkpoint lock timeout), and the next check recovers"
              + " them; retry (Database.run does)");
    }
  }

  /** A send's outcome: {@link Delivered}, or {@link Failed} with what went wrong. */
  public sealed interface Sent {
    /** Every message arrived. */
    Sent DELIVERED = new Delivered();

    /** Every message arrived. */
    record Delivered() implements Sent {}

    /**
     * Some message did not arrive, or may not have.
     *
     * @param maybe whether any message may have arrived (an attempt's outcome was unknown)
     * @param failure the last attempt's last failure
     */
    record Failed(boolean maybe, CloudException failure) implements Sent {}
  }

  /** Sends {@code messages} with {@code key}, all at once; resends while the outcome is unknown. */
  public Sent send(String queue, List<byte[]> messages, long key) {
    boolean maybe = false;
    for (int attempt = 0; ; attempt++) {
      List<CompletableFuture<Long>> sends = new ArrayList<>(messages.size());
      for (byte[] m : messages) {
        sends.add(queues.send(queue, m, key));
      }
      CloudException last = null;
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
        return Sent.DELIVERED;
      }
      maybe |= unknown;
      if (!maybe || attempt == RESENDS) {
        // Known not sent: no point in sending again. Or out of resends.
        return new Sent.Failed(maybe, last);
      }
    }
  }

  /**
   * Deletes the messages of committed transactions that were propagated: the log messages of the
   * two-step ones first, then every commit record (the order recovery relies on: log messages are
   * missing only once their transaction was propagated).
   *
   * @param keys the transactions' keys
   * @param twoStep the keys, of those, whose transactions sent log messages
   */
  public void cleanUp(List<Long> keys, Set<Long> twoStep) {
    List<CompletableFuture<Integer>> deletes = new ArrayList<>();
    for (long key : twoStep) {
      deletes.add(queues.deleteByKey(logQueue, key - 1, key + 1));
    }
    awaitAll(deletes);
    deletes.clear();
    for (long key : keys) {
      deletes.add(queues.deleteByKey(commitQueue, key - 1, key + 1));
    }
    awaitAll(deletes);
  }

  static void awaitAll(List<? extends CompletableFuture<?>> futures) {
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
  public Recovery recoverStale(boolean all) {
    return recover(all, new Tally());
  }

  private Recovery recover(boolean all, Tally tally) {
    // Both questions at once: one round trip for the check that runs before commits.
    CompletableFuture<List<AdvancedMessage>> commits = staleCommitRecords(all);
    CompletableFuture<List<AdvancedMessage>> oldLogs =
        all
            ? CompletableFuture.completedFuture(List.of()) // orphans are due anyway: not asked
            : queues.receiveOlderThan(logQueue, 1, atomicTimeout);
    Set<Long> leftAlone = new HashSet<>();
    List<Damaged> damaged = new ArrayList<>();
    Map<String, List<AdvancedMessage>> stale =
        byCommitKey(CloudFutures.await(commits), leftAlone, damaged);
    boolean orphansDue = all || !CloudFutures.await(oldLogs).isEmpty();
    if (stale.isEmpty() && !orphansDue && damaged.isEmpty()) {
      return Recovery.NOT_NEEDED;
    }
    ExclusiveLease pass = passes.acquire(commitQueue);
    if (!pass.held()) {
      recoveryLockLease = pass.validFor();
      // Only committed transactions make the database inconsistent; orphans and damaged messages
      // are harmless and the lock's holder deals with them.
      return stale.isEmpty() ? Recovery.NOT_NEEDED : Recovery.BUSY;
    }
    // Half the lease: what is left covers the transaction recovering when the deadline passes.
    long deadline = pass.sentAt() + pass.validFor().toMillis() / 2;
    Map<String, List<AdvancedMessage>> found = stale;
    return pass.runThenRelease(() -> recoverHeld(all, tally, found, damaged, leftAlone, deadline));
  }

  /**
   * The part of a recovery pass under the recovery lock: sets the damaged messages aside, recovers
   * the stale transactions (listing them again after each round, bounded) until {@code deadline},
   * then deletes orphans.
   */
  private Recovery recoverHeld(
      boolean all,
      Tally tally,
      Map<String, List<AdvancedMessage>> stale,
      List<Damaged> damaged,
      Set<Long> leftAlone,
      long deadline) {
    setAside(damaged, leftAlone);
    for (int round = 0; round < MAX_ROUNDS && !stale.isEmpty(); round++) {
      for (List<AdvancedMessage> t : stale.values()) {
        if (clock.millis() > deadline) {
          return Recovery.RECOVERED; // the rest is left to the next pass, under a new lease
        }
        recoverOne(t, tally, leftAlone);
      }
      damaged.clear();
      stale = byCommitKey(CloudFutures.await(staleCommitRecords(all)), leftAlone, damaged);
      setAside(damaged, leftAlone);
    }
    deleteOrphans(tally);
    return Recovery.RECOVERED;
  }

  /** A message of ATOMIC COMMIT that cannot be decoded, and why. */
  private record Damaged(AdvancedMessage message, String why) {}

  /**
   * Moves damaged commit messages into the dead-letter area (the caller holds the recovery lock),
   * each with the log messages under its key unless a readable commit record has that key; a
   * message that cannot be moved is left alone for the rest of the pass (reported once).
   */
  private void setAside(List<Damaged> damaged, Set<Long> leftAlone) {
    for (Damaged d : damaged) {
      AdvancedMessage m = d.message();
      long key = m.key();
      boolean keyOfReadable = false;
      for (AdvancedMessage c :
          CloudFutures.await(queues.receiveByKey(commitQueue, RECEIVE_MAX, key - 1, key + 1))) {
        keyOfReadable |= c.id() != m.id() && decodes(c);
      }
      boolean logsMoved = true;
      if (!keyOfReadable) {
        // The log messages first: were the commit record moved first and the pass to die, they
        // would be orphans to the next pass, which deletes those.
        for (AdvancedMessage l :
            CloudFutures.await(queues.receiveByKey(logQueue, RECEIVE_MAX, key - 1, key + 1))) {
          logsMoved &=
              deadLetters.setAside(
                  logQueue,
                  l,
                  "a log message under the key of damaged commit message "
                      + m.id()
                      + " of "
                      + commitQueue
                      + ", set aside with it");
        }
      }
      if (!logsMoved || !deadLetters.setAside(commitQueue, m, d.why())) {
        leftAlone.add(m.id());
      }
    }
  }

  private static boolean decodes(AdvancedMessage m) {
    try {
      AtomicMessages.decode(LogPayloads.of(m));
      return true;
    } catch (CorruptLogMessageException e) {
      return false;
    }
  }

  private CompletableFuture<List<AdvancedMessage>> staleCommitRecords(boolean all) {
    return all
        ? queues.receiveAfterId(commitQueue, RECEIVE_MAX, 0)
        : queues.receiveOlderThan(commitQueue, RECEIVE_MAX, atomicTimeout);
  }

  /**
   * The commit messages grouped by the commit key inside them, without those this pass leaves
   * alone. The damaged ones (garbage, a bad checksum, an unknown format) go to {@code damaged},
   * for the holder of the recovery lock to set aside; those the services could not open (an
   * encryption key missing here) are reported once and stay, readable once the key arrives.
   */
  private Map<String, List<AdvancedMessage>> byCommitKey(
      List<AdvancedMessage> ms, Set<Long> leftAlone, List<Damaged> damaged) {
    Map<String, List<AdvancedMessage>> out = new LinkedHashMap<>();
    for (AdvancedMessage m : ms) {
      if (leftAlone.contains(m.id())) {
        continue;
      }
      try {
        String k = AtomicMessages.decode(LogPayloads.of(m)).commitKey();
        out.computeIfAbsent(k, x -> new ArrayList<>()).add(m);
      } catch (CorruptLogMessageException e) {
        if (m.isReadable()) {
          damaged.add(new Damaged(m, e.getMessage()));
        } else {
          damage.corruptMessage(commitQueue, Long.toString(m.id()), e.getMessage());
        }
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
  private void recoverOne(List<AdvancedMessage> commitMessages, Tally tally, Set<Long> leftAlone) {
    AtomicMessages.Entry commit = AtomicMessages.decode(LogPayloads.of(commitMessages.get(0)));
    long key = commitMessages.get(0).key();
    List<LogRecord> records = new ArrayList<>();
    List<AdvancedMessage> logs = new ArrayList<>();
    if (commit.complete()) {
      records.addAll(commit.records());
    } else {
      Map<Integer, List<LogRecord>> byIndex = new TreeMap<>();
      for (AdvancedMessage m :
          CloudFutures.await(queues.receiveByKey(logQueue, RECEIVE_MAX, key - 1, key + 1))) {
        AtomicMessages.Entry e;
        try {
          e = AtomicMessages.decode(LogPayloads.of(m));
        } catch (CorruptLogMessageException ex) {
          damage.corruptMessage(
              logQueue,
              Long.toString(m.id()),
              "under the key of committed transaction "
                  + commit.commitKey()
                  + ", which is left whole in place with its commit record, never applied in part: "
                  + ex.getMessage());
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
      propagator.propagate(records);
      crashPoints.reach(CrashPoint.AATOMIC_RECOVERY_AFTER_PROPAGATE.id());
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

  /** Recovers every commit record in the queue, whatever its age (an operator's call). */
  public RecoverySummary recoverAbandonedClients() {
    Tally tally = new Tally();
    Recovery r = recover(true, tally);
    // Damaged commit messages that could not be set aside are counted as damage, not as waiting
    // transactions: nothing will ever propagate them.
    int waiting = 0;
    for (AdvancedMessage m :
        CloudFutures.await(queues.receiveAfterId(commitQueue, RECEIVE_MAX, 0))) {
      waiting += decodes(m) ? 1 : 0;
    }
    return new RecoverySummary(
        1, tally.winners, tally.orphans, waiting, r == Recovery.BUSY ? 1 : 0, tally.incomplete);
  }
}
