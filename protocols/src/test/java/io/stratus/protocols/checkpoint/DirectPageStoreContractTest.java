package io.stratus.protocols.checkpoint;

import io.stratus.pagemanager.PageStore;
import io.stratus.pagemanager.PageWriter;
import io.stratus.pagemanager.contract.BufferPoolStoreContract;
import io.stratus.pagemanager.contract.PageStoreContract;

/**
 * {@link DirectPageStore} under the {@link PageStoreContract}: each store is one checkpoint's,
 * reading storage directly and keeping its writes until a flush.
 */
class DirectPageStoreContractTest extends BufferPoolStoreContract {
  private static final int PAGE_SIZE = 4096;

  DirectPageStoreContractTest() {
    super(PAGE_SIZE);
  }

  @Override
  protected PageStore newStore() {
    return new DirectPageStore(storage, new PageWriter(storage, pool), true, PAGE_SIZE);
  }
}
