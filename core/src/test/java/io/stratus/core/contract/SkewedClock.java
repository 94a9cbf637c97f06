package io.stratus.core.contract;

import io.stratus.cloudapi.time.ManualClock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * One client's clock: the shared manual clock moved by a fixed offset, as a machine whose clock
 * is off by that much. The cloud (leases, visibility timeouts, stale windows) keeps the unskewed
 * time.
 */
final class SkewedClock extends Clock {
  private final ManualClock base;
  private final Duration offset;

  SkewedClock(ManualClock base, Duration offset) {
    this.base = base;
    this.offset = offset;
  }

  @Override
  public Instant instant() {
    return base.instant().plus(offset);
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    throw new UnsupportedOperationException("a skewed test clock is always UTC");
  }
}
