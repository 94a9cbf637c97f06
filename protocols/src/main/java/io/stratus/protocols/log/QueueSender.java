package io.stratus.protocols.log;

import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.NotFoundException;
import io.stratus.cloudapi.OutcomeUnknownException;
import io.stratus.cloudapi.SimpleQueueService;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Sends log records to PU queues: packs each queue's records into as few messages as the queue's
 * size limit allows ({@link LogMessages#pack}), groups them into batches of up to the batch limit,
 * and issues every batch of every queue at once, so that sending costs about one queue round trip
 * whatever the number of records. A queue that does not exist yet is created (idempotent) and the
 * batch sent again; queues this client created are remembered. Thread-safe.
 */
public final class QueueSender {
  /** What a send did: batches sent, and the failures (empty when all went through). */
  public record Sent(int batches, int sent, List<Throwable> failures, boolean maybeSent) {
    public boolean ok() {
      return failures.isEmpty();
    }

    public boolean anythingSent() {
      return sent > 0 || maybeSent;
    }

    /** This outcome, marked as having maybe sent something (an earlier attempt may have). */
    public Sent orMaybeSent() {
      return new Sent(batches, sent, failures, true);
    }
  }

  private final SimpleQueueService queues;
  private final Set<String> created = ConcurrentHashMap.newKeySet();

  public QueueSender(SimpleQueueService queues) {
    this.queues = queues;
  }

  /**
   * Sends everything and waits for all of it; never throws cloud errors (see {@link Sent}). Every
   * queue's records are packed before the first message goes, so a record too large for a
   * message fails the send with nothing sent.
   *
   * @throws io.stratus.RecordTooLargeException when one record alone does not fit into a message
   */
  public Sent send(Map<String, List<LogRecord>> byQueue) {
    int maxMessage = queues.limits().maxMessageSize();
    int maxBatch = queues.limits().maxBatchSize();
    Map<String, List<byte[]>> packed = new LinkedHashMap<>();
    for (Map.Entry<String, List<LogRecord>> e : byQueue.entrySet()) {
      packed.put(e.getKey(), LogMessages.pack(e.getValue(), maxMessage));
    }
    List<CompletableFuture<List<String>>> calls = new ArrayList<>();
    for (Map.Entry<String, List<byte[]>> e : packed.entrySet()) {
      List<byte[]> messages = e.getValue();
      for (int i = 0; i < messages.size(); i += maxBatch) {
        List<byte[]> batch =
            List.copyOf(messages.subList(i, Math.min(messages.size(), i + maxBatch)));
        calls.add(sendCreating(e.getKey(), batch));
      }
    }
    return awaitAll(calls);
  }

  private static Sent awaitAll(List<CompletableFuture<List<String>>> calls) {
    int sent = 0;
    boolean maybe = false;
    List<Throwable> failures = new ArrayList<>();
    RuntimeException fatal = null;
    for (CompletableFuture<List<String>> c : calls) {
      try {
        CloudFutures.await(c);
        sent++;
      } catch (CloudException e) {
        failures.add(e);
        maybe |= e instanceof OutcomeUnknownException;
      } catch (RuntimeException e) {
        if (fatal == null) {
          fatal = e;
        } else {
          fatal.addSuppressed(e);
        }
      }
    }
    if (fatal != null) {
      throw fatal; // not a cloud error (a simulated death, a bug): not ours to interpret
    }
    return new Sent(calls.size(), sent, failures, maybe);
  }

  /**
   * Sends ready-made messages to one queue, all batches at once, creating the queue if missing;
   * never throws cloud errors (see {@link Sent}).
   */
  public Sent sendMessages(String queue, List<byte[]> messages) {
    int maxBatch = queues.limits().maxBatchSize();
    List<CompletableFuture<List<String>>> calls = new ArrayList<>();
    for (int i = 0; i < messages.size(); i += maxBatch) {
      calls.add(
          sendCreating(
              queue, List.copyOf(messages.subList(i, Math.min(messages.size(), i + maxBatch)))));
    }
    return awaitAll(calls);
  }

  /** The queue service's message size limit. */
  public int maxMessageSize() {
    return queues.limits().maxMessageSize();
  }

  /** Sends, throwing the first failure (for forwarding inside a checkpoint). */
  public void sendAll(Map<String, List<LogRecord>> byQueue) {
    sendAll(byQueue, 1);
  }

  /**
   * Sends, and sends everything again while a send failed, {@code attempts} times at most; throws
   * the last attempt's first failure. Only for records whose repeats are harmless (numbered in
   * their writer's chains, so checkpoints skip the copies).
   */
  public void sendAll(Map<String, List<LogRecord>> byQueue, int attempts) {
    Sent s = send(byQueue);
    for (int i = 1; i < attempts && !s.ok(); i++) {
      s = send(byQueue);
    }
    if (!s.ok()) {
      Throwable t = s.failures().get(0);
      throw t instanceof RuntimeException r ? r : new IllegalStateException(t);
    }
  }

  /** Whether this client created {@code queue} (or saw a send to it succeed). */
  public boolean knows(String queue) {
    return created.contains(queue);
  }

  private CompletableFuture<List<String>> sendCreating(String queue, List<byte[]> batch) {
    return call(() -> queues.sendBatch(queue, batch))
        .thenApply(
            ids -> {
              created.add(queue);
              return ids;
            })
        .exceptionallyCompose(
            e -> {
              if (!(CloudFutures.unwrap(e) instanceof NotFoundException)) {
                return CompletableFuture.failedFuture(CloudFutures.unwrap(e));
              }
              return call(() -> queues.createQueue(queue))
                  .thenCompose(
                      v -> {
                        created.add(queue);
                        return call(() -> queues.sendBatch(queue, batch));
                      });
            });
  }

  private static <T> CompletableFuture<T> call(Supplier<CompletableFuture<T>> c) {
    try {
      return c.get();
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }
}
