package io.stratus.protocols.log;

import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.SimpleQueueService;
import io.stratus.cloudapi.SupportsVisibilityChange;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * Hands the messages a pass received back to their queue when the pass ends without applying
 * them, so that the next pass receives them at once instead of after their visibility timeout
 * (which is a lock timeout: 30 s by default).
 *
 * <p>Why it is safe, and what the caller must make sure of: a message handed back may be received
 * by anyone at once, so the caller hands back only messages it will not touch again — at the very
 * end of its pass, after its last put and its last delete completed (a record of a message handed
 * back mid-pass could be applied by this pass and the next one at the same time). Applying a
 * message's records again later is what a visibility timeout leads to anyway; handing back only
 * brings it forward. A handle is used only while the pass's hold lasts ({@code heldUntilMillis}):
 * after that another receive may have taken the message, and the capability does not promise what
 * a superseded handle does.
 *
 * <p>Queues without {@link SupportsVisibilityChange} hand nothing back: the messages stay hidden
 * until their timeout, as before the capability existed. A failed call is logged and reported as
 * "not handed back"; the messages then reappear when their timeout ends. Thread-safe.
 */
public final class HandBack {
  private static final System.Logger LOG = System.getLogger(HandBack.class.getName());

  /** The queues, or null when they cannot change visibility. */
  private final @Nullable SupportsVisibilityChange queues;

  private final Clock clock;

  public HandBack(SimpleQueueService queues, Clock clock) {
    this.queues = SupportsVisibilityChange.of(queues);
    this.clock = clock;
  }

  /** Whether the queues can hand messages back at all. */
  public boolean possible() {
    return queues != null;
  }

  /**
   * Makes the messages of {@code handles} receivable at once, provided the hold of the receives
   * that returned them lasts until after {@code heldUntilMillis} (the earliest moment one of them
   * stops hiding what it returned, by this clock). Waits for every call.
   *
   * @return true when every handle was handed back (also when there were none); false when the
   *     queues lack the ability, the hold is over, or a call failed
   */
  public boolean handBack(String queue, List<String> handles, long heldUntilMillis) {
    if (handles.isEmpty()) {
      return true;
    }
    if (queues == null || clock.millis() >= heldUntilMillis) {
      return false;
    }
    int batch = queues.limits().maxBatchSize();
    List<CompletableFuture<Void>> calls = new ArrayList<>();
    for (int i = 0; i < handles.size(); i += batch) {
      List<String> part = List.copyOf(handles.subList(i, Math.min(handles.size(), i + batch)));
      calls.add(queues.changeVisibilityBatch(queue, part, Duration.ZERO));
    }
    try {
      CloudFutures.awaitEach(calls, i -> {});
      return true;
    } catch (CloudException e) {
      LOG.log(
          Level.DEBUG,
          "handing messages of "
              + queue
              + " back failed; they reappear when their visibility timeout ends",
          e);
      return false;
    }
  }
}
