package io.stratus.cloudapi.inprocess;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.QueueMessage;
import io.stratus.cloudapi.SimpleQueueService;
import io.stratus.cloudapi.time.ManualClock;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The in-process queue keeps hidden messages out of a receive's way: a long run of hidden
 * messages at the front (a recovery pass holding what it received) costs a receive nothing, and
 * the hidden ones come back in send order when their timeout ends.
 */
class InProcessQueueVisibilityTest {
  private static final Duration HIDE = Duration.ofSeconds(30);

  private final ManualClock clock = new ManualClock();
  private final SimpleQueueService queues =
      InProcessCloud.builder()
          .clock(clock)
          .queueBehavior(QueueBehavior.reliable())
          .build()
          .services()
          .simpleQueues();

  @Test
  void aReceivePassesOverHiddenMessagesAndTheyReturnInSendOrder() {
    String q = "db/q";
    CloudFutures.await(queues.createQueue(q));
    List<String> sent = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      sent.add(CloudFutures.await(queues.send(q, bytes("front-" + i))));
    }
    for (int i = 0; i < 30; i++) {
      assertThat(CloudFutures.await(queues.receive(q, 10, HIDE))).hasSize(10);
    }
    String last = CloudFutures.await(queues.send(q, bytes("last")));
    sent.add(last);

    assertThat(CloudFutures.await(queues.receive(q, 10, HIDE)))
        .extracting(QueueMessage::messageId)
        .containsExactly(last);
    clock.advance(HIDE.minusMillis(1));
    assertThat(CloudFutures.await(queues.receive(q, 10, HIDE))).isEmpty();

    clock.advance(HIDE);
    List<String> again = new ArrayList<>();
    for (List<QueueMessage> got = CloudFutures.await(queues.receive(q, 10, HIDE));
        !got.isEmpty();
        got = CloudFutures.await(queues.receive(q, 10, HIDE))) {
      got.forEach(m -> again.add(m.messageId()));
    }
    assertThat(again).containsExactlyElementsOf(sent);
  }

  @Test
  void aDeletedHiddenMessageNeverComesBack() {
    String q = "db/q";
    CloudFutures.await(queues.createQueue(q));
    String a = CloudFutures.await(queues.send(q, bytes("a")));
    String b = CloudFutures.await(queues.send(q, bytes("b")));
    List<QueueMessage> got = CloudFutures.await(queues.receive(q, 10, HIDE));
    assertThat(got).hasSize(2);
    CloudFutures.await(queues.delete(q, got.get(0).receiptHandle()));

    clock.advance(HIDE);
    assertThat(CloudFutures.await(queues.receive(q, 10, HIDE)))
        .extracting(QueueMessage::messageId)
        .containsExactly(b)
        .doesNotContain(a);
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
