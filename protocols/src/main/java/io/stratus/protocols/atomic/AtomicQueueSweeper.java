package io.stratus.protocols.atomic;

import io.stratus.CorruptLogMessageException;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.CrashPoints;
import io.stratus.cloudapi.NotFoundException;
import io.stratus.cloudapi.QueueMessage;
import io.stratus.cloudapi.SimpleQueueService;
import io.stratus.protocols.CrashPoint;
import io.stratus.protocols.DeadLetters;
import io.stratus.protocols.ProtocolContext;
import io.stratus.protocols.StorageLayout;
import io.stratus.protocols.lease.ExclusiveLease;
import io.stratus.protocols.lease.ExclusivePasses;
import io.stratus.protocols.log.AtomicMessages;
import io.stratus.protocols.log.HandBack;
import io.stratus.protocols.log.LogPayloads;
import io.stratus.protocols.log.LogRecord;
import io.stratus.protocols.log.PuQueues;
import io.stratus.protocols.log.QueueSender;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * Sweeps ATOMIC queues, one pass at a time (paper 000, Algorithm 4; paper 001, section 5.1):
 * receive everything, group by commit key, propagate winners to the PU queues and delete them,
 * delete old losers and orphans. {@link AtomicQueueLog}, which sends the commits to the queue,
 * runs it for the clean-up after a commit, for a client's recovery of its own queue, and for the
 * recovery of abandoned clients' queues.
 *
 * <p><b>Why every pass holds the queue's lock until what it hid is visible again.</b> A receive
 * hides the messages it returns for the visibility timeout. A pass that saw a transaction's log
 * messages but not its commit record (hidden by an earlier pass) would call a winner a loser. So
 * every pass — in any client — takes the exclusive lock on the queue's URI (holder: the client id,
 * the incarnation nonce and the pass number, so a restarted client waits for its predecessor's
 * lease and a later pass of the same process for an earlier one's),
 * receives with a visibility timeout that ends before the lease does, and releases the lock only
 * when nothing it received is hidden any more: when it deleted everything it received, or handed
 * the rest back to the queue ({@link HandBack}: every copy, while its hold lasted, after its last
 * send and delete) where the queue can. Otherwise the lease lapses when the hidden messages
 * reappear. Hence a pass of another holder always finds every message that is not deleted
 * (modulo short receives: it receives until {@link #EMPTY_RECEIVES} empty receives in a row).
 * Handing back is what lets the next pass (a clean-up after the next commit, the own recovery of
 * {@code drain}) run at once instead of a lease later, when a pass waits for the rest of a
 * transaction or failed to propagate or delete. A pass whose receive failed hands back nothing
 * and keeps the lock: a receive whose reply was lost hid messages the pass never saw, and a pass
 * let in before they reappear would take a winner whose commit record they hold for a loser. A
 * simulated process death hands back nothing either.
 * Within one process, passes on one queue are serialized, and commit keys whose commit record the
 * process has seen or sent ({@code knownCommitted}) are never taken for losers.
 *
 * <p><b>Classification</b> (age = recoverer's clock − the commit time in the messages):
 *
 * <ul>
 *   <li>a complete-transaction message (records and commit record in one, the common case), or
 *       commit record and every numbered log message present: a <b>winner</b> — propagate
 *       (unless the caller already did), send a <b>propagation marker</b> for a two-step one, then
 *       delete: log messages, commit record, markers, in that order;
 *   <li>a marker present (with or without the commit record, some log messages gone): an
 *       earlier clean-up propagated it and died while deleting — delete what is left, markers
 *       last (a marker whose commit record is not in sight only once old: the commit record may
 *       merely be hidden);
 *   <li>commit record, some log messages missing, no marker: <b>wait</b>, however old — they are
 *       hidden or missed by short receives; propagating what is there would apply half a
 *       committed transaction, and deleting the commit record would let the rest be deleted
 *       later as losers;
 *   <li>no commit record: older than the atomic timeout, a <b>loser</b> — delete; younger, wait
 *       (possibly a live client's commit in flight).
 * </ul>
 *
 * <p>Why a marker and not age: a clean-up that died after deleting some log messages and a
 * recoverer that has not seen them all look the same by age; only an explicit record, written
 * after the propagation and before the first deletion, tells them apart.
 * </ul>
 *
 * <p><b>Duplicates and re-propagation.</b> A message may be delivered or sent twice (a resend
 * after an unknown outcome): log messages are keyed by their index, every copy of a commit record
 * is deleted. A winner may be propagated more than once (a clean-up that died after propagating,
 * a resent complete message): its records carry the writer's chain counters, so checkpoints skip
 * the second copy ({@link WriteChains}) and it can never overwrite a newer value.
 *
 * <p>Thread-safe: state is the concurrent sets handed in and a per-queue mutex.
 */
final class AtomicQueueSweeper {
  private static final System.Logger LOG = System.getLogger(AtomicQueueSweeper.class.getName());

  /** Where damaged messages of ATOMIC queues go, so that they no longer come back to every pass. */
  private final DeadLetters deadLetters;

  /** Empty receives in a row that end a pass (short receives return nothing at times). */
  static final int EMPTY_RECEIVES = 5;

  /** At most this many receives per pass. */
  private static final int MAX_RECEIVES = 10_000;

  /** What one pass did. */
  /**
   * What one pass did.
   *
   * @param waiting transactions the pass left in the queue: too young to judge, incomplete, or
   *     propagated with a marker kept until the transaction is old (its commit record out of
   *     sight), so that the queue is not clean yet
   * @param incomplete of {@code waiting}, committed transactions some of whose log messages the
   *     pass did not see (hidden or missed by short receives): never propagated in part
   */
  record Pass(
      boolean ran,
      int winners,
      int losers,
      int waiting,
      int recordsPropagated,
      int incomplete,
      Set<String> finished) {
    static final Pass SKIPPED = new Pass(false, 0, 0, 0, 0, 0, Set.of());
  }

  /** What a pass saw of one commit key. */
  private static final class Txn {
    final String key;
    long time = Long.MIN_VALUE;

    /** Every message id of its commit record or complete message (resends: several). */
    final Set<String> commitIds = new LinkedHashSet<>();

    /** Its commit record (or complete message) when the pass saw one. */
    AtomicMessages.@Nullable Entry commit;

    final Map<Integer, AtomicMessages.Entry> messages = new TreeMap<>();
    final Set<String> logIds = new LinkedHashSet<>();

    /** Message ids of its propagation markers: its records all reached their PU queues. */
    final Set<String> markerIds = new LinkedHashSet<>();

    Txn(String key) {
      this.key = key;
    }

    boolean complete() {
      if (commit != null && commit.complete()) {
        return true; // records and commit record in one message
      }
      if (commit == null || messages.size() != commit.messageCount()) {
        return false;
      }
      int records = 0;
      for (int i = 0; i < commit.messageCount(); i++) {
        AtomicMessages.Entry e = messages.get(i);
        if (e == null) {
          return false;
        }
        records += e.records().size();
      }
      return records == commit.recordCount();
    }

    /** Whether it is a two-step transaction (log messages, then a commit record). */
    boolean twoStep() {
      return commit == null || !commit.complete();
    }

    List<LogRecord> records() {
      if (commit != null && commit.complete()) {
        return commit.records();
      }
      List<LogRecord> out = new ArrayList<>();
      for (AtomicMessages.Entry e : messages.values()) {
        out.addAll(e.records());
      }
      return out;
    }
  }

  private final String databaseUri;

  /** This process's passes, each its own lock holder. */
  private final ExclusivePasses passes;

  private final SimpleQueueService queues;

  /** Hands what a pass received and did not delete back to the queue, when the queue can. */
  private final HandBack handBack;

  private final Clock clock;
  private final long atomicTimeoutMillis;
  private final PuQueues names;
  private final QueueSender sender;
  private final Set<String> knownCommitted;
  private final CrashPoints crashPoints;
  private final Map<String, ReentrantLock> mutexes = new ConcurrentHashMap<>();

  AtomicQueueSweeper(
      ProtocolContext ctx,
      String holder,
      PuQueues names,
      QueueSender sender,
      Set<String> knownCommitted) {
    this.databaseUri = ctx.databaseUri();
    this.crashPoints = ctx.crashPoints();
    this.queues = ctx.services().simpleQueues();
    this.clock = ctx.clock();
    this.handBack = new HandBack(queues, clock);
    this.passes = new ExclusivePasses(ctx.services().locks(), clock, holder + "/pass-");
    this.atomicTimeoutMillis = ctx.checkpoints().atomicTimeout().toMillis();
    this.names = names;
    this.sender = sender;
    this.knownCommitted = knownCommitted;
    this.deadLetters = DeadLetters.of(ctx);
  }

  /** The prefix of every ATOMIC queue of the database (also the lock-timeout prefix). */
  String prefix() {
    return new StorageLayout(databaseUri).atomicPrefix();
  }

  /** The ATOMIC queue of {@code clientId}. */
  String queueOf(String clientId) {
    return prefix() + clientId;
  }

  /**
   * Runs one pass over {@code queue}.
   *
   * @param ownPending commit keys of this process's commits whose propagation is queued: a pass
   *     that sees one whole propagates it like any winner (left alone, its messages stayed hidden
   *     from the next clean-up pass, which then fell behind a busy client) and adds its key to
   *     {@code sentHere}
   * @param propagated commit keys already propagated by this client: deleted without sending again
   * @param sentHere receives the keys of {@code ownPending} commits this pass propagated
   * @return what it did; {@link Pass#SKIPPED} when the lock (or the in-process mutex) is taken
   * @throws CloudException when the lock service fails
   */
  Pass run(String queue, Set<String> ownPending, Set<String> propagated, Set<String> sentHere) {
    ReentrantLock mutex = mutexes.computeIfAbsent(queue, q -> new ReentrantLock());
    if (!mutex.tryLock()) {
      return Pass.SKIPPED;
    }
    try {
      // A holder per pass: with one per process, a pass whose lease still covered messages an
      // earlier pass had hidden was granted the lock as a renewal, saw nothing, and released it.
      ExclusiveLease pass = passes.acquire(queue);
      if (!pass.held()) {
        return Pass.SKIPPED;
      }
      long deadline = pass.deadline();
      // Message id -> the receipt handle of every copy received: a weak queue may deliver a
      // message and its duplicate in one pass, and a copy left undeleted would come back.
      Map<String, List<String>> received = new LinkedHashMap<>();
      Set<String> deleted = new HashSet<>();
      // A receive that fails ends the pass here, with the lock held: one whose reply was lost hid
      // messages this pass does not know of, and only the lease lapsing, after they reappeared,
      // may let the next pass in.
      Map<String, Txn> txns = receive(queue, deadline, received);
      return pass.run(
          () -> decide(queue, txns, ownPending, propagated, sentHere, received, deleted),
          () -> end(queue, pass, received, deleted));
    } finally {
      mutex.unlock();
    }
  }

  /**
   * Ends a pass that sends and deletes nothing more: hands back what it did not delete, and
   * releases the lock when nothing it received is hidden any more; otherwise the lease lapses
   * when the hidden messages reappear.
   */
  private void end(
      String queue, ExclusiveLease pass, Map<String, List<String>> received, Set<String> deleted) {
    List<String> left = new ArrayList<>();
    for (Map.Entry<String, List<String>> e : received.entrySet()) {
      if (!deleted.contains(e.getKey())) {
        left.addAll(e.getValue());
      }
    }
    // Every receive of the pass hides until a second before the lease ends (see receive).
    if (handBack.handBack(queue, left, pass.deadline() - 1000)) {
      pass.release(); // nothing of ours is hidden: the next pass sees it all
    }
  }

  private Map<String, Txn> receive(
      String queue, long deadline, Map<String, List<String>> received) {
    Map<String, Txn> txns = new LinkedHashMap<>();
    int batch = queues.limits().maxBatchSize();
    int empties = 0;
    for (int i = 0; i < MAX_RECEIVES && empties < EMPTY_RECEIVES; i++) {
      // Hidden messages must reappear before the lease ends (see the class comment).
      long visible = deadline - clock.millis() - 1000;
      if (visible < 1000) {
        break;
      }
      List<QueueMessage> got;
      try {
        got = CloudFutures.await(queues.receive(queue, batch, Duration.ofMillis(visible)));
      } catch (NotFoundException e) {
        break;
      }
      empties = got.isEmpty() ? empties + 1 : 0;
      for (QueueMessage m : got) {
        List<String> copies = received.computeIfAbsent(m.messageId(), id -> new ArrayList<>(1));
        copies.add(m.receiptHandle());
        if (copies.size() > 1) {
          continue; // a duplicate of a message this pass already read
        }
        AtomicMessages.Entry e;
        try {
          e = AtomicMessages.decode(LogPayloads.of(m));
        } catch (CorruptLogMessageException ex) {
          // This pass holds the queue's lock: no other client deletes or applies it meanwhile.
          if (deadLetters.setAside(queue, m, "undecodable atomic message: " + ex.getMessage())) {
            received.remove(m.messageId());
          }
          continue;
        }
        Txn t = txns.computeIfAbsent(e.commitKey(), Txn::new);
        t.time = Math.max(t.time, e.commitTimeMillis());
        if (e.propagated()) {
          t.markerIds.add(m.messageId());
        } else if (e.commitRecord()) {
          if (t.commit == null || e.complete()) {
            t.commit = e;
          }
          t.commitIds.add(m.messageId());
        } else {
          t.messages.putIfAbsent(e.messageIndex(), e);
          t.logIds.add(m.messageId());
        }
      }
    }
    return txns;
  }

  private Pass decide(
      String queue,
      Map<String, Txn> txns,
      Set<String> ownPending,
      Set<String> propagated,
      Set<String> sentHere,
      Map<String, List<String>> handles,
      Set<String> deleted) {
    long now = clock.millis();
    List<Txn> winners = new ArrayList<>();
    List<Txn> finishing = new ArrayList<>();
    List<Txn> losers = new ArrayList<>();
    int waiting = 0;
    int incomplete = 0;
    for (Txn t : txns.values()) {
      if (t.commit != null) {
        knownCommitted.add(t.key);
      }
      boolean old = now - t.time > atomicTimeoutMillis;
      if (t.commit != null && t.complete()) {
        winners.add(t);
      } else if (!t.markerIds.isEmpty()) {
        // Propagated whole before any log message was deleted: what is left is deleted, and the
        // markers go last (with the commit record seen, or once old when it was not).
        finishing.add(t);
      } else if (t.commit != null) {
        // Messages missing and no marker: they are hidden, or short receives missed them. Never
        // propagate part of a transaction, never delete its messages: wait for the rest.
        waiting++;
        incomplete++;
      } else if (old && !knownCommitted.contains(t.key)) {
        losers.add(t);
      } else {
        waiting++;
      }
    }
    // Every winner of the pass at once: one propagation, then a marker per two-step winner, then
    // the log messages of winners and losers in batches, then the commit records, then the
    // markers (the order the recovery argument needs). One request per commit used to make the
    // clean-up fall behind a busy client.
    int records = 0;
    Map<String, List<LogRecord>> toSend = new LinkedHashMap<>();
    List<byte[]> markers = new ArrayList<>();
    for (Txn t : winners) {
      if (!propagated.contains(t.key)) {
        for (LogRecord r : t.records()) {
          toSend.computeIfAbsent(names.queueOf(r), q -> new ArrayList<>()).add(r);
          records++;
        }
      }
      if (t.twoStep()) {
        markers.add(AtomicMessages.propagated(t.key, t.time));
      }
    }
    int unfinished = winners.size() + finishing.size() + losers.size();
    try {
      sender.sendAll(toSend);
      for (Txn t : winners) {
        if (ownPending.contains(t.key)) {
          sentHere.add(t.key); // the flush need not send it again
        }
      }
      if (!winners.isEmpty()) {
        crashPoints.reach(CrashPoint.ATOMIC_PASS_AFTER_PROPAGATE.id());
      }
      if (!markers.isEmpty() && !sender.sendMessages(queue, markers).ok()) {
        LOG.log(
            Level.DEBUG,
            "ATOMIC queue "
                + queue
                + ": propagation markers not sent; the"
                + " winners stay for the next pass");
        return new Pass(true, 0, 0, waiting + unfinished, records, incomplete, Set.of());
      }
    } catch (CloudException e) {
      LOG.log(
          Level.DEBUG,
          "ATOMIC queue "
              + queue
              + ": propagating "
              + winners.size()
              + " winners failed; left for later",
          e);
      return new Pass(true, 0, 0, waiting + unfinished, 0, incomplete, Set.of());
    }
    Set<String> finished = new HashSet<>();
    int lingering = 0; // markers kept: their clean-up is not finished until they are old
    try {
      Set<String> logIds = new LinkedHashSet<>();
      for (Txn t : winners) {
        logIds.addAll(t.logIds);
      }
      for (Txn t : finishing) {
        logIds.addAll(t.logIds);
      }
      for (Txn t : losers) {
        logIds.addAll(t.logIds);
      }
      if (!markers.isEmpty()) {
        crashPoints.reach(CrashPoint.ATOMIC_PASS_AFTER_MARKER.id());
      }
      deleteAll(queue, logIds, handles, deleted);
      if (!logIds.isEmpty()) {
        crashPoints.reach(CrashPoint.ATOMIC_PASS_AFTER_LOG_DELETES.id());
      }
      Set<String> commitIds = new LinkedHashSet<>();
      for (Txn t : winners) {
        commitIds.addAll(t.commitIds);
      }
      for (Txn t : finishing) {
        commitIds.addAll(t.commitIds);
      }
      deleteAll(queue, commitIds, handles, deleted);
      Set<String> markerIds = new LinkedHashSet<>();
      for (Txn t : finishing) {
        // A marker without its commit record in sight stays until old: the commit record may
        // only be hidden, and without the marker a later pass would wait for its logs for good.
        if (!t.commitIds.isEmpty() || now - t.time > atomicTimeoutMillis) {
          markerIds.addAll(t.markerIds);
        } else {
          lingering++;
        }
      }
      deleteAll(queue, markerIds, handles, deleted); // last
    } catch (CloudException e) {
      // Propagated but not (all) deleted: the markers say so to every later pass, and the
      // caller keeps them as propagated, so nothing is sent again.
      LOG.log(Level.DEBUG, "ATOMIC queue " + queue + ": deleting failed; left for later", e);
      return new Pass(true, 0, 0, waiting + unfinished, records, incomplete, Set.of());
    }
    for (Txn t : winners) {
      finished.add(t.key);
      knownCommitted.remove(t.key);
    }
    for (Txn t : finishing) {
      finished.add(t.key);
    }
    return new Pass(
        true,
        winners.size() + finishing.size(),
        losers.size(),
        waiting + lingering,
        records,
        incomplete,
        finished);
  }

  /** Deletes the messages {@code ids}, every copy received, by their receipt handles. */
  private void deleteAll(
      String queue, Set<String> ids, Map<String, List<String>> copies, Set<String> deleted) {
    List<String> handles = new ArrayList<>(ids.size());
    for (String id : ids) {
      handles.addAll(copies.get(id));
    }
    int batch = queues.limits().maxBatchSize();
    List<CompletableFuture<Void>> calls = new ArrayList<>();
    for (int i = 0; i < handles.size(); i += batch) {
      calls.add(queues.deleteBatch(queue, handles.subList(i, Math.min(handles.size(), i + batch))));
    }
    // Every batch ends before a failure is thrown: none may still be in flight when the pass
    // hands its messages back.
    CloudFutures.awaitEach(calls, i -> {});
    deleted.addAll(ids);
  }

  /** The ATOMIC queues of the database. */
  List<String> list() {
    return CloudFutures.await(queues.listQueues(prefix()));
  }
}
