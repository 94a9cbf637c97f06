package io.stratus.cli;

import io.stratus.aws.AwsConfig;
import io.stratus.protocols.ProtocolKind;
import java.net.URI;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;
import picocli.CommandLine.Option;

/**
 * Where the database is: the cloud and its settings, the database URI and the commit protocol its
 * clients run. The names are those of {@code bin/stratus-bench} (--cloud, --endpoint, --region,
 * --bucket, --zookeeper), so one set of flags reaches the same services from both tools; the
 * prefixes must be those the application's clients were configured with. Keys of client-side
 * encryption come from a file or an environment variable, never from the command line itself
 * ({@link KeyringSource}).
 */
public final class ConnectionOptions {
  /** Environment variable naming a running LocalStack, as the test fixtures and the bench use. */
  public static final String LOCALSTACK_ENDPOINT_ENV = "STRATUS_LOCALSTACK_ENDPOINT";

  /** Environment variable read for ZooKeeper's digest credentials when no flag names another. */
  public static final String ZK_DIGEST_ENV = "STRATUS_ZK_DIGEST";

  @Option(
      names = "--cloud",
      defaultValue = "inprocess",
      paramLabel = "CLOUD",
      description = "inprocess, localstack or aws (default: ${DEFAULT-VALUE}).")
  String cloud;

  @Option(
      names = "--endpoint",
      paramLabel = "URL",
      description = "LocalStack endpoint (default: $" + LOCALSTACK_ENDPOINT_ENV + ").")
  String endpoint;

  @Option(
      names = "--region",
      defaultValue = "us-east-1",
      paramLabel = "REGION",
      description = "AWS region (default: ${DEFAULT-VALUE}).")
  String region;

  @Option(
      names = "--bucket",
      paramLabel = "BUCKET",
      description = "The bucket holding the pages (required on localstack and aws).")
  String bucket;

  @Option(
      names = "--key-prefix",
      defaultValue = "items/",
      paramLabel = "PREFIX",
      description = "Key prefix of the pages in the bucket (default: ${DEFAULT-VALUE}).")
  String keyPrefix;

  @Option(
      names = "--queue-prefix",
      defaultValue = "stratus-",
      paramLabel = "PREFIX",
      description = "SQS queue-name prefix (default: ${DEFAULT-VALUE}).")
  String queuePrefix;

  @Option(
      names = "--queue-backend",
      defaultValue = "sqs",
      paramLabel = "sqs|s3",
      description = "Where simple queues live (default: ${DEFAULT-VALUE}).")
  String queueBackend;

  @Option(
      names = "--zookeeper",
      paramLabel = "HOST:PORT",
      description = "ZooKeeper connect string for locks, counters and advanced queues.")
  String zookeeper;

  @Option(
      names = "--zk-namespace",
      defaultValue = "stratus",
      paramLabel = "NAME",
      description = "ZooKeeper namespace of the clients (default: ${DEFAULT-VALUE}).")
  String zkNamespace;

  @Option(
      names = "--zk-digest-env",
      defaultValue = ZK_DIGEST_ENV,
      paramLabel = "VAR",
      description =
          "The environment variable holding the clients' ZooKeeper digest credentials as"
              + " USER:PASSWORD (default: ${DEFAULT-VALUE}; unset means no credentials).")
  String zkDigestEnv;

  @Option(
      names = "--db",
      defaultValue = "db",
      paramLabel = "URI",
      description = "The database URI (default: ${DEFAULT-VALUE}).")
  String database;

  @Option(
      names = "--protocol",
      defaultValue = "monotonic",
      paramLabel = "PROTOCOL",
      description = "The commit protocol the database's clients run (default: ${DEFAULT-VALUE}).")
  String protocol;

  @Option(
      names = "--checkpoint-interval",
      paramLabel = "SECONDS",
      description = "The clients' checkpoint interval in seconds (default: the library's).")
  Long checkpointSeconds;

  @Option(
      names = "--lock-timeout",
      paramLabel = "SECONDS",
      description =
          "How long a checkpoint holds a queue's lock, as the clients' checkpointLockTimeout"
              + " (default: the library's).")
  Long lockTimeoutSeconds;

  @Option(
      names = "--atomic-timeout",
      paramLabel = "SECONDS",
      description =
          "The atomic protocol's grace period for a dead client's uncommitted transactions, as"
              + " the clients' atomicTimeout (default: the library's).")
  Long atomicTimeoutSeconds;

  @Option(
      names = "--keyring-file",
      paramLabel = "FILE",
      description =
          "Client-side encryption: a file of KEY_ID=BASE64 lines (16, 24 or 32 bytes each;"
              + " '#' starts a comment). Keep it readable by you only.")
  Path keyringFile;

  @Option(
      names = "--keyring-env",
      paramLabel = "VAR",
      description =
          "Client-side encryption: the environment variable holding KEY_ID=BASE64 entries,"
              + " separated by newlines, commas or spaces.")
  String keyringEnv;

  @Option(
      names = "--default-key",
      paramLabel = "KEY_ID",
      description =
          "The key active for everything without a collection key of its own (default: the"
              + " only key, when there is one).")
  String defaultKey;

  @Option(
      names = "--collection-key",
      paramLabel = "COLLECTION=KEY_ID",
      description = "The key active for one collection; repeat for several.")
  Map<String, String> collectionKeys = new LinkedHashMap<>();

  @Option(
      names = "--demo",
      description = "On the in-process cloud: first create a small demo database to look at.")
  boolean demo;

  /**
   * The LocalStack endpoint: {@code --endpoint}, else the variable {@value
   * #LOCALSTACK_ENDPOINT_ENV} of {@code env}; null when neither is set.
   */
  String endpointUrl(UnaryOperator<String> env) {
    String url = endpoint != null ? endpoint : env.apply(LOCALSTACK_ENDPOINT_ENV);
    return url == null || url.isBlank() ? null : url.trim();
  }

  /**
   * Where the commands look, for messages: the cloud, its endpoint (masked: no query or user
   * information) and bucket.
   */
  String where(UnaryOperator<String> env) {
    return switch (cloud()) {
      case INPROCESS -> "the in-process cloud";
      case LOCALSTACK -> {
        String url = endpointUrl(env);
        yield "LocalStack at "
            + (url == null ? "(no endpoint)" : AwsConfig.masked(URI.create(url)))
            + ", bucket "
            + bucket;
      }
      case AWS -> "AWS region " + region + ", bucket " + bucket;
    };
  }

  /**
   * Checks what the command line alone can tell: a real cloud needs a bucket, LocalStack an
   * endpoint.
   *
   * @throws UsageException when they are missing
   */
  void checkComplete(UnaryOperator<String> env) {
    Cloud c = cloud();
    if (c == Cloud.INPROCESS) {
      return;
    }
    if (bucket == null || bucket.isBlank()) {
      throw new UsageException("--cloud " + c.name().toLowerCase(Locale.ROOT) + " needs --bucket");
    }
    if (c == Cloud.LOCALSTACK && endpointUrl(env) == null) {
      throw new UsageException(
          "--cloud localstack needs --endpoint (or $"
              + LOCALSTACK_ENDPOINT_ENV
              + "), e.g. http://localhost:4566");
    }
  }

  /** The cloud named by --cloud. */
  Cloud cloud() {
    return Cloud.parse(cloud);
  }

  /** The protocol named by --protocol. */
  ProtocolKind protocol() {
    try {
      return ProtocolKind.valueOf(protocol.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "unknown protocol '"
              + protocol
              + "'; known: "
              + java.util.Arrays.toString(ProtocolKind.values()).toLowerCase(Locale.ROOT));
    }
  }

  /** The three clouds. */
  enum Cloud {
    INPROCESS,
    LOCALSTACK,
    AWS;

    static Cloud parse(String name) {
      String n = name.trim().toLowerCase(Locale.ROOT).replace("-", "");
      for (Cloud c : values()) {
        if (c.name().toLowerCase(Locale.ROOT).equals(n)) {
          return c;
        }
      }
      throw new UsageException(
          "unknown cloud '" + name + "' (expected inprocess, localstack or aws)");
    }
  }
}
