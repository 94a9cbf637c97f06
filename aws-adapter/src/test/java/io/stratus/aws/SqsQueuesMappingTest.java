package io.stratus.aws;

import static io.stratus.aws.Fakes.sqsError;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.cloudapi.BadRequestException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.LimitExceededException;
import io.stratus.cloudapi.NotFoundException;
import io.stratus.cloudapi.OutcomeUnknownException;
import io.stratus.cloudapi.QueueMessage;
import io.stratus.cloudapi.RetryableException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.BatchResultErrorEntry;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequest;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchResponse;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchResultEntry;
import software.amazon.awssdk.services.sqs.model.GetQueueAttributesRequest;
import software.amazon.awssdk.services.sqs.model.GetQueueAttributesResponse;
import software.amazon.awssdk.services.sqs.model.GetQueueUrlRequest;
import software.amazon.awssdk.services.sqs.model.GetQueueUrlResponse;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequest;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchResponse;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchResultEntry;
import software.amazon.awssdk.services.sqs.model.SendMessageRequest;

/**
 * SqsQueues against a scripted SQS: batches cut by size, per-entry failures sent again or
 * reported, missing queues, and the decoding of received messages. Queues are created with 1 KiB
 * messages here, so payloads carry at most 768 bytes.
 */
class SqsQueuesMappingTest {
  private static final String URL = "http://sqs.local/000000000000/q";
  private final Fakes.Sqs sqs = new Fakes.Sqs();
  private final SqsQueues queues =
      new SqsQueues(sqs, AwsConfig.builder("bucket-x").sqsMaximumMessageSize(1024).build());
  private final AtomicInteger lookups = new AtomicInteger();

  private static <T> T await(CompletableFuture<T> f) {
    return CloudFutures.await(f);
  }

  /** Answers queue look-ups, and {@code batch} for everything else. */
  private void script(java.util.function.Function<Object, Object> batch) {
    sqs.answer =
        r -> {
          if (r instanceof GetQueueUrlRequest) {
            lookups.incrementAndGet();
            return GetQueueUrlResponse.builder().queueUrl(URL).build();
          }
          if (r instanceof GetQueueAttributesRequest) {
            return GetQueueAttributesResponse.builder()
                .attributes(Map.of(QueueAttributeName.MAXIMUM_MESSAGE_SIZE, "1024"))
                .build();
          }
          return batch.apply(r);
        };
  }

  private static SendMessageBatchResponse sendReply(
      SendMessageBatchRequest r, String failId, boolean senderFault, String code) {
    List<SendMessageBatchResultEntry> ok = new ArrayList<>();
    List<BatchResultErrorEntry> failed = new ArrayList<>();
    for (SendMessageBatchRequestEntry e : r.entries()) {
      if (e.id().equals(failId)) {
        failed.add(
            BatchResultErrorEntry.builder()
                .id(e.id())
                .senderFault(senderFault)
                .code(code)
                .message("scripted")
                .build());
      } else {
        ok.add(SendMessageBatchResultEntry.builder().id(e.id()).messageId("m" + e.id()).build());
      }
    }
    return SendMessageBatchResponse.builder().successful(ok).failed(failed).build();
  }

  private List<SendMessageBatchRequest> batches() {
    List<SendMessageBatchRequest> out = new ArrayList<>();
    sqs.requests.stream()
        .filter(r -> r instanceof SendMessageBatchRequest)
        .forEach(r -> out.add((SendMessageBatchRequest) r));
    return out;
  }

  private static List<byte[]> payloads(int n, int size) {
    List<byte[]> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(new byte[size]);
    }
    return out;
  }

  @Test
  void limitsReflectBase64() {
    assertThat(queues.limits().maxMessageSize()).isEqualTo(768);
    assertThat(SqsQueues.maxPayloadFor(1024 * 1024)).isEqualTo(786_432);
    assertThat(SqsQueues.maxPayloadFor(262_144)).isEqualTo(196_608);
  }

  @Test
  void entriesThatFailedOnTheServerAreSentAgain() {
    AtomicInteger calls = new AtomicInteger();
    script(
        r ->
            sendReply(
                (SendMessageBatchRequest) r,
                calls.getAndIncrement() == 0 ? "1" : "",
                false,
                "InternalError"));
    assertThat(await(queues.sendBatch("q", payloads(3, 10)))).containsExactly("m0", "m1", "m2");
    assertThat(batches()).hasSize(2);
    assertThat(batches().get(1).entries())
        .extracting(SendMessageBatchRequestEntry::id)
        .containsExactly("1");
  }

  @Test
  void aPartlySentBatchIsAnUnknownOutcome() {
    script(r -> sendReply((SendMessageBatchRequest) r, "2", true, "InvalidMessageContents"));
    assertThatThrownBy(() -> await(queues.sendBatch("q", payloads(3, 10))))
        .isInstanceOf(OutcomeUnknownException.class)
        .hasMessageContaining("2 of 3");
    assertThat(batches()).hasSize(1);
  }

  @Test
  void aBatchThatSentNothingIsABadRequestOrRetryable() {
    script(r -> sendReply((SendMessageBatchRequest) r, "0", true, "InvalidMessageContents"));
    assertThatThrownBy(() -> await(queues.sendBatch("q", payloads(1, 10))))
        .isInstanceOf(BadRequestException.class);
    script(r -> sqsError(500, "InternalError"));
    assertThatThrownBy(() -> await(queues.sendBatch("q", payloads(2, 10))))
        .isExactlyInstanceOf(RetryableException.class);
  }

  @Test
  void batchesAreCutSoThatEachRequestFitsTheQueuesSize() {
    script(r -> sendReply((SendMessageBatchRequest) r, "", false, ""));
    assertThat(await(queues.sendBatch("q", payloads(3, 700)))).hasSize(3);
    assertThat(batches()).hasSize(3); // 936 Base64 characters each: one per 1 KiB request
    sqs.requests.clear();
    assertThat(await(queues.sendBatch("q", payloads(10, 10)))).hasSize(10);
    assertThat(batches()).hasSize(1);
    assertThatThrownBy(() -> await(queues.sendBatch("q", payloads(1, 769))))
        .isInstanceOf(LimitExceededException.class);
  }

  @Test
  void sendsCarryBase64Bodies() {
    script(
        r ->
            software.amazon.awssdk.services.sqs.model.SendMessageResponse.builder()
                .messageId("id-1")
                .build());
    byte[] payload = {0, (byte) 0xff, 65};
    assertThat(await(queues.send("q", payload))).isEqualTo("id-1");
    SendMessageRequest r = (SendMessageRequest) sqs.requests.get(sqs.requests.size() - 1);
    assertThat(Base64.getDecoder().decode(r.messageBody())).isEqualTo(payload);
    assertThat(r.queueUrl()).isEqualTo(URL);
  }

  @Test
  void invalidHandlesAreBadRequestsEvenWhenSqsCallsThemServerFaults() {
    // LocalStack reports ReceiptHandleIsInvalid with SenderFault=false: the code decides.
    script(
        r ->
            DeleteMessageBatchResponse.builder()
                .successful(DeleteMessageBatchResultEntry.builder().id("0").build())
                .failed(
                    BatchResultErrorEntry.builder()
                        .id("1")
                        .senderFault(false)
                        .code("ReceiptHandleIsInvalid")
                        .message("bad")
                        .build())
                .build());
    assertThatThrownBy(() -> await(queues.deleteBatch("q", List.of("h0", "h1"))))
        .isInstanceOf(BadRequestException.class)
        .hasMessageContaining("ReceiptHandleIsInvalid");
    assertThat(sqs.requests.stream().filter(r -> r instanceof DeleteMessageBatchRequest))
        .hasSize(1);
  }

  @Test
  void deletesThatFailedOnTheServerAreSentAgain() {
    AtomicInteger calls = new AtomicInteger();
    script(
        r -> {
          DeleteMessageBatchRequest d = (DeleteMessageBatchRequest) r;
          if (calls.getAndIncrement() == 0) {
            return DeleteMessageBatchResponse.builder()
                .failed(
                    BatchResultErrorEntry.builder()
                        .id(d.entries().get(0).id())
                        .senderFault(false)
                        .code("InternalError")
                        .message("try again")
                        .build())
                .build();
          }
          return DeleteMessageBatchResponse.builder().build();
        });
    await(queues.deleteBatch("q", List.of("h0")));
    assertThat(calls).hasValue(2);
  }

  @Test
  void aMissingQueueIsNotFoundAndItsCachedUrlIsDropped() {
    sqs.answer = r -> sqsError(400, "AWS.SimpleQueueService.NonExistentQueue");
    assertThatThrownBy(() -> await(queues.send("q", new byte[1])))
        .isInstanceOf(NotFoundException.class);
    AtomicInteger sends = new AtomicInteger();
    script(
        r ->
            sends.getAndIncrement() == 0
                ? software.amazon.awssdk.services.sqs.model.SendMessageResponse.builder()
                    .messageId("a")
                    .build()
                : sqsError(400, "QueueDoesNotExist"));
    await(queues.send("q", new byte[1]));
    assertThatThrownBy(() -> await(queues.send("q", new byte[1])))
        .isInstanceOf(NotFoundException.class);
    int before = lookups.get();
    assertThatThrownBy(() -> await(queues.send("q", new byte[1])))
        .isInstanceOf(NotFoundException.class);
    assertThat(lookups.get()).isEqualTo(before + 1);
  }

  @Test
  void receivedMessagesAreDecoded() {
    Message m =
        Message.builder()
            .messageId("id")
            .receiptHandle("rh")
            .body(Base64.getEncoder().encodeToString(new byte[] {1, 2, 3}))
            .attributes(Map.of(MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT, "3"))
            .build();
    QueueMessage q = SqsQueues.toQueueMessage(m);
    assertThat(q.payload()).containsExactly(1, 2, 3);
    assertThat(q.deliveryCount()).isEqualTo(3);
    assertThat(q.receiptHandle()).isEqualTo("rh");
    Message foreign =
        Message.builder().messageId("id").receiptHandle("rh").body("not base64!").build();
    assertThat(SqsQueues.toQueueMessage(foreign).payload())
        .isEqualTo("not base64!".getBytes(StandardCharsets.UTF_8));
    assertThat(SqsQueues.toQueueMessage(foreign).deliveryCount()).isEqualTo(1);
  }

  @Test
  void urisSurviveTheTagRoundTrip() {
    for (String uri : new String[] {"a", "pages/\u00e9/\ud83d\ude00", "x".repeat(1000)}) {
      Map<String, String> tags = QueueNames.uriTags(uri);
      assertThat(tags.values())
          .allSatisfy(v -> assertThat(v).hasSizeLessThanOrEqualTo(256).matches("[A-Za-z0-9_-]*"));
      assertThat(QueueNames.uriFromTags(tags)).contains(uri);
    }
    assertThat(QueueNames.uriFromTags(Map.of("other", "x"))).isEmpty();
  }
}
