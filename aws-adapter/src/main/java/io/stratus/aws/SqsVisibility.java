package io.stratus.aws;

import io.stratus.cloudapi.BadRequestException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.CloudLimits;
import io.stratus.cloudapi.LimitExceededException;
import io.stratus.cloudapi.RetryableException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.services.sqs.SqsAsyncClient;
import software.amazon.awssdk.services.sqs.model.BatchResultErrorEntry;
import software.amazon.awssdk.services.sqs.model.ChangeMessageVisibilityBatchRequestEntry;

/**
 * {@link SqsQueues}' visibility changes: ChangeMessageVisibility and ChangeMessageVisibilityBatch
 * on a resolved queue URL, with SQS's answers mapped to what {@link
 * io.stratus.cloudapi.SupportsVisibilityChange} promises.
 *
 * <p>Why the mapping is as it is: SQS refuses a change through the handle of a message that is
 * gone or no longer in flight (InvalidParameterValue "Message does not exist or is not available
 * for visibility timeout change", or MessageNotInflight); the contract calls that a success that
 * changes nothing, since the message is receivable anyway or never will be again. A refusal that
 * names the visibility timeout can only be SQS's rule that a hold ends at most 12 hours after its
 * receive (the timeout itself is checked before sending): {@link LimitExceededException}. A
 * malformed handle (ReceiptHandleIsInvalid) stays a {@link BadRequestException}. LocalStack spells
 * the first code InvalidParameterValueException; both spellings are recognised, with and without
 * the "AWS.SimpleQueueService." prefix of query-compatible errors.
 *
 * <p>Timeouts go out in whole seconds, rounded up as receives round them: a message is held a
 * little longer, never shorter; zero stays zero.
 */
final class SqsVisibility {
  private static final Set<String> NOT_IN_FLIGHT =
      Set.of("MessageNotInflight", "AWS.SimpleQueueService.MessageNotInflight");
  private static final Set<String> INVALID_PARAMETER =
      Set.of(
          "InvalidParameterValue",
          "InvalidParameterValueException",
          "AWS.SimpleQueueService.InvalidParameterValue");

  private SqsVisibility() {}

  /** Whole seconds for SQS, rounded up. */
  static int seconds(Duration timeout) {
    return (int) ((timeout.toMillis() + 999) / 1000);
  }

  /** One change; completes normally when SQS made it or the message was gone or not held. */
  static CompletableFuture<Void> change(
      SqsAsyncClient sqs, String url, String handle, Duration timeout) {
    int seconds = seconds(timeout);
    return sqs.changeMessageVisibility(
            b -> b.queueUrl(url).receiptHandle(handle).visibilityTimeout(seconds))
        .handle(
            (r, t) -> {
              if (t == null) {
                return null;
              }
              Throwable c = CloudFutures.unwrap(t);
              if (c instanceof AwsServiceException e) {
                String code = AwsErrors.errorCode(e);
                String message = message(e);
                if (isGone(code, message)) {
                  return null;
                }
                if (isBeyondLimit(code, message)) {
                  throw limit(seconds, AwsErrors.describe(e));
                }
              }
              throw c instanceof RuntimeException re ? re : new CompletionException(c);
            });
  }

  /**
   * Changes in one request; entries that fail for a server-side reason are sent again, up to
   * {@link SqsQueues#ENTRY_RETRIES} rounds. Entries SQS refuses as gone or not held count as done;
   * any other refusal fails the call after the other entries were changed (each change is
   * harmless to repeat).
   */
  static CompletableFuture<Void> changeBatch(
      SqsAsyncClient sqs, String url, List<String> handles, Duration timeout) {
    Map<String, String> entries = new HashMap<>();
    for (int i = 0; i < handles.size(); i++) {
      entries.put(Integer.toString(i), handles.get(i));
    }
    return changeEntries(sqs, url, entries, seconds(timeout), 0);
  }

  private static CompletableFuture<Void> changeEntries(
      SqsAsyncClient sqs, String url, Map<String, String> entries, int seconds, int round) {
    List<ChangeMessageVisibilityBatchRequestEntry> request = new ArrayList<>();
    entries.forEach(
        (id, h) ->
            request.add(
                ChangeMessageVisibilityBatchRequestEntry.builder()
                    .id(id)
                    .receiptHandle(h)
                    .visibilityTimeout(seconds)
                    .build()));
    return sqs.changeMessageVisibilityBatch(b -> b.queueUrl(url).entries(request))
        .thenCompose(
            r -> {
              Map<String, String> again = new HashMap<>();
              List<String> permanent = new ArrayList<>();
              boolean serverSide = false;
              boolean beyondLimit = false;
              for (BatchResultErrorEntry f : r.failed()) {
                if (isGone(f.code(), f.message())) {
                  continue;
                }
                if (isBeyondLimit(f.code(), f.message())) {
                  beyondLimit = true;
                } else if (SqsQueues.isRetryableEntry(f.senderFault(), f.code())) {
                  if (round < SqsQueues.ENTRY_RETRIES) {
                    again.put(f.id(), entries.get(f.id()));
                    continue;
                  }
                  serverSide = true;
                }
                permanent.add("entry " + f.id() + ": " + f.code() + " " + f.message());
              }
              if (!permanent.isEmpty()) {
                String msg = "SQS change visibility batch: " + String.join("; ", permanent);
                if (beyondLimit) {
                  throw limit(seconds, msg);
                }
                throw serverSide ? new RetryableException(msg) : new BadRequestException(msg);
              }
              return again.isEmpty()
                  ? CompletableFuture.completedFuture(null)
                  : afterBackOff(round)
                      .thenCompose(v -> changeEntries(sqs, url, again, seconds, round + 1));
            });
  }

  /** SQS's answer for a handle whose message is deleted, expired or not in flight. */
  static boolean isGone(String code, @Nullable String message) {
    if (NOT_IN_FLIGHT.contains(code)) {
      return true;
    }
    return INVALID_PARAMETER.contains(code)
        && message != null
        && message.contains("does not exist or is not available");
  }

  /** SQS's answer for a hold that would end more than 12 hours after its receive. */
  static boolean isBeyondLimit(String code, @Nullable String message) {
    return INVALID_PARAMETER.contains(code)
        && message != null
        && message.contains("VisibilityTimeout")
        && !isGone(code, message);
  }

  private static LimitExceededException limit(int seconds, String detail) {
    return new LimitExceededException(
        "visibility timeout in seconds (it would hold the message beyond 12 hours after its"
            + " receive: "
            + detail
            + ")",
        seconds,
        CloudLimits.DEFAULT_MAX_VISIBILITY_TIMEOUT.toSeconds());
  }

  private static @Nullable String message(AwsServiceException e) {
    return e.awsErrorDetails() == null ? e.getMessage() : e.awsErrorDetails().errorMessage();
  }

  private static CompletableFuture<Void> afterBackOff(int round) {
    long ms = 50L << round;
    return CompletableFuture.runAsync(
        () -> {}, CompletableFuture.delayedExecutor(ms, TimeUnit.MILLISECONDS));
  }
}
