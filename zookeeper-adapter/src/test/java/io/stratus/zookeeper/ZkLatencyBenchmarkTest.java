package io.stratus.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.AdvancedMessage;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.LockService;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;

/**
 * Latency per operation against an in-JVM ZooKeeper server (loopback, no fsync), printed as a
 * table and not asserted: the numbers the module's README quotes. A real ensemble adds the network
 * round trips and, for writes, the quorum's disk sync. Each operation is measured after a warm-up,
 * sequentially, from one client; each queue receive must return the message just sent.
 *
 * <p>By default a few dozen calls per operation run, enough to check that each one works; the
 * README's numbers come from {@code -Dstratus.zk.bench.rounds=300}.
 */
class ZkLatencyBenchmarkTest {
  private static final int[] PAYLOADS = {1024, 100 * 1024, 900 * 1024};

  /** Timed calls per lock, counter and 1 KB queue operation; larger payloads get fewer. */
  private static final int ROUNDS = Math.max(15, Integer.getInteger("stratus.zk.bench.rounds", 40));

  @Test
  void printLatencies() throws Exception {
    List<String> rows = new ArrayList<>();
    try (TestingServer server = ZkTesting.startServer();
        ZooKeeperCloud cloud =
            ZooKeeperCloud.connect(
                ZkTesting.config(server.getConnectString(), Clock.systemUTC()).build())) {
      LockService locks = cloud.locks();
      rows.add(
          measure(
              "lock acquire (exclusive)",
              ROUNDS,
              i -> {
                CloudFutures.await(locks.acquireExclusive("bench/l" + (i % 10), "A"));
                return 0;
              }));
      rows.add(
          measure(
              "lock release",
              ROUNDS,
              i -> {
                CloudFutures.await(locks.acquireExclusive("bench/r" + (i % 10), "A"));
                long t = System.nanoTime();
                CloudFutures.await(locks.release("bench/r" + (i % 10), "A"));
                return System.nanoTime() - t;
              }));
      rows.add(
          measure(
              "counter increment",
              ROUNDS,
              i -> {
                CloudFutures.await(cloud.counters().increment("bench/c"));
                return 0;
              }));
      rows.add(
          measure(
              "counter highestValidated",
              ROUNDS,
              i -> {
                CloudFutures.await(cloud.counters().highestValidated("bench/c"));
                return 0;
              }));
      Random rnd = new Random(1);
      for (int size : PAYLOADS) {
        String q = "bench/q" + size;
        CloudFutures.await(cloud.advancedQueues().createQueue(q));
        byte[] payload = new byte[size];
        rnd.nextBytes(payload);
        int n = size > 500_000 ? ROUNDS / 15 : size > 50_000 ? ROUNDS / 5 : ROUNDS;
        long[] ids = new long[n + n / 5];
        rows.add(
            measure(
                "queue send " + size / 1024 + " KB",
                n,
                i -> {
                  ids[i] = CloudFutures.await(cloud.advancedQueues().send(q, payload, i));
                  return 0;
                }));
        rows.add(
            measure(
                "queue receive 1 of " + size / 1024 + " KB",
                n,
                i -> {
                  List<AdvancedMessage> got =
                      CloudFutures.await(cloud.advancedQueues().receiveAfterId(q, 1, ids[i] - 1));
                  assertThat(got).extracting(AdvancedMessage::id).containsExactly(ids[i]);
                  return 0;
                }));
        CloudFutures.await(cloud.advancedQueues().deleteQueue(q));
      }
    }
    System.out.println("ZooKeeper adapter latency (TestingServer, loopback, one client):");
    System.out.println(
        String.format("%-32s %6s %9s %9s %9s", "operation", "n", "mean ms", "p50 ms", "p99 ms"));
    rows.forEach(System.out::println);
  }

  private interface Op {
    /** Runs iteration {@code i}; returns its own measured nanos, or 0 to be timed whole. */
    long run(int i) throws Exception;
  }

  /** Runs {@code n} timed iterations after {@code n / 5} untimed ones; one table row. */
  private static String measure(String name, int n, Op op) throws Exception {
    int warmUp = n / 5;
    long[] nanos = new long[n];
    for (int i = 0; i < warmUp + n; i++) {
      long t = System.nanoTime();
      long own = op.run(i);
      long took = own > 0 ? own : System.nanoTime() - t;
      if (i >= warmUp) {
        nanos[i - warmUp] = took;
      }
    }
    Arrays.sort(nanos);
    return String.format(
        "%-32s %6d %9.3f %9.3f %9.3f",
        name,
        n,
        Arrays.stream(nanos).sum() / 1e6 / n,
        nanos[n / 2] / 1e6,
        nanos[Math.min(n - 1, (int) (n * 0.99))] / 1e6);
  }
}
