package io.stratus.aws;

import io.stratus.cloudapi.BadRequestException;
import io.stratus.cloudapi.CloudLimits;
import io.stratus.cloudapi.ConditionalRead;
import io.stratus.cloudapi.ItemMetadata;
import io.stratus.cloudapi.ItemSummary;
import io.stratus.cloudapi.ItemVersion;
import io.stratus.cloudapi.LimitExceededException;
import io.stratus.cloudapi.ListPage;
import io.stratus.cloudapi.PreconditionFailedException;
import io.stratus.cloudapi.StoredItem;
import io.stratus.cloudapi.SupportsConditionalPut;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.http.SdkHttpResponse;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.EncodingType;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * {@link io.stratus.cloudapi.StorageService} on S3 (paper 000, section 6.1): an item is the object
 * at key = prefix + URI in one bucket, its user metadata the object's, its version the ETag.
 *
 * <p>Why the details are as they are:
 *
 * <ul>
 *   <li>S3 has been strongly consistent since December 2020, so {@link #isStronglyConsistent()} is
 *       true, and conditional puts (If-None-Match: * and If-Match, since 2024) make this a {@link
 *       SupportsConditionalPut}. Those go through a client that never retries by itself: if a
 *       first attempt succeeded but its reply was lost, a retry would fail with 412 and report a
 *       write that happened as one that did not. A lost reply is reported as {@link
 *       io.stratus.cloudapi.OutcomeUnknownException} instead, and the caller reads to find out.
 *   <li>Versions are ETags without their quotes; quotes are added again for If-Match and
 *       If-None-Match. A version that cannot be an ETag (it holds a quote or a non-ASCII
 *       character) cannot match, and is treated so without asking S3.
 *   <li>A conditional get answered 304 is {@link ConditionalRead.Status#NOT_MODIFIED}, a 404 is
 *       {@link ConditionalRead.Status#ABSENT}; S3 answers If-Match on a missing key with 404,
 *       which for a conditional put is a failed precondition.
 *   <li>S3 does not return Last-Modified on a put, so a put's {@link ItemVersion#lastModified()}
 *       is the reply's Date header (S3's clock, whole seconds), which may differ from the stored
 *       Last-Modified by a second. Reads report the stored Last-Modified.
 *   <li>{@link #limits()} are AWS's, with the longest URI reduced by the key prefix, so that a key
 *       never exceeds S3's 1,024 bytes. Metadata is encoded by {@link S3Metadata}.
 *   <li>Listing is ListObjectsV2 with S3's own continuation tokens; S3 lists in UTF-8 byte order,
 *       which is the order the contract asks for. Keys are requested URL-encoded (the SDK decodes
 *       them), so that any key survives the XML reply.
 * </ul>
 *
 * <p>The S3 clients belong to {@link AwsCloud}, which closes them; {@link #close()} does nothing.
 */
final class S3Storage implements SupportsConditionalPut {
  /** S3's longest key in UTF-8 bytes. */
  static final int S3_MAX_KEY_LENGTH = 1024;

  private final S3AsyncClient s3;
  private final S3AsyncClient s3NoRetry;
  private final String bucket;
  private final String prefix;
  private final CloudLimits limits;
  private final Clock clock;

  /**
   * @param s3 the client for every call but conditional puts
   * @param s3NoRetry a client that makes exactly one attempt, for conditional puts
   * @param prefix prepended to every URI to form the key
   * @param clock only for a put whose reply has no Date header
   */
  S3Storage(S3AsyncClient s3, S3AsyncClient s3NoRetry, String bucket, String prefix, Clock clock) {
    this.s3 = Objects.requireNonNull(s3, "s3");
    this.s3NoRetry = Objects.requireNonNull(s3NoRetry, "s3NoRetry");
    this.bucket = Objects.requireNonNull(bucket, "bucket");
    this.prefix = Objects.requireNonNull(prefix, "prefix");
    this.clock = Objects.requireNonNull(clock, "clock");
    int prefixBytes = prefix.getBytes(StandardCharsets.UTF_8).length;
    this.limits =
        CloudLimits.aws().toBuilder().maxUriLength(S3_MAX_KEY_LENGTH - prefixBytes).build();
  }

  @Override
  public CompletableFuture<ItemVersion> put(
      String uri, byte[] payload, Map<String, String> metadata) {
    return AwsErrors.guard(
        "S3 put of " + uri,
        true,
        () -> putObject(s3, uri, payload, metadata, b -> {}).thenApply(this::versionOf));
  }

  @Override
  public CompletableFuture<ItemVersion> putIfAbsent(
      String uri, byte[] payload, Map<String, String> metadata) {
    return AwsErrors.guard(
        "S3 put-if-absent of " + uri,
        true,
        () ->
            putObject(s3NoRetry, uri, payload, metadata, b -> b.ifNoneMatch("*"))
                .thenApply(this::versionOf));
  }

  @Override
  public CompletableFuture<ItemVersion> putIfVersionMatches(
      String uri, byte[] payload, Map<String, String> metadata, String expectedVersion) {
    String what = "S3 put-if-version-matches of " + uri;
    return AwsErrors.guard(
        what,
        true,
        () -> {
          if (expectedVersion == null) {
            throw new BadRequestException("the expected version must not be null");
          }
          if (!isEtagLike(expectedVersion)) {
            checkPut(uri, payload, metadata);
            throw new PreconditionFailedException(
                what + ": the expected version cannot be a current version");
          }
          CompletableFuture<PutObjectResponse> f =
              putObject(s3NoRetry, uri, payload, metadata, b -> b.ifMatch(quote(expectedVersion)));
          // S3 answers If-Match on a missing key with 404: the precondition did not hold.
          return AwsErrors.recover(
                  f,
                  what,
                  true,
                  (t, e) -> {
                    if (e.statusCode() == 404 && !"NoSuchBucket".equals(AwsErrors.errorCode(e))) {
                      throw new PreconditionFailedException(what + ": there is no such item", e);
                    }
                    return null;
                  })
              .thenApply(this::versionOf);
        });
  }

  private CompletableFuture<PutObjectResponse> putObject(
      S3AsyncClient client,
      String uri,
      byte[] payload,
      Map<String, String> metadata,
      Consumer<PutObjectRequest.Builder> condition) {
    Map<String, String> stored = checkPut(uri, payload, metadata);
    PutObjectRequest.Builder b =
        PutObjectRequest.builder()
            .bucket(bucket)
            .key(key(uri))
            .metadata(stored)
            .contentLength((long) payload.length);
    condition.accept(b);
    return client.putObject(b.build(), AsyncRequestBody.fromBytes(payload));
  }

  private Map<String, String> checkPut(String uri, byte[] payload, Map<String, String> metadata) {
    limits.checkUri(uri);
    limits.checkObject(payload);
    limits.checkMetadata(metadata);
    return S3Metadata.encode(metadata);
  }

  @Override
  public CompletableFuture<Optional<StoredItem>> get(String uri) {
    String what = "S3 get of " + uri;
    return AwsErrors.guard(
        what,
        false,
        () -> {
          limits.checkUri(uri);
          CompletableFuture<Optional<StoredItem>> f =
              getObject(uri, b -> {}).thenApply(r -> Optional.of(itemOf(uri, r)));
          return AwsErrors.recover(f, what, false, (t, e) -> isAbsent(e) ? Optional.empty() : null);
        });
  }

  @Override
  public CompletableFuture<Optional<ItemMetadata>> getMetadata(String uri) {
    String what = "S3 head of " + uri;
    return AwsErrors.guard(
        what,
        false,
        () -> {
          limits.checkUri(uri);
          CompletableFuture<Optional<ItemMetadata>> f =
              s3.headObject(b -> b.bucket(bucket).key(key(uri)))
                  .thenApply(r -> Optional.of(metadataOf(uri, r)));
          return AwsErrors.recover(f, what, false, (t, e) -> isAbsent(e) ? Optional.empty() : null);
        });
  }

  @Override
  public CompletableFuture<ConditionalRead> getIfChanged(String uri, String knownVersion) {
    String what = "S3 get-if-changed of " + uri;
    return AwsErrors.guard(
        what,
        false,
        () -> {
          limits.checkUri(uri);
          if (knownVersion == null) {
            throw new BadRequestException("the known version must not be null");
          }
          if (!isEtagLike(knownVersion)) {
            return conditionalGet(what, uri, b -> {}); // cannot be current: a plain get
          }
          return conditionalGet(what, uri, b -> b.ifNoneMatch(quote(knownVersion)));
        });
  }

  @Override
  public CompletableFuture<ConditionalRead> getIfModifiedSince(String uri, Instant since) {
    String what = "S3 get-if-modified-since of " + uri;
    return AwsErrors.guard(
        what,
        false,
        () -> {
          limits.checkUri(uri);
          if (since == null) {
            throw new BadRequestException("the time must not be null");
          }
          // HTTP dates have whole seconds: truncating down can only add spurious transfers,
          // which the contract allows, never hide a change.
          Instant header = since.truncatedTo(ChronoUnit.SECONDS);
          return conditionalGet(what, uri, b -> b.ifModifiedSince(header));
        });
  }

  private CompletableFuture<ConditionalRead> conditionalGet(
      String what, String uri, Consumer<GetObjectRequest.Builder> condition) {
    CompletableFuture<ConditionalRead> f =
        getObject(uri, condition).thenApply(r -> ConditionalRead.modified(itemOf(uri, r)));
    return AwsErrors.recover(
        f,
        what,
        false,
        (t, e) -> {
          if (e.statusCode() == 304) {
            return ConditionalRead.notModified();
          }
          return isAbsent(e) ? ConditionalRead.absent() : null;
        });
  }

  private CompletableFuture<ResponseBytes<GetObjectResponse>> getObject(
      String uri, Consumer<GetObjectRequest.Builder> condition) {
    GetObjectRequest.Builder b = GetObjectRequest.builder().bucket(bucket).key(key(uri));
    condition.accept(b);
    return s3.getObject(b.build(), AsyncResponseTransformer.toBytes());
  }

  @Override
  public CompletableFuture<ListPage> list(
      String listPrefix, Optional<String> continuationToken, int maxItems) {
    String what = "S3 list of " + listPrefix;
    return AwsErrors.guard(
        what,
        false,
        () -> {
          limits.checkPrefix(listPrefix);
          if (continuationToken == null) {
            throw new BadRequestException("the continuation token must be an Optional, not null");
          }
          if (maxItems < 1) {
            throw new BadRequestException("a list page needs at least one item, got " + maxItems);
          }
          if (maxItems > limits.maxListPageSize()) {
            throw new LimitExceededException("list page size", maxItems, limits.maxListPageSize());
          }
          ListObjectsV2Request.Builder b =
              ListObjectsV2Request.builder()
                  .bucket(bucket)
                  .prefix(prefix + listPrefix)
                  .maxKeys(maxItems)
                  .encodingType(EncodingType.URL);
          continuationToken.ifPresent(b::continuationToken);
          return s3.listObjectsV2(b.build())
              .thenApply(
                  r -> {
                    List<ItemSummary> items = new ArrayList<>();
                    for (S3Object o : r.contents()) {
                      items.add(
                          new ItemSummary(
                              o.key().substring(prefix.length()),
                              o.size() == null ? 0 : o.size(),
                              unquote(o.eTag()),
                              o.lastModified()));
                    }
                    boolean more =
                        Boolean.TRUE.equals(r.isTruncated()) && r.nextContinuationToken() != null;
                    return new ListPage(
                        items, more ? Optional.of(r.nextContinuationToken()) : Optional.empty());
                  });
        });
  }

  @Override
  public CompletableFuture<Void> delete(String uri) {
    return AwsErrors.guard(
        "S3 delete of " + uri,
        true,
        () -> {
          limits.checkUri(uri);
          return s3.deleteObject(b -> b.bucket(bucket).key(key(uri))).thenApply(r -> null);
        });
  }

  @Override
  public boolean isStronglyConsistent() {
    return true;
  }

  @Override
  public CloudLimits limits() {
    return limits;
  }

  // ---- mapping ----

  private String key(String uri) {
    return prefix + uri;
  }

  private StoredItem itemOf(String uri, ResponseBytes<GetObjectResponse> r) {
    GetObjectResponse h = r.response();
    return new StoredItem(
        uri,
        r.asByteArrayUnsafe(),
        S3Metadata.decode(h.metadata()),
        unquote(h.eTag()),
        lastModified(h.lastModified(), h.sdkHttpResponse()));
  }

  private ItemMetadata metadataOf(String uri, HeadObjectResponse h) {
    return new ItemMetadata(
        uri,
        S3Metadata.decode(h.metadata()),
        unquote(h.eTag()),
        lastModified(h.lastModified(), h.sdkHttpResponse()),
        h.contentLength() == null ? 0 : h.contentLength());
  }

  private ItemVersion versionOf(PutObjectResponse r) {
    return new ItemVersion(unquote(r.eTag()), lastModified(null, r.sdkHttpResponse()));
  }

  /** The stored Last-Modified, else the reply's Date header, else this machine's clock. */
  private Instant lastModified(@Nullable Instant stored, @Nullable SdkHttpResponse http) {
    if (stored != null) {
      return stored;
    }
    Optional<String> date = http == null ? Optional.empty() : http.firstMatchingHeader("Date");
    if (date.isPresent()) {
      try {
        return ZonedDateTime.parse(date.get(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
      } catch (DateTimeParseException e) {
        // fall through to the local clock
      }
    }
    return clock.instant().truncatedTo(ChronoUnit.SECONDS);
  }

  /** Whether a 404 means "no such item" (and not "no such bucket", a configuration error). */
  private static boolean isAbsent(AwsServiceException e) {
    return e.statusCode() == 404 && !"NoSuchBucket".equals(AwsErrors.errorCode(e));
  }

  /** An ETag without its quotes (and without a weak marker, which S3 never sends). */
  static String unquote(String etag) {
    if (etag == null) {
      return "";
    }
    String t = etag.startsWith("W/") ? etag.substring(2) : etag;
    if (t.length() >= 2 && t.startsWith("\"") && t.endsWith("\"")) {
      return t.substring(1, t.length() - 1);
    }
    return t;
  }

  static String quote(String version) {
    return '"' + version + '"';
  }

  /** Whether {@code v} can be sent in an If-Match header: non-empty printable ASCII, no quote. */
  static boolean isEtagLike(String v) {
    if (v.isEmpty()) {
      return false;
    }
    for (int i = 0; i < v.length(); i++) {
      char c = v.charAt(i);
      if (c <= 0x20 || c > 0x7e || c == '"') {
        return false;
      }
    }
    return true;
  }

  @Override
  public String toString() {
    return "S3Storage{bucket=" + bucket + ", prefix=" + prefix + '}';
  }
}
