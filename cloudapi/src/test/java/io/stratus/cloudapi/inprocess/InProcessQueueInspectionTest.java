package io.stratus.cloudapi.inprocess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.NotFoundException;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.QueueBacklog;
import io.stratus.cloudapi.SimpleQueueService;
import io.stratus.cloudapi.SupportsQueueInspection;
import io.stratus.cloudapi.decorate.CloudMeter;
import io.stratus.cloudapi.decorate.Decorators;
import io.stratus.cloudapi.decorate.MeteringInterceptor;
import io.stratus.cloudapi.time.ManualClock;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * Inspecting an in-process queue counts what it holds, names the oldest send time and peeks
 * without hiding anything or counting a delivery; the ability survives decoration and is metered.
 */
class InProcessQueueInspectionTest {
  private final ManualClock clock = new ManualClock();
  private final InProcessCloud cloud =
      InProcessCloud.builder().clock(clock).queueBehavior(QueueBehavior.reliable()).build();
  private final SupportsQueueInspection queues =
      SupportsQueueInspection.of(cloud.services().simpleQueues());

  @Test
  void countsVisibleAndHiddenMessagesAndTheOldestSendTime() {
    String q = "db/pu/t/x";
    CloudFutures.await(queues.createQueue(q));
    Instant first = clock.instant();
    CloudFutures.await(queues.send(q, bytes("a")));
    clock.advance(Duration.ofMinutes(5));
    CloudFutures.await(queues.send(q, bytes("bb")));
    CloudFutures.await(queues.send(q, bytes("ccc")));
    CloudFutures.await(queues.receive(q, 1, Duration.ofMinutes(1)));

    QueueBacklog b = CloudFutures.await(queues.inspect(q, 2));

    assertThat(b.visible()).isEqualTo(2);
    assertThat(b.inFlight()).isEqualTo(1);
    assertThat(b.messages()).isEqualTo(3);
    assertThat(b.oldestSentAt()).contains(first);
    assertThat(b.oldestAge(clock.instant())).contains(Duration.ofMinutes(5));
    assertThat(b.retention()).isEqualTo(queues.limits().messageRetention());
    assertThat(b.peeked()).hasSize(2);
    assertThat(b.peeked().get(0).deliveries()).isEqualTo(1);
    assertThat(b.peeked().get(1).payload()).isEqualTo(bytes("bb"));
  }

  /**
   * A duplicate counts once it has been delivered: after the original is deleted, the copy that
   * came with it is still a message a receive will return.
   */
  @Test
  void aDeliveredDuplicateLeftBehindIsCounted() {
    InProcessCloud weak =
        InProcessCloud.builder().clock(clock).queueBehavior(new QueueBehavior(false, 0, 1)).build();
    SupportsQueueInspection dup = SupportsQueueInspection.of(weak.services().simpleQueues());
    String q = "db/q";
    CloudFutures.await(dup.createQueue(q));
    CloudFutures.await(dup.send(q, bytes("a")));
    CloudFutures.await(dup.receive(q, 10, Duration.ofSeconds(30))); // the copy is made
    assertThat(CloudFutures.await(dup.inspect(q, 0)).messages()).as("not delivered yet").isOne();
    clock.advance(Duration.ofSeconds(31));
    var both = CloudFutures.await(dup.receive(q, 10, Duration.ofSeconds(30)));
    assertThat(both).hasSize(2);
    CloudFutures.await(dup.delete(q, both.get(0).receiptHandle()));

    assertThat(CloudFutures.await(dup.inspect(q, 0)).messages()).isOne();
    weak.close();
  }

  @Test
  void peekingHidesNothingAndCountsNoDelivery() {
    String q = "db/q";
    CloudFutures.await(queues.createQueue(q));
    CloudFutures.await(queues.send(q, bytes("a")));

    CloudFutures.await(queues.inspect(q, 10));
    CloudFutures.await(queues.inspect(q, 10));

    assertThat(CloudFutures.await(queues.receive(q, 10, Duration.ofSeconds(30))))
        .singleElement()
        .satisfies(m -> assertThat(m.deliveryCount()).isEqualTo(1));
  }

  @Test
  void anEmptyQueueHasNoOldestMessageAndAMissingQueueIsNotFound() {
    CloudFutures.await(queues.createQueue("db/empty"));
    QueueBacklog b = CloudFutures.await(queues.inspect("db/empty", 0));
    assertThat(b.messages()).isZero();
    assertThat(b.oldestSentAt()).isEmpty();
    assertThat(b.oldestAge(clock.instant())).isEmpty();

    assertThatThrownBy(() -> CloudFutures.await(queues.inspect("db/none", 0)))
        .isInstanceOf(NotFoundException.class);
  }

  @Test
  void decoratedQueuesKeepTheAbilityAndMeterIt() {
    CloudMeter meter = new CloudMeter();
    SimpleQueueService wrapped =
        Decorators.wrap(cloud.services(), new MeteringInterceptor(meter)).simpleQueues();
    SupportsQueueInspection inspectable = SupportsQueueInspection.of(wrapped);
    assertThat(inspectable).isNotNull();
    CloudFutures.await(inspectable.createQueue("db/m"));

    CloudFutures.await(inspectable.inspect("db/m", 0));

    assertThat(meter.snapshot().stats(Operation.QUEUE_INSPECT).calls()).isEqualTo(1);
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
