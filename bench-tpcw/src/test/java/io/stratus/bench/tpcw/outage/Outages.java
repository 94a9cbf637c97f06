package io.stratus.bench.tpcw.outage;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;

/**
 * The faults of the outage test: which ZooKeeper server leads (asked with the {@code srvr}
 * four-letter word, which servers allow by default), and pausing and resuming the project's
 * LocalStack process group with SIGSTOP and SIGCONT.
 *
 * <p>Why a pause and not a restart: the launcher runs LocalStack's community edition in memory
 * (persistence is not available there), so a restart starts with no bucket and no queue, which
 * no database survives; a paused process is a storage service that stops answering, connections
 * and data intact, and answers everything queued once it resumes.
 */
final class Outages {
  private Outages() {}

  /** The server of {@code cluster} that reports "Mode: leader". */
  static InstanceSpec leader(TestingCluster cluster) throws IOException {
    for (InstanceSpec spec : cluster.getInstances()) {
      if (srvr(spec.getPort()).contains("Mode: leader")) {
        return spec;
      }
    }
    throw new AssertionError("no server of " + cluster.getConnectString() + " leads");
  }

  private static String srvr(int port) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), 2000);
      s.setSoTimeout(2000);
      OutputStream out = s.getOutputStream();
      out.write("srvr".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = s.getInputStream();
      return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
    } catch (IOException e) {
      return ""; // a server that is down leads nothing
    }
  }

  /**
   * The process group of the LocalStack that {@code bin/localstack} started for {@code endpoint}
   * (its pid file, .localstack/run/PORT/pid under the project root).
   *
   * @throws AssertionError naming what is missing, e.g. when the endpoint came from Docker or from
   *     the environment: the test can pause only a process it can find
   */
  static long localStackProcessGroup(URI endpoint) throws IOException {
    Path root = Path.of("").toAbsolutePath();
    while (root != null && !Files.isRegularFile(root.resolve("bin/localstack"))) {
      root = root.getParent();
    }
    if (root == null) {
      throw new AssertionError(
          "no project root with bin/localstack above " + Path.of("").toAbsolutePath());
    }
    Path pidFile = root.resolve(".localstack/run/" + endpoint.getPort() + "/pid");
    if (!Files.isRegularFile(pidFile)) {
      throw new AssertionError(
          "LocalStack at "
              + endpoint
              + " was not started by bin/localstack ("
              + pidFile
              + " is missing); the outage test pauses that process and cannot pause"
              + " another");
    }
    return Long.parseLong(Files.readString(pidFile).trim());
  }

  /** Sends {@code signal} ("STOP" or "CONT") to every process of group {@code pgid}. */
  static void signalGroup(long pgid, String signal) throws IOException, InterruptedException {
    Process p =
        new ProcessBuilder("kill", "-" + signal, "--", "-" + pgid)
            .redirectErrorStream(true)
            .start();
    if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new AssertionError(
          "kill -"
              + signal
              + " -"
              + pgid
              + " failed: "
              + new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }
  }
}
