package io.stratus.pagemanager;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.StalePageException;
import io.stratus.cloudapi.StorageService;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.cloudapi.inprocess.StorageConsistency;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.cloudapi.time.ManualClock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Monotonic reads in the pool (paper 001, section 5.2) over eventually consistent storage, which
 * serves a superseded version with chance 1/2 within its stale window: with the guard on the
 * pool never returns a lower version stamp than it has returned before, whether it still caches
 * the newer copy or has dropped it; with the guard off it does.
 */
@ExtendWith(SeedExtension.class)
class BufferPoolMonotonicReadsTest {
  private static final String URI = "db/t/page";
  private static final Duration TTL = Duration.ofSeconds(1);

  /** Pages stamped 1..5 written in a row; the pool reads after every TTL, often stale. */
  private static int backwardSteps(long seed, boolean guard, boolean invalidate) {
    ManualClock clock = new ManualClock();
    try (InProcessCloud cloud =
            InProcessCloud.builder()
                .clock(clock)
                .seed(seed)
                .storageConsistency(StorageConsistency.eventual(Duration.ofMinutes(10)))
                .build();
        BufferPool pool =
            new BufferPool(
                cloud.services().storage(),
                BufferPoolConfig.builder().ttl(TTL).monotonicReads(guard).build(),
                clock)) {
      StorageService storage = cloud.services().storage();
      int backward = 0;
      long highest = 0;
      for (int stamp = 1; stamp <= 5; stamp++) {
        Page p = RandomPages.leaf(URI, 3, 5).withVersionStamp(stamp);
        storage.put(URI, PageCodec.encode(p), Map.of()).join();
        for (int i = 0; i < 20; i++) {
          clock.advance(TTL);
          if (invalidate) {
            pool.invalidate(URI); // no newer copy to fall back on: the pool must re-read
          }
          long got;
          try {
            got = pool.fetch(URI).map(Page::versionStamp).orElse(0L);
          } catch (StalePageException e) {
            assertThat(e.isRetryable()).isTrue();
            continue; // refused, never served
          }
          if (got < highest) {
            backward++;
          }
          highest = Math.max(highest, got);
        }
      }
      if (guard) {
        assertThat(pool.staleReadsRefused()).isPositive();
      }
      return backward;
    }
  }

  @Test
  void theGuardNeverGoesBackCachedOrNot(@Seed long seed) {
    assertThat(backwardSteps(seed, true, false)).isZero();
    assertThat(backwardSteps(seed, true, true)).isZero();
  }

  @Test
  void withoutTheGuardStaleStorageGoesBack(@Seed long seed) {
    assertThat(backwardSteps(seed, false, false) + backwardSteps(seed, false, true)).isPositive();
  }
}
