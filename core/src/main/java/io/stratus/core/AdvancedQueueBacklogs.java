package io.stratus.core;

import io.stratus.cloudapi.AdvancedMessage;
import io.stratus.cloudapi.AdvancedQueueService;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.QueueBacklog;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What an advanced queue holds, read for {@link Verifier} without effect: a receive of an advanced
 * queue hides and locks nothing ({@link AdvancedQueueService}), so paging through it from the
 * first id is a read-only count. The queues are the advanced atomicity log and commit queues and
 * the snapshot archive of each tree, which the simple-queue inspection does not reach.
 *
 * <p>Why a bound: an archive that no checkpoint collects grows without end; past {@link
 * #MAX_COUNTED} messages the count stops and the report says "at least".
 */
final class AdvancedQueueBacklogs {
  /** Messages one receive asks for. */
  static final int PAGE = 1_000;

  /** Messages counted in one queue at most. */
  static final int MAX_COUNTED = 100_000;

  private final AdvancedQueueService queues;

  AdvancedQueueBacklogs(AdvancedQueueService queues) {
    this.queues = queues;
  }

  /**
   * The backlog of {@code uri}: its messages (at most {@link #MAX_COUNTED}) as visible ones, none
   * in flight (advanced queues hide nothing), the oldest arrival, and no retention limit ({@link
   * QueueBacklog#KEPT_UNTIL_DELETED}).
   *
   * @throws io.stratus.cloudapi.CloudException a receive failed
   */
  QueueBacklog read(String uri) {
    long count = 0;
    Instant oldest = null;
    long after = 0;
    while (count < MAX_COUNTED) {
      List<AdvancedMessage> page =
          CloudFutures.await(
              queues.receiveAfterId(uri, (int) Math.min(PAGE, MAX_COUNTED - count), after));
      for (AdvancedMessage m : page) {
        if (oldest == null || m.enqueuedAt().isBefore(oldest)) {
          oldest = m.enqueuedAt();
        }
        after = Math.max(after, m.id());
      }
      count += page.size();
      if (page.size() < PAGE) {
        break;
      }
    }
    return new QueueBacklog(
        uri, count, 0, Optional.ofNullable(oldest), QueueBacklog.KEPT_UNTIL_DELETED, List.of());
  }
}
