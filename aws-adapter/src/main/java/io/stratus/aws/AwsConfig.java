package io.stratus.aws;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Everything {@link AwsCloud#connect} needs: where (region, endpoint), who (credentials), which
 * bucket and prefixes hold a database, and how patient to be (retries, timeouts).
 *
 * <p>Why one immutable object validated once: a wrong setting should fail at start-up with a
 * message naming it, not as a puzzling service error on the first commit. {@link Builder#build()}
 * checks every setting together (some depend on each other) and throws {@link
 * IllegalArgumentException} listing every problem found.
 *
 * <p>Credentials are secrets: {@link #toString()} masks them and no message of this class or of
 * the services built from it ever contains them.
 */
public final class AwsConfig {
  /**
   * Longest index table prefix: 55 characters, so that with a domain name of up to {@link
   * io.stratus.cloudapi.IndexLimits#DEFAULT_MAX_DOMAIN_NAME_LENGTH} characters a table name stays
   * within DynamoDB's 255.
   */
  public static final int MAX_INDEX_TABLE_PREFIX_LENGTH = 55;

  /** Default region: us-east-1 (also what LocalStack uses). */
  public static final String DEFAULT_REGION = "us-east-1";

  /** Default prefix of storage keys: "items/", so that S3 queues can live beside under "queues/". */
  public static final String DEFAULT_KEY_PREFIX = "items/";

  /** Default prefix of the S3 keys of S3-backed simple queues: "queues/". */
  public static final String DEFAULT_S3_QUEUE_KEY_PREFIX = "queues/";

  /** Default prefix of SQS queue names: "stratus-" (SQS names are per account and region). */
  public static final String DEFAULT_QUEUE_NAME_PREFIX = "stratus-";

  /** Longest queue-name prefix, so that the rest of an 80-character SQS name stays readable. */
  public static final int MAX_QUEUE_NAME_PREFIX_LENGTH = 24;

  /** Default attempts per call, the first included: 3 (the SDK's standard retry mode). */
  public static final int DEFAULT_MAX_ATTEMPTS = 3;

  /** Default bound on one call, all attempts and back-offs included: 60 s. */
  public static final Duration DEFAULT_API_CALL_TIMEOUT = Duration.ofSeconds(60);

  /** Default bound on one HTTP attempt: 20 s. */
  public static final Duration DEFAULT_API_CALL_ATTEMPT_TIMEOUT = Duration.ofSeconds(20);

  /** Default bound on opening a connection: 5 s. */
  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);

  /** Default most open connections per endpoint: 128 (calls are fanned out asynchronously). */
  public static final int DEFAULT_MAX_CONNECTIONS = 128;

  /** Default SQS MessageRetentionPeriod set at queue creation: 14 days, the SQS maximum. */
  public static final Duration DEFAULT_MESSAGE_RETENTION = Duration.ofDays(14);

  /** Longest SQS retention: 14 days. */
  public static final Duration MAX_MESSAGE_RETENTION = Duration.ofDays(14);

  /** Default SQS MaximumMessageSize set at queue creation: 1 MiB, the SQS maximum. */
  public static final int DEFAULT_SQS_MAXIMUM_MESSAGE_SIZE = 1024 * 1024;

  /** Default SQS long-poll wait of a receive: none (a receive answers at once). */
  public static final Duration DEFAULT_RECEIVE_WAIT = Duration.ZERO;

  /** Default largest message of an S3-backed queue: 4 MiB (S3 has no small message limit). */
  public static final int DEFAULT_S3_QUEUE_MAX_MESSAGE_SIZE = 4 * 1024 * 1024;

  /** Default EC2 instance type of machine reservation: t3.micro. */
  public static final String DEFAULT_INSTANCE_TYPE = "t3.micro";

  /** Default value of the tag that marks the EC2 instances this deployment started: "stratus". */
  public static final String DEFAULT_MACHINE_TAG = "stratus";

  private static final Pattern BUCKET = Pattern.compile("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]");
  private static final Pattern REGION = Pattern.compile("[a-z0-9][a-z0-9-]*[a-z0-9]");
  private static final Pattern QUEUE_NAME_PREFIX = Pattern.compile("[A-Za-z0-9_-]*");
  private static final Pattern INDEX_TABLE_PREFIX = Pattern.compile("[A-Za-z0-9_.-]*");

  /** Which service backs the simple queues. */
  public enum QueueBackend {
    /** SQS standard queues (paper 000, section 6.3, first option). */
    SQS,
    /** One S3 object per message (paper 000, section 6.3, second option). */
    S3
  }

  private final String region;
  private final @Nullable URI endpoint;
  private final boolean pathStyleAccess;
  private final @Nullable Credentials credentials;
  private final String bucket;
  private final String keyPrefix;
  private final String s3QueueKeyPrefix;
  private final String queueNamePrefix;
  private final QueueBackend queueBackend;
  private final int maxAttempts;
  private final Duration apiCallTimeout;
  private final Duration apiCallAttemptTimeout;
  private final Duration connectTimeout;
  private final int maxConnections;
  private final Duration messageRetention;
  private final int sqsMaximumMessageSize;
  private final Duration receiveWait;
  private final int s3QueueMaxMessageSize;
  private final String instanceType;
  private final String machineTag;
  private final @Nullable String indexTablePrefix;
  private final @Nullable URI indexEndpoint;

  private AwsConfig(Builder b) {
    this.region = b.region;
    this.endpoint = b.endpoint;
    this.pathStyleAccess = b.pathStyleAccess;
    this.credentials = b.credentials;
    this.bucket = b.bucket;
    this.keyPrefix = b.keyPrefix;
    this.s3QueueKeyPrefix = b.s3QueueKeyPrefix;
    this.queueNamePrefix = b.queueNamePrefix;
    this.queueBackend = b.queueBackend;
    this.maxAttempts = b.maxAttempts;
    this.apiCallTimeout = b.apiCallTimeout;
    this.apiCallAttemptTimeout = b.apiCallAttemptTimeout;
    this.connectTimeout = b.connectTimeout;
    this.maxConnections = b.maxConnections;
    this.messageRetention = b.messageRetention;
    this.sqsMaximumMessageSize = b.sqsMaximumMessageSize;
    this.receiveWait = b.receiveWait;
    this.s3QueueMaxMessageSize = b.s3QueueMaxMessageSize;
    this.instanceType = b.instanceType;
    this.machineTag = b.machineTag;
    this.indexTablePrefix = b.indexTablePrefix;
    this.indexEndpoint = b.indexEndpoint;
  }

  /** A builder for the bucket that holds the database (the only required setting). */
  public static Builder builder(String bucket) {
    return new Builder(bucket);
  }

  public String region() {
    return region;
  }

  /** The endpoint that replaces AWS's (LocalStack, an S3-compatible store), if any. */
  public Optional<URI> endpoint() {
    return Optional.ofNullable(endpoint);
  }

  /**
   * {@code endpoint} as messages may show it: scheme, host, port and path, with a query or fragment
   * (where a proxy's token or a pre-signed credential would sit) and any user information replaced
   * by {@code ****}.
   */
  public static String masked(URI endpoint) {
    StringBuilder s = new StringBuilder();
    if (endpoint.getScheme() != null) {
      s.append(endpoint.getScheme()).append("://");
    }
    if (endpoint.getRawUserInfo() != null) {
      s.append("****@");
    }
    if (endpoint.getHost() != null) {
      s.append(endpoint.getHost());
      if (endpoint.getPort() >= 0) {
        s.append(':').append(endpoint.getPort());
      }
      if (endpoint.getRawPath() != null) {
        s.append(endpoint.getRawPath());
      }
    } else {
      // Not a hierarchical URI with a host: nothing in it can be told apart from a secret.
      return "****";
    }
    if (endpoint.getRawQuery() != null) {
      s.append("?****");
    }
    if (endpoint.getRawFragment() != null) {
      s.append("#****");
    }
    return s.toString();
  }

  /** Whether S3 is addressed as endpoint/bucket/key instead of bucket.endpoint/key. */
  public boolean pathStyleAccess() {
    return pathStyleAccess;
  }

  /** Whether explicit static credentials are set (otherwise the SDK's default chain is used). */
  public boolean hasStaticCredentials() {
    return credentials != null;
  }

  public String bucket() {
    return bucket;
  }

  public String keyPrefix() {
    return keyPrefix;
  }

  public String s3QueueKeyPrefix() {
    return s3QueueKeyPrefix;
  }

  public String queueNamePrefix() {
    return queueNamePrefix;
  }

  public QueueBackend queueBackend() {
    return queueBackend;
  }

  public int maxAttempts() {
    return maxAttempts;
  }

  public Duration apiCallTimeout() {
    return apiCallTimeout;
  }

  public Duration apiCallAttemptTimeout() {
    return apiCallAttemptTimeout;
  }

  public Duration connectTimeout() {
    return connectTimeout;
  }

  public int maxConnections() {
    return maxConnections;
  }

  public Duration messageRetention() {
    return messageRetention;
  }

  public int sqsMaximumMessageSize() {
    return sqsMaximumMessageSize;
  }

  public Duration receiveWait() {
    return receiveWait;
  }

  public int s3QueueMaxMessageSize() {
    return s3QueueMaxMessageSize;
  }

  public String instanceType() {
    return instanceType;
  }

  public String machineTag() {
    return machineTag;
  }

  /**
   * The prefix of the DynamoDB table names of the index service (one table per domain), present
   * when the index service is wanted ({@link Builder#indexTablePrefix}); absent, {@link AwsCloud}
   * offers no index service and sends DynamoDB nothing.
   */
  public Optional<String> indexTablePrefix() {
    return Optional.ofNullable(indexTablePrefix);
  }

  /** Where DynamoDB requests go: {@link Builder#indexEndpoint}, else {@link #endpoint()}. */
  public Optional<URI> indexEndpoint() {
    return indexEndpoint != null ? Optional.of(indexEndpoint) : endpoint();
  }

  /** The static credentials, for {@link AwsCloud} only; never printed. */
  @Nullable Credentials credentials() {
    return credentials;
  }

  /** A builder starting from this configuration's settings. */
  public Builder toBuilder() {
    Builder b = new Builder(bucket);
    b.region = region;
    b.endpoint = endpoint;
    b.pathStyleAccess = pathStyleAccess;
    b.credentials = credentials;
    b.keyPrefix = keyPrefix;
    b.s3QueueKeyPrefix = s3QueueKeyPrefix;
    b.queueNamePrefix = queueNamePrefix;
    b.queueBackend = queueBackend;
    b.maxAttempts = maxAttempts;
    b.apiCallTimeout = apiCallTimeout;
    b.apiCallAttemptTimeout = apiCallAttemptTimeout;
    b.connectTimeout = connectTimeout;
    b.maxConnections = maxConnections;
    b.messageRetention = messageRetention;
    b.sqsMaximumMessageSize = sqsMaximumMessageSize;
    b.receiveWait = receiveWait;
    b.s3QueueMaxMessageSize = s3QueueMaxMessageSize;
    b.instanceType = instanceType;
    b.machineTag = machineTag;
    b.indexTablePrefix = indexTablePrefix;
    b.indexEndpoint = indexEndpoint;
    return b;
  }

  @Override
  public String toString() {
    return "AwsConfig{region="
        + region
        + ", endpoint="
        + (endpoint == null ? "AWS" : masked(endpoint))
        + ", pathStyleAccess="
        + pathStyleAccess
        + ", credentials="
        + (credentials == null ? "default chain" : credentials)
        + ", bucket="
        + bucket
        + ", keyPrefix="
        + keyPrefix
        + ", queueBackend="
        + queueBackend
        + ", queueNamePrefix="
        + queueNamePrefix
        + ", s3QueueKeyPrefix="
        + s3QueueKeyPrefix
        + ", maxAttempts="
        + maxAttempts
        + ", apiCallTimeout="
        + apiCallTimeout
        + ", apiCallAttemptTimeout="
        + apiCallAttemptTimeout
        + ", connectTimeout="
        + connectTimeout
        + ", maxConnections="
        + maxConnections
        + ", messageRetention="
        + messageRetention
        + ", sqsMaximumMessageSize="
        + sqsMaximumMessageSize
        + ", receiveWait="
        + receiveWait
        + ", s3QueueMaxMessageSize="
        + s3QueueMaxMessageSize
        + ", instanceType="
        + instanceType
        + ", machineTag="
        + machineTag
        + ", indexTablePrefix="
        + (indexTablePrefix == null ? "none" : indexTablePrefix)
        + (indexEndpoint == null ? "" : ", indexEndpoint=" + masked(indexEndpoint))
        + '}';
  }

  /**
   * Static credentials. A class rather than a record so that no generated method can print them:
   * {@link #toString()} shows only that they are set.
   */
  static final class Credentials {
    private final String accessKeyId;
    private final String secretAccessKey;
    private final @Nullable String sessionToken;

    Credentials(String accessKeyId, String secretAccessKey, @Nullable String sessionToken) {
      this.accessKeyId = accessKeyId;
      this.secretAccessKey = secretAccessKey;
      this.sessionToken = sessionToken;
    }

    String accessKeyId() {
      return accessKeyId;
    }

    String secretAccessKey() {
      return secretAccessKey;
    }

    /** The session token of temporary credentials, or null. */
    @Nullable String sessionToken() {
      return sessionToken;
    }

    @Override
    public String toString() {
      return "static(****)";
    }
  }

  /** Collects settings; {@link #build()} validates them all at once. */
  public static final class Builder {
    private String region = DEFAULT_REGION;
    private @Nullable URI endpoint;
    private boolean pathStyleAccess;
    private @Nullable Credentials credentials;
    private String bucket;
    private String keyPrefix = DEFAULT_KEY_PREFIX;
    private String s3QueueKeyPrefix = DEFAULT_S3_QUEUE_KEY_PREFIX;
    private String queueNamePrefix = DEFAULT_QUEUE_NAME_PREFIX;
    private QueueBackend queueBackend = QueueBackend.SQS;
    private int maxAttempts = DEFAULT_MAX_ATTEMPTS;
    private Duration apiCallTimeout = DEFAULT_API_CALL_TIMEOUT;
    private Duration apiCallAttemptTimeout = DEFAULT_API_CALL_ATTEMPT_TIMEOUT;
    private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;
    private int maxConnections = DEFAULT_MAX_CONNECTIONS;
    private Duration messageRetention = DEFAULT_MESSAGE_RETENTION;
    private int sqsMaximumMessageSize = DEFAULT_SQS_MAXIMUM_MESSAGE_SIZE;
    private Duration receiveWait = DEFAULT_RECEIVE_WAIT;
    private int s3QueueMaxMessageSize = DEFAULT_S3_QUEUE_MAX_MESSAGE_SIZE;
    private String instanceType = DEFAULT_INSTANCE_TYPE;
    private String machineTag = DEFAULT_MACHINE_TAG;
    private @Nullable String indexTablePrefix;
    private @Nullable URI indexEndpoint;

    private Builder(String bucket) {
      this.bucket = bucket;
    }

    public Builder region(String region) {
      this.region = region;
      return this;
    }

    /** Sends every request to {@code endpoint} (e.g. LocalStack's http://127.0.0.1:4566). */
    public Builder endpoint(URI endpoint) {
      this.endpoint = endpoint;
      return this;
    }

    public Builder pathStyleAccess(boolean pathStyleAccess) {
      this.pathStyleAccess = pathStyleAccess;
      return this;
    }

    /** Uses the SDK's default credential chain (environment, profile, container, instance). */
    public Builder defaultCredentials() {
      this.credentials = null;
      return this;
    }

    /** Uses these long-term credentials. */
    public Builder staticCredentials(String accessKeyId, String secretAccessKey) {
      return staticCredentials(accessKeyId, secretAccessKey, null);
    }

    /** Uses these credentials; {@code sessionToken} is for temporary ones (may be null). */
    public Builder staticCredentials(
        String accessKeyId, String secretAccessKey, @Nullable String sessionToken) {
      if (accessKeyId == null
          || accessKeyId.isBlank()
          || secretAccessKey == null
          || secretAccessKey.isBlank()) {
        throw new IllegalArgumentException(
            "static credentials need a non-blank access key id and secret access key");
      }
      this.credentials = new Credentials(accessKeyId, secretAccessKey, sessionToken);
      return this;
    }

    public Builder bucket(String bucket) {
      this.bucket = bucket;
      return this;
    }

    /** Prefix of every storage key: key = prefix + URI. */
    public Builder keyPrefix(String keyPrefix) {
      this.keyPrefix = keyPrefix;
      return this;
    }

    /** Prefix of the keys of S3-backed queues; must not overlap {@link #keyPrefix}. */
    public Builder s3QueueKeyPrefix(String s3QueueKeyPrefix) {
      this.s3QueueKeyPrefix = s3QueueKeyPrefix;
      return this;
    }

    /** Prefix of SQS queue names: letters, digits, '-' and '_', at most 24 characters. */
    public Builder queueNamePrefix(String queueNamePrefix) {
      this.queueNamePrefix = queueNamePrefix;
      return this;
    }

    public Builder queueBackend(QueueBackend queueBackend) {
      this.queueBackend = queueBackend;
      return this;
    }

    /** Attempts per call, the first included (1 = no retries); at most 10. */
    public Builder maxAttempts(int maxAttempts) {
      this.maxAttempts = maxAttempts;
      return this;
    }

    public Builder apiCallTimeout(Duration apiCallTimeout) {
      this.apiCallTimeout = apiCallTimeout;
      return this;
    }

    public Builder apiCallAttemptTimeout(Duration apiCallAttemptTimeout) {
      this.apiCallAttemptTimeout = apiCallAttemptTimeout;
      return this;
    }

    public Builder connectTimeout(Duration connectTimeout) {
      this.connectTimeout = connectTimeout;
      return this;
    }

    public Builder maxConnections(int maxConnections) {
      this.maxConnections = maxConnections;
      return this;
    }

    /** SQS MessageRetentionPeriod set on the queues this adapter creates: 1 minute to 14 days. */
    public Builder messageRetention(Duration messageRetention) {
      this.messageRetention = messageRetention;
      return this;
    }

    /** SQS MaximumMessageSize set on created queues, 1,024 bytes to 1 MiB. */
    public Builder sqsMaximumMessageSize(int bytes) {
      this.sqsMaximumMessageSize = bytes;
      return this;
    }

    /** SQS long-poll wait of each receive, 0 to 20 s (whole seconds). */
    public Builder receiveWait(Duration receiveWait) {
      this.receiveWait = receiveWait;
      return this;
    }

    public Builder s3QueueMaxMessageSize(int bytes) {
      this.s3QueueMaxMessageSize = bytes;
      return this;
    }

    public Builder instanceType(String instanceType) {
      this.instanceType = instanceType;
      return this;
    }

    /** Value of the "stratus:cloud" tag put on every started instance and used to list them. */
    public Builder machineTag(String machineTag) {
      this.machineTag = machineTag;
      return this;
    }

    /**
     * Offers the index service on DynamoDB, one table per domain named {@code prefix + domain}
     * (letters, digits, '_', '.', '-'; at most {@value #MAX_INDEX_TABLE_PREFIX_LENGTH}
     * characters, so that the longest domain name still makes a valid table name).
     */
    public Builder indexTablePrefix(String prefix) {
      this.indexTablePrefix = prefix;
      return this;
    }

    /**
     * Sends the index service's DynamoDB requests to {@code endpoint} instead of {@link
     * #endpoint(URI)}'s (e.g. a DynamoDB-compatible server beside LocalStack).
     */
    public Builder indexEndpoint(URI endpoint) {
      this.indexEndpoint = endpoint;
      return this;
    }

    /** Validates every setting; throws {@link IllegalArgumentException} naming each problem. */
    public AwsConfig build() {
      List<String> problems = new ArrayList<>();
      if (bucket == null || !BUCKET.matcher(bucket).matches() || bucket.contains("..")) {
        problems.add(
            "bucket must be a valid S3 bucket name (3-63 characters: lower-case letters,"
                + " digits, '.', '-'; starting and ending with a letter or digit), got "
                + show(bucket));
      }
      if (region == null || !REGION.matcher(region).matches()) {
        problems.add("region must look like us-east-1, got " + show(region));
      }
      if (endpoint != null && !validEndpoint(endpoint)) {
        problems.add("endpoint must be an http(s) URI with a host and no user info");
      }
      if (indexEndpoint != null && !validEndpoint(indexEndpoint)) {
        problems.add("indexEndpoint must be an http(s) URI with a host and no user info");
      }
      if (indexTablePrefix != null
          && (!INDEX_TABLE_PREFIX.matcher(indexTablePrefix).matches()
              || indexTablePrefix.length() > MAX_INDEX_TABLE_PREFIX_LENGTH)) {
        problems.add(
            "indexTablePrefix must be at most "
                + MAX_INDEX_TABLE_PREFIX_LENGTH
                + " letters, digits, '_', '.' or '-', got "
                + show(indexTablePrefix));
      }
      checkPrefix(problems, "keyPrefix", keyPrefix);
      checkPrefix(problems, "s3QueueKeyPrefix", s3QueueKeyPrefix);
      if (queueBackend == null) {
        problems.add("queueBackend must be set");
      }
      if (queueBackend == QueueBackend.S3
          && keyPrefix != null
          && s3QueueKeyPrefix != null
          && (keyPrefix.startsWith(s3QueueKeyPrefix) || s3QueueKeyPrefix.startsWith(keyPrefix))) {
        problems.add(
            "keyPrefix and s3QueueKeyPrefix must not be prefixes of one another (queue"
                + " objects would show in storage listings), got "
                + show(keyPrefix)
                + " and "
                + show(s3QueueKeyPrefix));
      }
      if (queueNamePrefix == null
          || !QUEUE_NAME_PREFIX.matcher(queueNamePrefix).matches()
          || queueNamePrefix.length() > MAX_QUEUE_NAME_PREFIX_LENGTH) {
        problems.add(
            "queueNamePrefix must be at most "
                + MAX_QUEUE_NAME_PREFIX_LENGTH
                + " letters, digits, '-' or '_', got "
                + show(queueNamePrefix));
      }
      if (maxAttempts < 1 || maxAttempts > 10) {
        problems.add("maxAttempts must be 1 to 10, got " + maxAttempts);
      }
      checkPositive(problems, "apiCallTimeout", apiCallTimeout);
      checkPositive(problems, "apiCallAttemptTimeout", apiCallAttemptTimeout);
      checkPositive(problems, "connectTimeout", connectTimeout);
      if (apiCallTimeout != null
          && apiCallAttemptTimeout != null
          && apiCallAttemptTimeout.compareTo(apiCallTimeout) > 0) {
        problems.add("apiCallAttemptTimeout must not exceed apiCallTimeout");
      }
      if (maxConnections < 1) {
        problems.add("maxConnections must be positive, got " + maxConnections);
      }
      if (messageRetention == null
          || messageRetention.compareTo(Duration.ofMinutes(1)) < 0
          || messageRetention.compareTo(MAX_MESSAGE_RETENTION) > 0) {
        problems.add("messageRetention must be 1 minute to 14 days (SQS), got " + messageRetention);
      }
      if (sqsMaximumMessageSize < 1024
          || sqsMaximumMessageSize > DEFAULT_SQS_MAXIMUM_MESSAGE_SIZE) {
        problems.add(
            "sqsMaximumMessageSize must be 1024 to 1048576 bytes, got " + sqsMaximumMessageSize);
      }
      if (receiveWait == null
          || receiveWait.isNegative()
          || receiveWait.compareTo(Duration.ofSeconds(20)) > 0
          || receiveWait.toMillis() % 1000 != 0) {
        problems.add("receiveWait must be 0 to 20 whole seconds, got " + receiveWait);
      } else if (apiCallAttemptTimeout != null
          && receiveWait.compareTo(apiCallAttemptTimeout) >= 0) {
        problems.add("receiveWait must be shorter than apiCallAttemptTimeout");
      }
      if (s3QueueMaxMessageSize < 1) {
        problems.add("s3QueueMaxMessageSize must be positive, got " + s3QueueMaxMessageSize);
      }
      if (instanceType == null || instanceType.isBlank()) {
        problems.add("instanceType must not be blank");
      }
      if (machineTag == null || machineTag.isBlank() || machineTag.length() > 256) {
        problems.add("machineTag must be 1 to 256 characters");
      }
      if (!problems.isEmpty()) {
        throw new IllegalArgumentException(
            "invalid AWS configuration: " + String.join("; ", problems));
      }
      return new AwsConfig(this);
    }

    private static boolean validEndpoint(URI uri) {
      return uri.isAbsolute()
          && uri.getHost() != null
          && (uri.getScheme().equals("http") || uri.getScheme().equals("https"))
          && uri.getUserInfo() == null;
    }

    private static void checkPrefix(List<String> problems, String name, String prefix) {
      if (prefix == null) {
        problems.add(name + " must not be null (use \"\" for none)");
        return;
      }
      for (int i = 0; i < prefix.length(); i++) {
        if (Character.isISOControl(prefix.charAt(i))) {
          problems.add(name + " must not contain control characters");
          return;
        }
      }
      if (prefix.getBytes(StandardCharsets.UTF_8).length > 512) {
        problems.add(name + " must be at most 512 UTF-8 bytes (S3 keys hold 1,024)");
      }
    }

    private static void checkPositive(List<String> problems, String name, Duration d) {
      if (d == null || d.isZero() || d.isNegative()) {
        problems.add(name + " must be positive, got " + d);
      }
    }

    private static String show(String s) {
      return s == null ? "null" : '"' + s + '"';
    }
  }
}
