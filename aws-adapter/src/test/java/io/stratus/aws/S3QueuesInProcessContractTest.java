package io.stratus.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.cloudapi.BadRequestException;
import io.stratus.cloudapi.QueueMessage;
import io.stratus.cloudapi.SimpleQueueService;
import io.stratus.cloudapi.SupportsConditionalPut;
import io.stratus.cloudapi.contract.SimpleQueueServiceContract;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.cloudapi.time.ManualClock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The simple-queue contract on {@link S3Queues} over the in-process storage under a manual clock:
 * the lease algorithm checked fast and deterministically, with time moved by the test rather than
 * waited for. {@link S3QueuesContractTest} runs the same suite on S3 itself.
 */
class S3QueuesInProcessContractTest extends SimpleQueueServiceContract {
  private final ManualClock clock = new ManualClock();
  private InProcessCloud cloud;

  @Override
  protected SimpleQueueService newQueues(long seed) {
    cloud = InProcessCloud.builder().clock(clock).seed(seed).build();
    return new S3Queues((SupportsConditionalPut) cloud.services().storage(), clock, 64 * 1024);
  }

  @Override
  protected void elapse(Duration d) {
    clock.advance(d);
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

  @Test
  void deliveryCountsGrowWithEachExpiredLease() {
    String q = newQueue("q");
    String id = await(queues.send(q, bytes("m")));
    for (int delivery = 1; delivery <= 3; delivery++) {
      QueueMessage m = drain(q, Set.of(id), SHORT_VISIBILITY).get(id);
      assertThat(m.deliveryCount()).isEqualTo(delivery);
      assertThat(await(queues.receive(q, 10, SHORT_VISIBILITY))).isEmpty();
      elapse(SHORT_VISIBILITY);
    }
  }

  @Test
  void anExpiredLeaseIsTakenOverAndTheOldHandleStillDeletes() {
    String q = newQueue("q");
    String id = await(queues.send(q, bytes("m")));
    QueueMessage first = drain(q, Set.of(id), SHORT_VISIBILITY).get(id);
    elapse(SHORT_VISIBILITY);
    QueueMessage second = drain(q, Set.of(id), SHORT_VISIBILITY).get(id);
    assertThat(second.receiptHandle()).isNotEqualTo(first.receiptHandle());
    await(queues.delete(q, first.receiptHandle()));
    assertNothingNewArrives(q, Set.of(id));
  }

  @Test
  void malformedHandlesAreBadRequestsWithoutEffect() {
    String q = newQueue("q");
    String id = await(queues.send(q, bytes("m")));
    String handle = drain(q, Set.of(id), SHORT_VISIBILITY).get(id).receiptHandle();
    for (String bad : new String[] {"garbage", "", "1/2", handle + "x", null}) {
      assertThatThrownBy(() -> await(queues.delete(q, bad)))
          .isInstanceOf(BadRequestException.class);
    }
    assertThatThrownBy(() -> await(queues.deleteBatch(q, List.of(handle, "garbage"))))
        .isInstanceOf(BadRequestException.class);
    elapse(SHORT_VISIBILITY);
    assertThat(drain(q, Set.of(id))).containsKey(id);
  }

  @Test
  void messagesAreOrderedBySendingTimeAcrossClockSteps() {
    String q = newQueue("q");
    String a = await(queues.send(q, bytes("a")));
    elapse(Duration.ofMillis(1));
    String b = await(queues.send(q, bytes("b")));
    String c = await(queues.send(q, bytes("c")));
    assertThat(List.of(a, b, c)).isSorted();
    assertThat(await(queues.receive(q, 10, LONG_VISIBILITY)))
        .extracting(QueueMessage::messageId)
        .containsExactly(a, b, c);
  }
}
