package io.stratus.aws;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

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
      URI uri = fromEnv != null && !fromEnv.isBlank() ? URI.create(fromEnv.trim()) : launch();
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

  /** Starts the project's launcher on a free port and stops it when the JVM exits. */
  private static URI launch() {
    Path root = projectRoot();
    Path script = root.resolve("bin/dynamodb");
    int port = freePort();
    Path log;
    try {
      log = Files.createTempFile("stratus-dynamodb-launcher", ".log");
    } catch (IOException e) {
      throw new IllegalStateException("cannot create a log file", e);
    }
    ProcessBuilder pb =
        new ProcessBuilder("bash", script.toString(), "start", "--port", Integer.toString(port))
            .directory(root.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    try {
      Process p = pb.start();
      // A real external process: wait for it, bounded (the first run installs moto).
      if (!p.waitFor(LAUNCH_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IllegalStateException(
            "bin/dynamodb start did not finish within " + LAUNCH_TIMEOUT + ": " + tail(log));
      }
      Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(script, port), "dynamodb-stop"));
      if (p.exitValue() != 0) {
        throw new IllegalStateException(
            "bin/dynamodb start failed (exit " + p.exitValue() + "): " + tail(log));
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot run " + script + ": " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while starting the server", e);
    }
    return URI.create("http://127.0.0.1:" + port);
  }

  /** Starts {@code bin/dynamodb stop} and returns without waiting, as the JVM is exiting. */
  private static void stop(Path script, int port) {
    try {
      new ProcessBuilder("bash", script.toString(), "stop", "--port", Integer.toString(port))
          .redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD)
          .start();
    } catch (IOException e) {
      // the JVM is exiting: nothing more to do
    }
  }

  /** The folder that holds bin/dynamodb: the module's parent when run by Maven. */
  private static Path projectRoot() {
    for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
      if (Files.isRegularFile(p.resolve("bin/dynamodb"))
          && Files.isRegularFile(p.resolve("pom.xml"))) {
        return p;
      }
    }
    throw new IllegalStateException("bin/dynamodb not found above " + Path.of("").toAbsolutePath());
  }

  private static int freePort() {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException("no free port", e);
    }
  }

  private static String tail(Path log) {
    try {
      List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }
}
