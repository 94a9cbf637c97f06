package io.stratus.protocols.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.cloudapi.StorageService;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.cloudapi.inprocess.StorageConsistency;
import io.stratus.cloudapi.time.ManualClock;
import io.stratus.pagemanager.BufferPool;
import io.stratus.pagemanager.BufferPoolConfig;
import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageCodec;
import io.stratus.pagemanager.PageKind;
import io.stratus.pagemanager.PageWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The page that carries a checkpoint's counters is put only after every other page of its level
 * was put: when a moved record's leaf loses its conditional put to a concurrent tree checkpoint,
 * the data page must not be stored with a counter that claims the record applied.
 */
class DirectPageStoreFlushTest {
  private static final String P = "db/c/items/p";
  private static final String L2 = "db/c/items/l2";

  private static Page leaf(String uri, String value, long stamp) {
    return Page.builder(uri, PageKind.LEAF)
        .level(0)
        .entries(new byte[][] {{1}}, new byte[][] {value.getBytes()})
        .build()
        .withVersionStamp(stamp);
  }

  private static Page stored(StorageService storage, String uri) {
    return PageCodec.decode(uri, storage.get(uri).join().orElseThrow().payload());
  }

  @Test
  void theCounterPageIsNotPutWhenAnotherPageOfItsLevelLostItsRace() {
    try (InProcessCloud cloud = InProcessCloud.create();
        BufferPool pool =
            new BufferPool(
                cloud.services().storage(), BufferPoolConfig.defaults(), Clock.systemUTC())) {
      StorageService storage = cloud.services().storage();
      storage.put(P, PageCodec.encode(leaf(P, "p0", 1)), Map.of()).join();
      storage.put(L2, PageCodec.encode(leaf(L2, "l0", 1)), Map.of()).join();
      DirectPageStore store =
          new DirectPageStore(storage, new PageWriter(storage, pool), true, 4096);
      store.read(P);
      store.read(L2);
      store.write(leaf(P, "p1 with the counter", 1));
      store.write(leaf(L2, "l1 the moved record", 1));
      // A concurrent tree checkpoint rewrites L2 after this checkpoint read it.
      storage.put(L2, PageCodec.encode(leaf(L2, "l0 and another key", 2)), Map.of()).join();

      assertThatThrownBy(() -> store.flush(() -> true, P))
          .isInstanceOf(DirectPageStore.Abandoned.class);

      assertThat(new String(stored(storage, P).value(0))).isEqualTo("p0");
      assertThat(new String(stored(storage, L2).value(0))).isEqualTo("l0 and another key");
    }
  }

  /**
   * Storage that serves the counter page from before another checkpoint's put, while the leaf
   * that checkpoint put earlier reads fresh: the records were decided on stale counters, so the
   * checkpoint must fail before it puts the leaf (a record it applies again would undo the other
   * checkpoint's delete of the key).
   */
  @Test
  void aStaleCounterPageFailsItsClaimBeforeAnyOtherPageIsPut() {
    ManualClock clock = new ManualClock();
    try (InProcessCloud cloud = laggingCloud(clock);
        BufferPool pool =
            new BufferPool(cloud.services().storage(), BufferPoolConfig.defaults(), clock)) {
      StorageService storage = cloud.services().storage();
      storage.put(P, PageCodec.encode(leaf(P, "p0", 1)), Map.of()).join();
      storage.put(L2, PageCodec.encode(leaf(L2, "l0", 1)), Map.of()).join();
      clock.advance(Duration.ofSeconds(2));
      // Another checkpoint puts its leaf, then (a moment later) the page with its counters.
      storage.put(L2, PageCodec.encode(leaf(L2, "l1 key deleted", 2)), Map.of()).join();
      clock.advance(Duration.ofSeconds(2));
      storage.put(P, PageCodec.encode(leaf(P, "p1 counters", 2)), Map.of()).join();

      DirectPageStore store =
          new DirectPageStore(storage, new PageWriter(storage, pool), true, 4096);
      assertThat(new String(store.read(P).orElseThrow().value(0))).isEqualTo("p0");
      assertThat(new String(store.read(L2).orElseThrow().value(0))).isEqualTo("l1 key deleted");
      store.write(leaf(P, "p2", 1));
      store.write(leaf(L2, "l2 key inserted again", 2));

      assertThatThrownBy(() -> store.flush(() -> true, P))
          .isInstanceOf(DirectPageStore.Abandoned.class);
      clock.advance(Duration.ofSeconds(2));
      assertThat(new String(stored(storage, L2).value(0))).isEqualTo("l1 key deleted");
      assertThat(new String(stored(storage, P).value(0))).isEqualTo("p1 counters");
    }
  }

  @Test
  void theClaimCostsAPutOnlyWhereReadsMayLag() {
    ManualClock clock = new ManualClock();
    for (boolean lagging : new boolean[] {false, true}) {
      try (InProcessCloud cloud = lagging ? laggingCloud(clock) : InProcessCloud.create();
          BufferPool pool =
              new BufferPool(cloud.services().storage(), BufferPoolConfig.defaults(), clock)) {
        StorageService storage = cloud.services().storage();
        storage.put(P, PageCodec.encode(leaf(P, "p0", 1)), Map.of()).join();
        storage.put(L2, PageCodec.encode(leaf(L2, "l0", 1)), Map.of()).join();
        clock.advance(Duration.ofSeconds(2));
        DirectPageStore store =
            new DirectPageStore(storage, new PageWriter(storage, pool), true, 4096);
        store.read(P);
        store.read(L2);
        store.write(leaf(P, "p1", 1));
        store.write(leaf(L2, "l1", 1));

        store.flush(() -> true, P);
        clock.advance(Duration.ofSeconds(2));
        Page p = stored(storage, P);
        assertThat(new String(p.value(0))).isEqualTo("p1");
        // Stamp 1 read; the claim takes 2 where it is made, so the final put carries 3.
        assertThat(p.versionStamp()).as("lagging %s", lagging).isEqualTo(lagging ? 3 : 2);
        assertThat(new String(stored(storage, L2).value(0))).isEqualTo("l1");
      }
    }
  }

  /** Storage whose reads serve the state before a put for a second after it, every time. */
  private static InProcessCloud laggingCloud(ManualClock clock) {
    return InProcessCloud.builder()
        .clock(clock)
        .storageConsistency(new StorageConsistency(Duration.ofSeconds(1), 1.0))
        .build();
  }
}
