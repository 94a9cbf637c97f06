package io.stratus.aws;

import static io.stratus.aws.Fakes.s3Error;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.ConditionalRead;
import io.stratus.cloudapi.ConflictException;
import io.stratus.cloudapi.ItemVersion;
import io.stratus.cloudapi.LimitExceededException;
import io.stratus.cloudapi.NotFoundException;
import io.stratus.cloudapi.OutcomeUnknownException;
import io.stratus.cloudapi.PreconditionFailedException;
import io.stratus.cloudapi.RetryableException;
import io.stratus.cloudapi.StoredItem;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.http.SdkHttpResponse;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * S3Storage's requests and its reading of S3's answers, against a scripted client: keys, ETag
 * quoting, conditional headers, 304/404/409/412, time-outs, and which client a call goes through.
 */
class S3StorageMappingTest {
  private final Fakes.S3 s3 = new Fakes.S3();
  private final Fakes.S3 once = new Fakes.S3();
  private final Clock clock =
      Clock.fixed(Instant.parse("2026-05-01T10:00:00.700Z"), ZoneOffset.UTC);
  private final S3Storage storage = new S3Storage(s3, once, "bucket", "db/", clock);

  private static <T> T await(java.util.concurrent.CompletableFuture<T> f) {
    return CloudFutures.await(f);
  }

  private static PutObjectResponse putReply(String etag, String date) {
    PutObjectResponse.Builder b = PutObjectResponse.builder().eTag(etag);
    SdkHttpResponse.Builder http = SdkHttpResponse.builder().statusCode(200);
    if (date != null) {
      http.putHeader("Date", date);
    }
    b.sdkHttpResponse(http.build());
    return b.build();
  }

  @Test
  void putsGoToPrefixPlusUriAndReportTheUnquotedEtagAndS3sDate() {
    s3.answer = r -> putReply("\"abc\"", "Fri, 01 May 2026 09:59:59 GMT");
    ItemVersion v =
        await(storage.put("page/1", "x".getBytes(StandardCharsets.UTF_8), Map.of("Lsn", "7")));
    assertThat(v.version()).isEqualTo("abc");
    assertThat(v.lastModified()).isEqualTo(Instant.parse("2026-05-01T09:59:59Z"));
    PutObjectRequest r = (PutObjectRequest) s3.requests.get(0);
    assertThat(r.bucket()).isEqualTo("bucket");
    assertThat(r.key()).isEqualTo("db/page/1");
    assertThat(r.metadata()).containsEntry(S3Metadata.encodeKey("Lsn"), "7");
    assertThat(r.ifMatch()).isNull();
    assertThat(once.requests).isEmpty();
  }

  @Test
  void withoutADateHeaderThePutTimeIsTheLocalClockInWholeSeconds() {
    s3.answer = r -> putReply("\"abc\"", null);
    assertThat(await(storage.put("a", new byte[0], Map.of())).lastModified())
        .isEqualTo(Instant.parse("2026-05-01T10:00:00Z"));
  }

  @Test
  void conditionalPutsQuoteTheVersionAndUseTheClientThatNeverRetries() {
    once.answer = r -> putReply("\"new\"", null);
    await(storage.putIfAbsent("a", new byte[1], Map.of()));
    await(storage.putIfVersionMatches("a", new byte[1], Map.of(), "old"));
    assertThat(s3.requests).isEmpty();
    assertThat(((PutObjectRequest) once.requests.get(0)).ifNoneMatch()).isEqualTo("*");
    assertThat(((PutObjectRequest) once.requests.get(1)).ifMatch()).isEqualTo("\"old\"");
  }

  @Test
  void conditionalPutFailuresMapToTheContractsTypes() {
    once.answer = r -> s3Error(412, "PreconditionFailed");
    assertThatThrownBy(() -> await(storage.putIfAbsent("a", new byte[1], Map.of())))
        .isInstanceOf(PreconditionFailedException.class);
    once.answer = r -> s3Error(409, "ConditionalRequestConflict");
    assertThatThrownBy(() -> await(storage.putIfVersionMatches("a", new byte[1], Map.of(), "v")))
        .isInstanceOf(ConflictException.class);
    once.answer = r -> s3Error(404, "NoSuchKey");
    assertThatThrownBy(() -> await(storage.putIfVersionMatches("a", new byte[1], Map.of(), "v")))
        .isInstanceOf(PreconditionFailedException.class);
    once.answer = r -> s3Error(404, "NoSuchBucket");
    assertThatThrownBy(() -> await(storage.putIfVersionMatches("a", new byte[1], Map.of(), "v")))
        .isInstanceOf(NotFoundException.class);
    once.answer = r -> ApiCallAttemptTimeoutException.create(100);
    assertThatThrownBy(() -> await(storage.putIfAbsent("a", new byte[1], Map.of())))
        .isInstanceOf(OutcomeUnknownException.class);
  }

  @Test
  void aVersionThatCannotBeAnEtagFailsWithoutARequest() {
    assertThatThrownBy(
            () -> await(storage.putIfVersionMatches("a", new byte[1], Map.of(), "has\"quote")))
        .isInstanceOf(PreconditionFailedException.class);
    assertThat(once.requests).isEmpty();
  }

  @Test
  void conditionalGetsAnswer304AsNotModifiedAnd404AsAbsent() {
    s3.answer = r -> s3Error(304, "NotModified");
    assertThat(await(storage.getIfChanged("a", "v1")).status())
        .isEqualTo(ConditionalRead.Status.NOT_MODIFIED);
    assertThat(((GetObjectRequest) s3.requests.get(0)).ifNoneMatch()).isEqualTo("\"v1\"");
    assertThat(
            await(storage.getIfModifiedSince("a", Instant.parse("2026-01-01T00:00:00.900Z")))
                .status())
        .isEqualTo(ConditionalRead.Status.NOT_MODIFIED);
    // HTTP dates have whole seconds: truncated down, so no change can hide in the fraction.
    assertThat(((GetObjectRequest) s3.requests.get(1)).ifModifiedSince())
        .isEqualTo(Instant.parse("2026-01-01T00:00:00Z"));
    s3.answer = r -> s3Error(404, "NoSuchKey");
    assertThat(await(storage.getIfChanged("a", "v1")).status())
        .isEqualTo(ConditionalRead.Status.ABSENT);
    assertThat(await(storage.get("a"))).isEmpty();
    s3.answer = r -> s3Error(404, "NoSuchBucket");
    assertThatThrownBy(() -> await(storage.get("a"))).isInstanceOf(NotFoundException.class);
  }

  @Test
  void getReturnsTheItemWithDecodedMetadataAndUnquotedVersion() {
    Instant lm = Instant.parse("2026-04-01T00:00:00Z");
    s3.answer =
        r ->
            Fakes.S3.object(
                GetObjectResponse.builder()
                    .eTag("\"e1\"")
                    .lastModified(lm)
                    .metadata(S3Metadata.encode(Map.of("Kind", "p\u00e4ge")))
                    .build(),
                new byte[] {1, 2});
    StoredItem item = await(storage.getIfChanged("a", "e0")).item().orElseThrow();
    assertThat(item.version()).isEqualTo("e1");
    assertThat(item.metadata()).isEqualTo(Map.of("Kind", "p\u00e4ge"));
    assertThat(item.lastModified()).isEqualTo(lm);
    assertThat(item.payload()).containsExactly(1, 2);
  }

  @Test
  void serverErrorsAndTimeoutsOfReadsAreRetryable() {
    s3.answer = r -> s3Error(500, "InternalError");
    assertThatThrownBy(() -> await(storage.get("a"))).isExactlyInstanceOf(RetryableException.class);
    s3.answer = r -> ApiCallAttemptTimeoutException.create(100);
    assertThatThrownBy(() -> await(storage.get("a"))).isExactlyInstanceOf(RetryableException.class);
    assertThatThrownBy(() -> await(storage.delete("a")))
        .isInstanceOf(OutcomeUnknownException.class);
  }

  @Test
  void listingStripsThePrefixAndPassesS3sTokenThrough() {
    Instant lm = Instant.parse("2026-04-01T00:00:00Z");
    s3.answer =
        r ->
            ListObjectsV2Response.builder()
                .contents(
                    S3Object.builder()
                        .key("db/x/1")
                        .size(3L)
                        .eTag("\"e\"")
                        .lastModified(lm)
                        .build())
                .isTruncated(true)
                .nextContinuationToken("tok-2")
                .build();
    var page = await(storage.list("x/", Optional.of("tok-1"), 1));
    assertThat(page.items())
        .singleElement()
        .satisfies(
            s -> {
              assertThat(s.uri()).isEqualTo("x/1");
              assertThat(s.version()).isEqualTo("e");
            });
    assertThat(page.nextToken()).contains("tok-2");
    ListObjectsV2Request r = (ListObjectsV2Request) s3.requests.get(0);
    assertThat(r.prefix()).isEqualTo("db/x/");
    assertThat(r.continuationToken()).isEqualTo("tok-1");
    assertThat(r.maxKeys()).isEqualTo(1);
  }

  @Test
  void limitsAreCheckedBeforeAnyRequest() {
    assertThat(storage.limits().maxUriLength()).isEqualTo(1021);
    assertThatThrownBy(() -> await(storage.put("x".repeat(1022), new byte[0], Map.of())))
        .isInstanceOf(LimitExceededException.class);
    // 1,601 bytes as given, within the 2 KiB limit; 2,142 bytes once encoded for S3.
    assertThatThrownBy(
            () -> await(storage.put("a", new byte[0], Map.of("k", "\u00e9".repeat(800)))))
        .isInstanceOf(LimitExceededException.class);
    assertThat(s3.requests).isEmpty();
    assertThat(
            List.of(
                S3Storage.unquote("\"a\""), S3Storage.unquote("W/\"b\""), S3Storage.unquote("c")))
        .containsExactly("a", "b", "c");
  }
}
