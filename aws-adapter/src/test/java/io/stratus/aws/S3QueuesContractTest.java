package io.stratus.aws;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.QueueMessage;
import io.stratus.cloudapi.SimpleQueueService;
import io.stratus.cloudapi.contract.SimpleQueueServiceContract;
import java.time.Duration;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The simple-queue contract on S3-backed queues (LocalStack). Leases taken by conditional put
 * make them stronger than SQS for one client on a quiet queue: receives are complete, in sending
 * order, and never hand out a hidden message; the flags say so, and the suite checks it.
 */
class S3QueuesContractTest extends SimpleQueueServiceContract {
  private static final String QUEUE_PREFIX =
      "s3q-" + UUID.randomUUID().toString().substring(0, 8) + "/";
  private static AwsCloud cloud;

  @BeforeAll
  static void connect() {
    cloud =
        AwsCloud.connect(
            LocalStackFixture.get()
                .config()
                .queueBackend(AwsConfig.QueueBackend.S3)
                .s3QueueKeyPrefix(QUEUE_PREFIX)
                .build());
  }

  @AfterAll
  static void disconnect() {
    if (cloud != null) {
      cloud.close();
    }
  }

  @Override
  protected SimpleQueueService newQueues(long seed) {
    return cloud.simpleQueues();
  }

  @Override
  protected void elapse(Duration d) {
    RealTime.pass(d);
  }

  @Override
  protected Duration clockSlack() {
    return Duration.ofSeconds(1);
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
  void theBackendIsS3WithItsOwnLimits() {
    assertThat(queues).isInstanceOf(S3Queues.class);
    assertThat(queues.limits().maxMessageSize())
        .isEqualTo(AwsConfig.DEFAULT_S3_QUEUE_MAX_MESSAGE_SIZE);
    assertThat(queues.limits().messageRetention()).isEqualTo(S3Queues.RETENTION);
  }

  @Test
  void anotherClientSeesTheSameQueueAndRespectsLeases() {
    String q = newQueue("shared");
    String id = await(queues.send(q, bytes("one")));
    QueueMessage mine = drain(q, Set.of(id)).get(id);
    try (AwsCloud other =
        AwsCloud.connect(
            LocalStackFixture.get()
                .config()
                .queueBackend(AwsConfig.QueueBackend.S3)
                .s3QueueKeyPrefix(QUEUE_PREFIX)
                .build())) {
      SimpleQueueService theirs = other.simpleQueues();
      assertThat(await(theirs.listQueues(uri("")))).containsExactly(q);
      assertThat(await(theirs.receive(q, 10, LONG_VISIBILITY))).isEmpty();
      await(theirs.delete(q, mine.receiptHandle()));
    }
    assertNothingArrives(q);
  }
}
