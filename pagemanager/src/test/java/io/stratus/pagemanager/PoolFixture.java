package io.stratus.pagemanager;

import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.StorageService;
import io.stratus.cloudapi.decorate.CallInterceptor;
import io.stratus.cloudapi.decorate.CloudMeter;
import io.stratus.cloudapi.decorate.Decorators;
import io.stratus.cloudapi.decorate.MeteringInterceptor;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.cloudapi.time.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A buffer pool over an in-process cloud on a manual clock. The pool's storage is metered (and
 * passes any extra interceptors, outermost first); {@link #raw} is the same storage unmetered: the
 * "other client" that changes pages behind the pool's back.
 */
final class PoolFixture implements AutoCloseable {
  static final Duration TTL = Duration.ofSeconds(100);

  final ManualClock clock = new ManualClock();
  final InProcessCloud cloud;
  final StorageService raw;
  final CloudMeter meter = new CloudMeter();
  final StorageService storage;
  final BufferPool pool;

  PoolFixture(long seed) {
    this(seed, BufferPoolConfig.builder().ttl(TTL).build());
  }

  PoolFixture(long seed, BufferPoolConfig config, CallInterceptor... outer) {
    cloud = InProcessCloud.builder().clock(clock).seed(seed).build();
    raw = cloud.services().storage();
    List<CallInterceptor> chain = new ArrayList<>(List.of(outer));
    chain.add(new MeteringInterceptor(meter));
    storage = Decorators.wrap(raw, chain.toArray(new CallInterceptor[0]));
    pool = new BufferPool(storage, config, clock);
  }

  /** Stores {@code page} as another client would; returns its version. */
  String store(Page page) {
    return raw.put(page.uri(), PageCodec.encode(page), Map.of()).join().version();
  }

  void storeBytes(String uri, byte[] bytes) {
    raw.put(uri, bytes, Map.of()).join();
  }

  long calls(Operation op) {
    return meter.snapshot().stats(op).calls();
  }

  /** All storage calls the pool made. */
  long storageCalls() {
    return meter.snapshot().requests();
  }

  void passTtl() {
    clock.advance(TTL);
  }

  @Override
  public void close() {
    pool.close();
    cloud.close();
  }
}
