package io.stratus.bench.tpcw.rbe;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/** A nanosecond clock that moves only when a test (or a fake it drives) advances it. */
final class FakeTicker implements LongSupplier {
  private final AtomicLong nanos;

  FakeTicker(long startNanos) {
    this.nanos = new AtomicLong(startNanos);
  }

  FakeTicker() {
    this(1_000_000_000L);
  }

  @Override
  public long getAsLong() {
    return nanos.get();
  }

  void advance(Duration d) {
    nanos.addAndGet(d.toNanos());
  }
}
