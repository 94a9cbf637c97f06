package io.stratus.core;

import static io.stratus.core.Fixture.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.protocols.ProtocolKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Request threads sharing one handle under the naive protocol: every commit that returned is
 * visible afterwards, to point reads and to scans alike, and the tree stays whole (before, a
 * commit's page copies could undo another thread's commit and leave the tree inconsistent).
 */
@ExtendWith(SeedExtension.class)
class NaiveSharedHandleTest {
  private static final int THREADS = 4;
  private static final int PER_THREAD = 300;

  /** Threads appending to one end of the tree: every commit meets the others on the last leaf. */
  @Test
  void concurrentCommitsOfOneHandleAreAllKept(@Seed long seed) throws Exception {
    commitConcurrently(seed, (thread, i) -> (long) i * THREADS + thread);
  }

  /**
   * Threads on key ranges of their own: commits on different leaves are written at the same time,
   * and meet on the inner pages their splits change.
   */
  @Test
  void commitsOnDifferentLeavesAreAllKeptAndTheTreeStaysWhole(@Seed long seed) throws Exception {
    commitConcurrently(seed, (thread, i) -> thread * 1_000_000L + i);
  }

  private static void commitConcurrently(long seed, KeyOf keyOf) throws Exception {
    try (Fixture f = new Fixture(seed)) {
      Database db = f.open(f.config().protocol(ProtocolKind.NAIVE));
      db.createCollection("items");
      Map<Long, String> acknowledged = new ConcurrentHashMap<>();
      List<Thread> threads = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        SplittableRandom random = new SplittableRandom(seed + t);
        threads.add(
            new Thread(
                () -> {
                  for (int i = 0; i < PER_THREAD; i++) {
                    long key = keyOf.key(thread, i);
                    String value = "t" + thread + "-" + i + "-" + random.nextInt(1000);
                    db.run(
                        tx -> {
                          tx.create("items", Key.of(key), bytes(value));
                          return null;
                        });
                    acknowledged.put(key, value);
                    if (i % 7 == 3) { // updates and deletes of this thread's earlier keys too
                      long earlier = keyOf.key(thread, random.nextInt(i + 1));
                      String again = value + "-u";
                      boolean updated =
                          db.run(tx -> tx.update("items", Key.of(earlier), bytes(again)));
                      if (updated) {
                        acknowledged.put(earlier, again);
                      }
                    }
                  }
                }));
      }
      List<Throwable> failures = new CopyOnWriteArrayList<>();
      for (Thread t : threads) {
        t.setUncaughtExceptionHandler((thread, e) -> failures.add(e));
        t.start();
      }
      for (Thread t : threads) {
        t.join();
      }
      assertThat(failures).as("request threads that failed").isEmpty();

      Map<String, String> scanned = Fixture.itemsByKey(db);
      assertThat(scanned).as("scan vs acknowledged commits").hasSize(acknowledged.size());
      for (Map.Entry<Long, String> e : acknowledged.entrySet()) {
        String read =
            db.read(tx -> tx.read("items", Key.of(e.getKey())).map(Fixture::string).orElse(null));
        assertThat(read).as("key %d", e.getKey()).isEqualTo(e.getValue());
        assertThat(scanned.get(Long.toString(e.getKey()))).isEqualTo(e.getValue());
      }
      // Another handle reads storage: the same records.
      f.clock.advance(Fixture.TTL.plusSeconds(1));
      assertThat(Fixture.itemsByKey(f.open())).isEqualTo(scanned);
    }
  }

  /** The key a thread creates as its i-th record. */
  private interface KeyOf {
    long key(int thread, int i);
  }
}
