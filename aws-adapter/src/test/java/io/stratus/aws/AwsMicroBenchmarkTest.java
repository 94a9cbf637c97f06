package io.stratus.aws;

import static org.assertj.core.api.Assertions.assertThat;

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
 * Requests per Cloud API operation against LocalStack, asserted, with latency printed beside them:
 * S3 get, put, conditional put and conditional get; SQS send, batches of 10 sent, received and
 * deleted; and the same queue operations on S3-backed queues. The request counts are what AWS
 * would bill, so each operation must cost what the adapter documents (one request per storage or
 * SQS call; for S3 queues, one put per message sent, two lists and a put and a get per message
 * received, two deletes per message deleted). Latency is not asserted: LocalStack on a loopback
 * interface says nothing about AWS's latency. The table goes to this test's output (surefire's
 * io.stratus.aws.AwsMicroBenchmarkTest-output.txt).
 *
 * <p>A few calls per operation check the counts; percentiles that mean something need more:
 * {@code -Dstratus.aws.bench.rounds=50}.
 */
class AwsMicroBenchmarkTest {
  /** Timed calls per operation; the counts hold for any number, so the default is small. */
  private static final int ROUNDS = Math.max(1, Integer.getInteger("stratus.aws.bench.rounds", 5));

  private static final int WARM_UP = Math.max(1, ROUNDS / 5);
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

  /**
   * The requests each queue operation costs: per call of send, send of a batch of 10 and delete
   * of a batch of 10; per receive call and per message received.
   */
  private record QueueCosts(
      Map<String, Long> send,
      Map<String, Long> sendBatchOf10,
      Map<String, Long> receivePerCall,
      Map<String, Long> receivePerMessage,
      Map<String, Long> deleteBatchOf10) {}

  private static final QueueCosts SQS_COSTS =
      new QueueCosts(
          Map.of("Sqs.SendMessage", 1L),
          Map.of("Sqs.SendMessageBatch", 1L),
          Map.of("Sqs.ReceiveMessage", 1L),
          Map.of(),
          Map.of("Sqs.DeleteMessageBatch", 1L));

  /** As S3Queues documents: the list of messages and of leases, then a lease and a get each. */
  private static final QueueCosts S3_QUEUE_COSTS =
      new QueueCosts(
          Map.of("S3.PutObject", 1L),
          Map.of("S3.PutObject", 10L),
          Map.of("S3.ListObjectsV2", 2L),
          Map.of("S3.PutObject", 1L, "S3.GetObject", 1L),
          Map.of("S3.DeleteObject", 20L));

  private final RequestCounter counter = new RequestCounter();
  private final StringBuilder table = new StringBuilder();

  @Test
  void everyOperationCostsTheRequestsItDocuments() {
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
      queues("SQS", sqsCloud.simpleQueues(), "bench-q-" + run, SQS_COSTS);
      queues("S3 queue", s3Cloud.simpleQueues(), "bench-q-" + run, S3_QUEUE_COSTS);
    } finally {
      System.out.println(table);
    }
  }

  private void storage(SupportsConditionalPut s) {
    byte[] page = new byte[10 * 1024];
    new SplittableRandom(1).nextBytes(page);
    ItemVersion[] v = {CloudFutures.await(s.put("page", page, Map.of("lsn", "0")))};
    int[] n = {0};
    Map<String, Long> onePut = Map.of("S3.PutObject", 1L);
    Map<String, Long> oneGet = Map.of("S3.GetObject", 1L);
    measure("S3 put 10 KB", onePut, () -> s.put("page-" + n[0]++ % 10, page, Map.of()));
    measure("S3 get 10 KB", oneGet, () -> s.get("page"));
    measure("S3 get-if-changed (304)", oneGet, () -> s.getIfChanged("page", v[0].version()));
    measure(
        "S3 put-if-version-matches 10 KB",
        onePut,
        () -> {
          page[0]++;
          return s.putIfVersionMatches("page", page, Map.of(), v[0].version())
              .thenApply(x -> v[0] = x);
        });
    measure(
        "S3 put-if-absent 10 KB", onePut, () -> s.putIfAbsent("fresh-" + n[0]++, page, Map.of()));
  }

  private void queues(String label, SimpleQueueService q, String uri, QueueCosts costs) {
    CloudFutures.await(q.createQueue(uri));
    List<byte[]> ten = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      ten.add(new byte[1024]);
    }
    measure(label + " send 1 KB", costs.send(), () -> q.send(uri, ten.get(0)));
    drainAll(q, uri);
    measure(label + " send batch of 10 x 1 KB", costs.sendBatchOf10(), () -> q.sendBatch(uri, ten));
    // Receive and delete everything sent, in batches of 10, measuring each call.
    Map<String, Long> sent = counter.snapshot();
    int total = (WARM_UP + ROUNDS) * 10;
    List<QueueMessage> held = new ArrayList<>();
    List<Long> receiveNanos = new ArrayList<>();
    while (held.size() < total && receiveNanos.size() < total * 5) {
      long t0 = System.nanoTime();
      List<QueueMessage> got = CloudFutures.await(q.receive(uri, 10, VISIBILITY));
      receiveNanos.add(System.nanoTime() - t0);
      held.addAll(got);
    }
    int receives = receiveNanos.size();
    Map<String, Long> receiveRequests = delta(sent, counter.snapshot());
    report(
        label + " receive up to 10",
        receiveNanos,
        receiveRequests,
        String.format(" (%.1f messages per receive)", held.size() / (double) receives));
    assertThat(held).as(label + ": every message sent is received").hasSize(total);
    assertThat(receiveRequests)
        .as(label + " receive: requests for %d messages in %d calls", held.size(), receives)
        .isEqualTo(
            plus(times(costs.receivePerCall(), receives), times(costs.receivePerMessage(), total)));
    Map<String, Long> received = counter.snapshot();
    List<Long> deleteNanos = new ArrayList<>();
    for (int i = 0; i + 10 <= held.size(); i += 10) {
      List<String> handles = new ArrayList<>();
      held.subList(i, i + 10).forEach(m -> handles.add(m.receiptHandle()));
      long t0 = System.nanoTime();
      CloudFutures.await(q.deleteBatch(uri, handles));
      deleteNanos.add(System.nanoTime() - t0);
    }
    Map<String, Long> deleteRequests = delta(received, counter.snapshot());
    report(label + " delete batch of 10", deleteNanos, deleteRequests, "");
    assertThat(deleteRequests)
        .as(label + " delete batch of 10")
        .isEqualTo(times(costs.deleteBatchOf10(), deleteNanos.size()));
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

  /**
   * Calls {@code call} untimed {@link #WARM_UP} times (clients cache what they look up once), then
   * {@link #ROUNDS} times timed; each timed call must cost {@code perCall}.
   */
  private void measure(
      String label, Map<String, Long> perCall, Supplier<? extends CompletableFuture<?>> call) {
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
    Map<String, Long> requests = delta(before, counter.snapshot());
    report(label, nanos, requests, "");
    assertThat(requests)
        .as(label + ": requests of %d calls", ROUNDS)
        .isEqualTo(times(perCall, ROUNDS));
  }

  private static Map<String, Long> times(Map<String, Long> perCall, int calls) {
    Map<String, Long> m = new TreeMap<>();
    perCall.forEach((k, v) -> m.put(k, v * calls));
    return m;
  }

  private static Map<String, Long> plus(Map<String, Long> a, Map<String, Long> b) {
    Map<String, Long> m = new TreeMap<>(a);
    b.forEach((k, v) -> m.merge(k, v, Long::sum));
    return m;
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
