package io.stratus.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.CounterValues;
import io.stratus.cloudapi.time.ManualClock;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/zookeeper}, the project's Docker-less ZooKeeper launcher: it starts a server on a
 * free port and a data directory, the adapter connects to it, {@code status} reports it, a restart
 * on the same data directory keeps the namespace, and {@code stop} ends it.
 */
class ZooKeeperLauncherTest {
  /** Generous: the first start may run a Maven build to fetch ZooKeeper's jars. */
  private static final long COMMAND_TIMEOUT_SECONDS = 600;

  private record Result(int exit, String output) {}

  @Test
  void startsAServerTheAdapterUsesReportsItAndStopsIt(@TempDir Path data) throws Exception {
    int port = freePort();
    String connect = "127.0.0.1:" + port;
    String namespace = "launcher-test";
    ManualClock clock = new ManualClock();
    try {
      Result started =
          run("start", "--port", Integer.toString(port), "--data-dir", data.toString());
      assertThat(started.exit()).as(started.output()).isZero();
      assertThat(started.output()).contains(connect);
      try (ZooKeeperCloud cloud =
          ZooKeeperCloud.connect(ZkTesting.config(connect, clock, namespace).build())) {
        assertThat(cloud.foundFreshNamespace()).isTrue();
        assertThat(CloudFutures.await(cloud.locks().acquireExclusive("l", "A")).granted()).isTrue();
        assertThat(CounterValues.sequence(CloudFutures.await(cloud.counters().increment("c"))))
            .isEqualTo(1);
      }
      Result status = run("status", "--port", Integer.toString(port));
      assertThat(status.exit()).as(status.output()).isZero();
      assertThat(status.output()).contains("port " + port, "standalone");

      assertThat(run("stop", "--port", Integer.toString(port)).exit()).isZero();
      Result restarted =
          run("start", "--port", Integer.toString(port), "--data-dir", data.toString());
      assertThat(restarted.exit()).as(restarted.output()).isZero();
      try (ZooKeeperCloud cloud =
          ZooKeeperCloud.connect(ZkTesting.config(connect, clock, namespace).build())) {
        assertThat(cloud.foundFreshNamespace()).as("the data directory was kept").isFalse();
        assertThat(CounterValues.sequence(CloudFutures.await(cloud.counters().increment("c"))))
            .isEqualTo(2);
      }
    } finally {
      run("stop", "--port", Integer.toString(port));
    }
    Result after = run("status", "--port", Integer.toString(port));
    assertThat(after.exit()).isEqualTo(1);
    assertThat(after.output()).contains("not running");
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  /** Runs {@code bin/zookeeper} with {@code args}, its output (stdout and stderr) captured. */
  private static Result run(String... args) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(projectRoot().resolve("bin/zookeeper").toString());
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    byte[] out = p.getInputStream().readAllBytes(); // ends when the launcher exits
    if (!p.waitFor(COMMAND_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("bin/zookeeper " + String.join(" ", args) + " did not end");
    }
    return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8));
  }

  private static Path projectRoot() {
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null && !Files.isRegularFile(dir.resolve("bin/zookeeper"))) {
      dir = dir.getParent();
    }
    if (dir == null) {
      throw new AssertionError("no project root with bin/zookeeper above " + Path.of(""));
    }
    return dir;
  }
}
