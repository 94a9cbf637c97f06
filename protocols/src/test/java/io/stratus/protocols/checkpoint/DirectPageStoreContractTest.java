package io.stratus.protocols.checkpoint;

import io.stratus.cloudapi.StorageService;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.cloudapi.time.ManualClock;
import io.stratus.pagemanager.BufferPool;
import io.stratus.pagemanager.BufferPoolConfig;
import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageCodec;
import io.stratus.pagemanager.PageStore;
import io.stratus.pagemanager.PageWriter;
import io.stratus.pagemanager.contract.PageStoreContract;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * {@link DirectPageStore} under the {@link PageStoreContract}: each store is one checkpoint's,
 * reading storage directly and keeping its writes until a flush.
 */
class DirectPageStoreContractTest extends PageStoreContract {
  private static final int PAGE_SIZE = 4096;

  private final ManualClock clock = new ManualClock();
  private InProcessCloud cloud;
  private StorageService storage;
  private BufferPool pool;

  @BeforeEach
  void createStorage() {
    cloud = InProcessCloud.builder().clock(clock).seed(seed).build();
    storage = cloud.services().storage();
    pool = new BufferPool(storage, BufferPoolConfig.builder().pageSize(PAGE_SIZE).build(), clock);
  }

  @AfterEach
  void close() {
    pool.close();
    cloud.close();
  }

  @Override
  protected void store(Page page) {
    storage.put(page.uri(), PageCodec.encode(page), Map.of()).join();
  }

  @Override
  protected PageStore newStore() {
    return new DirectPageStore(storage, new PageWriter(storage, pool), true, PAGE_SIZE);
  }

  @Override
  protected int configuredPageSize() {
    return PAGE_SIZE;
  }
}
