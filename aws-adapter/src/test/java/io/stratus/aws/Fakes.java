package io.stratus.aws;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.http.SdkHttpResponse;
import software.amazon.awssdk.services.ec2.Ec2AsyncClient;
import software.amazon.awssdk.services.ec2.model.DescribeInstancesRequest;
import software.amazon.awssdk.services.ec2.model.DescribeInstancesResponse;
import software.amazon.awssdk.services.ec2.model.Ec2Exception;
import software.amazon.awssdk.services.ec2.model.RunInstancesRequest;
import software.amazon.awssdk.services.ec2.model.RunInstancesResponse;
import software.amazon.awssdk.services.ec2.model.TerminateInstancesRequest;
import software.amazon.awssdk.services.ec2.model.TerminateInstancesResponse;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectResponse;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.sqs.SqsAsyncClient;
import software.amazon.awssdk.services.sqs.model.ChangeMessageVisibilityBatchRequest;
import software.amazon.awssdk.services.sqs.model.ChangeMessageVisibilityBatchResponse;
import software.amazon.awssdk.services.sqs.model.ChangeMessageVisibilityRequest;
import software.amazon.awssdk.services.sqs.model.ChangeMessageVisibilityResponse;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequest;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchResponse;
import software.amazon.awssdk.services.sqs.model.GetQueueAttributesRequest;
import software.amazon.awssdk.services.sqs.model.GetQueueAttributesResponse;
import software.amazon.awssdk.services.sqs.model.GetQueueUrlRequest;
import software.amazon.awssdk.services.sqs.model.GetQueueUrlResponse;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequest;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchResponse;
import software.amazon.awssdk.services.sqs.model.SendMessageRequest;
import software.amazon.awssdk.services.sqs.model.SendMessageResponse;
import software.amazon.awssdk.services.sqs.model.SqsException;

/**
 * Scripted stand-ins for the SDK's async clients (they are interfaces), so that the request
 * mapping and the error mapping can be checked without a service: each fake records the requests
 * it gets and answers them with a function the test supplies.
 */
final class Fakes {
  private Fakes() {}

  /** A service error as the SDK raises it, with an optional Retry-After header. */
  static AwsServiceException s3Error(int status, String code, String retryAfter) {
    return S3Exception.builder()
        .statusCode(status)
        .requestId("req-1")
        .awsErrorDetails(details(status, code, retryAfter))
        .build();
  }

  static AwsServiceException s3Error(int status, String code) {
    return s3Error(status, code, null);
  }

  static AwsServiceException sqsError(int status, String code) {
    return SqsException.builder()
        .statusCode(status)
        .requestId("req-2")
        .awsErrorDetails(details(status, code, null))
        .build();
  }

  /** An SQS error with the message SQS sends (some answers differ only in it). */
  static AwsServiceException sqsError(int status, String code, String message) {
    return SqsException.builder()
        .statusCode(status)
        .requestId("req-2")
        .awsErrorDetails(
            AwsErrorDetails.builder()
                .errorCode(code)
                .errorMessage(message)
                .serviceName("fake")
                .sdkHttpResponse(SdkHttpResponse.builder().statusCode(status).build())
                .build())
        .build();
  }

  static AwsServiceException ec2Error(int status, String code) {
    return Ec2Exception.builder()
        .statusCode(status)
        .requestId("req-3")
        .awsErrorDetails(details(status, code, null))
        .build();
  }

  private static AwsErrorDetails details(int status, String code, String retryAfter) {
    SdkHttpResponse.Builder http = SdkHttpResponse.builder().statusCode(status);
    if (retryAfter != null) {
      http.putHeader("Retry-After", retryAfter);
    }
    return AwsErrorDetails.builder()
        .errorCode(code)
        .errorMessage("scripted " + code)
        .serviceName("fake")
        .sdkHttpResponse(http.build())
        .build();
  }

  /** A fake whose every call goes through {@link #answer}. */
  abstract static class Scripted {
    final List<Object> requests = new ArrayList<>();
    Function<Object, Object> answer =
        r -> {
          throw new UnsupportedOperationException("no answer scripted for " + r);
        };

    /** The answer to {@code request}: a value, or a Throwable to fail the future with. */
    @SuppressWarnings("unchecked")
    synchronized <T> CompletableFuture<T> respond(Object request) {
      requests.add(request);
      Object a;
      try {
        a = answer.apply(request);
      } catch (RuntimeException e) {
        return CompletableFuture.failedFuture(e);
      }
      return a instanceof Throwable
          ? CompletableFuture.failedFuture((Throwable) a)
          : CompletableFuture.completedFuture((T) a);
    }

    public String serviceName() {
      return "fake";
    }

    public void close() {}
  }

  static final class S3 extends Scripted implements S3AsyncClient {
    @Override
    public CompletableFuture<PutObjectResponse> putObject(
        PutObjectRequest r, AsyncRequestBody body) {
      return respond(r);
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> CompletableFuture<T> getObject(
        GetObjectRequest r, AsyncResponseTransformer<GetObjectResponse, T> t) {
      return respond(r).thenApply(x -> (T) x);
    }

    @Override
    public CompletableFuture<HeadObjectResponse> headObject(HeadObjectRequest r) {
      return respond(r);
    }

    @Override
    public CompletableFuture<ListObjectsV2Response> listObjectsV2(ListObjectsV2Request r) {
      return respond(r);
    }

    @Override
    public CompletableFuture<DeleteObjectResponse> deleteObject(DeleteObjectRequest r) {
      return respond(r);
    }

    static ResponseBytes<GetObjectResponse> object(GetObjectResponse r, byte[] bytes) {
      return ResponseBytes.fromByteArray(r, bytes);
    }
  }

  static final class Sqs extends Scripted implements SqsAsyncClient {
    @Override
    public CompletableFuture<GetQueueUrlResponse> getQueueUrl(GetQueueUrlRequest r) {
      return respond(r);
    }

    @Override
    public CompletableFuture<GetQueueAttributesResponse> getQueueAttributes(
        GetQueueAttributesRequest r) {
      return respond(r);
    }

    @Override
    public CompletableFuture<SendMessageResponse> sendMessage(SendMessageRequest r) {
      return respond(r);
    }

    @Override
    public CompletableFuture<SendMessageBatchResponse> sendMessageBatch(SendMessageBatchRequest r) {
      return respond(r);
    }

    @Override
    public CompletableFuture<DeleteMessageBatchResponse> deleteMessageBatch(
        DeleteMessageBatchRequest r) {
      return respond(r);
    }

    @Override
    public CompletableFuture<ChangeMessageVisibilityResponse> changeMessageVisibility(
        ChangeMessageVisibilityRequest r) {
      return respond(r);
    }

    @Override
    public CompletableFuture<ChangeMessageVisibilityBatchResponse> changeMessageVisibilityBatch(
        ChangeMessageVisibilityBatchRequest r) {
      return respond(r);
    }
  }

  static final class Ec2 extends Scripted implements Ec2AsyncClient {
    @Override
    public CompletableFuture<RunInstancesResponse> runInstances(RunInstancesRequest r) {
      return respond(r);
    }

    @Override
    public CompletableFuture<TerminateInstancesResponse> terminateInstances(
        TerminateInstancesRequest r) {
      return respond(r);
    }

    @Override
    public CompletableFuture<DescribeInstancesResponse> describeInstances(
        DescribeInstancesRequest r) {
      return respond(r);
    }
  }
}
