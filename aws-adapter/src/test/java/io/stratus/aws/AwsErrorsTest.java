package io.stratus.aws;

import static io.stratus.aws.Fakes.ec2Error;
import static io.stratus.aws.Fakes.s3Error;
import static io.stratus.aws.Fakes.sqsError;
import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.BadRequestException;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.ConflictException;
import io.stratus.cloudapi.NotFoundException;
import io.stratus.cloudapi.OutcomeUnknownException;
import io.stratus.cloudapi.PreconditionFailedException;
import io.stratus.cloudapi.RetryableException;
import io.stratus.cloudapi.ServiceUnavailableException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;

/** The mapping of every kind of SDK failure to the Cloud API's exception hierarchy. */
class AwsErrorsTest {
  private static CloudException write(Throwable t) {
    return AwsErrors.map(t, "put of a", true);
  }

  private static CloudException read(Throwable t) {
    return AwsErrors.map(t, "get of a", false);
  }

  @Test
  void preconditionAndConflict() {
    assertThat(write(s3Error(412, "PreconditionFailed")))
        .isInstanceOf(PreconditionFailedException.class)
        .hasMessageContaining("HTTP 412")
        .hasMessageContaining("req-1");
    CloudException conflict = write(s3Error(409, "ConditionalRequestConflict"));
    assertThat(conflict).isInstanceOf(ConflictException.class);
    assertThat(conflict.isRetryable()).isTrue();
    assertThat(write(s3Error(409, "OperationAborted"))).isInstanceOf(ConflictException.class);
  }

  @Test
  void throttlingAndUnavailableCarryRetryAfter() {
    ServiceUnavailableException slow =
        (ServiceUnavailableException) write(s3Error(503, "SlowDown", "7"));
    assertThat(slow.retryAfter()).contains(Duration.ofSeconds(7));
    assertThat(write(s3Error(503, "ServiceUnavailable")))
        .isInstanceOf(ServiceUnavailableException.class);
    assertThat(write(sqsError(400, "ThrottlingException")))
        .isInstanceOf(ServiceUnavailableException.class);
    assertThat(write(ec2Error(503, "RequestLimitExceeded")))
        .isInstanceOf(ServiceUnavailableException.class);
    assertThat(write(s3Error(429, "TooManyRequests")))
        .isInstanceOf(ServiceUnavailableException.class);
    ServiceUnavailableException dated =
        (ServiceUnavailableException) write(s3Error(503, "SlowDown", "Wed, 21 Oct 2026 07:28:00"));
    assertThat(dated.retryAfter()).isEmpty();
  }

  @Test
  void serverErrorsAreRetryableButAGatewayTimeoutLeavesAWriteOpen() {
    CloudException internal = write(s3Error(500, "InternalError"));
    assertThat(internal).isExactlyInstanceOf(RetryableException.class);
    assertThat(write(s3Error(504, "GatewayTimeout"))).isInstanceOf(OutcomeUnknownException.class);
    assertThat(read(s3Error(504, "GatewayTimeout"))).isExactlyInstanceOf(RetryableException.class);
    assertThat(write(s3Error(400, "RequestTimeout"))).isExactlyInstanceOf(RetryableException.class);
  }

  @Test
  void clientErrorsAreBadRequestsOrNotFound() {
    assertThat(write(s3Error(400, "InvalidArgument"))).isInstanceOf(BadRequestException.class);
    assertThat(write(s3Error(400, "KeyTooLongError"))).isInstanceOf(BadRequestException.class);
    assertThat(write(s3Error(404, "NoSuchBucket")))
        .isInstanceOf(NotFoundException.class)
        .hasMessageContaining("configured bucket");
    assertThat(write(sqsError(400, "AWS.SimpleQueueService.NonExistentQueue")))
        .isInstanceOf(NotFoundException.class);
    assertThat(write(sqsError(400, "QueueDoesNotExist"))).isInstanceOf(NotFoundException.class);
    assertThat(write(s3Error(301, "PermanentRedirect")))
        .isInstanceOf(BadRequestException.class)
        .hasMessageContaining("region");
    assertThat(write(s3Error(403, "RequestTimeTooSkewed"))).isInstanceOf(BadRequestException.class);
    ServiceUnavailableException recently =
        (ServiceUnavailableException) write(sqsError(400, "QueueDeletedRecently"));
    assertThat(recently.retryAfter()).contains(Duration.ofSeconds(60));
  }

  @Test
  void authenticationFailuresNameTheCauseNotTheCredentials() {
    for (String code :
        new String[] {
          "AccessDenied", "SignatureDoesNotMatch", "InvalidAccessKeyId", "ExpiredToken"
        }) {
      CloudException e = write(s3Error(403, code));
      assertThat(e)
          .isInstanceOf(BadRequestException.class)
          .hasMessageContaining("credentials")
          .hasMessageContaining("IAM")
          .hasMessageNotContaining("scripted");
    }
  }

  @Test
  void timeoutsLeaveWritesOpenAndReadsRetryable() {
    var attempt = ApiCallAttemptTimeoutException.create(1000);
    var call = ApiCallTimeoutException.create(5000);
    assertThat(write(attempt)).isInstanceOf(OutcomeUnknownException.class);
    assertThat(write(call)).isInstanceOf(OutcomeUnknownException.class);
    assertThat(read(attempt)).isExactlyInstanceOf(RetryableException.class);
    assertThat(read(call)).isExactlyInstanceOf(RetryableException.class);
  }

  @Test
  void failuresBeforeSendingHadNoEffect() {
    SdkClientException refused =
        SdkClientException.builder()
            .message("Unable to execute")
            .cause(new ConnectException("Connection refused"))
            .build();
    SdkClientException unknownHost =
        SdkClientException.builder()
            .message("Unable to execute")
            .cause(new UnknownHostException("bucket.s3.example"))
            .build();
    SdkClientException noCredentials =
        SdkClientException.builder()
            .message("Unable to load credentials from any provider")
            .build();
    SdkClientException noConnection =
        SdkClientException.builder()
            .message("Acquire operation took longer than the configured maximum time")
            .build();
    for (SdkClientException e :
        new SdkClientException[] {refused, unknownHost, noCredentials, noConnection}) {
      assertThat(write(e)).as(e.getMessage()).isInstanceOf(ServiceUnavailableException.class);
    }
  }

  @Test
  void brokenConnectionsAfterSendingLeaveWritesOpen() {
    SdkClientException reset =
        SdkClientException.builder()
            .message("Unable to execute")
            .cause(new IOException("Connection reset by peer"))
            .build();
    assertThat(write(reset)).isInstanceOf(OutcomeUnknownException.class);
    assertThat(read(reset)).isExactlyInstanceOf(RetryableException.class);
    assertThat(write(new IOException("Broken pipe"))).isInstanceOf(OutcomeUnknownException.class);
  }

  @Test
  void wrappersAreUnwrappedAndCloudExceptionsPassThrough() {
    PreconditionFailedException p = new PreconditionFailedException("mine");
    assertThat(write(new CompletionException(p))).isSameAs(p);
    assertThat(write(new CompletionException(s3Error(412, "PreconditionFailed"))))
        .isInstanceOf(PreconditionFailedException.class);
    assertThat(write(new IllegalStateException("bug"))).isInstanceOf(OutcomeUnknownException.class);
  }

  @Test
  void guardTurnsThrowsIntoFailedFutures() {
    CompletableFuture<Object> thrown =
        AwsErrors.guard(
            "x",
            true,
            () -> {
              throw new BadRequestException("bad");
            });
    assertThat(thrown).isCompletedExceptionally();
    CompletableFuture<Object> failed =
        AwsErrors.guard("x", true, () -> CompletableFuture.failedFuture(s3Error(500, "Internal")));
    assertThat(failed.handle((v, t) -> CloudFutures.unwrap(t)))
        .isCompletedWithValueMatching(t -> t instanceof RetryableException);
  }
}
