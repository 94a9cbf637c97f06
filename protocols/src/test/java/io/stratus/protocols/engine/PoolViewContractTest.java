package io.stratus.protocols.engine;

import io.stratus.cloudapi.StorageService;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.cloudapi.time.ManualClock;
import io.stratus.pagemanager.BufferPool;
import io.stratus.pagemanager.BufferPoolConfig;
import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageCodec;
import io.stratus.pagemanager.PageStore;
import io.stratus.pagemanager.contract.PageStoreContract;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The committed view commits are routed against ({@link Router.PoolView}) under the {@link
 * PageStoreContract}: read-only, the buffer pool's clean pages.
 */
class PoolViewContractTest extends PageStoreContract {
  private static final int PAGE_SIZE = 2048;

  private final ManualClock clock = new ManualClock();
  private InProcessCloud cloud;
  private StorageService storage;
  private BufferPool pool;

  @BeforeEach
  void createPool() {
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
    return new Router.PoolView(pool);
  }

  @Override
  protected int configuredPageSize() {
    return PAGE_SIZE;
  }

  @Override
  protected boolean writable() {
    return false;
  }
}
