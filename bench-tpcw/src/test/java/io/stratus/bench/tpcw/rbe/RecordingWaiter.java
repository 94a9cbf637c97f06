package io.stratus.bench.tpcw.rbe;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/** A waiter that returns at once, remembering every wait; it can advance a fake clock by it. */
final class RecordingWaiter implements Waiter {
  private final ConcurrentLinkedQueue<Duration> waits = new ConcurrentLinkedQueue<>();
  private final FakeTicker ticker;

  /** Records without moving any clock. */
  RecordingWaiter() {
    this(null);
  }

  /** Records and advances {@code ticker} by each wait. */
  RecordingWaiter(FakeTicker ticker) {
    this.ticker = ticker;
  }

  @Override
  public void pause(Duration duration) {
    waits.add(duration);
    if (ticker != null) {
      ticker.advance(duration);
    }
  }

  List<Duration> waits() {
    return List.copyOf(waits);
  }
}
