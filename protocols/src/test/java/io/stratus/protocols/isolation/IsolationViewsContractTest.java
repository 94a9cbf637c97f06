package io.stratus.protocols.isolation;

import io.stratus.pagemanager.PageStore;
import io.stratus.pagemanager.contract.BufferPoolStoreContract;
import io.stratus.pagemanager.contract.PageStoreContract;
import io.stratus.protocols.DamageReports;
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

  /** What both views read from: a buffer pool and the archive of a database. */
  abstract static class OverPool extends BufferPoolStoreContract {
    final SnapshotView.Memo memo = new SnapshotView.Memo();
    SnapshotArchive archive;

    OverPool() {
      super(4096);
    }

    @BeforeEach
    void createArchive() {
      archive =
          new SnapshotArchive(cloud.services().advancedQueues(), DB, 1000, new DamageReports());
    }

    @Override
    protected String newPrefix() {
      return DB + "/c/" + super.newPrefix().replace("/", "-") + "/";
    }
  }

  @Nested
  class Snapshot extends OverPool {
    @Override
    protected PageStore newStore() {
      return new SnapshotView(begin(), 0, archive, TransactionDeadline.NONE, memo);
    }
  }

  @Nested
  class Latest extends OverPool {
    @Override
    protected PageStore newStore() {
      return new LatestCommitted(archive, memo, begin(), 0, TransactionDeadline.NONE);
    }

    @Override
    protected boolean writable() {
      return false;
    }
  }
}
