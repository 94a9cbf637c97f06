package io.stratus.pagemanager.contract;

import io.stratus.cloudapi.StorageService;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.cloudapi.time.ManualClock;
import io.stratus.pagemanager.BufferPool;
import io.stratus.pagemanager.BufferPoolConfig;
import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageCodec;
import io.stratus.pagemanager.PageTransaction;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The {@link PageStoreContract} for stores that read through a {@link BufferPool}: one in-process
 * cloud and one pool per test, pages stored as committed objects, and the page transactions the
 * subclass {@linkplain #begin() began} closed after the test.
 *
 * <p>The clock never moves, so no cached page is ever refreshed in a test; the long TTL says so.
 */
public abstract class BufferPoolStoreContract extends PageStoreContract {
  private final int pageSize;
  private final ManualClock clock = new ManualClock();
  private final List<PageTransaction> open = new ArrayList<>();

  /** The test's cloud, made before each test from its seed. */
  protected InProcessCloud cloud;

  /** The cloud's storage, where {@link #store} puts pages. */
  protected StorageService storage;

  /** The buffer pool over {@link #storage}. */
  protected BufferPool pool;

  /** A fixture whose pool and stores use pages of {@code pageSize} bytes. */
  protected BufferPoolStoreContract(int pageSize) {
    this.pageSize = pageSize;
  }

  @BeforeEach
  protected final void createPool() {
    cloud = InProcessCloud.builder().clock(clock).seed(seed).build();
    storage = cloud.services().storage();
    pool =
        new BufferPool(
            storage,
            BufferPoolConfig.builder().ttl(Duration.ofSeconds(100)).pageSize(pageSize).build(),
            clock);
  }

  @AfterEach
  protected final void closePool() {
    open.forEach(PageTransaction::close);
    pool.close();
    cloud.close();
  }

  /** A page transaction of the pool, closed after the test. */
  protected final PageTransaction begin() {
    PageTransaction t = pool.begin();
    open.add(t);
    return t;
  }

  @Override
  protected final void store(Page page) {
    storage.put(page.uri(), PageCodec.encode(page), Map.of()).join();
  }

  @Override
  protected final int configuredPageSize() {
    return pageSize;
  }
}
