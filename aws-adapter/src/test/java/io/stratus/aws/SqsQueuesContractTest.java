package io.stratus.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.cloudapi.LimitExceededException;
import io.stratus.cloudapi.SimpleQueueService;
import io.stratus.cloudapi.contract.SimpleQueueServiceContract;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsAsyncClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * The simple-queue contract on SQS (LocalStack) with SQS's weak promises (no order, short
 * receives, duplicates), plus what only the SQS mapping promises: Base64 sizes, retention and size
 * set at creation, exact URIs listed back through tags, and limits read from the queue.
 */
class SqsQueuesContractTest extends SimpleQueueServiceContract {
  private static final String NAME_PREFIX =
      "st" + UUID.randomUUID().toString().substring(0, 6) + "-";
  private static AwsCloud cloud;
  private static SqsAsyncClient raw;

  @BeforeAll
  static void connect() {
    LocalStackFixture ls = LocalStackFixture.get();
    cloud = AwsCloud.connect(ls.config().queueNamePrefix(NAME_PREFIX).build());
    raw =
        SqsAsyncClient.builder()
            .region(Region.of(LocalStackFixture.REGION))
            .endpointOverride(ls.endpoint())
            .credentialsProvider(
                StaticCredentialsProvider.create(
                    AwsBasicCredentials.create(
                        LocalStackFixture.ACCESS_KEY, LocalStackFixture.SECRET_KEY)))
            .build();
  }

  @AfterAll
  static void disconnect() {
    if (raw != null) {
      raw.close();
    }
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

  // ---- what only the SQS mapping promises ----

  @Test
  void limitsAreThreeQuartersOfTheQueueSizeAndTheConfiguredRetention() {
    assertThat(queues.limits().maxMessageSize()).isEqualTo(786_432);
    assertThat(queues.limits().messageRetention()).isEqualTo(Duration.ofDays(14));
    assertThat(queues.limits().maxBatchSize()).isEqualTo(10);
  }

  @Test
  void queuesAreCreatedWithRetentionSizeAndTheirUriInTags() {
    String q = newQueue("attributes");
    String url =
        raw.getQueueUrl(
                b ->
                    b.queueName(NAME_PREFIX + "x")
                        .queueName(new QueueNames(NAME_PREFIX).nameFor(q)))
            .join()
            .queueUrl();
    Map<QueueAttributeName, String> a =
        raw.getQueueAttributes(b -> b.queueUrl(url).attributeNames(QueueAttributeName.ALL))
            .join()
            .attributes();
    assertThat(a)
        .containsEntry(QueueAttributeName.MESSAGE_RETENTION_PERIOD, "1209600")
        .containsEntry(QueueAttributeName.MAXIMUM_MESSAGE_SIZE, "1048576");
    assertThat(QueueNames.uriFromTags(raw.listQueueTags(b -> b.queueUrl(url)).join().tags()))
        .contains(q);
  }

  @Test
  void urisThatNamesCannotHoldAreListedExactly() {
    String slashed = newQueue("pages/a.b");
    String unicode = newQueue("p\u00e4ge \u20ac");
    String longOne = newQueue("l".repeat(300));
    String similar = newQueue("pages_a_b"); // the same readable part as "pages/a.b"
    assertThat(await(queues.listQueues(uri(""))))
        .containsExactlyInAnyOrder(slashed, unicode, longOne, similar);
    assertThat(await(queues.listQueues(uri("pages/")))).containsExactly(slashed);
    // Another client, with no cache, reads the URIs back from the tags.
    try (AwsCloud other =
        AwsCloud.connect(LocalStackFixture.get().config().queueNamePrefix(NAME_PREFIX).build())) {
      assertThat(await(other.simpleQueues().listQueues(uri("p"))))
          .containsExactly(slashed, similar, unicode);
      String id = await(other.simpleQueues().send(unicode, bytes("hello")));
      assertThat(drain(unicode, Set.of(id)).get(id).payload()).isEqualTo(bytes("hello"));
    }
  }

  @Test
  void aQueueMadeElsewhereWithASmallerSizeIsCheckedAgainstItsOwn() {
    String q = uri("small");
    String name = new QueueNames(NAME_PREFIX).nameFor(q);
    raw.createQueue(
            b ->
                b.queueName(name)
                    .attributes(Map.of(QueueAttributeName.MAXIMUM_MESSAGE_SIZE, "1024")))
        .join();
    await(queues.createQueue(q)); // exists with other attributes: adopted as it is
    await(queues.send(q, new byte[768]));
    assertThatThrownBy(() -> await(queues.send(q, new byte[769])))
        .isInstanceOf(LimitExceededException.class);
    List<byte[]> three = List.of(new byte[700], new byte[700], new byte[700]);
    assertThat(await(queues.sendBatch(q, three))).hasSize(3); // one request per entry
  }
}
