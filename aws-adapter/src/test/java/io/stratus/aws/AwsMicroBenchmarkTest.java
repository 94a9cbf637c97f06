package io.stratus.aws;

import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.ItemVersion;
import io.stratus.cloudapi.QueueMessage;
import io.stratus.cloudapi.SimpleQueueService;
import io.stratus.cloudapi.SupportsConditionalPut;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;

/**
 * Prints latency and HTTP requests per Cloud API operation against LocalStack: S3 get, put,
 * conditional put and conditional get; SQS send, batches of 10 sent, received and deleted; and the
 * same queue operations on S3-backed queues. Not asserted: LocalStack on a loopback interface says
 * nothing about AWS's latency, but the request counts are what AWS would bill, and the relative
 * costs of the two queue backends show. The table goes to this test's output (surefire's
 * io.stratus.aws.AwsMicroBenchmarkTest-output.txt).
 */
class AwsMicroBenchmarkTest {
  private static final int WARM_UP = 10;
  private static final int ROUNDS = 50;
  private static final Duration VISIBILITY = Duration.ofMinutes(5);

  /** Counts HTTP attempts by service and operation. */
  static final class RequestCounter implements ExecutionInterceptor {
    final Map<String, LongAdder> counts = new ConcurrentHashMap<>();

    @Override
    public void beforeTransmission(Context.BeforeTransmission c, ExecutionAttributes a) {
      String op =
          a.getAttribute(SdkExecutionAttribute.SERVICE_NAME)
              + "."
              + a.getAttribute(SdkExecutionAttribute.OPERATION_NAME);
      counts.computeIfAbsent(op, k -> new LongAdder()).increment();
    }

    Map<String, Long> snapshot() {
      Map<String, Long> m = new TreeMap<>();
      counts.forEach((k, v) -> m.put(k, v.sum()));
      return m;
    }
  }

  private final RequestCounter counter = new RequestCounter();
  private final StringBuilder table = new StringBuilder();

  @Test
  void printLatencyAndRequestsPerOperation() {
    String run = UUID.randomUUID().toString().substring(0, 8);
    LocalStackFixture ls = LocalStackFixture.get();
    try (AwsCloud sqsCloud =
            AwsCloud.connect(
                ls.config()
                    .keyPrefix("bench-" + run + "/")
                    .queueNamePrefix("bench" + run + "-")
                    .build(),
                List.of(counter));
        AwsCloud s3Cloud =
            AwsCloud.connect(
                ls.config()
                    .keyPrefix("bench-" + run + "/")
                    .queueBackend(AwsConfig.QueueBackend.S3)
                    .s3QueueKeyPrefix("benchq-" + run + "/")
                    .build(),
                List.of(counter))) {
      table.append(
          String.format(
              "%-34s %6s %9s %9s %9s  %s%n",
              "operation (LocalStack " + "2026.3.0)",
              "calls",
              "p50 ms",
              "p90 ms",
              "req/call",
              "requests"));
      storage(sqsCloud.storage());
      queues("SQS", sqsCloud.simpleQueues(), "bench-q-" + run);
      queues("S3 queue", s3Cloud.simpleQueues(), "bench-q-" + run);
    }
    System.out.println(table);
  }

  private void storage(SupportsConditionalPut s) {
    byte[] page = new byte[10 * 1024];
    new SplittableRandom(1).nextBytes(page);
    ItemVersion[] v = {CloudFutures.await(s.put("page", page, Map.of("lsn", "0")))};
    int[] n = {0};
    measure("S3 put 10 KB", () -> s.put("page-" + n[0]++ % 10, page, Map.of()));
    measure("S3 get 10 KB", () -> s.get("page"));
    measure("S3 get-if-changed (304)", () -> s.getIfChanged("page", v[0].version()));
    measure(
        "S3 put-if-version-matches 10 KB",
        () -> {
          page[0]++;
          return s.putIfVersionMatches("page", page, Map.of(), v[0].version())
              .thenApply(x -> v[0] = x);
        });
    measure("S3 put-if-absent 10 KB", () -> s.putIfAbsent("fresh-" + n[0]++, page, Map.of()));
  }

  private void queues(String label, SimpleQueueService q, String uri) {
    CloudFutures.await(q.createQueue(uri));
    List<byte[]> ten = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      ten.add(new byte[1024]);
    }
    measure(label + " send 1 KB", () -> q.send(uri, ten.get(0)));
    drainAll(q, uri);
    List<QueueMessage> held = new ArrayList<>();
    List<Long> receiveNanos = new ArrayList<>();
    int[] receives = {0};
    measure(label + " send batch of 10 x 1 KB", () -> q.sendBatch(uri, ten));
    // Receive and delete everything sent, in batches of 10, measuring each call.
    Map<String, Long> sent = counter.snapshot();
    int total = (WARM_UP + ROUNDS) * 10;
    while (held.size() < total && receives[0] < total * 5) {
      long t0 = System.nanoTime();
      List<QueueMessage> got = CloudFutures.await(q.receive(uri, 10, VISIBILITY));
      receiveNanos.add(System.nanoTime() - t0);
      receives[0]++;
      held.addAll(got);
    }
    report(
        label + " receive up to 10",
        receiveNanos,
        delta(sent, counter.snapshot()),
        String.format(" (%.1f messages per receive)", held.size() / (double) receives[0]));
    Map<String, Long> received = counter.snapshot();
    List<Long> deleteNanos = new ArrayList<>();
    for (int i = 0; i + 10 <= held.size(); i += 10) {
      List<String> handles = new ArrayList<>();
      held.subList(i, i + 10).forEach(m -> handles.add(m.receiptHandle()));
      long t0 = System.nanoTime();
      CloudFutures.await(q.deleteBatch(uri, handles));
      deleteNanos.add(System.nanoTime() - t0);
    }
    report(label + " delete batch of 10", deleteNanos, delta(received, counter.snapshot()), "");
    CloudFutures.await(q.deleteQueue(uri));
  }

  private static void drainAll(SimpleQueueService q, String uri) {
    for (int i = 0; i < 200; i++) {
      List<QueueMessage> got = CloudFutures.await(q.receive(uri, 10, VISIBILITY));
      if (got.isEmpty() && i > 20) {
        return;
      }
      List<String> handles = new ArrayList<>();
      got.forEach(m -> handles.add(m.receiptHandle()));
      if (!handles.isEmpty()) {
        CloudFutures.await(q.deleteBatch(uri, handles));
      }
    }
  }

  private void measure(String label, Supplier<? extends CompletableFuture<?>> call) {
    for (int i = 0; i < WARM_UP; i++) {
      CloudFutures.await(call.get());
    }
    Map<String, Long> before = counter.snapshot();
    List<Long> nanos = new ArrayList<>();
    for (int i = 0; i < ROUNDS; i++) {
      long t0 = System.nanoTime();
      CloudFutures.await(call.get());
      nanos.add(System.nanoTime() - t0);
    }
    report(label, nanos, delta(before, counter.snapshot()), "");
  }

  private static Map<String, Long> delta(Map<String, Long> before, Map<String, Long> after) {
    Map<String, Long> d = new TreeMap<>();
    after.forEach(
        (k, v) -> {
          long n = v - before.getOrDefault(k, 0L);
          if (n > 0) {
            d.put(k, n);
          }
        });
    return d;
  }

  private void report(String label, List<Long> nanos, Map<String, Long> requests, String note) {
    long[] sorted = nanos.stream().mapToLong(Long::longValue).sorted().toArray();
    long total = requests.values().stream().mapToLong(Long::longValue).sum();
    StringBuilder per = new StringBuilder();
    requests.forEach(
        (k, v) ->
            per.append(per.length() == 0 ? "" : ", ")
                .append(String.format("%s %.2f", k, v / (double) sorted.length)));
    table.append(
        String.format(
            "%-34s %6d %9.2f %9.2f %9.2f  %s%s%n",
            label,
            sorted.length,
            percentile(sorted, 0.5),
            percentile(sorted, 0.9),
            total / (double) sorted.length,
            per,
            note));
  }

  private static double percentile(long[] sorted, double p) {
    if (sorted.length == 0) {
      return Double.NaN;
    }
    return sorted[(int) Math.min(sorted.length - 1, Math.floor(p * sorted.length))] / 1e6;
  }
}
