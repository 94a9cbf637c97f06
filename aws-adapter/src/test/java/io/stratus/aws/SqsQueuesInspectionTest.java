package io.stratus.aws;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.QueueBacklog;
import io.stratus.cloudapi.QueueMessage;
import io.stratus.cloudapi.SupportsQueueInspection;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Inspecting an SQS queue (LocalStack) reports its messages, the queue's own retention and the
 * oldest send time, and leaves every message receivable.
 */
class SqsQueuesInspectionTest {
  private static final String NAME_PREFIX =
      "si" + UUID.randomUUID().toString().substring(0, 6) + "-";
  private static AwsCloud cloud;

  @BeforeAll
  static void connect() {
    cloud =
        AwsCloud.connect(
            LocalStackFixture.get()
                .config()
                .queueNamePrefix(NAME_PREFIX)
                .messageRetention(Duration.ofDays(14))
                .build());
  }

  @AfterAll
  static void disconnect() {
    if (cloud != null) {
      cloud.close();
    }
  }

  @Test
  void reportsCountsRetentionAndOldestSendTimeAndHidesNothing() {
    SupportsQueueInspection queues = SupportsQueueInspection.of(cloud.simpleQueues());
    assertThat(queues).isNotNull();
    String q = "db/pu/t/db/c/items/root";
    CloudFutures.await(queues.createQueue(q));
    Instant before = Instant.now().minusSeconds(1);
    CloudFutures.await(queues.send(q, "a".getBytes(StandardCharsets.UTF_8)));
    CloudFutures.await(queues.send(q, "bb".getBytes(StandardCharsets.UTF_8)));

    QueueBacklog b = CloudFutures.await(queues.inspect(q, 10));

    assertThat(b.messages()).isEqualTo(2);
    assertThat(b.retention()).isEqualTo(Duration.ofDays(14));
    assertThat(b.oldestSentAt()).hasValueSatisfying(t -> assertThat(t).isAfter(before));
    assertThat(b.peeked())
        .extracting(QueueBacklog.PeekedMessage::size)
        .containsExactlyInAnyOrder(1, 2);
    List<QueueMessage> got = CloudFutures.await(queues.receive(q, 10, Duration.ofSeconds(30)));
    assertThat(got).hasSize(2);
    CloudFutures.await(queues.deleteQueue(q));
  }
}
