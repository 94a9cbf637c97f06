package io.stratus.cloudapi;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Simple queues (paper 000, section 2.3.3), as SQS standard queues offer them.
 *
 * <p>Guarantees every implementation MUST give:
 *
 * <ul>
 *   <li><b>No loss.</b> A message whose send completed normally stays in the queue until it is
 *       deleted through a receipt handle, or until it is older than the queue's retention ({@link
 *       CloudLimits#messageRetention()}; SQS keeps messages 4 days by default). Protocols MUST apply
 *       every message well within the retention.
 *   <li><b>At-least-once delivery.</b> A received message is hidden from other receives for the
 *       visibility timeout; if it is not deleted by then it becomes receivable again. A message MAY
 *       also be delivered more than once although it was deleted after its first delivery, so
 *       consumers MUST be idempotent.
 *   <li>What is <em>not</em> promised: order (no FIFO), and completeness of a receive: a receive of
 *       N MAY return fewer than N, or none, although more messages are in the queue. Callers that
 *       need "the queue is empty" must not infer it from one empty receive.
 *   <li>A send or a receive of N respects {@link CloudLimits#maxMessageSize()} and {@link
 *       CloudLimits#maxBatchSize()}; a violation fails with {@link LimitExceededException}.
 *   <li>Calls on a queue that does not exist fail with {@link NotFoundException}.
 * </ul>
 *
 * <p>Implementations MUST be thread-safe.
 */
public interface SimpleQueueService extends AutoCloseable {

  /** Creates the queue; succeeds when it already exists. */
  CompletableFuture<Void> createQueue(String uri);

  /** Deletes the queue and its messages; succeeds when it does not exist. */
  CompletableFuture<Void> deleteQueue(String uri);

  /** The URIs of all queues whose URI starts with {@code prefix}, in ascending order. */
  CompletableFuture<List<String>> listQueues(String prefix);

  /** Sends one message; returns its message id (unique within the queue, not ordered). */
  CompletableFuture<String> send(String uri, byte[] payload);

  /**
   * Sends up to {@link CloudLimits#maxBatchSize()} messages in one request; returns their ids in
   * the order of {@code payloads}. All or nothing from the caller's view: when the future fails,
   * none, some or all may have been sent (an {@link OutcomeUnknownException}) unless the exception
   * says the call had no effect.
   */
  CompletableFuture<List<String>> sendBatch(String uri, List<byte[]> payloads);

  /**
   * Receives up to {@code maxMessages} (1 to {@link CloudLimits#maxBatchSize()}) messages and hides
   * them for {@code visibilityTimeout}. May return fewer, or none.
   */
  CompletableFuture<List<QueueMessage>> receive(
      String uri, int maxMessages, Duration visibilityTimeout);

  /**
   * Deletes a received message. Succeeds when the message is already gone; an expired or
   * superseded handle MAY fail to delete it (the message is then delivered again).
   */
  CompletableFuture<Void> delete(String uri, String receiptHandle);

  /** Deletes up to {@link CloudLimits#maxBatchSize()} received messages in one request. */
  CompletableFuture<Void> deleteBatch(String uri, List<String> receiptHandles);

  /** The limits this service enforces (message size, batch size, visibility, retention). */
  CloudLimits limits();

  /** Releases client resources. The default holds none. */
  @Override
  default void close() {}
}
