package io.stratus.core;

import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageStore;
import io.stratus.pagemanager.contract.PageStoreContract;

/**
 * The bulk loader's {@link StagingPageStore} under the {@link PageStoreContract}: it holds only the
 * pages written to it, so nothing is stored beneath it.
 */
class StagingPageStoreContractTest extends PageStoreContract {
  private static final int PAGE_SIZE = 4096;

  @Override
  protected void store(Page page) {
    throw new UnsupportedOperationException("a staging store reads no stored pages");
  }

  @Override
  protected PageStore newStore() {
    return new StagingPageStore(PAGE_SIZE);
  }

  @Override
  protected int configuredPageSize() {
    return PAGE_SIZE;
  }

  @Override
  protected boolean readsStoredPages() {
    return false;
  }
}
