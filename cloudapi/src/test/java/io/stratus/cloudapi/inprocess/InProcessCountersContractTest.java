package io.stratus.cloudapi.inprocess;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.BadRequestException;
import io.stratus.cloudapi.CounterService;
import io.stratus.cloudapi.CounterValues;
import io.stratus.cloudapi.SupportsIdempotentIncrement;
import io.stratus.cloudapi.contract.CounterServiceContract;
import io.stratus.cloudapi.time.ManualClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The counter contract on the in-process cloud, plus exact epochs and values, the exact refusal
 * period, and the compression of validated prefixes.
 */
class InProcessCountersContractTest extends CounterServiceContract {
  private final ManualClock clock = new ManualClock();
  private InProcessCloud cloud;

  @Override
  protected CounterService newCounters(long seed) {
    cloud = InProcessCloud.builder().clock(clock).seed(seed).build();
    return cloud.services().counters();
  }

  @Override
  protected void elapse(Duration d) {
    clock.advance(d);
  }

  @Override
  protected void restartService() {
    cloud.restartCounterService();
  }

  @Test
  void theCountersHaveIdempotentIncrements() {
    assertThat(supportsIdempotentIncrement()).isTrue();
  }

  @Test
  void aRequestIdIsForgottenOnceItsValueIsValidatedAndEnoughLaterOnesAreRemembered() {
    String c = uri("c");
    long first = idem(c, "first");
    for (int i = 0; i < SupportsIdempotentIncrement.REMEMBERED; i++) {
      validate(c, idem(c, "later-" + i));
    }
    assertThat(idem(c, "first")).as("still awaiting validation").isEqualTo(first);
    validate(c, first);
    highest(c); // folds the validated values into the watermark
    long again = idem(c, "first");
    assertThat(again)
        .as("forgotten: a new value")
        .isEqualTo(CounterValues.of(0, SupportsIdempotentIncrement.REMEMBERED + 2));
  }

  @Test
  void valuesStartInEpochZeroAtOne() {
    String c = uri("c");
    assertThat(highest(c)).isEqualTo(CounterValues.of(0, 0));
    assertThat(inc(c)).isEqualTo(CounterValues.of(0, 1));
    assertThat(inc(c)).isEqualTo(CounterValues.of(0, 2));
    assertThat(inc(uri("d"))).isEqualTo(CounterValues.of(0, 1));
  }

  @Test
  void aRestartMovesToTheNextEpochAfterExactlyTheLongestTimeout() {
    String c = uri("c");
    inc(c);
    inc(c);
    cloud.restartCounterService();
    assertThat(assertRefused(() -> counters.increment(c)).retryAfter())
        .contains(InProcessCloud.DEFAULT_COUNTER_TIMEOUT);
    // Timeouts stay configurable while the service refuses everything else.
    await(counters.setTimeout(uri("later"), Duration.ofSeconds(5)));
    clock.advance(InProcessCloud.DEFAULT_COUNTER_TIMEOUT.minusMillis(1));
    assertThat(assertRefused(() -> counters.highestValidated(c)).retryAfter())
        .contains(Duration.ofMillis(1));
    clock.advance(Duration.ofMillis(1));

    assertThat(highest(c)).isEqualTo(CounterValues.of(1, 0));
    assertThat(highest(uri("never-used"))).isEqualTo(CounterValues.of(1, 0));
    assertThat(inc(c)).isEqualTo(CounterValues.of(1, 1));
    validate(c, CounterValues.of(0, 2)); // an earlier epoch: no effect
    validate(c, CounterValues.of(0, 999)); // even one never issued there
    assertFails(() -> counters.validate(c, CounterValues.of(1, 2)), BadRequestException.class);
    assertFails(() -> counters.validate(c, CounterValues.of(2, 1)), BadRequestException.class);

    await(counters.setTimeout(uri("long"), Duration.ofMinutes(10)));
    cloud.restartCounterService();
    assertThat(assertRefused(() -> counters.increment(c)).retryAfter())
        .contains(Duration.ofMinutes(10));
    clock.advance(Duration.ofMinutes(10));
    assertThat(inc(c)).isEqualTo(CounterValues.of(2, 1));
  }

  @Test
  void valuesNeverIssuedAreBadRequests() {
    String c = uri("c");
    long v = inc(c);
    assertFails(() -> counters.validate(uri("unknown"), v), BadRequestException.class);
    assertFails(() -> counters.validate(c, CounterValues.of(0, 0)), BadRequestException.class);
    assertFails(() -> counters.validate(c, -1), BadRequestException.class);
  }

  @Test
  void validatedPrefixesAreFoldedIntoTheWatermark() {
    InProcessCounters impl = (InProcessCounters) counters;
    String c = uri("c");
    long first = inc(c);
    for (int i = 0; i < 999; i++) {
      validate(c, inc(c));
    }
    assertThat(impl.pendingCount(c)).as("all held back by the first value").isEqualTo(1000);
    validate(c, first);
    assertThat(impl.pendingCount(c)).isZero();
    assertThat(highest(c)).isEqualTo(CounterValues.of(0, 1000));

    for (int i = 0; i < 500; i++) {
      inc(c);
    }
    assertThat(impl.pendingCount(c)).isEqualTo(500);
    clock.advance(TIMEOUT);
    assertThat(highest(c)).isEqualTo(CounterValues.of(0, 1500));
    assertThat(impl.pendingCount(c)).isZero();
  }
}
