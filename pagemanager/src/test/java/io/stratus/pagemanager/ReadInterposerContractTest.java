package io.stratus.pagemanager;

import io.stratus.cloudapi.StorageService;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.cloudapi.time.ManualClock;
import io.stratus.pagemanager.contract.PageStoreContract;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * {@link ReadInterposer} under the {@link PageStoreContract}: a view that reads through (the
 * protocols' views change only what a read returns) over a transaction of a buffer pool, so what
 * the base class passes beneath — writes, new URIs, the page size, lagging reads — is checked.
 */
class ReadInterposerContractTest extends PageStoreContract {
  private static final int PAGE_SIZE = 8192;

  private final ManualClock clock = new ManualClock();
  private final List<PageTransaction> open = new ArrayList<>();
  private InProcessCloud cloud;
  private StorageService storage;
  private BufferPool pool;

  /** The smallest interposer: reads pass through too. */
  private static final class ThroughView extends ReadInterposer {
    ThroughView(PageStore beneath) {
      super(beneath);
    }

    @Override
    public Optional<Page> read(String uri) {
      return beneath.read(uri);
    }
  }

  @BeforeEach
  void createPool() {
    cloud = InProcessCloud.builder().clock(clock).seed(seed).build();
    storage = cloud.services().storage();
    pool =
        new BufferPool(
            storage,
            BufferPoolConfig.builder().ttl(Duration.ofSeconds(100)).pageSize(PAGE_SIZE).build(),
            clock);
  }

  @AfterEach
  void closePool() {
    open.forEach(PageTransaction::close);
    pool.close();
    cloud.close();
  }

  @Override
  protected void store(Page page) {
    storage.put(page.uri(), PageCodec.encode(page), Map.of()).join();
  }

  @Override
  protected PageStore newStore() {
    PageTransaction t = pool.begin();
    open.add(t);
    return new ThroughView(t);
  }

  @Override
  protected int configuredPageSize() {
    return PAGE_SIZE;
  }
}
