package io.stratus.protocols.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.cloudapi.StorageService;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.pagemanager.BufferPool;
import io.stratus.pagemanager.BufferPoolConfig;
import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageCodec;
import io.stratus.pagemanager.PageKind;
import io.stratus.pagemanager.PageWriter;
import java.time.Clock;
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
}
