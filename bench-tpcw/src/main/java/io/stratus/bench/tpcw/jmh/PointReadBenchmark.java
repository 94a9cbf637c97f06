package io.stratus.bench.tpcw.jmh;

import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.core.Database;
import io.stratus.core.DatabaseConfig;
import io.stratus.core.Key;
import io.stratus.core.Record;
import io.stratus.core.RecordCursor;
import io.stratus.core.Transaction;
import io.stratus.pagemanager.Keys;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.ProtocolOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
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
 * Cached point reads, one thread, of a random key of 100,000 records with 100-byte payloads, in
 * three forms measured in one JMH run so that their ratios hold on any machine. Each form reads
 * the payload it got ({@link #use}), as the program that asked for it would:
 *
 * <ul>
 *   <li>{@link #cachedPointRead}: {@code Transaction.read} through the public API under each
 *       protocol, in one long transaction, the records bulk-loaded into 100 KB pages and every page
 *       in the buffer pool. What it measures is the read path itself — name check, catalog lookup,
 *       B-link descent through the transaction's page view and the protocol's read view (the
 *       own-writes overlay, the snapshot, the read lock), binary search — without cloud calls;
 *   <li>{@link #floor}: the least any paged store can do for the same lookup: one hash probe for
 *       the page, then a binary search over that page's sorted keys in plain arrays, compared as
 *       Stratus compares keys (unsigned bytes);
 *   <li>{@link #mvStore}: the embedded store a user would otherwise pick, H2's MVStore, as a user
 *       would use it for this: in memory ({@code MVStore.open(null)}, which runs no background
 *       thread), one {@code MVMap<Long, byte[]>} with every default (its object key type, 48 keys
 *       per page), filled in key order.
 * </ul>
 *
 * <p>Keys are made outside the measured read, as an application holds them: arrays of their own,
 * never the objects a store holds (MVStore compares keys by identity first, so a lookup with the
 * map's own key object would end its search early).
 *
 * <p>Each trial's setup ends with {@link #WARM_UP_OPERATIONS} operations of its benchmark and a
 * garbage collection: on a loaded machine a benchmark thread gets a tenth of a core or less, so
 * JMH's warm-up, timed by the wall clock, can end before the JIT compiler has finished the read
 * path (the reads per CPU second were still rising in the fourth second of such runs), and the
 * objects the setup left behind would otherwise be collected, and the live ones moved, at a
 * random moment of the measurement. Run: {@code
 * bin/stratus-bench jmh PointRead} (JMH's options follow, e.g. {@code -f 3 -wi 3 -i 5}); after the
 * run the command prints each result's spread and its ratio to the floor and to MVStore ({@link
 * JmhSummary}).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class PointReadBenchmark {
  private static final int RECORDS = 100_000;
  private static final int PAYLOAD = 100;

  /**
   * Records per page of the floor: about what a bulk-loaded 100 KB leaf of these records holds
   * (8-byte key, 100-byte payload and the entry's framing), so its binary search is as deep.
   */
  private static final int RECORDS_PER_PAGE = 880;

  private static final long SEED = 2008;

  /** Longer than any trial: the isolating protocols time a transaction out from its begin. */
  private static final Duration TRIAL_TRANSACTION = Duration.ofHours(1);

  /** What the lease rule asks for that transaction timeout (twice it and some). */
  private static final Duration TRIAL_LEASE = Duration.ofHours(3);

  /**
   * Operations each trial's setup makes before JMH's warm-up (see the class comment): half a
   * second to a second of CPU per read path here, however little of a core the thread gets.
   */
  static final int WARM_UP_OPERATIONS = 500_000;

  /**
   * Runs {@code read} {@link #WARM_UP_OPERATIONS} times, then collects the garbage. Every key
   * exists, so each read must find its record.
   */
  private static void warmUp(BooleanSupplier read) {
    for (int i = 0; i < WARM_UP_OPERATIONS; i++) {
      if (!read.getAsBoolean()) {
        throw new IllegalStateException("a warm-up read found no record");
      }
    }
    System.gc(); // the setup's garbage goes now, not during a measured iteration
  }

  /** A database under one protocol and one long transaction over it. */
  @State(Scope.Thread)
  public static class Stratus {
    @Param({
      "NAIVE",
      "BASIC",
      "MONOTONIC",
      "ATOMIC",
      "ADVANCED_ATOMIC",
      "SNAPSHOT_ISOLATION",
      "SERIALIZABLE_SNAPSHOT",
      "TWO_PHASE_LOCKING"
    })
    public String protocol;

    private InProcessCloud cloud;
    private Database db;
    private Transaction tx;
    private SplittableRandom random;
    private Key[] keys;

    @Setup(Level.Trial)
    public void open() {
      cloud = InProcessCloud.create();
      ProtocolKind kind = ProtocolKind.valueOf(protocol);
      DatabaseConfig.Builder config =
          DatabaseConfig.builder(cloud.services(), "bench/jmh").protocol(kind).clientId("jmh");
      if (kind.accepts(ProtocolOption.ISOLATION)) {
        // The one transaction lasts the whole trial, warm-up and measurement included.
        config.transactionTimeout(TRIAL_TRANSACTION).isolationLeaseTimeout(TRIAL_LEASE);
      }
      db = Database.open(config.build());
      db.createCollection("items");
      List<Record> records = new ArrayList<>(RECORDS);
      byte[] payload = new byte[PAYLOAD];
      for (long i = 0; i < RECORDS; i++) {
        records.add(new Record(Key.of(i), payload));
      }
      db.bulkLoad("items", records);
      keys = new Key[RECORDS];
      for (int i = 0; i < RECORDS; i++) {
        keys[i] = Key.of((long) i);
      }
      random = new SplittableRandom(SEED);
      tx = db.begin();
      // Every record once, untimed, in one scan: it brings every page into the pool and the
      // transaction's views, and under two-phase locking it locks the collection (the scan is
      // larger than a range locked key by key), so the measured reads are those of a transaction
      // that holds what it reads rather than lock requests.
      try (RecordCursor all = tx.scan("items")) {
        while (all.hasNext()) {
          all.next();
        }
      }
      warmUp(() -> read(this).isPresent());
    }

    @TearDown(Level.Trial)
    public void close() {
      tx.close();
      db.close();
      cloud.close();
    }
  }

  /** The same records as sorted key and payload arrays, one pair per page, found by hashing. */
  @State(Scope.Thread)
  public static class Floor {
    private Map<String, Leaf> pages;
    private String[] pageOf;
    private byte[][] keys;
    private SplittableRandom random;

    record Leaf(byte[][] keys, byte[][] values) {}

    @Setup(Level.Trial)
    public void open() {
      pages = new HashMap<>();
      pageOf = new String[RECORDS];
      keys = new byte[RECORDS][];
      for (int first = 0; first < RECORDS; first += RECORDS_PER_PAGE) {
        int n = Math.min(RECORDS_PER_PAGE, RECORDS - first);
        String name = "bench/jmh/c/items/" + first;
        Leaf leaf = new Leaf(new byte[n][], new byte[n][]);
        for (int i = 0; i < n; i++) {
          leaf.keys[i] = Key.of((long) first + i).toBytes();
          leaf.values[i] = new byte[PAYLOAD];
          keys[first + i] = Key.of((long) first + i).toBytes();
          pageOf[first + i] = name;
        }
        pages.put(name, leaf);
      }
      random = new SplittableRandom(SEED);
      warmUp(() -> lookUp(this) != null);
    }
  }

  /** The same records in an in-memory MVStore map. */
  @State(Scope.Thread)
  public static class MvStoreMap {
    private MVStore store;
    private MVMap<Long, byte[]> map;
    private Long[] keys;
    private SplittableRandom random;

    @Setup(Level.Trial)
    public void open() {
      store = MVStore.open(null);
      map = store.openMap("items");
      for (long i = 0; i < RECORDS; i++) {
        map.put(i, new byte[PAYLOAD]);
      }
      store.commit();
      keys = new Long[RECORDS];
      for (int i = 0; i < RECORDS; i++) {
        keys[i] =
            Long.valueOf(i); // objects of their own, equal to the map's (see the class comment)
      }
      random = new SplittableRandom(SEED);
      warmUp(() -> get(this) != null);
    }

    @TearDown(Level.Trial)
    public void close() {
      store.close();
    }
  }

  @Benchmark
  public int cachedPointRead(Stratus s) {
    return use(read(s).orElseThrow());
  }

  static Optional<byte[]> read(Stratus s) {
    return s.tx.read("items", s.keys[s.random.nextInt(RECORDS)]);
  }

  @Benchmark
  public int floor(Floor f) {
    return use(lookUp(f));
  }

  static byte[] lookUp(Floor f) {
    int k = f.random.nextInt(RECORDS);
    byte[] key = f.keys[k];
    Floor.Leaf leaf = f.pages.get(f.pageOf[k]);
    int lo = 0;
    int hi = leaf.keys.length - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      int c = Keys.compare(leaf.keys[mid], key);
      if (c < 0) {
        lo = mid + 1;
      } else if (c > 0) {
        hi = mid - 1;
      } else {
        return leaf.values[mid];
      }
    }
    return null;
  }

  @Benchmark
  public int mvStore(MvStoreMap m) {
    return use(get(m));
  }

  /**
   * What the caller of a read does with the payload it got: looks at its bytes, here the first
   * and the last (the two ends of a 100-byte payload, in different cache lines as often as not).
   * Without it the two references would hand out their stored arrays and never load them, while a
   * Stratus read, which copies the payload, must: the comparison would charge Stratus alone for
   * fetching the record.
   */
  static int use(byte[] payload) {
    if (payload == null) {
      throw new IllegalStateException("a measured read found no record");
    }
    return payload[0] + payload[payload.length - 1];
  }

  static byte[] get(MvStoreMap m) {
    return m.map.get(m.keys[m.random.nextInt(RECORDS)]);
  }
}
