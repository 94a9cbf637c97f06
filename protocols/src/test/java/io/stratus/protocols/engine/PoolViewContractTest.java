package io.stratus.protocols.engine;

import io.stratus.pagemanager.PageStore;
import io.stratus.pagemanager.contract.BufferPoolStoreContract;
import io.stratus.pagemanager.contract.PageStoreContract;

/**
 * The committed view commits are routed against ({@link Router.PoolView}) under the {@link
 * PageStoreContract}: read-only, the buffer pool's clean pages.
 */
class PoolViewContractTest extends BufferPoolStoreContract {
  PoolViewContractTest() {
    super(2048);
  }

  @Override
  protected PageStore newStore() {
    return new Router.PoolView(pool);
  }

  @Override
  protected boolean writable() {
    return false;
  }
}
