package io.stratus.protocols.isolation;

import io.stratus.cloudapi.StorageService;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.cloudapi.time.ManualClock;
import io.stratus.pagemanager.BufferPool;
import io.stratus.pagemanager.BufferPoolConfig;
import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageCodec;
import io.stratus.pagemanager.PageStore;
import io.stratus.pagemanager.PageTransaction;
import io.stratus.pagemanager.contract.PageStoreContract;
import io.stratus.protocols.DamageReports;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;

/**
 * The isolating protocols' page views under the {@link PageStoreContract}: a transaction's
 * snapshot ({@link SnapshotView}) and the latest committed state read under locks ({@link
 * LatestCommitted}), over transactions of a buffer pool and an archive (empty: pages are read as
 * stored). The pages live in a tree's directory, since both views find a page's tree by its URI.
 */
class IsolationViewsContractTest {
  private static final String DB = "db/views";
  private static final int PAGE_SIZE = 4096;

  /** What both views read from: a buffer pool and the archive of a database. */
  abstract static class OverPool extends PageStoreContract {
    private final ManualClock clock = new ManualClock();
    final List<PageTransaction> open = new ArrayList<>();
    final SnapshotView.Memo memo = new SnapshotView.Memo();
    InProcessCloud cloud;
    StorageService storage;
    BufferPool pool;
    SnapshotArchive archive;

    @BeforeEach
    void createPool() {
      cloud = InProcessCloud.builder().clock(clock).seed(seed).build();
      storage = cloud.services().storage();
      pool = new BufferPool(storage, BufferPoolConfig.builder().pageSize(PAGE_SIZE).build(), clock);
      archive =
          new SnapshotArchive(cloud.services().advancedQueues(), DB, 1000, new DamageReports());
    }

    @AfterEach
    void close() {
      open.forEach(PageTransaction::close);
      pool.close();
      cloud.close();
    }

    @Override
    protected String newPrefix() {
      return DB + "/c/" + super.newPrefix().replace("/", "-") + "/";
    }

    @Override
    protected void store(Page page) {
      storage.put(page.uri(), PageCodec.encode(page), Map.of()).join();
    }

    PageTransaction begin() {
      PageTransaction t = pool.begin();
      open.add(t);
      return t;
    }

    @Override
    protected int configuredPageSize() {
      return PAGE_SIZE;
    }
  }

  @Nested
  class Snapshot extends OverPool {
    @Override
    protected PageStore newStore() {
      return new SnapshotView(begin(), 0, archive, () -> {}, memo);
    }
  }

  @Nested
  class Latest extends OverPool {
    @Override
    protected PageStore newStore() {
      return new LatestCommitted(archive, memo, begin(), 0, () -> {});
    }

    @Override
    protected boolean writable() {
      return false;
    }
  }
}
