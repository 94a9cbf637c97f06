package io.stratus.aws;

import java.net.URI;
import java.time.Duration;

/**
 * One DynamoDB-compatible server for all tests of this JVM: the endpoint in the environment
 * variable {@value #ENDPOINT_VARIABLE} when set, else moto's server started by the project's
 * launcher, {@code bin/dynamodb start --port <free port>}, which installs it on first use (about a
 * minute, once per machine) and is stopped when the JVM exits.
 *
 * <p>Why it fails instead of skipping: these tests are the only check of the index service on
 * DynamoDB, and CI can always use the launcher. When it fails, {@link #get()} throws with the
 * launcher's output, and every test that needs the server fails with it.
 */
public final class DynamoFixture {
  static final String ENDPOINT_VARIABLE = "STRATUS_DYNAMODB_ENDPOINT";

  /** Bounds the launcher: a first install takes about a minute, a start a second or two. */
  static final Duration LAUNCH_TIMEOUT = Duration.ofMinutes(5);

  private static DynamoFixture instance;
  private static IllegalStateException failure;

  private final URI endpoint;
  private final Duration startTime;

  private DynamoFixture(URI endpoint, Duration startTime) {
    this.endpoint = endpoint;
    this.startTime = startTime;
  }

  /** The JVM's server, started on first use; throws with the reason when there is none. */
  public static synchronized DynamoFixture get() {
    if (instance != null) {
      return instance;
    }
    if (failure != null) {
      throw failure;
    }
    try {
      String fromEnv = System.getenv(ENDPOINT_VARIABLE);
      long t0 = System.nanoTime();
      URI uri =
          fromEnv != null && !fromEnv.isBlank()
              ? URI.create(fromEnv.trim())
              : ProjectLauncher.start("bin/dynamodb", LAUNCH_TIMEOUT);
      instance = new DynamoFixture(uri, Duration.ofNanos(System.nanoTime() - t0));
      System.out.println(
          "DynamoDB-compatible server for the index tests at "
              + uri
              + " (ready after "
              + instance.startTime.toMillis()
              + " ms)");
      return instance;
    } catch (RuntimeException e) {
      failure =
          new IllegalStateException(
              "no DynamoDB-compatible server for the index tests: "
                  + e.getMessage()
                  + ". Set "
                  + ENDPOINT_VARIABLE
                  + " or fix bin/dynamodb.",
              e);
      throw failure;
    }
  }

  public URI endpoint() {
    return endpoint;
  }

  /** How long finding or starting the server took. */
  Duration startTime() {
    return startTime;
  }

  /**
   * A configuration for this server with the index service under {@code tablePrefix}; the bucket
   * is never used (no S3 request is made).
   */
  AwsConfig.Builder config(String tablePrefix) {
    return AwsConfig.builder("stratus-unused")
        .region(LocalStackFixture.REGION)
        .endpoint(endpoint)
        .staticCredentials(LocalStackFixture.ACCESS_KEY, LocalStackFixture.SECRET_KEY)
        .indexTablePrefix(tablePrefix)
        .maxAttempts(3)
        .apiCallAttemptTimeout(Duration.ofSeconds(30))
        .apiCallTimeout(Duration.ofSeconds(90));
  }
}
