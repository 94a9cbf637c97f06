package io.stratus.pagemanager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.PreconditionFailedException;
import io.stratus.cloudapi.StorageService;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.cloudapi.time.ManualClock;
import org.junit.jupiter.api.Test;

class PageWriterTest {
  private static final long SEED = 7;

  private static Page leaf(String uri, String value) {
    return Page.builder(uri, PageKind.LEAF)
        .level(0)
        .entries(new byte[][] {{1}}, new byte[][] {value.getBytes()})
        .build();
  }

  @Test
  void stampsAboveTheReadVersionAndEverythingTheHandleSaw() {
    try (PoolFixture f =
        new PoolFixture(SEED, BufferPoolConfig.builder().monotonicReads(true).build())) {
      PageWriter writer = new PageWriter(f.storage, f.pool);
      f.store(leaf("db/p", "other").withVersionStamp(9)); // another client's newer copy
      assertThat(f.pool.fetch("db/p")).isPresent(); // this handle saw stamp 9

      PageWriter.Written w = writer.write(leaf("db/p", "mine"), 3, PageWriter.Condition.none());

      assertThat(w.page().versionStamp()).isEqualTo(10);
      assertThat(f.pool.fetch("db/p").orElseThrow().versionStamp()).isEqualTo(10);
      Page stored =
          PageCodec.decode("db/p", CloudFutures.await(f.raw.get("db/p")).orElseThrow().payload());
      assertThat(stored.versionStamp()).isEqualTo(10);
    }
  }

  @Test
  void aConditionalPutThatLostItsRaceInstallsNothing() {
    try (PoolFixture f = new PoolFixture(SEED)) {
      PageWriter writer = new PageWriter(f.storage, f.pool);
      String read = f.store(leaf("db/p", "v1"));
      f.store(leaf("db/p", "v2").withVersionStamp(5)); // someone wrote after our read

      assertThatThrownBy(
              () -> writer.write(leaf("db/p", "mine"), 1, PageWriter.Condition.version(read)))
          .isInstanceOf(PreconditionFailedException.class);
      assertThat(f.pool.fetch("db/p").orElseThrow().versionStamp()).isEqualTo(5);
      assertThatThrownBy(() -> writer.write(leaf("db/p", "new"), 0, PageWriter.Condition.absent()))
          .isInstanceOf(PreconditionFailedException.class);
    }
  }

  @Test
  void conditionsNeedStorageThatOffersThem() {
    StorageService plain =
        InProcessCloud.builder()
            .clock(new ManualClock())
            .conditionalPut(false)
            .build()
            .services()
            .storage();
    try (BufferPool pool =
        new BufferPool(plain, BufferPoolConfig.builder().build(), new ManualClock())) {
      PageWriter writer = new PageWriter(plain, pool);
      assertThat(writer.supportsConditions()).isFalse();
      assertThatThrownBy(() -> writer.put(leaf("db/p", "x"), PageWriter.Condition.absent()))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("conditional");
      assertThat(writer.write(leaf("db/p", "x"), 0, PageWriter.Condition.none()).version())
          .isNotEmpty();
    }
  }
}
