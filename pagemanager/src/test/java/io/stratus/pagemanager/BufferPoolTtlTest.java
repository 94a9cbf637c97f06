package io.stratus.pagemanager;

import static io.stratus.cloudapi.Operation.STORAGE_GET;
import static io.stratus.cloudapi.Operation.STORAGE_GET_IF_CHANGED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.BufferPoolStats;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Fetching, the TTL protocol and its refreshes by version, install and invalidate. */
@ExtendWith(SeedExtension.class)
class BufferPoolTtlTest {
  private static final String URI = "db/t/p1";
  private PoolFixture f;

  @BeforeEach
  void setUp(@Seed long seed) {
    f = new PoolFixture(seed);
  }

  @AfterEach
  void tearDown() {
    f.close();
  }

  @Test
  void fetchesWithinTheTtlMakeOneStorageGet() {
    Page p = RandomPages.leaf(URI, 5, 10);
    f.store(p);
    assertThat(f.pool.fetch(URI)).contains(p);
    f.clock.advance(PoolFixture.TTL.minusMillis(1));
    Optional<Page> again = f.pool.fetch(URI);

    assertThat(again).contains(p);
    assertThat(f.calls(STORAGE_GET)).isEqualTo(1);
    assertThat(f.storageCalls()).isEqualTo(1);
    BufferPoolStats s = f.pool.stats();
    assertThat(s.hits()).isEqualTo(1);
    assertThat(s.misses()).isEqualTo(1);
    assertThat(s.refreshes()).isZero();
    assertThat(s.pagesCached()).isEqualTo(1);
    assertThat(s.bytesCached()).isEqualTo(p.encodedSizeBound());
    assertThat(s.hitRate()).isEqualTo(0.5);
  }

  @Test
  void afterTheTtlAnUnchangedPageIsConfirmedWithoutTransfer() {
    Page p = RandomPages.leaf(URI, 5, 10);
    String version = f.store(p);
    Page first = f.pool.fetch(URI).orElseThrow();
    f.passTtl(); // exactly the TTL: no longer fresher than it

    Optional<CachedPage> refreshed = f.pool.fetchVersioned(URI);

    assertThat(refreshed).contains(new CachedPage(p, version));
    assertThat(refreshed.orElseThrow().page()).isSameAs(first);
    assertThat(f.calls(STORAGE_GET)).isEqualTo(1);
    assertThat(f.calls(STORAGE_GET_IF_CHANGED)).isEqualTo(1);
    assertThat(f.pool.stats().refreshes()).isEqualTo(1);
    assertThat(f.pool.stats().notModified()).isEqualTo(1);

    // The TTL started again with the confirmation.
    f.clock.advance(PoolFixture.TTL.minusMillis(1));
    assertThat(f.pool.fetch(URI)).contains(p);
    assertThat(f.storageCalls()).isEqualTo(2);
  }

  @Test
  void afterTheTtlAPageChangedByAnotherClientIsReplaced() {
    Page p1 = RandomPages.leaf(URI, 5, 10);
    f.store(p1);
    f.pool.fetch(URI);
    Page p2 = p1.withPut(new byte[] {'z'}, new byte[] {1, 2, 3});
    String v2 = f.store(p2);

    assertThat(f.pool.fetch(URI)).as("still within the TTL").contains(p1);
    f.passTtl();
    assertThat(f.pool.fetchVersioned(URI)).contains(new CachedPage(p2, v2));
    assertThat(f.pool.fetch(URI)).contains(p2);

    assertThat(f.calls(STORAGE_GET)).isEqualTo(1);
    assertThat(f.calls(STORAGE_GET_IF_CHANGED)).isEqualTo(1);
    BufferPoolStats s = f.pool.stats();
    assertThat(s.notModified()).isZero();
    assertThat(s.bytesCached()).isEqualTo(p2.encodedSizeBound());
    assertThat(s.pagesCached()).isEqualTo(1);
  }

  @Test
  void afterTheTtlADeletedPageIsDropped() {
    f.store(RandomPages.leaf(URI, 5, 10));
    f.pool.fetch(URI);
    f.raw.delete(URI).join();
    f.passTtl();

    assertThat(f.pool.fetch(URI)).isEmpty();
    assertThat(f.pool.isCached(URI)).isFalse();
    assertThat(f.pool.stats().pagesCached()).isZero();
    assertThat(f.pool.stats().bytesCached()).isZero();
    // Absence is not cached: the next fetch asks storage again, and sees a new page.
    Page p = RandomPages.leaf(URI, 1, 1);
    f.store(p);
    assertThat(f.pool.fetch(URI)).contains(p);
    assertThat(f.calls(STORAGE_GET)).isEqualTo(2);
  }

  @Test
  void aMissingPageIsEmptyAndNotCached() {
    assertThat(f.pool.fetch("db/none")).isEmpty();
    assertThat(f.pool.fetch("db/none")).isEmpty();
    assertThat(f.calls(STORAGE_GET)).isEqualTo(2);
    assertThat(f.pool.stats().misses()).isEqualTo(2);
    assertThat(f.pool.stats().pagesCached()).isZero();
  }

  @Test
  void installedPagesAreFreshAndCarryTheirVersion() {
    Page p = RandomPages.leaf(URI, 3, 3);
    f.pool.install(p, "v-committed");
    assertThat(f.pool.fetchVersioned(URI)).contains(new CachedPage(p, "v-committed"));
    assertThat(f.storageCalls()).isZero();

    // After the TTL it is checked against storage by that version.
    String stored = f.store(p);
    f.passTtl();
    assertThat(f.pool.fetchVersioned(URI)).contains(new CachedPage(p, stored));
    assertThat(f.calls(STORAGE_GET_IF_CHANGED)).isEqualTo(1);
  }

  @Test
  void installReplacesACachedPageAndItsSize() {
    Page small = RandomPages.leaf(URI, 1, 1);
    f.store(small);
    f.pool.fetch(URI);
    Page big = RandomPages.leaf(URI, 20, 100);
    f.pool.install(big, "v2");
    assertThat(f.pool.fetch(URI)).contains(big);
    assertThat(f.pool.stats().bytesCached()).isEqualTo(big.encodedSizeBound());
    assertThat(f.pool.stats().pagesCached()).isEqualTo(1);
  }

  @Test
  void invalidateMakesTheNextFetchReadStorage() {
    Page p1 = RandomPages.leaf(URI, 2, 2);
    f.store(p1);
    f.pool.fetch(URI);
    Page p2 = RandomPages.leaf(URI, 3, 3);
    f.store(p2);
    f.pool.invalidate(URI);
    assertThat(f.pool.stats().pagesCached()).isZero();
    assertThat(f.pool.fetch(URI)).contains(p2);
    assertThat(f.calls(STORAGE_GET)).isEqualTo(2);
    f.pool.invalidate("db/never-seen"); // nothing to drop
    assertThat(f.pool.stats().pagesCached()).isEqualTo(1);
  }

  @Test
  void fetchAsyncAnswersHitsAtOnceAndMissesThroughStorage() {
    Page p = RandomPages.leaf(URI, 2, 2);
    f.store(p);
    assertThat(f.pool.fetchAsync(URI).join()).contains(p);
    assertThat(f.pool.fetchAsync(URI)).isCompletedWithValue(Optional.of(p));
    assertThat(f.pool.fetchAsync("db/none").join()).isEmpty();
    assertThat(f.calls(STORAGE_GET)).isEqualTo(2);
  }

  @Test
  void aZeroTtlRevalidatesEveryFetch(@Seed long seed) {
    try (PoolFixture z =
        new PoolFixture(seed, BufferPoolConfig.builder().ttl(Duration.ZERO).build())) {
      z.store(RandomPages.leaf(URI, 2, 2));
      for (int i = 0; i < 3; i++) {
        assertThat(z.pool.fetch(URI)).isPresent();
      }
      assertThat(z.calls(STORAGE_GET)).isEqualTo(1);
      assertThat(z.calls(STORAGE_GET_IF_CHANGED)).isEqualTo(2);
      assertThat(z.pool.stats().notModified()).isEqualTo(2);
      assertThat(z.pool.stats().hits()).isZero();
    }
  }

  @Test
  void aClosedPoolRefusesFetchesAndIgnoresInstalls() {
    f.store(RandomPages.leaf(URI, 2, 2));
    f.pool.fetch(URI);
    f.pool.close();
    assertThat(f.pool.stats().pagesCached()).isZero();
    assertThatThrownBy(() -> f.pool.fetch(URI)).isInstanceOf(IllegalStateException.class);
    assertThat(f.pool.fetchAsync(URI)).isCompletedExceptionally();
    assertThatThrownBy(() -> f.pool.begin()).isInstanceOf(IllegalStateException.class);
    f.pool.install(RandomPages.leaf(URI, 1, 1), "v");
    assertThat(f.pool.stats().pagesCached()).isZero();
  }
}
