package io.stratus.aws;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.localstack.LocalStackContainer;
import org.testcontainers.utility.DockerImageName;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3AsyncClient;

/**
 * One LocalStack (S3, SQS, EC2) for all tests of this JVM, found in this order:
 *
 * <ol>
 *   <li>the endpoint in the environment variable {@value #ENDPOINT_VARIABLE}, e.g. one started
 *       with {@code bin/localstack start} (it must offer s3, sqs and ec2);
 *   <li>Testcontainers' LocalStack module, when a Docker engine is available ({@value #IMAGE},
 *       the last tag that needs no auth token);
 *   <li>the project's launcher, {@code bin/localstack start --port <free port>}, which installs
 *       LocalStack on first use (1 to 3 minutes, once per machine) and is stopped when the JVM exits.
 * </ol>
 *
 * <p>Why it fails instead of skipping: these tests are the only check of the AWS adapter, and CI
 * has no Docker but can always use the launcher. When none of the three works, {@link #get()}
 * throws with the reason of each, and every test that needs LocalStack fails with it.
 */
public final class LocalStackFixture {
  static final String ENDPOINT_VARIABLE = "STRATUS_LOCALSTACK_ENDPOINT";
  static final String IMAGE = "localstack/localstack:3.8";
  static final String REGION = "us-east-1";
  static final String ACCESS_KEY = "test";
  static final String SECRET_KEY = "test";

  /** Bounds the launcher: a first install takes 1 to 3 minutes, a start a few seconds. */
  static final Duration LAUNCH_TIMEOUT = Duration.ofMinutes(6);

  private static LocalStackFixture instance;
  private static IllegalStateException failure;

  private final URI endpoint;
  private final String source;
  private final String bucket;

  private LocalStackFixture(URI endpoint, String source) {
    this.endpoint = endpoint;
    this.source = source;
    this.bucket = "stratus-test-" + UUID.randomUUID().toString().substring(0, 8);
    createBucket(bucket);
  }

  /** The JVM's LocalStack, started on first use; throws with every reason when none works. */
  public static synchronized LocalStackFixture get() {
    if (instance != null) {
      return instance;
    }
    if (failure != null) {
      throw failure;
    }
    List<String> reasons = new ArrayList<>();
    try {
      instance = find(reasons);
      System.out.println(
          "LocalStack for the AWS adapter tests: " + instance.source + " at " + instance.endpoint);
      return instance;
    } catch (RuntimeException e) {
      reasons.add(e.toString());
      failure =
          new IllegalStateException(
              "no LocalStack for the AWS adapter tests: "
                  + String.join("; ", reasons)
                  + ". Set "
                  + ENDPOINT_VARIABLE
                  + ", start Docker, or fix bin/localstack.",
              e);
      throw failure;
    }
  }

  private static LocalStackFixture find(List<String> reasons) {
    String fromEnv = System.getenv(ENDPOINT_VARIABLE);
    if (fromEnv != null && !fromEnv.isBlank()) {
      URI uri = URI.create(fromEnv.trim());
      String health = health(uri);
      if (health == null) {
        throw new IllegalStateException(
            ENDPOINT_VARIABLE + "=" + uri + " does not answer /_localstack/health");
      }
      return new LocalStackFixture(uri, ENDPOINT_VARIABLE);
    }
    if (dockerAvailable(reasons)) {
      LocalStackContainer c =
          new LocalStackContainer(DockerImageName.parse(IMAGE)).withServices("s3", "sqs", "ec2");
      c.start();
      Runtime.getRuntime().addShutdownHook(new Thread(c::stop, "localstack-container-stop"));
      return new LocalStackFixture(c.getEndpoint(), "Testcontainers " + IMAGE);
    }
    return new LocalStackFixture(
        ProjectLauncher.start("bin/localstack", LAUNCH_TIMEOUT), "bin/localstack");
  }

  private static boolean dockerAvailable(List<String> reasons) {
    try {
      if (DockerClientFactory.instance().isDockerAvailable()) {
        return true;
      }
      reasons.add("no Docker engine for Testcontainers");
    } catch (RuntimeException | LinkageError e) {
      reasons.add("Testcontainers: " + e);
    }
    return false;
  }

  /** The health document, or null when the endpoint does not answer. */
  static String health(URI endpoint) {
    try {
      HttpURLConnection c =
          (HttpURLConnection) endpoint.resolve("/_localstack/health").toURL().openConnection();
      c.setConnectTimeout(2000);
      c.setReadTimeout(5000);
      try {
        return c.getResponseCode() == 200
            ? new String(c.getInputStream().readAllBytes(), StandardCharsets.UTF_8)
            : null;
      } finally {
        c.disconnect();
      }
    } catch (IOException e) {
      return null;
    }
  }

  URI endpoint() {
    return endpoint;
  }

  /**
   * This LocalStack, after checking that it offers EC2 (one given by {@value #ENDPOINT_VARIABLE}
   * may have been started without it), so that a missing service fails with its reason.
   */
  LocalStackFixture requireEc2() {
    String health = health(endpoint);
    if (health == null || !health.matches("(?s).*\"ec2\": ?\"(available|running)\".*")) {
      throw new IllegalStateException(
          "the LocalStack at "
              + endpoint
              + " ("
              + source
              + ") does not offer EC2; start it with SERVICES including ec2, as bin/localstack does."
              + " Health: "
              + health);
    }
    return this;
  }

  /** The bucket made for this JVM's tests. */
  public String bucket() {
    return bucket;
  }

  /** A configuration for this LocalStack and {@link #bucket()}, to be completed by the test. */
  public AwsConfig.Builder config() {
    return AwsConfig.builder(bucket)
        .region(REGION)
        .endpoint(endpoint)
        .pathStyleAccess(true)
        .staticCredentials(ACCESS_KEY, SECRET_KEY)
        .maxAttempts(3)
        .apiCallAttemptTimeout(Duration.ofSeconds(30))
        .apiCallTimeout(Duration.ofSeconds(90));
  }

  /** A raw S3 client for tests that look behind the adapter; the caller closes it. */
  S3AsyncClient rawS3() {
    return S3AsyncClient.builder()
        .region(Region.of(REGION))
        .endpointOverride(endpoint)
        .forcePathStyle(true)
        .credentialsProvider(
            StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY)))
        .build();
  }

  private void createBucket(String name) {
    try (S3AsyncClient s3 = rawS3()) {
      s3.createBucket(b -> b.bucket(name)).join();
    }
  }
}
