package io.stratus.protocols.checkpoint;

import io.stratus.CorruptLogMessageException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.NotFoundException;
import io.stratus.cloudapi.QueueMessage;
import io.stratus.cloudapi.SimpleQueueService;
import io.stratus.protocols.DeadLetters;
import io.stratus.protocols.log.HandBack;
import io.stratus.protocols.log.LogMessages;
import io.stratus.protocols.log.LogPayloads;
import io.stratus.protocols.log.LogRecord;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The messages one checkpoint run received from its queue, and what becomes of them: the applied
 * ones are deleted, the rest handed back when the run is over ({@link HandBack}).
 *
 * <p>Why the run keeps every handle and what was deleted: duplicate deliveries are applied once but
 * every copy is deleted (a copy left in the queue comes back after its visibility timeout, and
 * without counters its records are applied again over what was written since); and at the end
 * the run knows exactly which copies it leaves in the queue, to hand them back. Damaged messages
 * are set aside into the dead-letter area as they arrive (the run holds the queue's lock); one that
 * could not be set aside stays hidden, which spaces out the attempts.
 *
 * <p>Not thread-safe: one run.
 */
final class RunMessages {
  private final SimpleQueueService queues;
  private final String queue;
  private final Clock clock;
  private final Duration visibility;
  private final DeadLetters deadLetters;
  private final HandBack handBack;

  final List<LogRecord> records = new ArrayList<>();

  /** Message id to the receipt handle of every copy received, for valid messages. */
  final Map<String, List<String>> handles = new LinkedHashMap<>();

  /** Message id to the records it holds; put together with {@link #handles}, same keys. */
  private final Map<String, List<LogRecord>> byMessage = new LinkedHashMap<>();

  /**
   * Whether the receiving ended because the queue answered empty (or did not exist), rather than
   * at the record limit: the queue held nothing more that was visible, as far as the empty
   * answers show.
   */
  boolean drained;

  /** The handles whose deletes completed. */
  private final Set<String> deleted = new HashSet<>();

  /** Message ids the run leaves hidden instead of handing them back ({@link #keepHidden}). */
  private final Set<String> hidden = new HashSet<>();

  /** How many empty answers in a row end receiving (the first call's). */
  private int emptyReceives = 1;

  /**
   * When the first receive's hold ends (its send time plus the visibility timeout): every message
   * of the run is hidden until then at least.
   */
  private long heldUntil = Long.MAX_VALUE;

  RunMessages(
      SimpleQueueService queues,
      String queue,
      Clock clock,
      Duration visibility,
      DeadLetters deadLetters,
      HandBack handBack) {
    this.queues = queues;
    this.queue = queue;
    this.clock = clock;
    this.visibility = visibility;
    this.deadLetters = deadLetters;
    this.handBack = handBack;
  }

  /**
   * Receives until {@code maxRecords} records or {@code emptyReceives} empty receives in a row,
   * hiding what it gets for the visibility timeout. Fills this object as it goes, so a failure
   * leaves what was received. A queue may answer a receive with nothing although messages wait
   * (SQS's short polling samples some of its servers), so how many empty answers end the
   * receiving is how sure the caller needs to be that nothing visible was left; {@link #drained}
   * notes whether it ended on them.
   */
  void receive(int maxRecords, int emptyReceives) {
    this.emptyReceives = emptyReceives;
    receiveOn(maxRecords);
  }

  /**
   * Receives on until the run holds {@code maxRecords} records, as the first {@link #receive}
   * did: what the run holds stays hidden, so the queue hands out the messages behind them.
   */
  void receiveOn(int maxRecords) {
    int batch = queues.limits().maxBatchSize();
    int empties = 0;
    while (records.size() < maxRecords) {
      List<QueueMessage> got;
      try {
        if (heldUntil == Long.MAX_VALUE) {
          heldUntil = clock.millis() + visibility.toMillis(); // noted before the request
        }
        got = CloudFutures.await(queues.receive(queue, batch, visibility));
      } catch (NotFoundException e) {
        drained = true; // nobody ever sent to it
        return;
      }
      if (got.isEmpty()) {
        if (++empties >= emptyReceives) {
          drained = true;
          return;
        }
        continue;
      }
      empties = 0;
      for (QueueMessage m : got) {
        List<String> copies = handles.get(m.messageId());
        if (copies != null) {
          copies.add(m.receiptHandle()); // a duplicate: its records are in already
          continue;
        }
        try {
          List<LogRecord> rs = LogMessages.unpack(LogPayloads.of(m));
          records.addAll(rs);
          byMessage.put(m.messageId(), rs);
          handles.put(m.messageId(), new ArrayList<>(List.of(m.receiptHandle())));
        } catch (CorruptLogMessageException e) {
          deadLetters.setAside(queue, m, e.getMessage()); // the run holds the queue's lock
        }
      }
    }
  }

  /** Whether the run may have left messages in the queue it did not receive (not drained). */
  boolean mayHoldMore() {
    return !drained;
  }

  /**
   * Leaves the messages holding any of {@code records} (by identity) hidden when the run ends
   * instead of handing them back: they reappear when their visibility timeout ends, and until then
   * the next runs receive the messages behind them.
   */
  void keepHidden(List<LogRecord> records) {
    Set<LogRecord> keep = Collections.newSetFromMap(new IdentityHashMap<>());
    keep.addAll(records);
    for (Map.Entry<String, List<LogRecord>> m : byMessage.entrySet()) {
      if (m.getValue().stream().anyMatch(keep::contains)) {
        hidden.add(m.getKey());
      }
    }
  }

  /** The handles of the messages holding none of {@code deferred} (by identity). */
  List<String> handlesWithout(List<LogRecord> deferred) {
    if (deferred.isEmpty()) {
      List<String> all = new ArrayList<>();
      handles.values().forEach(all::addAll);
      return all;
    }
    Set<LogRecord> keep = Collections.newSetFromMap(new IdentityHashMap<>());
    keep.addAll(deferred);
    List<String> out = new ArrayList<>();
    for (Map.Entry<String, List<String>> h : handles.entrySet()) {
      if (recordsOf(h.getKey()).stream().noneMatch(keep::contains)) {
        out.addAll(h.getValue());
      }
    }
    return out;
  }

  /**
   * Deletes {@code toDelete} in batches, all at once, and waits for every batch (so none is still
   * in flight when the run hands messages back); notes the deleted ones. The first failure is
   * thrown after all batches ended.
   */
  void delete(List<String> toDelete) {
    int batch = queues.limits().maxBatchSize();
    List<List<String>> parts = new ArrayList<>();
    List<CompletableFuture<Void>> calls = new ArrayList<>();
    for (int i = 0; i < toDelete.size(); i += batch) {
      List<String> part = toDelete.subList(i, Math.min(toDelete.size(), i + batch));
      parts.add(part);
      calls.add(queues.deleteBatch(queue, part));
    }
    CloudFutures.awaitEach(calls, i -> deleted.addAll(parts.get(i)));
  }

  /**
   * Hands every copy the run did not delete back to the queue, but those it {@linkplain
   * #keepHidden keeps hidden}, when the queue can and the run's hold on them lasts; how many
   * records those messages hold (0 when it could not). Called once the run is over: it puts and
   * deletes nothing more.
   */
  int handBack() {
    int recordsLeft = 0;
    List<String> left = new ArrayList<>();
    for (Map.Entry<String, List<String>> copies : handles.entrySet()) {
      if (hidden.contains(copies.getKey())) {
        continue;
      }
      int before = left.size();
      for (String h : copies.getValue()) {
        if (!deleted.contains(h)) {
          left.add(h);
        }
      }
      if (left.size() > before) {
        recordsLeft += recordsOf(copies.getKey()).size();
      }
    }
    return handBack.handBack(queue, left, heldUntil) ? recordsLeft : 0;
  }

  /** The records of received message {@code messageId} (a key of {@link #handles}). */
  private List<LogRecord> recordsOf(String messageId) {
    return byMessage.getOrDefault(messageId, List.of());
  }
}
