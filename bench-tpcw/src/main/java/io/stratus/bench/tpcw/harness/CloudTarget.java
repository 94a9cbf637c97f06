package io.stratus.bench.tpcw.harness;

import java.net.URI;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a run's cloud services come from: the in-process cloud (the default; latency simulated by
 * a profile), LocalStack (S3 and SQS emulated on an endpoint), or real AWS. On the two real clouds
 * locks and counters come from ZooKeeper when a connect string is given, and otherwise from the
 * in-process lock and counter services, which is sound because every client of a harness run lives
 * in this one JVM.
 *
 * @param kind which cloud
 * @param endpoint LocalStack's endpoint (required for LocalStack; unused otherwise)
 * @param region the AWS region (LocalStack accepts any)
 * @param bucket the bucket for pages and S3 queues; made when missing
 * @param zookeeper a ZooKeeper connect string for locks and counters, if any
 * @param indexEndpoint on LocalStack, the endpoint of a DynamoDB-compatible server for the index
 *     service (LocalStack's own DynamoDB is not open source; {@code bin/dynamodb start} runs one);
 *     on AWS, DynamoDB's own endpoint is used when this is absent
 */
public record CloudTarget(
    Kind kind,
    Optional<URI> endpoint,
    String region,
    String bucket,
    Optional<String> zookeeper,
    Optional<URI> indexEndpoint) {

  /** Environment variable naming a running DynamoDB-compatible server, as the tests use it. */
  public static final String DYNAMODB_ENDPOINT_ENV = "STRATUS_DYNAMODB_ENDPOINT";

  /** Environment variable naming a running LocalStack, as the test fixtures use it. */
  public static final String LOCALSTACK_ENDPOINT_ENV = "STRATUS_LOCALSTACK_ENDPOINT";

  /** Region used when none is given. */
  public static final String DEFAULT_REGION = "us-east-1";

  /** Bucket used when none is given (LocalStack; AWS needs a globally unique name). */
  public static final String DEFAULT_BUCKET = "stratus-tpcw";

  /** The three clouds. */
  public enum Kind {
    IN_PROCESS("in-process"),
    LOCALSTACK("localstack"),
    AWS("aws");

    private final String id;

    Kind(String id) {
      this.id = id;
    }

    /** The command-line name. */
    public String id() {
      return id;
    }

    /** Parses a command-line name. */
    public static Kind parse(String name) {
      String n = name.trim().toLowerCase(Locale.ROOT);
      for (Kind k : values()) {
        if (k.id.equals(n)) {
          return k;
        }
      }
      throw new IllegalArgumentException(
          "unknown cloud '" + name + "' (expected in-process, localstack or aws)");
    }
  }

  /** Checks that the target is complete. */
  public CloudTarget {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(endpoint, "endpoint");
    Objects.requireNonNull(zookeeper, "zookeeper");
    Objects.requireNonNull(indexEndpoint, "indexEndpoint");
    if (kind == Kind.LOCALSTACK && endpoint.isEmpty()) {
      throw new IllegalArgumentException(
          "--cloud localstack needs --endpoint (or the environment"
              + " variable "
              + LOCALSTACK_ENDPOINT_ENV
              + "), e.g. http://localhost:4566; bin/localstack"
              + " start runs one");
    }
    if (region == null || region.isBlank()) {
      throw new IllegalArgumentException("region must not be blank");
    }
    if (bucket == null || bucket.isBlank()) {
      throw new IllegalArgumentException("bucket must not be blank");
    }
  }

  /** A target without an index endpoint of its own. */
  public CloudTarget(
      Kind kind, Optional<URI> endpoint, String region, String bucket, Optional<String> zookeeper) {
    this(kind, endpoint, region, bucket, zookeeper, Optional.empty());
  }

  /**
   * Whether runs whose indexes are held by the index service can run here: the in-process cloud
   * and AWS have one; LocalStack needs {@link #indexEndpoint()}.
   */
  public boolean hasIndexService() {
    return kind != Kind.LOCALSTACK || indexEndpoint.isPresent();
  }

  /** The in-process cloud. */
  public static CloudTarget inProcess() {
    return new CloudTarget(
        Kind.IN_PROCESS, Optional.empty(), DEFAULT_REGION, DEFAULT_BUCKET, Optional.empty());
  }

  /** Whether latency must be simulated (only the in-process cloud has none of its own). */
  public boolean simulatesLatency() {
    return kind == Kind.IN_PROCESS;
  }
}
