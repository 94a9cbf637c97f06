package io.stratus.pagemanager;

import static io.stratus.cloudapi.Operation.STORAGE_GET;
import static io.stratus.cloudapi.Operation.STORAGE_GET_IF_CHANGED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.CorruptPageException;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.pagemanager.proto.StoredPage;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** A corrupt stored page is reported, never cached, and does not poison the pool. */
@ExtendWith(SeedExtension.class)
class BufferPoolCorruptionTest {
  private static final String URI = "db/t/p1";

  /** Ways a stored item can go bad. */
  enum Damage {
    FLIPPED_BYTE {
      @Override
      byte[] apply(byte[] good, Random r) {
        byte[] bad = good.clone();
        bad[r.nextInt(bad.length)] ^= (byte) (1 + r.nextInt(255));
        return bad;
      }
    },
    TRUNCATED {
      @Override
      byte[] apply(byte[] good, Random r) {
        return Arrays.copyOf(good, r.nextInt(good.length));
      }
    },
    GARBAGE {
      @Override
      byte[] apply(byte[] good, Random r) {
        return RandomPages.bytes(r, 1 + r.nextInt(2 * good.length));
      }
    },
    /** A valid page of another address copied under this one. */
    FOREIGN_PAGE {
      @Override
      byte[] apply(byte[] good, Random r) {
        return PageCodec.encode(RandomPages.page(r, URI + "-elsewhere"));
      }
    },
    WRONG_FORMAT_VERSION {
      @Override
      byte[] apply(byte[] good, Random r) {
        try {
          return StoredPage.parseFrom(good).toBuilder()
              .setFormatVersion(PageCodec.FORMAT_VERSION + 1)
              .build()
              .toByteArray();
        } catch (Exception e) {
          throw new AssertionError(e);
        }
      }
    };

    abstract byte[] apply(byte[] good, Random r);
  }

  private PoolFixture f;
  private Random r;

  @BeforeEach
  void setUp(@Seed long seed) {
    f = new PoolFixture(seed);
    r = new Random(seed);
  }

  @AfterEach
  void tearDown() {
    f.close();
  }

  @ParameterizedTest
  @EnumSource(Damage.class)
  void aCorruptPageIsReportedNotCachedAndReadAgainOnceRepaired(Damage damage) {
    Page p = RandomPages.page(r, URI);
    f.storeBytes(URI, damage.apply(PageCodec.encode(p), r));

    assertCorruptAndNotCached();
    assertCorruptAndNotCached(); // not poisoned: storage is asked again
    assertThat(f.calls(STORAGE_GET)).isEqualTo(2);
    assertThat(f.pool.fetchAsync(URI))
        .failsWithin(java.time.Duration.ZERO)
        .withThrowableOfType(java.util.concurrent.ExecutionException.class)
        .withCauseInstanceOf(CorruptPageException.class);

    f.store(p); // repaired
    assertThat(f.pool.fetch(URI)).contains(p);
    assertThat(f.pool.fetch(URI)).contains(p);
    assertThat(f.calls(STORAGE_GET)).isEqualTo(4);
    assertThat(f.pool.stats().pagesCached()).isEqualTo(1);
  }

  @ParameterizedTest
  @EnumSource(Damage.class)
  void aPageThatTurnsCorruptOnRefreshIsDropped(Damage damage) {
    Page p = RandomPages.page(r, URI);
    f.store(p);
    assertThat(f.pool.fetch(URI)).contains(p);
    f.storeBytes(URI, damage.apply(PageCodec.encode(p), r));
    f.passTtl();

    assertCorruptAndNotCached();
    assertThat(f.calls(STORAGE_GET_IF_CHANGED)).isEqualTo(1);
    // With nothing cached, the next fetch is a full get (and finds the damage again).
    assertCorruptAndNotCached();
    assertThat(f.calls(STORAGE_GET)).isEqualTo(2);

    f.store(p);
    assertThat(f.pool.fetch(URI)).contains(p);
  }

  @ParameterizedTest
  @EnumSource(Damage.class)
  void aTransactionReadingACorruptPageStaysUsable(Damage damage) {
    Page p = RandomPages.page(r, URI);
    f.storeBytes(URI, damage.apply(PageCodec.encode(p), r));
    try (PageTransaction tx = f.pool.begin()) {
      assertThatThrownBy(() -> tx.read(URI)).isInstanceOf(CorruptPageException.class);
      assertThat(tx.readSet()).isEmpty();
      f.store(p);
      assertThat(tx.read(URI)).contains(p);
    }
  }

  private void assertCorruptAndNotCached() {
    assertThatThrownBy(() -> f.pool.fetch(URI))
        .isInstanceOf(CorruptPageException.class)
        .isNotInstanceOf(CompletionException.class)
        .satisfies(e -> assertThat(((CorruptPageException) e).uri()).isEqualTo(URI));
    assertThat(f.pool.isCached(URI)).isFalse();
    assertThat(f.pool.stats().pagesCached()).isZero();
    assertThat(f.pool.stats().bytesCached()).isZero();
  }
}
