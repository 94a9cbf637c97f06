package io.stratus.core.contract;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.cloudapi.inprocess.QueueBehavior;
import io.stratus.cloudapi.time.ManualClock;
import io.stratus.core.Database;
import io.stratus.core.DatabaseConfig;
import io.stratus.core.Key;
import io.stratus.core.KeyRange;
import io.stratus.core.Record;
import io.stratus.core.RecordCursor;
import io.stratus.core.Transaction;
import io.stratus.protocols.Guarantee;
import io.stratus.protocols.ProtocolKind;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.Executor;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The contract every commit protocol runs, in the manner of the Cloud API contract suites: one
 * abstract suite, a subclass per protocol that only names it, and every expectation derived from
 * the guarantees the protocol declares ({@link ProtocolKind#guarantees()}) — a test of a promise a
 * protocol does not make asserts the weaker property it does have instead of being skipped.
 *
 * <p>The schedules are adversarial: queues that return short and empty receives while messages
 * exist, deliver twice and out of order; several clients on shared pages; deletes and re-creates;
 * root splits under pending updates; stale caches. Each case runs for every seed of {@link
 * #seeds()}: a fixed set in CI; {@code -Dstratus.contract.seeds=N} runs N random seeds (printed),
 * {@code -Dstratus.contract.seed=S} replays one, e.g. {@code mvn -pl core -am test
 * -Dtest='*ContractTest' -Dstratus.contract.seeds=200 -Dsurefire.failIfNoSpecifiedTests=false}.
 */
public abstract class ProtocolContract {
  /** The seeds CI runs. */
  private static final long[] CI_SEEDS = {1, 2008, 424242};
  private static final String DB = "db/contract";
  private static final Duration TTL = Duration.ofSeconds(10);

  /** The protocol under test. */
  protected abstract ProtocolKind kind();

  /** The seeds to run: CI's fixed set, or those the system properties ask for. */
  static Stream<Long> seeds() {
    String one = System.getProperty("stratus.contract.seed");
    if (one != null) {
      return Stream.of(Long.parseLong(one));
    }
    String n = System.getProperty("stratus.contract.seeds");
    if (n != null) {
      long base = System.nanoTime();
      return LongStream.range(0, Long.parseLong(n)).map(i -> base * 31 + i).boxed()
          .peek(s -> System.out.println("contract seed " + s));
    }
    return LongStream.of(CI_SEEDS).boxed();
  }

  private boolean promises(Guarantee g) {
    return kind().promises(g);
  }

  /** One cloud on a manual clock and the handles of a case. */
  final class World implements AutoCloseable {
    final long seed;
    final ManualClock clock = new ManualClock();
    final InProcessCloud cloud;
    final List<Database> handles = new ArrayList<>();

    World(long seed, QueueBehavior queues) {
      this.seed = seed;
      this.cloud = InProcessCloud.builder().clock(clock).seed(seed).queueBehavior(queues).build();
    }

    /** A client with small pages; its background checkpoints run only when the case says. */
    Database client(String id, int pageSize) {
      Executor never = task -> { };
      Database db = Database.open(DatabaseConfig.builder(cloud.services(), DB)
          .protocol(kind()).clientId(id).clock(clock).pageSize(pageSize).ttl(TTL)
          .checkpointExecutor(never).checkpointSeed(seed).build());
      handles.add(db);
      return db;
    }

    /** Past every lease and TTL, every queue applied by {@code db}, a few times over. */
    void quiesce(Database db) {
      for (int i = 0; i < 4; i++) {
        clock.advance(Duration.ofMinutes(2));
        db.checkpointAll();
      }
      clock.advance(TTL.plusSeconds(1));
    }

    @Override
    public void close() {
      for (Database d : handles) {
        d.close();
      }
      cloud.close();
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static Map<Long, String> all(Database db) {
    Map<Long, String> out = new TreeMap<>();
    try (Transaction tx = db.begin(); RecordCursor c = tx.scan("items", KeyRange.all())) {
      while (c.hasNext()) {
        Record r = c.next();
        out.put(r.key().decoder().nextLong(), new String(r.payload(), StandardCharsets.UTF_8));
      }
    }
    return out;
  }

  private static String read(Database db, long key) {
    return db.read(tx -> tx.read("items", Key.of(key))
        .map(b -> new String(b, StandardCharsets.UTF_8)).orElse(null));
  }

  private static void put(Database db, long key, String value) {
    db.run(tx -> tx.put("items", Key.of(key), bytes(value)));
  }

  /**
   * Two clients update their own keys, interleaved on shared pages, over queues that return short
   * and empty receives, duplicate and reorder. Durable: nothing committed is lost; monotonic
   * writes: each key ends with its writer's last value; converges: both clients read the same.
   */
  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void committedWritesSurviveWeakQueues(long seed) {
    try (World w = new World(seed, QueueBehavior.weak())) {
      Database a = w.client("a", 2048);
      Database b = w.client("b", 2048);
      a.createCollection("items");
      SplittableRandom random = new SplittableRandom(seed);
      Map<Long, List<String>> written = new HashMap<>();
      for (int round = 0; round < 40; round++) {
        for (Database db : List.of(a, b)) {
          long key = (db == a ? 0 : 1) + 2L * random.nextInt(30);
          String value = (db == a ? "a" : "b") + round;
          put(db, key, value);
          written.computeIfAbsent(key, k -> new ArrayList<>()).add(value);
        }
        if (round % 9 == 4) {
          w.clock.advance(Duration.ofSeconds(1 + random.nextInt(40)));
          (random.nextBoolean() ? a : b).checkpointAll(); // checkpoints between the commits
        }
      }
      w.quiesce(a);
      Map<Long, String> seenByA = all(a);
      Map<Long, String> seenByB = all(b);
      for (Map.Entry<Long, List<String>> e : written.entrySet()) {
        List<String> values = e.getValue();
        String last = values.get(values.size() - 1);
        if (promises(Guarantee.MONOTONIC_WRITES)) {
          assertThat(seenByA.get(e.getKey())).as("seed %d key %d", seed, e.getKey())
              .isEqualTo(last);
        } else if (promises(Guarantee.DURABLE)) {
          assertThat(values).as("seed %d key %d: a committed value", seed, e.getKey())
              .contains(seenByA.get(e.getKey()));
        } else if (seenByA.containsKey(e.getKey())) { // naive: lost updates between clients
          assertThat(values).as("seed %d key %d: never garbage", seed, e.getKey())
              .contains(seenByA.get(e.getKey()));
        }
      }
      if (promises(Guarantee.CONVERGES)) {
        assertThat(seenByB).as("seed %d: both clients read the same", seed).isEqualTo(seenByA);
        assertThat(seenByA.keySet()).as("seed %d: every key", seed)
            .isEqualTo(written.keySet());
      }
    }
  }

  /**
   * One client updates a key (its data page's queue), deletes it and creates it again (its tree's
   * queue), while the queues deliver out of order: with monotonic writes everyone ends with the
   * re-created value; without, only a value written.
   */
  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void deleteThenRecreateOfAKey(long seed) {
    try (World w = new World(seed, QueueBehavior.weak())) {
      Database a = w.client("a", 1024);
      a.createCollection("items");
      for (long k = 0; k < 20; k++) {
        put(a, k, "v0");
      }
      w.quiesce(a);
      put(a, 7, "x1");
      a.run(tx -> tx.delete("items", Key.of(7L)));
      put(a, 7, "x3");
      if (promises(Guarantee.READ_YOUR_WRITES)) {
        assertThat(read(a, 7)).as("seed %d: the writer at once", seed).isEqualTo("x3");
      }
      w.quiesce(a);
      Database other = w.client("b", 1024);
      if (promises(Guarantee.MONOTONIC_WRITES) || kind() == ProtocolKind.NAIVE) {
        assertThat(read(other, 7)).as("seed %d", seed).isEqualTo("x3");
        assertThat(read(a, 7)).as("seed %d: the writer", seed).isEqualTo("x3");
      } else {
        assertThat(read(other, 7)).as("seed %d", seed).isIn("x1", "x3", null);
      }
    }
  }

  /** Read-your-writes: the writer sees its update before any checkpoint, or (basic) not yet. */
  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void aWriterReadsItsOwnWrites(long seed) {
    try (World w = new World(seed, QueueBehavior.reliable())) {
      Database a = w.client("a", 2048);
      a.createCollection("items");
      put(a, 1, "v0");
      w.quiesce(a);
      put(a, 1, "v1");
      a.run(tx -> tx.delete("items", Key.of(1L)) ? null : null);
      put(a, 2, "new");
      boolean ownWritesAtOnce = promises(Guarantee.READ_YOUR_WRITES)
          || kind() == ProtocolKind.NAIVE; // naive writes the pages of its own client at once
      if (ownWritesAtOnce) {
        assertThat(read(a, 1)).as("seed %d: own delete", seed).isNull();
        assertThat(read(a, 2)).as("seed %d: own insert", seed).isEqualTo("new");
      } else {
        assertThat(read(a, 1)).as("seed %d: nothing applied yet", seed).isEqualTo("v0");
        assertThat(read(a, 2)).as("seed %d: nothing applied yet", seed).isNull();
      }
      w.quiesce(a);
      assertThat(read(a, 1)).isNull();
      assertThat(read(a, 2)).isEqualTo("new");
    }
  }

  /**
   * Root splits under pending updates: on 1 KB pages one client inserts enough to split the root
   * several times and updates keys whose inserts are still queued, before any checkpoint. Every
   * record ends present (durable), with its last value where writes are ordered.
   */
  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void rootSplitsUnderPendingUpdates(long seed) {
    try (World w = new World(seed, QueueBehavior.weak())) {
      Database a = w.client("a", 1024);
      a.createCollection("items");
      SplittableRandom random = new SplittableRandom(seed);
      Map<Long, String> last = new HashMap<>();
      Set<Long> updated = new HashSet<>();
      for (int batch = 0; batch < 6; batch++) {
        int b = batch;
        a.run(tx -> {
          for (long k = b * 25L; k < (b + 1) * 25L; k++) {
            tx.create("items", Key.of(k), bytes("i" + k));
          }
          return null;
        });
        for (long k = b * 25L; k < (b + 1) * 25L; k++) {
          last.put(k, "i" + k);
        }
        long k = random.nextInt((b + 1) * 25);
        put(a, k, "u" + b);
        last.put(k, "u" + b);
        updated.add(k);
        if (batch % 2 == 1) {
          w.quiesce(a); // splits happen while updates are queued
        }
      }
      w.quiesce(a);
      Map<Long, String> seen = all(w.client("b", 1024));
      if (promises(Guarantee.DURABLE) || kind() == ProtocolKind.NAIVE) {
        assertThat(seen.keySet()).as("seed %d: every record", seed).isEqualTo(last.keySet());
      }
      if (promises(Guarantee.MONOTONIC_WRITES) || kind() == ProtocolKind.NAIVE) {
        assertThat(seen).as("seed %d: last values", seed).isEqualTo(last);
      }
    }
  }
}
