package io.stratus.cloudapi;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The size and count limits of a cloud deployment. Every service implementation MUST reject a
 * request that breaks one of its limits with {@link LimitExceededException} (or {@link
 * BadRequestException} for a malformed value) before it has any effect.
 *
 * <p>The defaults are today's AWS limits: an S3 object holds at most 5 GiB per single put, an
 * object's user metadata at most 2 KiB and its key at most 1,024 UTF-8 bytes; an SQS message at most
 * 1 MiB, a batch at most 10 entries, a visibility timeout at most 12 hours, and a message is kept for
 * 4 days unless the queue says otherwise. Advanced-queue messages default to 1 MiB, the practical
 * ceiling of one ZooKeeper node.
 *
 * <p>Immutable and thread-safe; build with {@link #builder()}, which validates each setting once.
 */
public final class CloudLimits {
  /** Default largest object in one put: 5 GiB (S3 single PUT). */
  public static final long DEFAULT_MAX_OBJECT_SIZE = 5L * 1024 * 1024 * 1024;

  /** Default largest user metadata, keys plus values in UTF-8 bytes: 2 KiB (S3). */
  public static final int DEFAULT_MAX_METADATA_SIZE = 2 * 1024;

  /** Default longest URI in UTF-8 bytes: 1,024 (S3 object key). */
  public static final int DEFAULT_MAX_URI_LENGTH = 1024;

  /** Default largest simple-queue message: 1 MiB (SQS since 2025). */
  public static final int DEFAULT_MAX_MESSAGE_SIZE = 1024 * 1024;

  /** Default largest advanced-queue message: 1 MiB (one ZooKeeper node). */
  public static final int DEFAULT_MAX_ADVANCED_MESSAGE_SIZE = 1024 * 1024;

  /** Default most entries in one batch call and most messages in one receive: 10 (SQS). */
  public static final int DEFAULT_MAX_BATCH_SIZE = 10;

  /** Default most items in one list page: 1,000 (S3 ListObjectsV2). */
  public static final int DEFAULT_MAX_LIST_PAGE_SIZE = 1000;

  /** Default longest visibility timeout: 12 hours (SQS). */
  public static final Duration DEFAULT_MAX_VISIBILITY_TIMEOUT = Duration.ofHours(12);

  /** Default time a simple queue keeps an undeleted message: 4 days (SQS default; at most 14). */
  public static final Duration DEFAULT_MESSAGE_RETENTION = Duration.ofDays(4);

  private static final CloudLimits AWS = builder().build();

  private final long maxObjectSize;
  private final int maxMetadataSize;
  private final int maxUriLength;
  private final int maxMessageSize;
  private final int maxAdvancedMessageSize;
  private final int maxBatchSize;
  private final int maxListPageSize;
  private final Duration maxVisibilityTimeout;
  private final Duration messageRetention;

  private CloudLimits(Builder b) {
    this.maxObjectSize = b.maxObjectSize;
    this.maxMetadataSize = b.maxMetadataSize;
    this.maxUriLength = b.maxUriLength;
    this.maxMessageSize = b.maxMessageSize;
    this.maxAdvancedMessageSize = b.maxAdvancedMessageSize;
    this.maxBatchSize = b.maxBatchSize;
    this.maxListPageSize = b.maxListPageSize;
    this.maxVisibilityTimeout = b.maxVisibilityTimeout;
    this.messageRetention = b.messageRetention;
  }

  /** Today's AWS limits (the defaults). */
  public static CloudLimits aws() {
    return AWS;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder starting from this instance's values. */
  public Builder toBuilder() {
    return new Builder()
        .maxObjectSize(maxObjectSize)
        .maxMetadataSize(maxMetadataSize)
        .maxUriLength(maxUriLength)
        .maxMessageSize(maxMessageSize)
        .maxAdvancedMessageSize(maxAdvancedMessageSize)
        .maxBatchSize(maxBatchSize)
        .maxListPageSize(maxListPageSize)
        .maxVisibilityTimeout(maxVisibilityTimeout)
        .messageRetention(messageRetention);
  }

  public long maxObjectSize() {
    return maxObjectSize;
  }

  public int maxMetadataSize() {
    return maxMetadataSize;
  }

  public int maxUriLength() {
    return maxUriLength;
  }

  public int maxMessageSize() {
    return maxMessageSize;
  }

  public int maxAdvancedMessageSize() {
    return maxAdvancedMessageSize;
  }

  public int maxBatchSize() {
    return maxBatchSize;
  }

  public int maxListPageSize() {
    return maxListPageSize;
  }

  public Duration maxVisibilityTimeout() {
    return maxVisibilityTimeout;
  }

  public Duration messageRetention() {
    return messageRetention;
  }

  // ---- checks shared by every implementation ----

  /**
   * Checks that {@code uri} is a usable item or queue URI: non-empty, without control characters,
   * and at most {@link #maxUriLength()} UTF-8 bytes.
   */
  public void checkUri(String uri) {
    if (uri == null || uri.isEmpty()) {
      throw new BadRequestException("a URI must not be null or empty");
    }
    for (int i = 0; i < uri.length(); i++) {
      if (Character.isISOControl(uri.charAt(i))) {
        throw new BadRequestException("a URI must not contain control characters: " + quote(uri));
      }
    }
    int bytes = uri.getBytes(StandardCharsets.UTF_8).length;
    if (bytes > maxUriLength) {
      throw new LimitExceededException("URI length", bytes, maxUriLength);
    }
  }

  /** Checks a URI prefix used for listing or for timeouts; the empty prefix is allowed. */
  public void checkPrefix(String prefix) {
    if (prefix == null) {
      throw new BadRequestException("a URI prefix must not be null (use \"\" for all)");
    }
    if (!prefix.isEmpty()) {
      checkUri(prefix);
    }
  }

  /** Checks an object payload against {@link #maxObjectSize()}. */
  public void checkObject(byte[] payload) {
    if (payload == null) {
      throw new BadRequestException("a payload must not be null (use an empty array)");
    }
    if (payload.length > maxObjectSize) {
      throw new LimitExceededException("object size", payload.length, maxObjectSize);
    }
  }

  /** Checks user metadata: no null keys or values, total UTF-8 size within the limit. */
  public void checkMetadata(Map<String, String> metadata) {
    if (metadata == null) {
      throw new BadRequestException("metadata must not be null (use an empty map)");
    }
    long total = 0;
    for (Map.Entry<String, String> e : metadata.entrySet()) {
      if (e.getKey() == null || e.getKey().isEmpty() || e.getValue() == null) {
        throw new BadRequestException("metadata keys must be non-empty and values non-null");
      }
      total += e.getKey().getBytes(StandardCharsets.UTF_8).length;
      total += e.getValue().getBytes(StandardCharsets.UTF_8).length;
    }
    if (total > maxMetadataSize) {
      throw new LimitExceededException("metadata size", total, maxMetadataSize);
    }
  }

  /** Checks a simple-queue message against {@link #maxMessageSize()}. */
  public void checkMessage(byte[] payload) {
    if (payload == null) {
      throw new BadRequestException("a message payload must not be null");
    }
    if (payload.length > maxMessageSize) {
      throw new LimitExceededException("message size", payload.length, maxMessageSize);
    }
  }

  /** Checks an advanced-queue message against {@link #maxAdvancedMessageSize()}. */
  public void checkAdvancedMessage(byte[] payload) {
    if (payload == null) {
      throw new BadRequestException("a message payload must not be null");
    }
    if (payload.length > maxAdvancedMessageSize) {
      throw new LimitExceededException(
          "advanced message size", payload.length, maxAdvancedMessageSize);
    }
  }

  /** Checks the number of entries of a batch call or of a receive: 1 to {@link #maxBatchSize()}. */
  public void checkBatch(int entries) {
    if (entries < 1) {
      throw new BadRequestException("a batch needs at least one entry, got " + entries);
    }
    if (entries > maxBatchSize) {
      throw new LimitExceededException("batch size", entries, maxBatchSize);
    }
  }

  /** Checks a batch call's entries: not null, and 1 to {@link #maxBatchSize()} of them. */
  public void checkBatch(List<?> entries) {
    if (entries == null) {
      throw new BadRequestException("a batch must not be null");
    }
    checkBatch(entries.size());
  }

  /**
   * Checks a batch of simple-queue messages: the batch as {@link #checkBatch(List)}, and every
   * message as {@link #checkMessage}. All are checked before any is sent, so a rejected batch has
   * no effect.
   */
  public void checkMessageBatch(List<byte[]> payloads) {
    checkBatch(payloads);
    for (byte[] p : payloads) {
      checkMessage(p);
    }
  }

  /** Checks a visibility timeout: zero up to {@link #maxVisibilityTimeout()}. */
  public void checkVisibilityTimeout(Duration timeout) {
    if (timeout == null || timeout.isNegative()) {
      throw new BadRequestException("a visibility timeout must be zero or positive: " + timeout);
    }
    if (timeout.compareTo(maxVisibilityTimeout) > 0) {
      throw new LimitExceededException(
          "visibility timeout in seconds", timeout.toSeconds(), maxVisibilityTimeout.toSeconds());
    }
  }

  private static String quote(String s) {
    return '"' + s.replaceAll("\\p{Cntrl}", "?") + '"';
  }

  @Override
  public String toString() {
    return "CloudLimits{maxObjectSize="
        + maxObjectSize
        + ", maxMetadataSize="
        + maxMetadataSize
        + ", maxUriLength="
        + maxUriLength
        + ", maxMessageSize="
        + maxMessageSize
        + ", maxAdvancedMessageSize="
        + maxAdvancedMessageSize
        + ", maxBatchSize="
        + maxBatchSize
        + ", maxListPageSize="
        + maxListPageSize
        + ", maxVisibilityTimeout="
        + maxVisibilityTimeout
        + ", messageRetention="
        + messageRetention
        + '}';
  }

  /** Validates each setting as it is given. */
  public static final class Builder {
    private long maxObjectSize = DEFAULT_MAX_OBJECT_SIZE;
    private int maxMetadataSize = DEFAULT_MAX_METADATA_SIZE;
    private int maxUriLength = DEFAULT_MAX_URI_LENGTH;
    private int maxMessageSize = DEFAULT_MAX_MESSAGE_SIZE;
    private int maxAdvancedMessageSize = DEFAULT_MAX_ADVANCED_MESSAGE_SIZE;
    private int maxBatchSize = DEFAULT_MAX_BATCH_SIZE;
    private int maxListPageSize = DEFAULT_MAX_LIST_PAGE_SIZE;
    private Duration maxVisibilityTimeout = DEFAULT_MAX_VISIBILITY_TIMEOUT;
    private Duration messageRetention = DEFAULT_MESSAGE_RETENTION;

    private Builder() {}

    public Builder maxObjectSize(long bytes) {
      this.maxObjectSize = positive("maxObjectSize", bytes);
      return this;
    }

    public Builder maxMetadataSize(int bytes) {
      this.maxMetadataSize = (int) positive("maxMetadataSize", bytes);
      return this;
    }

    public Builder maxUriLength(int bytes) {
      this.maxUriLength = (int) positive("maxUriLength", bytes);
      return this;
    }

    public Builder maxMessageSize(int bytes) {
      this.maxMessageSize = (int) positive("maxMessageSize", bytes);
      return this;
    }

    public Builder maxAdvancedMessageSize(int bytes) {
      this.maxAdvancedMessageSize = (int) positive("maxAdvancedMessageSize", bytes);
      return this;
    }

    public Builder maxBatchSize(int entries) {
      this.maxBatchSize = (int) positive("maxBatchSize", entries);
      return this;
    }

    public Builder maxListPageSize(int items) {
      this.maxListPageSize = (int) positive("maxListPageSize", items);
      return this;
    }

    public Builder maxVisibilityTimeout(Duration timeout) {
      this.maxVisibilityTimeout = positive("maxVisibilityTimeout", timeout);
      return this;
    }

    public Builder messageRetention(Duration retention) {
      this.messageRetention = positive("messageRetention", retention);
      return this;
    }

    public CloudLimits build() {
      return new CloudLimits(this);
    }

    private static long positive(String name, long value) {
      if (value <= 0) {
        throw new IllegalArgumentException(name + " must be positive, got " + value);
      }
      return value;
    }

    private static Duration positive(String name, Duration value) {
      Objects.requireNonNull(value, name);
      if (value.isNegative() || value.isZero()) {
        throw new IllegalArgumentException(name + " must be positive, got " + value);
      }
      return value;
    }
  }
}
