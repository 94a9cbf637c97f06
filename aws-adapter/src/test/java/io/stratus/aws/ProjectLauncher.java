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
 * Runs one of the project's service launchers ({@code bin/localstack}, {@code bin/dynamodb}) for
 * the tests: {@code start --port <free port>} from the project's root, waited for within a bound
 * (the first run installs the service), and {@code stop} when the JVM exits. The launchers share
 * this command line, so the fixtures that use them share this code.
 */
final class ProjectLauncher {
  private ProjectLauncher() {}

  /**
   * Starts {@code launcher} (a path under the project's root, e.g. {@code bin/dynamodb}) on a free
   * port and returns the service's endpoint on 127.0.0.1.
   *
   * @throws IllegalStateException the launcher is missing, failed or did not finish in {@code
   *     timeout}; the message holds the end of its log
   */
  static URI start(String launcher, Duration timeout) {
    Path root = projectRoot(launcher);
    Path script = root.resolve(launcher);
    int port = freePort();
    Path log;
    try {
      log = Files.createTempFile("stratus-launcher", ".log");
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
      // A real external process: wait for it, bounded.
      if (!p.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IllegalStateException(
            launcher + " start did not finish within " + timeout + ": " + tail(log));
      }
      Runtime.getRuntime()
          .addShutdownHook(new Thread(() -> stop(script, port), launcher + "-stop"));
      if (p.exitValue() != 0) {
        throw new IllegalStateException(
            launcher + " start failed (exit " + p.exitValue() + "): " + tail(log));
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot run " + script + ": " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running " + launcher, e);
    }
    return URI.create("http://127.0.0.1:" + port);
  }

  /**
   * Starts {@code <launcher> stop} and returns without waiting: a service takes seconds to shut
   * down, and the script outlives this JVM, so the build goes on meanwhile instead of waiting in
   * every module that used the service.
   */
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

  /** The folder that holds {@code launcher}: the module's parent when run by Maven. */
  private static Path projectRoot(String launcher) {
    for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
      if (Files.isRegularFile(p.resolve(launcher)) && Files.isRegularFile(p.resolve("pom.xml"))) {
        return p;
      }
    }
    throw new IllegalStateException(launcher + " not found above " + Path.of("").toAbsolutePath());
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
