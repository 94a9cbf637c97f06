package io.stratus.pagemanager;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An install never takes the pool back in time: a writer that installs its page after the pool
 * loaded a newer version (another client's write) keeps the newer one, whether monotonic reads
 * are on or off.
 */
@ExtendWith(SeedExtension.class)
class BufferPoolInstallTest {
  private static final String URI = "db/c/items/p1";

  private static void olderInstallKeepsTheNewerCopy(long seed, boolean monotonicReads) {
    try (PoolFixture f =
        new PoolFixture(
            seed,
            BufferPoolConfig.builder()
                .ttl(PoolFixture.TTL)
                .monotonicReads(monotonicReads)
                .build())) {
      Page mine = RandomPages.leaf(URI, 3, 5).withVersionStamp(4);
      Page theirs = RandomPages.leaf(URI, 4, 5).withVersionStamp(5);
      f.store(mine);
      f.store(theirs); // another client wrote after us
      assertThat(f.pool.fetch(URI)).contains(theirs); // ... and this pool loaded it

      f.pool.install(mine, "v-mine"); // our checkpoint installs late

      assertThat(f.pool.fetch(URI)).contains(theirs);
      assertThat(f.pool.staleInstallsRefused()).isEqualTo(1);
      Page newer = RandomPages.leaf(URI, 2, 5).withVersionStamp(6);
      f.pool.install(newer, "v-newer"); // a newer install still replaces it
      assertThat(f.pool.fetch(URI)).contains(newer);
    }
  }

  @Test
  void anOlderInstallKeepsTheNewerCopy(@Seed long seed) {
    olderInstallKeepsTheNewerCopy(seed, false);
  }

  @Test
  void anOlderInstallKeepsTheNewerCopyWithMonotonicReads(@Seed long seed) {
    olderInstallKeepsTheNewerCopy(seed, true);
  }
}
