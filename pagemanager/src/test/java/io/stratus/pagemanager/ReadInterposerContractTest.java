package io.stratus.pagemanager;

import io.stratus.pagemanager.contract.BufferPoolStoreContract;
import io.stratus.pagemanager.contract.PageStoreContract;
import java.util.Optional;

/**
 * {@link ReadInterposer} under the {@link PageStoreContract}: a view that reads through (the
 * protocols' views change only what a read returns) over a transaction of a buffer pool, so what
 * the base class passes beneath — writes, new URIs, the page size, lagging reads — is checked.
 */
class ReadInterposerContractTest extends BufferPoolStoreContract {
  ReadInterposerContractTest() {
    super(8192);
  }

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

  @Override
  protected PageStore newStore() {
    return new ThroughView(begin());
  }
}
