package io.stratus.cloudapi.inprocess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.cloudapi.BadRequestException;
import io.stratus.cloudapi.CloudLimits;
import io.stratus.cloudapi.LimitExceededException;
import io.stratus.cloudapi.QueueMessage;
import io.stratus.cloudapi.SimpleQueueService;
import io.stratus.cloudapi.SupportsQueueInspection;
import io.stratus.cloudapi.SupportsVisibilityChange;
import io.stratus.cloudapi.contract.SimpleQueueServiceContract;
import io.stratus.cloudapi.time.ManualClock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The simple-queue contract on the in-process cloud with reliable queues (in order, complete
 * receives, no duplicates), plus what only the in-process queues promise about receipt handles.
 * The weak variant below runs the same tests with every SQS weakness switched on.
 */
class InProcessSimpleQueuesContractTest extends SimpleQueueServiceContract {
  static final CloudLimits SMALL_LIMITS =
      CloudLimits.builder().maxMessageSize(64 * 1024).maxBatchSize(10).build();

  protected final ManualClock clock = new ManualClock();

  @Override
  protected SimpleQueueService newQueues(long seed) {
    return InProcessCloud.builder()
        .clock(clock)
        .seed(seed)
        .limits(SMALL_LIMITS)
        .queueBehavior(behavior())
        .build()
        .services()
        .simpleQueues();
  }

  @Override
  protected void elapse(Duration d) {
    clock.advance(d);
  }

  QueueBehavior behavior() {
    return QueueBehavior.reliable();
  }

  @Override
  protected boolean deliversInOrder() {
    return true;
  }

  @Override
  protected boolean receivesAreComplete() {
    return true;
  }

  @Override
  protected boolean mayDuplicate() {
    return false;
  }

  // ---- what only the in-process queues promise ----

  @Test
  void theServiceReportsItsLimits() {
    assertThat(queues.limits()).isSameAs(SMALL_LIMITS);
  }

  @Test
  void unknownReceiptHandlesAreBadRequests() {
    String q = newQueue("q");
    String id = await(queues.send(q, bytes("m")));
    String handle = drain(q, Set.of(id)).get(id).receiptHandle();
    String forged = handle.substring(0, handle.length() - 1) + (handle.endsWith("0") ? "1" : "0");
    for (String bad : new String[] {"garbage", "", "1.2.3", forged, null}) {
      assertThatThrownBy(() -> await(queues.delete(q, bad)))
          .as("handle %s", bad)
          .isInstanceOf(BadRequestException.class);
    }
    assertThatThrownBy(() -> await(queues.deleteBatch(q, List.of(handle, "garbage"))))
        .isInstanceOf(BadRequestException.class);
    // The batch had no effect: the message is still there and comes back after its timeout.
    elapse(LONG_VISIBILITY);
    assertThat(drain(q, Set.of(id))).containsKey(id);
  }

  @Test
  void handlesOfAnotherQueueAreBadRequests() {
    String a = newQueue("a");
    String b = newQueue("b");
    String id = await(queues.send(a, bytes("m")));
    QueueMessage m = drain(a, Set.of(id)).get(id);
    assertThatThrownBy(() -> await(queues.delete(b, m.receiptHandle())))
        .isInstanceOf(BadRequestException.class);
  }

  @Test
  void anEarlierHandleOfTheMessageStillDeletesIt() {
    String q = newQueue("q");
    String id = await(queues.send(q, bytes("m")));
    QueueMessage first = drain(q, Set.of(id), SHORT_VISIBILITY).get(id);
    elapse(SHORT_VISIBILITY);
    drain(q, Set.of(id), SHORT_VISIBILITY);
    await(queues.delete(q, first.receiptHandle()));
    assertNothingNewArrives(q, Set.of(id));
  }

  @Test
  void aSupersededHandleChangesNothing() {
    SupportsVisibilityChange v = SupportsVisibilityChange.of(queues);
    String q = newQueue("q");
    String id = await(queues.send(q, bytes("m")));
    QueueMessage first = drain(q, Set.of(id), SHORT_VISIBILITY).get(id);
    elapse(SHORT_VISIBILITY);
    drain(q, Set.of(id), LONG_VISIBILITY);
    await(v.changeVisibility(q, first.receiptHandle(), Duration.ZERO));
    if (!mayDuplicate()) {
      assertThat(await(queues.receive(q, maxBatch(), LONG_VISIBILITY)))
          .as("the later delivery still holds it")
          .isEmpty();
    }
  }

  /** As on SQS, a hold ends at most the longest visibility timeout after its receive. */
  @Test
  void aHoldCannotBeExtendedBeyondTheLongestTimeoutAfterTheReceive() {
    SupportsVisibilityChange v = SupportsVisibilityChange.of(queues);
    Duration max = queues.limits().maxVisibilityTimeout();
    String q = newQueue("q");
    String id = await(queues.send(q, bytes("m")));
    QueueMessage m = drain(q, Set.of(id), max.dividedBy(2)).get(id);
    elapse(max.dividedBy(4));
    Duration left = max.minus(max.dividedBy(4));
    assertFails(
        () -> v.changeVisibility(q, m.receiptHandle(), left.plusSeconds(1)),
        LimitExceededException.class);
    await(v.changeVisibility(q, m.receiptHandle(), left));
    elapse(left.minusSeconds(1));
    if (!mayDuplicate()) {
      assertThat(await(queues.receive(q, maxBatch(), LONG_VISIBILITY))).isEmpty();
    }
    elapse(Duration.ofSeconds(1));
    assertThat(drain(q, Set.of(id))).containsKey(id);
  }

  @Test
  void aRefusedBatchChangesNothing() {
    SupportsVisibilityChange v = SupportsVisibilityChange.of(queues);
    String q = newQueue("q");
    String id = await(queues.send(q, bytes("m")));
    String h = drain(q, Set.of(id)).get(id).receiptHandle();
    assertFails(
        () -> v.changeVisibilityBatch(q, List.of(h, "garbage"), Duration.ZERO),
        BadRequestException.class);
    if (!mayDuplicate()) {
      assertThat(await(queues.receive(q, maxBatch(), LONG_VISIBILITY))).isEmpty();
    }
  }

  @Test
  void theVisibilityChangeKnobHidesTheAbilityOnly() {
    SimpleQueueService fixed =
        InProcessCloud.builder()
            .clock(clock)
            .seed(seed)
            .visibilityChange(false)
            .build()
            .services()
            .simpleQueues();
    assertThat(fixed).isNotInstanceOf(SupportsVisibilityChange.class);
    assertThat(fixed).isInstanceOf(SupportsQueueInspection.class);
    assertThat(queues).isInstanceOf(SupportsVisibilityChange.class);
  }

  @Test
  void invalidCallsFailTheFutureAndNeverThrow() {
    String q = newQueue("q");
    List<CompletableFuture<?>> calls =
        List.of(
            queues.createQueue(null),
            queues.send(q, null),
            queues.sendBatch(q, null),
            queues.receive(q, 0, SHORT_VISIBILITY),
            queues.receive(q, 1, null),
            queues.delete(q, null),
            queues.deleteBatch(q, null),
            SupportsVisibilityChange.of(queues).changeVisibility(q, null, Duration.ZERO),
            SupportsVisibilityChange.of(queues).changeVisibilityBatch(q, null, Duration.ZERO),
            queues.send(uri("missing"), bytes("m")));
    for (CompletableFuture<?> f : calls) {
      assertThat(f).isCompletedExceptionally();
    }
  }
}

/** The simple-queue contract with reordering, short receives and duplicates: SQS at its weakest. */
class InProcessSimpleQueuesWeakContractTest extends InProcessSimpleQueuesContractTest {
  @Override
  QueueBehavior behavior() {
    return QueueBehavior.weak();
  }

  @Override
  protected boolean deliversInOrder() {
    return false;
  }

  @Override
  protected boolean receivesAreComplete() {
    return false;
  }

  @Override
  protected boolean mayDuplicate() {
    return true;
  }
}
