package io.stratus.aws;

import static io.stratus.aws.Fakes.sqsError;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.cloudapi.BadRequestException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.LimitExceededException;
import io.stratus.cloudapi.RetryableException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.BatchResultErrorEntry;
import software.amazon.awssdk.services.sqs.model.ChangeMessageVisibilityBatchRequest;
import software.amazon.awssdk.services.sqs.model.ChangeMessageVisibilityBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.ChangeMessageVisibilityBatchResponse;
import software.amazon.awssdk.services.sqs.model.ChangeMessageVisibilityRequest;
import software.amazon.awssdk.services.sqs.model.ChangeMessageVisibilityResponse;
import software.amazon.awssdk.services.sqs.model.GetQueueAttributesRequest;
import software.amazon.awssdk.services.sqs.model.GetQueueAttributesResponse;
import software.amazon.awssdk.services.sqs.model.GetQueueUrlRequest;
import software.amazon.awssdk.services.sqs.model.GetQueueUrlResponse;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * SqsQueues' visibility changes against a scripted SQS: SQS's refusals for a message that is gone
 * or not held are successes, its refusal of a hold beyond 12 hours is a limit, a bad handle a bad
 * request, and batch entries that failed on the server are sent again.
 */
class SqsVisibilityMappingTest {
  private static final String URL = "http://sqs.local/000000000000/q";
  private static final String GONE =
      "Value h for parameter ReceiptHandle is invalid. Reason: Message does not exist or is not"
          + " available for visibility timeout change.";
  private final Fakes.Sqs sqs = new Fakes.Sqs();
  private final SqsQueues queues =
      new SqsQueues(sqs, AwsConfig.builder("bucket-x").sqsMaximumMessageSize(1024).build());

  private static <T> T await(CompletableFuture<T> f) {
    return CloudFutures.await(f);
  }

  /** Answers queue look-ups, and {@code other} for everything else. */
  private void script(Function<Object, Object> other) {
    sqs.answer =
        r -> {
          if (r instanceof GetQueueUrlRequest) {
            return GetQueueUrlResponse.builder().queueUrl(URL).build();
          }
          if (r instanceof GetQueueAttributesRequest) {
            return GetQueueAttributesResponse.builder()
                .attributes(Map.of(QueueAttributeName.MAXIMUM_MESSAGE_SIZE, "1024"))
                .build();
          }
          return other.apply(r);
        };
  }

  private <T> List<T> requests(Class<T> type) {
    List<T> out = new ArrayList<>();
    sqs.requests.stream().filter(type::isInstance).forEach(r -> out.add(type.cast(r)));
    return out;
  }

  @Test
  void aChangeGoesOutInWholeSecondsRoundedUp() {
    script(r -> ChangeMessageVisibilityResponse.builder().build());
    await(queues.changeVisibility("q", "h", Duration.ofMillis(1500)));
    await(queues.changeVisibility("q", "h", Duration.ZERO));
    List<ChangeMessageVisibilityRequest> sent = requests(ChangeMessageVisibilityRequest.class);
    assertThat(sent)
        .extracting(ChangeMessageVisibilityRequest::visibilityTimeout)
        .containsExactly(2, 0);
    assertThat(sent.get(0).queueUrl()).isEqualTo(URL);
    assertThat(sent.get(0).receiptHandle()).isEqualTo("h");
  }

  @Test
  void aHandleOfAMessageGoneOrNotHeldChangesNothingAndSucceeds() {
    for (Object answer :
        List.of(
            sqsError(400, "InvalidParameterValue", GONE),
            sqsError(400, "InvalidParameterValueException", GONE),
            sqsError(400, "AWS.SimpleQueueService.MessageNotInflight", "not in flight"),
            sqsError(400, "MessageNotInflight", "not in flight"))) {
      script(r -> answer);
      await(queues.changeVisibility("q", "h", Duration.ZERO));
    }
  }

  @Test
  void otherRefusalsAreLimitsOrBadRequests() {
    script(
        r ->
            sqsError(
                400,
                "InvalidParameterValue",
                "Value 43200 for parameter VisibilityTimeout is invalid. Reason: Total"
                    + " VisibilityTimeout for the message is beyond the limit [43200 seconds]"));
    assertThatThrownBy(() -> await(queues.changeVisibility("q", "h", Duration.ofHours(12))))
        .isInstanceOf(LimitExceededException.class);
    script(r -> sqsError(400, "ReceiptHandleIsInvalid", "bad handle"));
    assertThatThrownBy(() -> await(queues.changeVisibility("q", "h", Duration.ZERO)))
        .isInstanceOf(BadRequestException.class)
        .isNotInstanceOf(LimitExceededException.class);
    script(r -> sqsError(500, "InternalError", "oops"));
    assertThatThrownBy(() -> await(queues.changeVisibility("q", "h", Duration.ZERO)))
        .isInstanceOf(RetryableException.class);
  }

  @Test
  void batchEntriesGoneAreDoneAndServerFailuresAreSentAgain() {
    AtomicInteger calls = new AtomicInteger();
    script(
        r -> {
          ChangeMessageVisibilityBatchRequest b = (ChangeMessageVisibilityBatchRequest) r;
          if (calls.getAndIncrement() > 0) {
            return ChangeMessageVisibilityBatchResponse.builder().build();
          }
          return ChangeMessageVisibilityBatchResponse.builder()
              .failed(
                  entry(b, "h0", "InvalidParameterValueException", GONE),
                  entry(b, "h1", "InternalError", "try again"))
              .build();
        });
    await(queues.changeVisibilityBatch("q", List.of("h0", "h1", "h2"), Duration.ofSeconds(5)));
    List<ChangeMessageVisibilityBatchRequest> sent =
        requests(ChangeMessageVisibilityBatchRequest.class);
    assertThat(sent).hasSize(2);
    assertThat(sent.get(0).entries())
        .extracting(ChangeMessageVisibilityBatchRequestEntry::visibilityTimeout)
        .containsOnly(5);
    assertThat(sent.get(1).entries())
        .extracting(ChangeMessageVisibilityBatchRequestEntry::receiptHandle)
        .containsExactly("h1");
  }

  @Test
  void aBatchEntryRefusedForItsHandleFailsTheCallAfterTheOthers() {
    script(
        r ->
            ChangeMessageVisibilityBatchResponse.builder()
                .failed(
                    entry(
                        (ChangeMessageVisibilityBatchRequest) r,
                        "h1",
                        "ReceiptHandleIsInvalid",
                        "bad"))
                .build());
    assertThatThrownBy(
            () -> await(queues.changeVisibilityBatch("q", List.of("h0", "h1"), Duration.ZERO)))
        .isInstanceOf(BadRequestException.class)
        .hasMessageContaining("ReceiptHandleIsInvalid");
    assertThat(requests(ChangeMessageVisibilityBatchRequest.class)).hasSize(1);
  }

  @Test
  void malformedCallsAreRefusedBeforeAnyRequest() {
    script(r -> ChangeMessageVisibilityResponse.builder().build());
    assertThatThrownBy(() -> await(queues.changeVisibility("q", "", Duration.ZERO)))
        .isInstanceOf(BadRequestException.class);
    assertThatThrownBy(() -> await(queues.changeVisibility("q", "h", Duration.ofHours(13))))
        .isInstanceOf(LimitExceededException.class);
    assertThatThrownBy(() -> await(queues.changeVisibilityBatch("q", List.of(), Duration.ZERO)))
        .isInstanceOf(BadRequestException.class);
    assertThat(sqs.requests).isEmpty();
  }

  private static BatchResultErrorEntry entry(
      ChangeMessageVisibilityBatchRequest r, String handle, String code, String message) {
    String id =
        r.entries().stream()
            .filter(e -> e.receiptHandle().equals(handle))
            .findFirst()
            .orElseThrow()
            .id();
    return BatchResultErrorEntry.builder()
        .id(id)
        .senderFault(false)
        .code(code)
        .message(message)
        .build();
  }
}
