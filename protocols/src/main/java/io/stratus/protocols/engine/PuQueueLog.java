package io.stratus.protocols.engine;

import io.stratus.CommitFailedException;
import io.stratus.CommitStateUnknownException;
import io.stratus.RecordTooLargeException;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.CrashPoints;
import io.stratus.protocols.CrashPoint;
import io.stratus.protocols.WriteSet;
import io.stratus.protocols.log.LogRecord;
import io.stratus.protocols.log.PuQueues;
import io.stratus.protocols.log.QueueSender;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The {@link CommitLog} of the basic and monotonic protocols (paper 000, Algorithm 1): a commit
 * sends its records straight to their PU queues, all at once ({@link QueueSender}); crash points
 * {@code basic.before-send}, {@code basic.after-send}.
 *
 * <p><b>Failures.</b> Nothing sent: {@link CommitFailedException}, retryable when every failure
 * is; the slot gives its counters back. A record too large for a message is refused before
 * anything is sent ({@link RecordTooLargeException}), and its counters are given back too. Something sent or an outcome unknown: {@link
 * CommitStateUnknownException} (no atomicity: some records may be applied). When the {@link
 * Sequencing} says a missing record stalls the writer ({@link Sequencing#gapsStall()}, writer
 * lanes), an unknown outcome is first sent again a few times (duplicates are skipped by their
 * counters); if it stays unknown, the records are kept and sent again in the background and by
 * {@link #drain} until all arrive, and the commit counts as completed for the order between lanes
 * and as a winner for read-your-writes: later commits are ordered after it, and its keys' later
 * records follow it into its queues. Without that, a later commit on another lane was applied
 * first and the resend then overwrote it.
 *
 * <p>Thread-safe: the unsettled commits are a concurrent queue.
 */
public final class PuQueueLog implements CommitLog {
  private static final System.Logger LOG = System.getLogger(PuQueueLog.class.getName());

  /** Resends of a commit whose outcome is unknown, on the committing thread. */
  private static final int RESENDS = 3;

  private final EngineParts parts;
  private final CrashPoints crashPoints;
  private final QueueSender sender;

  /** Commits whose outcome stayed unknown, to send until they arrive (writer lanes only). */
  private final ConcurrentLinkedQueue<Map<String, List<LogRecord>>> unsettled =
      new ConcurrentLinkedQueue<>();

  /** The direct log over the engine's parts. */
  public PuQueueLog(EngineParts parts) {
    this.parts = parts;
    this.crashPoints = parts.context().crashPoints();
    this.sender = parts.sender();
  }

  @Override
  public void commit(WriteSet ws, Routed routed) {
    crashPoints.reach(CrashPoint.BASIC_BEFORE_SEND.id());
    Sequencing sequencing = parts.sequencing();
    QueueSender.Sent sent;
    try (Sequencing.Slot slot = sequencing.acquire()) {
      slot.number(routed.byQueue());
      try {
        sent = sender.send(routed.byQueue());
      } catch (RecordTooLargeException e) {
        slot.giveBack(routed.byQueue()); // refused before anything was sent
        throw e;
      }
      boolean everSent = sent.anythingSent();
      for (int i = 0; i < RESENDS && !sent.ok() && everSent && sequencing.gapsStall(); i++) {
        sent = sender.send(routed.byQueue());
        everSent |= sent.anythingSent();
      }
      if (sent.ok()) {
        slot.completed(routed.byQueue());
      } else if (everSent && sequencing.gapsStall()) {
        // Some records may be missing: keep sending until all arrive, so the chains get no gap.
        // They will arrive, so later commits on other lanes are ordered after them, and later
        // records of their keys follow them.
        unsettled.add(routed.byQueue());
        slot.completed(routed.byQueue());
        parts.events().winner(routed);
        parts.scheduler().execute(this::resendUnsettled);
        sent = sent.orMaybeSent();
      } else {
        slot.giveBack(routed.byQueue());
      }
    }
    if (!sent.ok()) {
      if (sent.anythingSent()) {
        // Some records may be in their queues: they are owed a checkpoint like any others, or
        // they wait for whoever touches their pages next.
        parts.events().queued(routed.targets());
      }
      throw failure(ws, routed, sent);
    }
    crashPoints.reach(CrashPoint.BASIC_AFTER_SEND.id());
    parts.events().winner(routed);
    parts.events().queued(routed.targets());
  }

  /**
   * Sends the records of commits whose outcome stayed unknown again, until each send is known to
   * have arrived; duplicates are skipped by their counters. Runs on the checkpoint executor and
   * from {@link #drain}.
   *
   * @return how many are still not known to have arrived
   */
  int resendUnsettled() {
    List<Map<String, List<LogRecord>>> later = new ArrayList<>();
    Map<String, List<LogRecord>> u;
    while ((u = unsettled.poll()) != null) {
      if (sender.send(u).ok()) {
        owe(u); // the records arrived now: a checkpoint that began before did not see them
      } else {
        later.add(u);
      }
    }
    unsettled.addAll(later);
    return later.size();
  }

  private void owe(Map<String, List<LogRecord>> byQueue) {
    List<PuQueues.Target> targets = new ArrayList<>();
    for (String queue : byQueue.keySet()) {
      parts.names().parse(queue).ifPresent(targets::add);
    }
    parts.events().queued(targets);
  }

  @Override
  public int drain() {
    return resendUnsettled();
  }

  /**
   * A graceful close settles what it can: records of commits whose outcome stayed unknown are
   * sent again (a few times), so that the later records of their writer lanes, which checkpoints
   * hold back until they arrive, do not wait for good once the handle is gone.
   */
  @Override
  public void close() {
    for (int i = 0; i < RESENDS; i++) {
      if (resendUnsettled() == 0) {
        return;
      }
    }
    LOG.log(
        Level.WARNING,
        "closing with commits whose outcome is still unknown; later records of"
            + " their writer lanes wait until those records arrive");
  }

  private static RuntimeException failure(WriteSet ws, Routed routed, QueueSender.Sent sent) {
    Throwable first = sent.failures().get(0);
    String what =
        "commit of transaction "
            + ws.transaction().transactionId()
            + " ("
            + routed.records()
            + " records to "
            + routed.byQueue().size()
            + " queues): ";
    RuntimeException mapped;
    if (sent.anythingSent()) {
      mapped =
          new CommitStateUnknownException(
              what
                  + sent.sent()
                  + " of "
                  + sent.batches()
                  + " batches sent; some records may be applied",
              first);
    } else {
      boolean retryable =
          sent.failures().stream().allMatch(f -> f instanceof CloudException c && c.isRetryable());
      mapped =
          new CommitFailedException(
              what + "nothing was sent (" + first.getMessage() + ")", retryable, first);
    }
    for (int i = 1; i < sent.failures().size(); i++) {
      mapped.addSuppressed(sent.failures().get(i));
    }
    return mapped;
  }
}
