package io.stratus.protocols.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.time.ManualClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The horizon below which checkpoints forget tombstones: twice the queue retention plus a day
 * behind the checkpointing handle's clock, in the stamps the handles issue.
 */
class TombstoneHorizonTest {
  @Test
  void aStampIsForgottenOnceOlderThanTwiceTheRetentionPlusADay() {
    ManualClock clock = new ManualClock();
    TombstoneHorizon horizon = new TombstoneHorizon(clock, Duration.ofDays(4));
    assertThat(horizon.keptFor()).isEqualTo(Duration.ofDays(9));
    CommitStamps deleter = new CommitStamps(clock, "deleter");
    long delete = deleter.next();

    clock.advance(Duration.ofDays(9).minusMillis(1));
    assertThat(delete).as("kept until the horizon").isGreaterThanOrEqualTo(horizon.getAsLong());
    clock.advance(Duration.ofMillis(2));
    assertThat(delete).as("forgotten after it").isLessThan(horizon.getAsLong());
    assertThat(new CommitStamps(clock, "writer").next())
        .as("a stamp issued now")
        .isGreaterThan(horizon.getAsLong());
  }

  @Test
  void theLongestSqsRetentionKeepsTombstones29Days() {
    assertThat(new TombstoneHorizon(new ManualClock(), Duration.ofDays(14)).keptFor())
        .isEqualTo(Duration.ofDays(29));
  }

  @Test
  void firstAtIsTheSmallestStampOfItsMillisecond() {
    ManualClock clock = new ManualClock();
    long now = clock.millis();
    long stamp = new CommitStamps(clock, "c").next();
    assertThat(stamp).isGreaterThanOrEqualTo(CommitStamps.firstAt(now));
    assertThat(stamp).isLessThan(CommitStamps.firstAt(now + 1));
    assertThat(CommitStamps.firstAt(-5)).isZero();
  }
}
