package io.stratus.bench.tpcw.jmh;

import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.core.Database;
import io.stratus.core.DatabaseConfig;
import io.stratus.core.Key;
import io.stratus.core.Record;
import io.stratus.core.Transaction;
import io.stratus.protocols.ProtocolKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Cached point reads through the public API, one thread: {@code Transaction.read} of a random key
 * of 100,000 bulk-loaded records (100-byte payloads, 100 KB pages) in one long transaction, every
 * page in the buffer pool. What it measures is the read path itself — name check, catalog lookup,
 * key encoding, B-link descent through the transaction's page view and the protocol's read view
 * (the own-writes overlay under monotonic and atomic), binary search — without cloud calls.
 *
 * <p>Run: {@code bin/stratus-bench jmh PointRead} (JMH's options follow, e.g. {@code -f 1 -wi 3
 * -i 5}).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class PointReadBenchmark {
  private static final int RECORDS = 100_000;

  @Param({"NAIVE", "BASIC", "MONOTONIC"})
  public String protocol;

  private InProcessCloud cloud;
  private Database db;
  private Transaction tx;
  private SplittableRandom random;
  private Key[] keys;

  @Setup(Level.Trial)
  public void open() {
    cloud = InProcessCloud.create();
    db =
        Database.open(
            DatabaseConfig.builder(cloud.services(), "bench/jmh")
                .protocol(ProtocolKind.valueOf(protocol))
                .clientId("jmh")
                .build());
    db.createCollection("items");
    List<Record> records = new ArrayList<>(RECORDS);
    byte[] payload = new byte[100];
    for (long i = 0; i < RECORDS; i++) {
      records.add(new Record(Key.of(i), payload));
    }
    db.bulkLoad("items", records);
    keys = new Key[RECORDS];
    for (int i = 0; i < RECORDS; i++) {
      keys[i] = Key.of((long) i); // made outside the measured read, as an application holds keys
    }
    random = new SplittableRandom(2008);
    tx = db.begin();
  }

  @Benchmark
  public Optional<byte[]> cachedPointRead() {
    return tx.read("items", keys[random.nextInt(RECORDS)]);
  }

  @TearDown(Level.Trial)
  public void close() {
    tx.close();
    db.close();
    cloud.close();
  }
}
