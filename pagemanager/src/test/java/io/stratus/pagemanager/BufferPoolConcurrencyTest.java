package io.stratus.pagemanager;

import static io.stratus.cloudapi.Operation.STORAGE_GET;
import static io.stratus.cloudapi.Operation.STORAGE_GET_IF_CHANGED;
import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.BufferPoolStats;
import io.stratus.CorruptPageException;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.decorate.Call;
import io.stratus.cloudapi.decorate.CallInterceptor;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Single flight, overtaken loads, and many threads hitting and evicting at once. */
@ExtendWith(SeedExtension.class)
class BufferPoolConcurrencyTest {
  private static final String URI = "db/t/hot";
  private static final int THREADS = 16;

  /** Holds the answers of one operation's calls until the test opens the gate. */
  static final class Gate implements CallInterceptor {
    final Operation operation;
    final CompletableFuture<Void> open = new CompletableFuture<>();
    final AtomicInteger calls = new AtomicInteger();

    Gate(Operation operation) {
      this.operation = operation;
    }

    @Override
    public <T> CompletableFuture<T> intercept(
        Call<T> call, Supplier<CompletableFuture<T>> proceed) {
      if (call.operation() != operation) {
        return proceed.get();
      }
      calls.incrementAndGet();
      return proceed.get().thenCombine(open, (result, ignored) -> result);
    }
  }

  private final ExecutorService executor = Executors.newFixedThreadPool(THREADS);
  private PoolFixture f;

  @AfterEach
  void tearDown() throws InterruptedException {
    executor.shutdownNow();
    assertThat(executor.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
    f.close();
  }

  /** Starts {@code n} concurrent fetchAsync calls of {@code uri} and returns their futures. */
  private List<CompletableFuture<Optional<Page>>> fetchConcurrently(String uri, int n)
      throws Exception {
    CountDownLatch start = new CountDownLatch(1);
    List<Future<CompletableFuture<Optional<Page>>>> submitted = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      submitted.add(
          executor.submit(
              () -> {
                start.await();
                return f.pool.fetchAsync(uri);
              }));
    }
    start.countDown();
    List<CompletableFuture<Optional<Page>>> futures = new ArrayList<>();
    for (Future<CompletableFuture<Optional<Page>>> s : submitted) {
      futures.add(s.get(30, TimeUnit.SECONDS));
    }
    return futures;
  }

  @Test
  void concurrentMissesShareOneStorageGet(@Seed long seed) throws Exception {
    Gate gate = new Gate(STORAGE_GET);
    f = new PoolFixture(seed, BufferPoolConfig.defaults(), gate);
    Page p = RandomPages.leaf(URI, 4, 4);
    f.store(p);

    List<CompletableFuture<Optional<Page>>> futures = fetchConcurrently(URI, 64);
    assertThat(futures).noneMatch(CompletableFuture::isDone);
    gate.open.complete(null);

    for (CompletableFuture<Optional<Page>> fu : futures) {
      assertThat(fu.get(30, TimeUnit.SECONDS)).contains(p);
    }
    assertThat(gate.calls).hasValue(1);
    assertThat(f.calls(STORAGE_GET)).isEqualTo(1);
    BufferPoolStats s = f.pool.stats();
    assertThat(s.misses()).isEqualTo(1);
    assertThat(s.coalesced()).isEqualTo(63);
    assertThat(s.fetches()).isEqualTo(64);
    assertThat(s.pagesCached()).isEqualTo(1);
  }

  @Test
  void concurrentBlockingFetchesShareOneStorageGet(@Seed long seed) throws Exception {
    Gate gate = new Gate(STORAGE_GET);
    f = new PoolFixture(seed, BufferPoolConfig.defaults(), gate);
    Page p = RandomPages.leaf(URI, 4, 4);
    f.store(p);
    List<Future<Optional<Page>>> results = new ArrayList<>();
    for (int i = 0; i < THREADS; i++) {
      results.add(executor.submit(() -> f.pool.fetch(URI)));
    }
    // Wait (spinning, the clock is manual) until every thread is inside the pool.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (f.pool.stats().fetches() < THREADS && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
    gate.open.complete(null);
    for (Future<Optional<Page>> r : results) {
      assertThat(r.get(30, TimeUnit.SECONDS)).contains(p);
    }
    assertThat(gate.calls).hasValue(1);
    assertThat(f.pool.stats().coalesced()).isEqualTo(THREADS - 1);
  }

  @Test
  void concurrentRefreshesShareOneConditionalGet(@Seed long seed) throws Exception {
    Gate gate = new Gate(STORAGE_GET_IF_CHANGED);
    f = new PoolFixture(seed, BufferPoolConfig.defaults(), gate);
    Page p1 = RandomPages.leaf(URI, 4, 4);
    f.store(p1);
    f.pool.fetch(URI);
    Page p2 = RandomPages.leaf(URI, 5, 5);
    f.store(p2);
    f.clock.advance(BufferPoolConfig.DEFAULT_TTL);

    List<CompletableFuture<Optional<Page>>> futures = fetchConcurrently(URI, 40);
    gate.open.complete(null);

    for (CompletableFuture<Optional<Page>> fu : futures) {
      assertThat(fu.get(30, TimeUnit.SECONDS)).contains(p2);
    }
    assertThat(gate.calls).hasValue(1);
    assertThat(f.calls(STORAGE_GET)).isEqualTo(1);
    assertThat(f.pool.stats().refreshes()).isEqualTo(1);
    assertThat(f.pool.stats().coalesced()).isEqualTo(39);
  }

  @Test
  void aCorruptPageFailsEveryWaiterAndIsNotCached(@Seed long seed) throws Exception {
    Gate gate = new Gate(STORAGE_GET);
    f = new PoolFixture(seed, BufferPoolConfig.defaults(), gate);
    f.storeBytes(URI, new byte[] {1, 2, 3});

    List<CompletableFuture<Optional<Page>>> futures = fetchConcurrently(URI, 20);
    gate.open.complete(null);

    for (CompletableFuture<Optional<Page>> fu : futures) {
      assertThat(fu)
          .failsWithin(Duration.ofSeconds(30))
          .withThrowableOfType(ExecutionException.class)
          .withCauseInstanceOf(CorruptPageException.class);
    }
    assertThat(gate.calls).hasValue(1);
    assertThat(f.pool.isCached(URI)).isFalse();
  }

  @Test
  void aLoadOvertakenByAnInstallDoesNotOverwriteIt(@Seed long seed) {
    Gate gate = new Gate(STORAGE_GET);
    f = new PoolFixture(seed, BufferPoolConfig.defaults(), gate);
    Page old = RandomPages.leaf(URI, 1, 1);
    f.store(old);
    CompletableFuture<Optional<Page>> loading = f.pool.fetchAsync(URI); // reads old, held
    Page committed = RandomPages.leaf(URI, 2, 2);
    f.pool.install(committed, "v-new");
    gate.open.complete(null);

    assertThat(loading.join()).contains(old); // it started before the commit
    assertThat(f.pool.fetchVersioned(URI)).contains(new CachedPage(committed, "v-new"));
    assertThat(gate.calls).hasValue(1);
  }

  @Test
  void aLoadOvertakenByAnInvalidationDoesNotRefillThePool(@Seed long seed) {
    Gate gate = new Gate(STORAGE_GET);
    f = new PoolFixture(seed, BufferPoolConfig.defaults(), gate);
    f.store(RandomPages.leaf(URI, 1, 1));
    CompletableFuture<Optional<Page>> loading = f.pool.fetchAsync(URI);
    f.pool.invalidate(URI);
    gate.open.complete(null);

    assertThat(loading.join()).isPresent();
    assertThat(f.pool.isCached(URI)).isFalse();
    assertThat(f.pool.stats().pagesCached()).isZero();
  }

  @Test
  void manyThreadsHittingEvictingAndRefreshingKeepThePoolConsistent(@Seed long seed)
      throws Exception {
    int pages = 64;
    int size = RandomPages.leaf("db/s/00", 8, 50).encodedSizeBound();
    f =
        new PoolFixture(
            seed,
            BufferPoolConfig.builder().ttl(Duration.ofSeconds(10)).maxBytes(16L * size).build());
    for (int i = 0; i < pages; i++) {
      f.store(RandomPages.leaf(String.format("db/s/%02d", i), 8, 50));
    }
    AtomicLong fetches = new AtomicLong();
    List<Future<?>> workers = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      long workerSeed = seed + t;
      workers.add(
          executor.submit(
              () -> {
                Random r = new Random(workerSeed);
                for (int op = 0; op < 3000; op++) {
                  // Skewed towards a few hot pages, as B-tree roots are.
                  int i = r.nextInt(4) == 0 ? r.nextInt(pages) : r.nextInt(4);
                  String uri = String.format("db/s/%02d", i);
                  int what = r.nextInt(100);
                  if (what < 70) {
                    Page p = f.pool.fetch(uri).orElseThrow();
                    fetches.incrementAndGet();
                    assertThat(p.uri()).isEqualTo(uri);
                  } else if (what < 85) {
                    try (PageTransaction tx = f.pool.begin()) {
                      Page p = tx.read(uri).orElseThrow();
                      String other = String.format("db/s/%02d", r.nextInt(pages));
                      tx.read(other);
                      fetches.addAndGet(other.equals(uri) ? 1 : 2);
                      assertThat(tx.read(uri).orElseThrow()).isSameAs(p);
                      if (r.nextBoolean()) {
                        Page changed = p.withPut(new byte[] {'t'}, new byte[] {(byte) op});
                        tx.write(changed);
                        String v =
                            f.raw.put(uri, PageCodec.encode(changed), Map.of()).join().version();
                        tx.complete(Map.of(uri, v));
                      }
                    }
                  } else if (what < 90) {
                    f.pool.invalidate(uri);
                  } else if (what < 95) {
                    f.clock.advance(Duration.ofMillis(1 + r.nextInt(3000)));
                  } else {
                    Page p = RandomPages.leaf(uri, 8, 50).withPut(new byte[] {'o'}, new byte[0]);
                    f.store(p); // another client
                  }
                }
                return null;
              }));
    }
    for (Future<?> w : workers) {
      w.get(120, TimeUnit.SECONDS); // rethrows any failure of a worker
    }

    BufferPoolStats s = f.pool.stats();
    assertThat(s.fetches()).isEqualTo(fetches.get());
    assertThat(s.misses() + s.refreshes())
        .isEqualTo(f.calls(STORAGE_GET) + f.calls(STORAGE_GET_IF_CHANGED));
    assertThat(s.notModified()).isLessThanOrEqualTo(s.refreshes());
    assertThat(s.evictions()).isPositive();
    assertThat(s.bytesCached()).isEqualTo(f.pool.recountBytes());
    assertThat(s.pagesCached()).isEqualTo(f.pool.recountPages());
    assertThat(s.bytesCached()).isLessThanOrEqualTo(16L * size);
    for (int i = 0; i < pages; i++) {
      assertThat(f.pool.pinCount(String.format("db/s/%02d", i))).isZero();
    }
  }
}
