package io.stratus.cloudapi;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Advanced queues (paper 000, section 2.3.4): FIFO, complete, with a user key per message and
 * filtered receives. They cost more than simple queues and may be briefly unavailable.
 *
 * <p>Guarantees every implementation MUST give:
 *
 * <ul>
 *   <li><b>Ordered ids.</b> Message ids increase with arrival: of two sends where one completed
 *       before the other started, the later has the larger id. Ids are never reused in a queue.
 *   <li><b>Positive ids.</b> Every message id is at least 1, so {@code receiveAfterId(uri, n, 0)}
 *       receives from the start of the queue (as the protocols and the contract suite use it).
 *   <li><b>Complete and FIFO receives.</b> Every receive returns, in ascending id order, the first
 *       {@code max} messages that match its filter among all messages sent (completed) and not
 *       deleted; if fewer match, it returns all of them. A receive does not hide or lock anything.
 *   <li><b>No loss.</b> A message stays until deleted, whatever its age.
 *   <li>Deletes are idempotent: deleting a missing message succeeds.
 *   <li>Calls on a queue that does not exist fail with {@link NotFoundException}; a payload above
 *       {@link CloudLimits#maxAdvancedMessageSize()} with {@link LimitExceededException}.
 * </ul>
 *
 * <p>Key ranges follow the paper: both bounds are exclusive. Implementations MUST be thread-safe.
 */
public interface AdvancedQueueService extends AutoCloseable {

  /** Creates the queue; succeeds when it already exists. */
  CompletableFuture<Void> createQueue(String uri);

  /** Deletes the queue and its messages; succeeds when it does not exist. */
  CompletableFuture<Void> deleteQueue(String uri);

  /** The URIs of all advanced queues whose URI starts with {@code prefix}, in ascending order. */
  CompletableFuture<List<String>> listQueues(String prefix);

  /** Appends a message with a user key; returns its id. */
  CompletableFuture<Long> send(String uri, byte[] payload, long key);

  /** The first {@code max} messages with id greater than {@code idGreaterThan}. */
  CompletableFuture<List<AdvancedMessage>> receiveAfterId(String uri, int max, long idGreaterThan);

  /** The first {@code max} messages whose key lies strictly between the two bounds. */
  CompletableFuture<List<AdvancedMessage>> receiveByKey(
      String uri, int max, long keyGreaterThan, long keyLessThan);

  /** The first {@code max} messages that have been in the queue for longer than {@code age}. */
  CompletableFuture<List<AdvancedMessage>> receiveOlderThan(String uri, int max, Duration age);

  /** Deletes one message by id; succeeds when it is already gone. */
  CompletableFuture<Void> delete(String uri, long messageId);

  /** Deletes every message whose key lies strictly between the two bounds; returns how many. */
  CompletableFuture<Integer> deleteByKey(String uri, long keyGreaterThan, long keyLessThan);

  /** The limits this service enforces. */
  CloudLimits limits();

  /** Releases client resources. The default holds none. */
  @Override
  default void close() {}
}
