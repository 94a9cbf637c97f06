package io.stratus.bench.tpcw;

import static io.stratus.cloudapi.CloudFutures.await;

import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.ConditionalRead;
import io.stratus.cloudapi.ItemVersion;
import io.stratus.cloudapi.LockGrant;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.PreconditionFailedException;
import io.stratus.cloudapi.QueueMessage;
import io.stratus.cloudapi.StorageService;
import io.stratus.cloudapi.SupportsConditionalPut;
import io.stratus.cloudapi.decorate.CloudMeter;
import io.stratus.cloudapi.decorate.Decorators;
import io.stratus.cloudapi.decorate.LatencyInterceptor;
import io.stratus.cloudapi.decorate.LatencyProfiles;
import io.stratus.cloudapi.decorate.MeterSnapshot;
import io.stratus.cloudapi.decorate.MeteringInterceptor;
import io.stratus.cloudapi.decorate.OperationStats;
import io.stratus.cloudapi.decorate.PriceTable;
import io.stratus.cloudapi.decorate.PriceTables;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.cloudapi.time.SystemScheduler;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A demonstration of the Cloud API on the in-process cloud, standing in for the TPC-W harness until
 * it lands: several clients run the access pattern of the papers' basic protocol by hand — read a
 * page (refreshing it by version), send a log record to the page's pending-update queue, take a
 * counter value, and now and then checkpoint the page under an exclusive lock with a conditional
 * put — against the in-process cloud wrapped in the metering and latency decorators.
 *
 * <p>It reports, per cloud operation, calls, bytes and the average latency the clients saw, and the
 * cost of the whole run under the papers' 2008 prices and today's AWS prices.
 */
final class CloudDemo {
  private static final int PAGES = 16;
  private static final Duration VISIBILITY = Duration.ofSeconds(30);

  /** What to run. */
  record Settings(String profile, int clients, int operations, int pageSize, long seed) {
    Settings {
      LatencyProfiles.byName(profile); // fails with a clear message on an unknown profile
      if (clients < 1 || clients > 1000) {
        throw new IllegalArgumentException("--clients must be between 1 and 1000: " + clients);
      }
      if (operations < 1) {
        throw new IllegalArgumentException("--operations must be positive: " + operations);
      }
      if (pageSize < 1 || pageSize > 10_000_000) {
        throw new IllegalArgumentException("--page-size-kb must be between 1 and 10000");
      }
    }
  }

  private final Settings settings;
  private final PrintWriter out;
  private final Map<Operation, AtomicLong> nanosByOperation = new ConcurrentHashMap<>();

  CloudDemo(Settings settings, PrintWriter out) {
    this.settings = settings;
    this.out = out;
  }

  void run() throws Exception {
    out.printf(
        "Stratus cloud demo: %d clients x %d transactions, %d KB pages, profile %s, seed %d%n",
        settings.clients, settings.operations, settings.pageSize / 1000, settings.profile,
        settings.seed);
    CloudMeter meter = new CloudMeter();
    try (InProcessCloud cloud = InProcessCloud.builder().seed(settings.seed).build();
        SystemScheduler scheduler = new SystemScheduler()) {
      CloudServices services =
          Decorators.wrap(
              cloud.services(),
              new MeteringInterceptor(meter),
              new LatencyInterceptor(LatencyProfiles.byName(settings.profile), scheduler));
      long setupStart = System.nanoTime();
      setUp(services);
      MeterSnapshot afterSetup = meter.snapshot();
      nanosByOperation.clear();
      long start = System.nanoTime();
      runClients(services);
      double seconds = (System.nanoTime() - start) / 1e9;
      MeterSnapshot run = meter.snapshot().minus(afterSetup);
      out.printf("set-up %.2f s, run %.2f s, %d transactions, %.1f transactions/s%n%n",
          (start - setupStart) / 1e9, seconds, (long) settings.clients * settings.operations,
          settings.clients * settings.operations / seconds);
      report(run);
    }
  }

  private void setUp(CloudServices services) {
    List<java.util.concurrent.CompletableFuture<?>> pending = new ArrayList<>();
    for (int p = 0; p < PAGES; p++) {
      pending.add(services.storage().put(page(p), pageBytes(p, 0), Map.of("checkpoint", "0")));
      pending.add(services.simpleQueues().createQueue(queue(p)));
    }
    pending.add(services.locks().setTimeout("demo/page/", Duration.ofSeconds(30)));
    pending.forEach(f -> await(f));
  }

  private void runClients(CloudServices services) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(settings.clients);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int c = 0; c < settings.clients; c++) {
        int client = c;
        done.add(pool.submit(() -> client(services, client)));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /** One client: reads, log records, counter values, and a checkpoint every fifth transaction. */
  private void client(CloudServices services, int client) {
    SplittableRandom random = new SplittableRandom(settings.seed * 1_000_003L + client);
    String clientId = "client-" + client;
    Map<Integer, String> cachedVersions = new ConcurrentHashMap<>();
    for (int t = 0; t < settings.operations; t++) {
      int p = random.nextInt(PAGES);
      String known = cachedVersions.get(p);
      if (known == null) {
        timed(Operation.STORAGE_GET, () -> await(services.storage().get(page(p))))
            .ifPresent(item -> cachedVersions.put(p, item.version()));
      } else {
        ConditionalRead r =
            timed(
                Operation.STORAGE_GET_IF_CHANGED,
                () -> await(services.storage().getIfChanged(page(p), known)));
        r.item().ifPresent(item -> cachedVersions.put(p, item.version()));
      }
      byte[] logRecord = (clientId + " updates page " + p + " in transaction " + t)
          .getBytes(StandardCharsets.UTF_8);
      timed(Operation.QUEUE_SEND, () -> await(services.simpleQueues().send(queue(p), logRecord)));
      timed(Operation.COUNTER_INCREMENT, () -> await(services.counters().increment("demo/tx")));
      if (t % 5 == 4) {
        checkpoint(services, clientId, p, t);
      }
    }
  }

  /** The checkpoint of paper 000, Algorithm 2, with a conditional put in place of timing alone. */
  private void checkpoint(CloudServices services, String clientId, int p, int t) {
    LockGrant grant =
        timed(
            Operation.LOCK_ACQUIRE_EXCLUSIVE,
            () -> await(services.locks().acquireExclusive(page(p), clientId)));
    if (!grant.granted()) {
      return;
    }
    try {
      List<QueueMessage> records =
          timed(
              Operation.QUEUE_RECEIVE,
              () -> await(services.simpleQueues().receive(queue(p), 10, VISIBILITY)));
      if (records.isEmpty()) {
        return;
      }
      StorageService storage = services.storage();
      ItemVersion current =
          timed(Operation.STORAGE_GET_METADATA, () -> await(storage.getMetadata(page(p))))
              .map(m -> new ItemVersion(m.version(), m.lastModified()))
              .orElseThrow();
      SupportsConditionalPut conditional = SupportsConditionalPut.of(storage);
      try {
        timed(
            Operation.STORAGE_PUT_IF_VERSION,
            () ->
                await(
                    conditional.putIfVersionMatches(
                        page(p), pageBytes(p, t), Map.of("checkpoint", Integer.toString(t)),
                        current.version())));
      } catch (PreconditionFailedException e) {
        return; // another checkpointer won; the records stay queued for the next one
      }
      List<String> handles = records.stream().map(QueueMessage::receiptHandle).toList();
      timed(
          Operation.QUEUE_DELETE_BATCH,
          () -> await(services.simpleQueues().deleteBatch(queue(p), handles)));
    } finally {
      timed(Operation.LOCK_RELEASE, () -> await(services.locks().release(page(p), clientId)));
    }
  }

  private <T> T timed(Operation op, java.util.function.Supplier<T> call) {
    long start = System.nanoTime();
    try {
      return call.get();
    } finally {
      nanosByOperation.computeIfAbsent(op, o -> new AtomicLong()).addAndGet(System.nanoTime() - start);
    }
  }

  private void report(MeterSnapshot run) {
    out.printf("%-28s %8s %12s %12s %12s%n", "operation", "calls", "bytes sent", "bytes recvd",
        "avg latency");
    for (Map.Entry<Operation, OperationStats> e : run.perOperation().entrySet()) {
      OperationStats s = e.getValue();
      if (s.calls() == 0) {
        continue;
      }
      AtomicLong nanos = nanosByOperation.get(e.getKey());
      String latency =
          nanos == null ? "-" : String.format("%.1f ms", nanos.get() / 1e6 / s.calls());
      out.printf("%-28s %8d %12d %12d %12s%n", e.getKey().name().toLowerCase(), s.calls(),
          s.bytesSent(), s.bytesReceived(), latency);
    }
    long transactions = (long) settings.clients * settings.operations;
    out.println();
    out.printf("%-34s %16s %22s%n", "price table", "cost of run ($)", "per transaction (m$)");
    for (PriceTable table : List.of(PriceTables.paper2008(), PriceTables.aws2026())) {
      PriceTable priced = settings.profile.equals("ec2") ? table.withoutTransfer() : table;
      BigDecimal cost = run.cost(priced);
      BigDecimal perTxMilli =
          cost.multiply(BigDecimal.valueOf(1000))
              .divide(BigDecimal.valueOf(transactions), 6, RoundingMode.HALF_UP);
      out.printf("%-34s %16s %22s%n", priced.name(), cost.setScale(8, RoundingMode.HALF_UP)
          .toPlainString(), perTxMilli.toPlainString());
    }
    out.printf("%ntotal requests: %d%n", run.requests());
  }

  private static String page(int p) {
    return "demo/page/" + p;
  }

  private static String queue(int p) {
    return "demo/pu/" + p;
  }

  private byte[] pageBytes(int p, int version) {
    byte[] bytes = new byte[settings.pageSize];
    new SplittableRandom(p * 7919L + version).nextBytes(bytes);
    return bytes;
  }
}
