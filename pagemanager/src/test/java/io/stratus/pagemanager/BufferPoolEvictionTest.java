package io.stratus.pagemanager;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.BufferPoolStats;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The byte bound: LRU eviction of clean unpinned pages, never of pinned ones. */
@ExtendWith(SeedExtension.class)
class BufferPoolEvictionTest {
  /** Every test page has this encoded size bound (same entry count, same URI length). */
  private static final int SIZE = RandomPages.leaf(uri(0), 10, 100).encodedSizeBound();

  private PoolFixture f;

  private static String uri(int i) {
    return String.format("db/p/%03d", i);
  }

  private void start(long seed, int pagesThatFit) {
    BufferPoolConfig config =
        BufferPoolConfig.builder()
            .ttl(Duration.ofHours(1))
            .maxBytes((long) pagesThatFit * SIZE)
            .build();
    f = new PoolFixture(seed, config);
    for (int i = 0; i < 100; i++) {
      f.store(RandomPages.leaf(uri(i), 10, 100));
    }
  }

  @AfterEach
  void tearDown() {
    f.close();
  }

  /** Fetches page i one millisecond after the previous access, so LRU order is well defined. */
  private void touch(int i) {
    f.clock.advance(Duration.ofMillis(1));
    assertThat(f.pool.fetch(uri(i))).isPresent();
  }

  private List<Integer> cached() {
    List<Integer> c = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      if (f.pool.isCached(uri(i))) {
        c.add(i);
      }
    }
    return c;
  }

  @Test
  void evictsTheLeastRecentlyUsedPagesDownToTheLowWaterMark(@Seed long seed) {
    start(seed, 10);
    for (int i = 0; i < 10; i++) {
      touch(i);
    }
    assertThat(f.pool.stats().evictions()).isZero();
    assertThat(f.pool.stats().bytesCached()).isEqualTo(10L * SIZE);
    for (int i = 0; i < 5; i++) {
      touch(i); // 5..9 are now the least recently used
    }

    touch(10);

    // Over the bound by one page; evicting down to 15/16 of it takes two pages.
    assertThat(cached()).containsExactly(0, 1, 2, 3, 4, 7, 8, 9, 10);
    BufferPoolStats s = f.pool.stats();
    assertThat(s.evictions()).isEqualTo(2);
    assertThat(s.pagesCached()).isEqualTo(9);
    assertThat(s.bytesCached()).isEqualTo(9L * SIZE);
    assertThat(s.hits()).isEqualTo(5);
    assertThat(s.misses()).isEqualTo(11);

    touch(5); // an evicted page is simply read again
    assertThat(f.pool.stats().misses()).isEqualTo(12);
    assertThat(f.pool.stats().bytesCached()).isLessThanOrEqualTo(10L * SIZE);
  }

  @Test
  void pinnedPagesAreNeverEvicted(@Seed long seed) {
    start(seed, 10);
    PageTransaction tx = f.pool.begin();
    for (int i = 0; i < 5; i++) {
      f.clock.advance(Duration.ofMillis(1));
      assertThat(tx.read(uri(i))).isPresent(); // the oldest accesses, but pinned
    }
    for (int i = 5; i < 60; i++) {
      touch(i);
      assertThat(cached()).contains(0, 1, 2, 3, 4);
      assertThat(f.pool.stats().bytesCached()).isLessThanOrEqualTo(10L * SIZE);
    }
    assertThat(f.pool.stats().evictions()).isGreaterThan(40);

    tx.close();
    for (int i = 0; i < 5; i++) {
      assertThat(f.pool.pinCount(uri(i))).isZero();
    }
    for (int i = 60; i < 70; i++) {
      touch(i);
    }
    assertThat(cached()).doesNotContain(0, 1, 2, 3, 4);
  }

  @Test
  void whenEverythingIsPinnedThePoolExceedsItsBoundUntilPagesAreUnpinned(@Seed long seed) {
    start(seed, 3);
    try (PageTransaction tx = f.pool.begin()) {
      for (int i = 0; i < 6; i++) {
        f.clock.advance(Duration.ofMillis(1));
        tx.read(uri(i));
      }
      // Nothing could be evicted: every page, the one just read included, is pinned.
      assertThat(cached()).containsExactly(0, 1, 2, 3, 4, 5);
      assertThat(f.pool.stats().bytesCached()).isEqualTo(6L * SIZE);
      assertThat(f.pool.stats().evictions()).isZero();
      for (int i = 0; i < 6; i++) {
        assertThat(f.pool.pinCount(uri(i))).isEqualTo(1);
      }
    }
    // Unpinning let the pool evict back under its bound.
    assertThat(f.pool.stats().bytesCached()).isLessThanOrEqualTo(3L * SIZE);
    assertThat(f.pool.stats().evictions()).isGreaterThanOrEqualTo(3);
    touch(50);
    assertThat(f.pool.stats().bytesCached()).isLessThanOrEqualTo(3L * SIZE);
    assertThat(cached()).contains(50);
  }

  @Test
  void installsCountTowardsTheBound(@Seed long seed) {
    start(seed, 4);
    for (int i = 0; i < 20; i++) {
      f.clock.advance(Duration.ofMillis(1));
      f.pool.install(RandomPages.leaf(uri(i), 10, 100), "v" + i);
    }
    assertThat(f.pool.stats().bytesCached()).isLessThanOrEqualTo(4L * SIZE);
    assertThat(cached()).contains(19);
    assertThat(f.pool.stats().evictions()).isEqualTo(20 - f.pool.stats().pagesCached());
    assertThat(f.storageCalls()).isZero();
  }
}
