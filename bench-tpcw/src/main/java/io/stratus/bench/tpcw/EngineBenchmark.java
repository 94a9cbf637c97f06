package io.stratus.bench.tpcw;

import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.decorate.CloudMeter;
import io.stratus.cloudapi.decorate.Decorators;
import io.stratus.cloudapi.decorate.LatencyInterceptor;
import io.stratus.cloudapi.decorate.LatencyProfiles;
import io.stratus.cloudapi.decorate.MeterSnapshot;
import io.stratus.cloudapi.decorate.MeteringInterceptor;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.cloudapi.time.SystemScheduler;
import io.stratus.core.BulkLoadResult;
import io.stratus.core.Database;
import io.stratus.core.DatabaseConfig;
import io.stratus.core.Key;
import io.stratus.core.Keyring;
import io.stratus.core.Record;
import io.stratus.core.Transaction;
import io.stratus.protocols.ProtocolKind;
import java.io.PrintWriter;
import java.security.SecureRandom;
import java.util.AbstractList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The storage engine's benchmarks: on the in-process cloud with zero
 * latency unless a profile is given, it measures
 *
 * <ol>
 *   <li>bulk load of N records: time, puts issued, and records per put;
 *   <li>cached point reads per second on one thread, through the public API (one transaction of
 *       many reads against a warm buffer pool);
 *   <li>inserts per second with the naive protocol, one record per committed transaction.
 * </ol>
 *
 * <p>With {@code encrypt} the database seals every page and message with AES-256-GCM under a
 * fresh random key (client-side encryption), so a run with and one without show its cost: on
 * puts and loads, not on cached reads, which the buffer pool serves decrypted.
 *
 * <p>A small harness rather than JMH: each figure is one timed loop after a warm-up loop of the
 * same kind, printed with its inputs so runs can be compared. Numbers vary with the machine; they
 * are reported in the closing notes, never asserted by tests.
 */
final class EngineBenchmark {
  /** What to run. */
  record Settings(
      int records,
      int payloadBytes,
      int pageSize,
      long reads,
      int inserts,
      String profile,
      long seed,
      boolean encrypt) {}

  private final Settings settings;
  private final PrintWriter out;

  EngineBenchmark(Settings settings, PrintWriter out) {
    this.settings = settings;
    this.out = out;
  }

  void run() {
    CloudMeter meter = new CloudMeter();
    try (InProcessCloud cloud = InProcessCloud.builder().seed(settings.seed).build();
        SystemScheduler scheduler = new SystemScheduler()) {
      CloudServices services =
          Decorators.wrap(
              cloud.services(),
              new MeteringInterceptor(meter),
              new LatencyInterceptor(LatencyProfiles.byName(settings.profile), scheduler));
      DatabaseConfig.Builder config =
          DatabaseConfig.builder(services, "bench/engine")
              .protocol(ProtocolKind.NAIVE)
              .pageSize(settings.pageSize)
              .clientId("engine-bench");
      if (settings.encrypt) {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        config.encryption(Keyring.builder().key("bench", key).defaultKey("bench").build());
      }
      out.printf(
          "Stratus storage-engine benchmark: %d records of %d bytes, %d-byte pages,"
              + " profile %s, encryption %s, seed %d%n%n",
          settings.records,
          settings.payloadBytes,
          settings.pageSize,
          settings.profile,
          settings.encrypt ? "AES-256-GCM" : "off",
          settings.seed);
      try (Database db = Database.open(config.build())) {
        db.createCollection("items");
        bulkLoad(db, meter);
        pointReads(db);
        inserts(db, meter);
      }
    }
  }

  private void bulkLoad(Database db, CloudMeter meter) {
    MeterSnapshot before = meter.snapshot();
    long start = System.nanoTime();
    BulkLoadResult r = db.bulkLoad("items", records(0, settings.records));
    double seconds = (System.nanoTime() - start) / 1e9;
    long puts = meter.snapshot().minus(before).stats(Operation.STORAGE_PUT).calls();
    out.printf(
        "bulk load        %,d records in %.2f s (%,.0f records/s), %,d puts, %.1f records"
            + " per put%n",
        r.records(),
        seconds,
        r.records() / seconds,
        puts,
        (double) r.records() / Math.max(1, puts));
  }

  private void pointReads(Database db) {
    SplittableRandom random = new SplittableRandom(settings.seed);
    long warmUp = Math.min(settings.reads, 200_000);
    readLoop(db, random, warmUp);
    long start = System.nanoTime();
    long found = readLoop(db, random, settings.reads);
    double seconds = (System.nanoTime() - start) / 1e9;
    if (found != settings.reads) {
      throw new IllegalStateException("only " + found + " of " + settings.reads + " reads found");
    }
    out.printf(
        "point reads      %,d cached reads on one thread in %.2f s: %,.0f reads/s%n",
        settings.reads, seconds, settings.reads / seconds);
  }

  private long readLoop(Database db, SplittableRandom random, long reads) {
    long found = 0;
    try (Transaction tx = db.begin()) {
      for (long i = 0; i < reads; i++) {
        if (tx.read("items", Key.of((long) random.nextInt(settings.records))).isPresent()) {
          found++;
        }
      }
      tx.commit();
    }
    return found;
  }

  private void inserts(Database db, CloudMeter meter) {
    int warmUp = Math.min(settings.inserts, 200);
    insertLoop(db, settings.records, warmUp);
    MeterSnapshot before = meter.snapshot();
    long start = System.nanoTime();
    insertLoop(db, settings.records + warmUp, settings.inserts);
    double seconds = (System.nanoTime() - start) / 1e9;
    MeterSnapshot used = meter.snapshot().minus(before);
    out.printf(
        "naive inserts    %,d transactions of one insert in %.2f s: %,.0f commits/s,"
            + " %.2f puts per commit%n",
        settings.inserts,
        seconds,
        settings.inserts / seconds,
        (double) used.stats(Operation.STORAGE_PUT).calls() / settings.inserts);
  }

  private void insertLoop(Database db, int firstKey, int count) {
    byte[] payload = new byte[settings.payloadBytes];
    for (int i = 0; i < count; i++) {
      try (Transaction tx = db.begin()) {
        tx.create("items", Key.of((long) firstKey + i), payload);
        tx.commit();
      }
    }
  }

  /** Records with keys from {@code first}, generated lazily so a large load needs no copy. */
  private List<Record> records(int first, int count) {
    return new AbstractList<>() {
      @Override
      public Record get(int i) {
        byte[] payload = new byte[settings.payloadBytes];
        new SplittableRandom(settings.seed + first + i).nextBytes(payload);
        return new Record(Key.of((long) first + i), payload);
      }

      @Override
      public int size() {
        return count;
      }
    };
  }
}
