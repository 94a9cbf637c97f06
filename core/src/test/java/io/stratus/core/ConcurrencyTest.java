package io.stratus.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * One database handle shared by several threads, as web request threads share it. The naive
 * protocol gives no isolation between them (two threads changing one page can lose an update), so
 * the checks are what must hold anyway: no unexpected exceptions, a structurally sound tree, and
 * B-link scans that never repeat a key nor miss one committed before they began.
 */
@ExtendWith(SeedExtension.class)
class ConcurrencyTest {
  private static final int THREADS = 4;

  @Test
  void threadsRunTheirOwnTransactionsOnDistinctKeys(@Seed long seed) throws Exception {
    try (Fixture f = new Fixture(seed)) {
      Database db = f.open(f.config().indexExtractor("items", "byCategory", Fixture.BY_CATEGORY));
      db.createCollection("items");
      db.createIndex("items", "byCategory", Fixture.BY_CATEGORY);
      ExecutorService pool = Executors.newFixedThreadPool(THREADS);
      CountDownLatch start = new CountDownLatch(1);
      List<Future<?>> workers = new ArrayList<>();
      try {
        for (int t = 0; t < THREADS; t++) {
          int thread = t;
          workers.add(
              pool.submit(
                  () -> {
                    Random r = new Random(seed + thread);
                    start.await();
                    for (int i = 0; i < 40; i++) {
                      try (Transaction tx = db.begin()) {
                        for (int j = 0; j < 3; j++) {
                          Key key = Key.of(thread * 10_000L + r.nextInt(60));
                          byte[] payload = payload(r, thread);
                          if (!tx.update("items", key, payload)) {
                            tx.create("items", key, payload);
                          }
                        }
                        if (r.nextInt(5) > 0) {
                          tx.commit();
                        }
                      }
                    }
                    return null;
                  }));
        }
        start.countDown();
        for (Future<?> w : workers) {
          w.get(60, TimeUnit.SECONDS); // rethrows any exception of a worker
        }
      } finally {
        pool.shutdownNow();
      }
      // Whatever was lost, the tree is sound: keys ascending, unique, each one some thread wrote.
      try (Transaction tx = db.begin();
          RecordCursor c = tx.scan("items")) {
        Key previous = null;
        while (c.hasNext()) {
          Record rec = c.next();
          if (previous != null) {
            assertThat(rec.key()).isGreaterThan(previous);
          }
          long k = rec.key().decoder().nextLong();
          assertThat(k % 10_000).isLessThan(60);
          assertThat(rec.payload()[1]).isEqualTo((byte) (k / 10_000));
          previous = rec.key();
        }
      }
      // Single-threaded, each transaction reads what the one before committed.
      for (int n = 0; n < 20; n++) {
        int i = n;
        Key key = Key.of(99_000L + i);
        try (Transaction tx = db.begin()) {
          tx.create("items", key, new byte[] {1, 9, (byte) i});
          tx.commit();
        }
        try (Transaction tx = db.begin()) {
          assertThat(tx.read("items", key))
              .hasValueSatisfying(v -> assertThat(v).containsExactly(1, 9, (byte) i));
        }
      }
    }
  }

  @Test
  void scansNeverRepeatNorMissCommittedKeysWhileAWriterSplitsPages(@Seed long seed)
      throws Exception {
    try (Fixture f = new Fixture(seed)) {
      Database db = f.open();
      db.createCollection("items");
      Set<Key> committed = new ConcurrentSkipListSet<>();
      AtomicBoolean writing = new AtomicBoolean(true);
      ExecutorService pool = Executors.newFixedThreadPool(1 + THREADS);
      try {
        Future<?> writer =
            pool.submit(
                () -> {
                  Random r = new Random(seed);
                  try {
                    for (int i = 0; i < 300; i++) {
                      List<Key> keys = new ArrayList<>();
                      try (Transaction tx = db.begin()) {
                        for (int j = 0; j < 1 + r.nextInt(4); j++) {
                          Key key = Key.of(r.nextLong());
                          tx.create("items", key, new byte[r.nextInt(120)]);
                          keys.add(key);
                        }
                        tx.commit();
                      }
                      committed.addAll(keys); // only once the commit has returned
                    }
                  } finally {
                    writing.set(false);
                  }
                  return null;
                });
        List<Future<Integer>> readers = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
          readers.add(
              pool.submit(
                  () -> {
                    int scans = 0;
                    while (writing.get() || scans < 3) {
                      Set<Key> before = new HashSet<>(committed);
                      List<Key> seen = new ArrayList<>();
                      try (Transaction tx = db.begin();
                          RecordCursor c = tx.scan("items")) {
                        c.forEachRemaining(rec -> seen.add(rec.key()));
                      }
                      for (int i = 1; i < seen.size(); i++) {
                        assertThat(seen.get(i))
                            .as("strictly ascending, no key twice")
                            .isGreaterThan(seen.get(i - 1));
                      }
                      assertThat(new HashSet<>(seen)).containsAll(before);
                      scans++;
                    }
                    return scans;
                  }));
        }
        writer.get(60, TimeUnit.SECONDS);
        for (Future<Integer> reader : readers) {
          assertThat(reader.get(60, TimeUnit.SECONDS)).isPositive();
        }
      } finally {
        pool.shutdownNow();
      }
      try (Transaction tx = db.begin();
          RecordCursor c = tx.scan("items")) {
        Set<Key> all = new HashSet<>();
        c.forEachRemaining(rec -> all.add(rec.key()));
        assertThat(all).isEqualTo(committed);
      }
    }
  }

  private static byte[] payload(Random r, int thread) {
    byte[] p =
        ByteBuffer.allocate(2 + r.nextInt(60))
            .put((byte) r.nextInt(100))
            .put((byte) thread)
            .array();
    return p;
  }
}
