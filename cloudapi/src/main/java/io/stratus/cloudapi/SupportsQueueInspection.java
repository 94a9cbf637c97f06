package io.stratus.cloudapi;

import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * The optional ability to look at a simple queue without consuming from it: how many messages it
 * holds, when the oldest was sent, and a few of its messages.
 *
 * <p>Why a capability of its own: {@link SimpleQueueService#receive} hides what it returns for a
 * visibility timeout, so an operator tool that used it would delay the checkpoints it is meant to
 * watch. Services that can answer without hiding anything implement this interface; callers check
 * with {@code instanceof} (or {@link #of(SimpleQueueService)}) and report "not inspectable"
 * otherwise.
 *
 * <p>Guarantees every implementation MUST give:
 *
 * <ul>
 *   <li><b>No hiding, no deleting.</b> An inspection never makes a message invisible to a
 *       concurrent receive and never removes one. (An implementation MAY count the look as a
 *       delivery where the service counts every look, as SQS does; it says so.)
 *   <li><b>Approximate.</b> Counts and the oldest send time are a recent estimate, as the service
 *       has them (SQS's counts lag by about a minute); the oldest send time MAY come from a sample
 *       of the messages, never from a message that is not in the queue.
 *   <li>A queue that does not exist fails with {@link NotFoundException}.
 * </ul>
 *
 * <p>Implementations MUST be thread-safe.
 */
public interface SupportsQueueInspection extends SimpleQueueService {

  /**
   * The queue's backlog now, with up to {@code maxPeeked} (0 to {@link
   * CloudLimits#maxBatchSize()}) of its messages.
   */
  CompletableFuture<QueueBacklog> inspect(String uri, int maxPeeked);

  /** {@code queues} as inspectable queues, or null when they lack the ability. */
  static @Nullable SupportsQueueInspection of(SimpleQueueService queues) {
    return queues instanceof SupportsQueueInspection ? (SupportsQueueInspection) queues : null;
  }
}
