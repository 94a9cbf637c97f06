package io.stratus.pagemanager;

import io.stratus.pagemanager.contract.BufferPoolStoreContract;
import io.stratus.pagemanager.contract.PageStoreContract;

/** {@link PageTransaction} under the {@link PageStoreContract}: transactions of one buffer pool. */
class PageTransactionContractTest extends BufferPoolStoreContract {
  PageTransactionContractTest() {
    super(4096);
  }

  @Override
  protected PageStore newStore() {
    return begin();
  }
}
