package io.stratus.cloudapi;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * The optional ability to change how long a received message stays hidden: to hand it back at
 * once (a timeout of zero), after a short delay, or to hold it longer (SQS ChangeMessageVisibility
 * and ChangeMessageVisibilityBatch).
 *
 * <p>Why a capability of its own: a consumer that received messages and then decides not to
 * process them (a checkpoint that failed, a recovery pass that waits for the rest of a
 * transaction) could otherwise only leave them hidden until their visibility timeout ends, and
 * everyone who needs them waits that long. Services that can end a hold early implement this
 * interface; callers check with {@code instanceof} (or {@link #of(SimpleQueueService)}) and leave
 * the messages hidden otherwise.
 *
 * <p>Guarantees every implementation MUST give:
 *
 * <ul>
 *   <li><b>From the call.</b> A change through the handle of the message's latest delivery, while
 *       that delivery still holds the message, makes the message receivable again {@code
 *       visibilityTimeout} after the call (not after the receive); zero makes it receivable by the
 *       next receive. Such a call that completed normally has taken effect.
 *   <li><b>Gone is fine.</b> A handle whose message is no longer in the queue (deleted, or older
 *       than the retention) succeeds and changes nothing; so does a handle whose hold has already
 *       ended (the message is receivable again anyway). A change never brings a deleted message
 *       back and never deletes one.
 *   <li><b>Superseded handles.</b> A handle from an earlier delivery of a message that was received
 *       again since succeeds, but what it does is not promised: it changes nothing, or (as SQS
 *       may) it changes the later delivery's hold. So a caller MUST use a handle only while its own
 *       hold lasts, i.e. before the visibility timeout of its receive (or of its last change) ends.
 *       Whatever it does, the message is not lost: it stays in the queue until deleted.
 *   <li><b>No promise of exactly once.</b> A message handed back may be delivered to someone else
 *       at once; one whose hold was extended may still come back as a duplicate (at-least-once, as
 *       {@link SimpleQueueService} says).
 *   <li><b>Limits.</b> The timeout is zero up to {@link CloudLimits#maxVisibilityTimeout()} (12
 *       hours on SQS): a negative or null one fails with {@link BadRequestException}, a longer one
 *       with {@link LimitExceededException}, before anything changed. A service MAY also refuse,
 *       with {@link LimitExceededException}, a timeout that would hold the message longer than
 *       {@link CloudLimits#maxVisibilityTimeout()} after the receive that issued the handle (SQS
 *       does). A batch holds 1 to {@link CloudLimits#maxBatchSize()} handles.
 *   <li>A null, malformed or forged handle, or one of another queue, fails with {@link
 *       BadRequestException}; a queue that does not exist with {@link NotFoundException}.
 * </ul>
 *
 * <p>Implementations MUST be thread-safe.
 */
public interface SupportsVisibilityChange extends SimpleQueueService {

  /**
   * Makes the message of {@code receiptHandle} receivable again {@code visibilityTimeout} from
   * now (zero: at once), as the guarantees above say.
   */
  CompletableFuture<Void> changeVisibility(
      String uri, String receiptHandle, Duration visibilityTimeout);

  /**
   * {@link #changeVisibility} for up to {@link CloudLimits#maxBatchSize()} handles of one queue in
   * one request, all to the same timeout. When the future fails, any of the changes MAY have been
   * made (each is harmless to repeat) unless the exception says the call had no effect.
   */
  CompletableFuture<Void> changeVisibilityBatch(
      String uri, List<String> receiptHandles, Duration visibilityTimeout);

  /** {@code queues} as queues that can change visibility, or null when they lack the ability. */
  static @Nullable SupportsVisibilityChange of(SimpleQueueService queues) {
    return queues instanceof SupportsVisibilityChange ? (SupportsVisibilityChange) queues : null;
  }
}
