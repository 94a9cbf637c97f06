package io.stratus.cloudapi.crypto;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.CloudLimits;
import io.stratus.cloudapi.StorageService;
import io.stratus.cloudapi.SupportsConditionalPut;
import io.stratus.cloudapi.contract.StorageServiceContract;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.cloudapi.inprocess.StorageConsistency;
import io.stratus.cloudapi.time.ManualClock;
import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The storage contract through the encrypting wrapper, on strongly consistent in-process storage
 * with conditional puts; the variant below runs it on eventual storage without them. The wrapper
 * must keep every guarantee: round trips, versions, conditional puts, listings with plaintext
 * sizes, and limits as the wrapper reports them.
 */
class EncryptedStorageContractTest extends StorageServiceContract {
  static final CloudLimits SMALL_LIMITS =
      CloudLimits.builder()
          .maxObjectSize(64 * 1024)
          .maxMetadataSize(256)
          .maxUriLength(200)
          .maxListPageSize(10)
          .build();

  protected final ManualClock clock = new ManualClock();
  protected StorageService inner;

  @Override
  protected StorageService newStorage(long seed) {
    inner =
        InProcessCloud.builder()
            .clock(clock)
            .seed(seed)
            .limits(SMALL_LIMITS)
            .storageConsistency(consistency())
            .conditionalPut(conditionalPut())
            .build()
            .services()
            .storage();
    return Encryption.builder(new TestKeys("k1", seed))
        .nonceSource(new Random(seed))
        .build()
        .wrap(inner);
  }

  @Override
  protected void elapse(Duration d) {
    clock.advance(d);
  }

  StorageConsistency consistency() {
    return StorageConsistency.strong();
  }

  boolean conditionalPut() {
    return true;
  }

  @Test
  void theWrapperKeepsConditionalPutsAndReportsLimitsLessTheOverhead() {
    assertThat(storage instanceof SupportsConditionalPut).isEqualTo(conditionalPut());
    assertThat(storage.limits().maxObjectSize())
        .isEqualTo(SMALL_LIMITS.maxObjectSize() - Encryption.OVERHEAD);
    assertThat(storage.isStronglyConsistent()).isEqualTo(inner.isStronglyConsistent());
  }

  @Test
  void anObjectAtTheReducedLimitFitsTheServiceLimitExactly() {
    byte[] max = new byte[(int) storage.limits().maxObjectSize()];
    await(storage.put(uri("max"), max, java.util.Map.of()));
    settle();
    assertThat(await(inner.get(uri("max"))).orElseThrow().size())
        .isEqualTo(SMALL_LIMITS.maxObjectSize());
    assertThat(await(storage.get(uri("max"))).orElseThrow().payload()).isEqualTo(max);
  }
}

/** The storage contract through the wrapper on eventual storage without conditional puts. */
class EncryptedEventualStorageContractTest extends EncryptedStorageContractTest {
  private static final Duration WINDOW = Duration.ofSeconds(5);

  @Override
  StorageConsistency consistency() {
    return StorageConsistency.eventual(WINDOW);
  }

  @Override
  protected Duration consistencyWindow() {
    return WINDOW;
  }

  @Override
  boolean conditionalPut() {
    return false;
  }
}
