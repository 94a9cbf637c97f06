package io.stratus.bench.tpcw;

import io.stratus.StratusException;
import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.decorate.Decorators;
import io.stratus.cloudapi.decorate.LatencyInterceptor;
import io.stratus.cloudapi.decorate.LatencyModel;
import io.stratus.cloudapi.decorate.LatencyProfiles;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.cloudapi.time.SystemScheduler;
import io.stratus.core.Database;
import io.stratus.core.DatabaseConfig;
import io.stratus.core.Key;
import io.stratus.core.Record;
import io.stratus.core.RetryPolicy;
import io.stratus.protocols.ProtocolKind;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Isolation under contention: threads on several handles increment random counters of a small
 * hot set by read-modify-write (two counters per transaction, each by one), through {@code
 * Database.run} with retries. Reports per protocol the committed transactions per second, the
 * abort rate (retried attempts per attempt) and the lost updates: the increments that committed
 * but are missing from the final values, after every queue was checkpointed. Protocols without
 * isolation lose updates here; snapshot isolation and the serializable mode must lose none.
 */
final class ContentionBenchmark {
  private static final String COLLECTION = "counters";

  /** What to run. */
  record Settings(
      List<ProtocolKind> protocols,
      String profile,
      int keys,
      int threads,
      int handles,
      int transactions,
      long seed) {}

  private final Settings settings;
  private final PrintWriter out;

  ContentionBenchmark(Settings settings, PrintWriter out) {
    this.settings = settings;
    this.out = out;
  }

  void run() throws Exception {
    out.printf(
        "Stratus contention benchmark: %d hot keys, %d threads on %d handles, %d"
            + " transactions per thread (2 increments each), profile %s, seed %d%n",
        settings.keys,
        settings.threads,
        settings.handles,
        settings.transactions,
        settings.profile,
        settings.seed);
    out.printf(
        "%n%-22s %10s %10s %12s %14s%n",
        "protocol", "commits/s", "abort rate", "increments", "lost updates");
    try (SystemScheduler scheduler = new SystemScheduler()) {
      for (ProtocolKind p : settings.protocols) {
        row(p, scheduler);
      }
    }
    out.flush();
  }

  private void row(ProtocolKind protocol, SystemScheduler scheduler) throws Exception {
    LatencyModel model = LatencyProfiles.byName(settings.profile);
    try (InProcessCloud cloud = InProcessCloud.builder().seed(settings.seed).build()) {
      CloudServices services =
          Decorators.wrap(cloud.services(), new LatencyInterceptor(model, scheduler));
      List<Database> dbs = new ArrayList<>();
      try {
        for (int h = 0; h < settings.handles; h++) {
          dbs.add(
              Database.open(
                  DatabaseConfig.builder(services, "bench/contention")
                      .protocol(protocol)
                      .clientId("h" + h)
                      .build()));
        }
        Database first = dbs.get(0);
        first.createCollection(COLLECTION);
        List<Record> zeros = new ArrayList<>();
        for (int k = 0; k < settings.keys; k++) {
          zeros.add(new Record(Key.of(k), bytes(0)));
        }
        first.bulkLoad(COLLECTION, zeros);
        RetryPolicy retries =
            RetryPolicy.builder()
                .maxAttempts(1000)
                .initialBackoff(Duration.ofMillis(1))
                .maxBackoff(Duration.ofMillis(20))
                .seed(settings.seed)
                .build();
        AtomicLong attempts = new AtomicLong();
        AtomicLong committed = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(settings.threads);
        List<Future<?>> work = new ArrayList<>();
        long start = System.nanoTime();
        for (int t = 0; t < settings.threads; t++) {
          Database db = dbs.get(t % dbs.size());
          SplittableRandom random = new SplittableRandom(settings.seed + 31L * t);
          work.add(
              pool.submit(
                  () -> {
                    for (int i = 0; i < settings.transactions; i++) {
                      int a = random.nextInt(settings.keys);
                      int b = (a + 1 + random.nextInt(settings.keys - 1)) % settings.keys;
                      try {
                        db.run(
                            retries,
                            tx -> {
                              attempts.incrementAndGet();
                              for (int k : new int[] {a, b}) {
                                long v = value(tx.read(COLLECTION, Key.of(k)).orElseThrow());
                                tx.update(COLLECTION, Key.of(k), bytes(v + 1));
                              }
                              return null;
                            });
                        committed.incrementAndGet();
                      } catch (StratusException e) {
                        failed.incrementAndGet(); // retries used up, or an unknown outcome
                      }
                    }
                    return null;
                  }));
        }
        pool.shutdown();
        for (Future<?> w : work) {
          w.get();
        }
        pool.awaitTermination(1, TimeUnit.MINUTES);
        double seconds = (System.nanoTime() - start) / 1e9;
        for (Database db : dbs) {
          db.admin().checkpointAll();
        }
        first.admin().checkpointAll();
        // A fresh handle (empty cache) reads what storage holds after every checkpoint.
        Database fresh =
            Database.open(
                DatabaseConfig.builder(services, "bench/contention")
                    .protocol(protocol)
                    .clientId("verifier")
                    .build());
        dbs.add(fresh);
        long total =
            fresh.read(
                tx -> {
                  long sum = 0;
                  try (var c = tx.scan(COLLECTION)) {
                    while (c.hasNext()) {
                      sum += value(c.next().payload());
                    }
                  }
                  return sum;
                });
        long expected = 2 * committed.get();
        double abortRate =
            attempts.get() == 0
                ? 0
                : (double) (attempts.get() - committed.get() - failed.get()) / attempts.get();
        out.printf(
            "%-22s %10.1f %10.3f %12d %14d%n",
            protocol.name().toLowerCase(Locale.ROOT),
            committed.get() / seconds,
            abortRate,
            expected,
            Math.max(0, expected - total));
      } finally {
        for (Database db : dbs) {
          db.close();
        }
      }
    }
  }

  private static byte[] bytes(long v) {
    return Long.toString(v).getBytes(StandardCharsets.UTF_8);
  }

  private static long value(byte[] b) {
    return Long.parseLong(new String(b, StandardCharsets.UTF_8));
  }

  @Override
  public String toString() {
    return "ContentionBenchmark" + Arrays.asList(settings);
  }
}
