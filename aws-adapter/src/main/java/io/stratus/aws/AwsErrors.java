package io.stratus.aws;

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
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;

/**
 * Turns what the AWS SDK fails with into the Cloud API's {@link CloudException} hierarchy, so that
 * callers learn the one thing they need: may I repeat this call, must I find out what happened, or
 * is my request wrong.
 *
 * <p>Why the rules are as they are:
 *
 * <ul>
 *   <li>412 is {@link PreconditionFailedException}; 409 (S3's ConditionalRequestConflict,
 *       OperationAborted) is {@link ConflictException}: a lost race without effect.
 *   <li>Throttling (429, SlowDown, Throttling...) and 503 are {@link ServiceUnavailableException},
 *       with the server's Retry-After when it sent one; other 5xx are {@link RetryableException}:
 *       AWS documents them as failed requests. 504 is the exception: a gateway timed out waiting
 *       for the service, which may have acted, so a mutating call gets {@link
 *       OutcomeUnknownException}.
 *   <li>A client-side failure before the request left (no connection, unknown host, no
 *       credentials, no pooled connection in time) had no effect: {@link
 *       ServiceUnavailableException}. A time-out or broken connection after sending leaves the
 *       outcome open: {@link OutcomeUnknownException} for a mutating call; for a read it is simply
 *       retryable, since a read has no effect to be unsure about.
 *   <li>NoSuchBucket is {@link NotFoundException} naming the configured bucket: a configuration
 *       error that no retry cures. A queue that does not exist is {@link NotFoundException}, as
 *       the contract says. 401/403 name the likely cause (credentials or IAM) without
 *       repeating any credential. Other 4xx are {@link BadRequestException}.
 * </ul>
 *
 * <p>"No effect" is about the last attempt: the SDK repeats failed attempts itself ({@link
 * AwsConfig#maxAttempts()}), which is safe because every call it repeats is idempotent or harmless
 * to repeat (a duplicate SQS message is allowed); conditional puts go through a client that never
 * repeats, so that a lost reply cannot turn a success into a 412.
 *
 * <p>Messages name the operation, the HTTP status, AWS's error code and message and the request
 * id, never credentials or payloads.
 */
final class AwsErrors {
  private static final Set<String> THROTTLING =
      Set.of(
          "Throttling",
          "ThrottlingException",
          "ThrottledException",
          "RequestThrottled",
          "RequestThrottledException",
          "SlowDown",
          "TooManyRequestsException",
          "RequestLimitExceeded",
          "ProvisionedThroughputExceededException",
          "BandwidthLimitExceeded",
          "EC2ThrottledException",
          "PriorRequestNotComplete",
          "AWS.SimpleQueueService.RequestThrottled",
          "KMS.ThrottlingException");
  private static final Set<String> AUTH =
      Set.of(
          "AccessDenied",
          "AccessDeniedException",
          "InvalidAccessKeyId",
          "SignatureDoesNotMatch",
          "InvalidClientTokenId",
          "ExpiredToken",
          "ExpiredTokenException",
          "UnrecognizedClientException",
          "AuthFailure",
          "UnauthorizedOperation",
          "InvalidToken",
          "MissingAuthenticationToken",
          "IncompleteSignature",
          "InvalidSecurity",
          "KMS.AccessDeniedException");

  private AwsErrors() {}

  /**
   * Runs {@code call} and maps its failure, whether thrown or in the future, through {@link #map}:
   * the returned future fails only with {@link CloudException}s.
   */
  static <T> CompletableFuture<T> guard(
      String what, boolean mutating, Supplier<CompletableFuture<T>> call) {
    CompletableFuture<T> f;
    try {
      f = call.get();
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(map(e, what, mutating));
    }
    return f.handle(
            (v, t) ->
                t == null
                    ? CompletableFuture.completedFuture(v)
                    : CompletableFuture.<T>failedFuture(map(t, what, mutating)))
        .thenCompose(x -> x);
  }

  /**
   * Lets {@code onFailure} turn some failures into results (a 404 into "absent", a 304 into "not
   * modified"); it returns null for the failures it does not handle, which are then {@link #map
   * mapped}.
   */
  static <T> CompletableFuture<T> recover(
      CompletableFuture<T> f,
      String what,
      boolean mutating,
      BiFunction<Throwable, AwsServiceException, T> onFailure) {
    return f.handle(
            (v, t) -> {
              if (t == null) {
                return CompletableFuture.completedFuture(v);
              }
              Throwable c = CloudFutures.unwrap(t);
              if (c instanceof AwsServiceException) {
                T r = onFailure.apply(c, (AwsServiceException) c);
                if (r != null) {
                  return CompletableFuture.completedFuture(r);
                }
              }
              return CompletableFuture.<T>failedFuture(map(c, what, mutating));
            })
        .thenCompose(x -> x);
  }

  /**
   * The {@link CloudException} for a failure of {@code what} (an operation and its target, for the
   * message); {@code mutating} says whether the call could change state.
   */
  static CloudException map(Throwable failure, String what, boolean mutating) {
    Throwable t = CloudFutures.unwrap(failure);
    if (t instanceof CloudException) {
      return (CloudException) t;
    }
    if (t instanceof AwsServiceException) {
      return mapService((AwsServiceException) t, what, mutating);
    }
    if (t instanceof ApiCallAttemptTimeoutException || t instanceof ApiCallTimeoutException) {
      return unknownOrRetryable(what + " timed out", t, mutating);
    }
    if (t instanceof SdkClientException) {
      if (failedBeforeSending(t)) {
        return new ServiceUnavailableException(what + " could not be sent: " + brief(t), null, t);
      }
      return unknownOrRetryable(what + " failed in transit: " + brief(t), t, mutating);
    }
    if (t instanceof IOException) {
      return unknownOrRetryable(what + " failed in transit: " + brief(t), t, mutating);
    }
    return new OutcomeUnknownException(what + " failed unexpectedly: " + brief(t), t);
  }

  /** The error code of a service exception, or "" when the service sent none. */
  static String errorCode(AwsServiceException e) {
    return e.awsErrorDetails() == null || e.awsErrorDetails().errorCode() == null
        ? ""
        : e.awsErrorDetails().errorCode();
  }

  private static CloudException mapService(AwsServiceException e, String what, boolean mutating) {
    int status = e.statusCode();
    String code = errorCode(e);
    String msg = what + " failed: " + describe(e);
    if (status == 412) {
      return new PreconditionFailedException(msg, e);
    }
    if (status == 409) {
      return new ConflictException(msg, e);
    }
    if (status == 429 || THROTTLING.contains(code) || e.isThrottlingException()) {
      return new ServiceUnavailableException(msg, retryAfter(e).orElse(null), e);
    }
    if (status == 503) {
      return new ServiceUnavailableException(msg, retryAfter(e).orElse(null), e);
    }
    if (status == 504) {
      return unknownOrRetryable(msg, e, mutating);
    }
    if (status >= 500) {
      return new RetryableException(msg, e);
    }
    if ("RequestTimeout".equals(code)) {
      // S3's 400 RequestTimeout: it gave up waiting for the request body, so nothing happened.
      return new RetryableException(msg, e);
    }
    if ("QueueDeletedRecently".equals(code)
        || "AWS.SimpleQueueService.QueueDeletedRecently".equals(code)) {
      return new ServiceUnavailableException(
          msg + " (SQS refuses to re-create a queue for 60 s after deleting it)",
          Duration.ofSeconds(60),
          e);
    }
    if ("AWS.SimpleQueueService.NonExistentQueue".equals(code)
        || "QueueDoesNotExist".equals(code)) {
      return new NotFoundException(what + " failed: the queue does not exist");
    }
    if ("NoSuchBucket".equals(code)) {
      return new NotFoundException(
          what
              + " failed: the configured bucket does not exist (check AwsConfig.bucket and"
              + " region; request id "
              + e.requestId()
              + ")");
    }
    if (status == 401 || status == 403 || AUTH.contains(code)) {
      return new BadRequestException(
          what
              + " was refused (HTTP "
              + status
              + " "
              + code
              + "): check the credentials and the"
              + " IAM permissions listed in the aws-adapter README (request id "
              + e.requestId()
              + ")",
          e);
    }
    if ("RequestTimeTooSkewed".equals(code) || "SignatureExpired".equals(code)) {
      return new BadRequestException(msg + " (this machine's clock is off)", e);
    }
    if (status == 301
        || "PermanentRedirect".equals(code)
        || "AuthorizationHeaderMalformed".equals(code)) {
      return new BadRequestException(msg + " (is AwsConfig.region the bucket's region?)", e);
    }
    if (status == 404) {
      return new NotFoundException(msg);
    }
    return new BadRequestException(msg, e);
  }

  private static CloudException unknownOrRetryable(String msg, Throwable t, boolean mutating) {
    return mutating
        ? new OutcomeUnknownException(msg + " (it may or may not have taken effect)", t)
        : new RetryableException(msg, t);
  }

  /**
   * Whether the SDK failed before any byte of the request left: no connection could be opened or
   * taken from the pool, the host is unknown, or there were no credentials to sign with.
   */
  static boolean failedBeforeSending(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c instanceof ConnectException
          || c instanceof UnknownHostException
          || c instanceof NoRouteToHostException) {
        return true;
      }
      String m = c.getMessage() == null ? "" : c.getMessage();
      if (m.contains("Unable to load credentials")
          || m.contains("Acquire operation took longer")
          || m.contains("Unable to load region")
          || m.contains("Connection refused")) {
        return true;
      }
    }
    return false;
  }

  private static Optional<Duration> retryAfter(AwsServiceException e) {
    if (e.awsErrorDetails() == null || e.awsErrorDetails().sdkHttpResponse() == null) {
      return Optional.empty();
    }
    return e.awsErrorDetails()
        .sdkHttpResponse()
        .firstMatchingHeader("Retry-After")
        .flatMap(
            v -> {
              try {
                long s = Long.parseLong(v.trim());
                return s > 0 ? Optional.of(Duration.ofSeconds(s)) : Optional.empty();
              } catch (NumberFormatException ex) {
                return Optional.empty(); // an HTTP date: ignore it, back off as usual
              }
            });
  }

  /** "HTTP 412 PreconditionFailed: message (request id X)". */
  static String describe(AwsServiceException e) {
    String code = errorCode(e);
    String message =
        e.awsErrorDetails() == null || e.awsErrorDetails().errorMessage() == null
            ? ""
            : ": " + e.awsErrorDetails().errorMessage();
    return "HTTP "
        + e.statusCode()
        + (code.isEmpty() ? "" : " " + code)
        + message
        + (e.requestId() == null ? "" : " (request id " + e.requestId() + ")");
  }

  private static String brief(Throwable t) {
    String m = t.getMessage();
    return t.getClass().getSimpleName() + (m == null ? "" : ": " + m);
  }
}
