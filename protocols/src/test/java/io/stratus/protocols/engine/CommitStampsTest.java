package io.stratus.protocols.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.time.ManualClock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** The write stamps of one handle: a hybrid logical clock with a client tag. */
class CommitStampsTest {
  @Test
  void stampsGrowWhileTheClockStandsStill() {
    ManualClock clock = new ManualClock();
    CommitStamps stamps = new CommitStamps(clock, "a");
    long first = stamps.next();
    long second = stamps.next();
    assertThat(second).isGreaterThan(first);
    assertThat(first >>> CommitStamps.WRITER_BITS).isEqualTo(clock.millis() * 1000);
    clock.advance(Duration.ofMillis(1));
    assertThat(stamps.next() >>> CommitStamps.WRITER_BITS).isEqualTo(clock.millis() * 1000);
  }

  @Test
  void aStampSeenOnAPageOrdersLaterCommitsAfterIt() {
    ManualClock clock = new ManualClock();
    ManualClock fast = new ManualClock(clock.instant().plusSeconds(5));
    long written = new CommitStamps(fast, "ahead").next(); // by a client 5 s ahead
    CommitStamps behind = new CommitStamps(clock, "behind");
    assertThat(behind.next()).as("without having seen it").isLessThan(written);
    behind.observe(written);
    assertThat(behind.next()).as("after reading it").isGreaterThan(written);
  }

  @Test
  void aStampFarAheadIsFollowedOnlyUpToTheBound() {
    ManualClock clock = new ManualClock();
    CommitStamps stamps = new CommitStamps(clock, "a");
    long farAhead = (Long.MAX_VALUE >>> 2);
    stamps.observe(farAhead);
    long next = stamps.next() >>> CommitStamps.WRITER_BITS;
    assertThat(next).isLessThanOrEqualTo(clock.millis() * 1000 + CommitStamps.MAX_LEAD_MICROS + 1);
    stamps.observe(0); // no stamp: nothing to follow
    assertThat(stamps.next() >>> CommitStamps.WRITER_BITS).isEqualTo(next + 1);
  }

  @Test
  void clientsAreTaggedSoEqualTimesStillHaveAnOrder() {
    ManualClock clock = new ManualClock();
    long a = new CommitStamps(clock, "client-a").next();
    long b = new CommitStamps(clock, "client-b").next();
    assertThat(a >>> CommitStamps.WRITER_BITS).isEqualTo(b >>> CommitStamps.WRITER_BITS);
    assertThat(a).isNotEqualTo(b);
  }

  /** A clock that counts how often it is read. */
  private static final class CountingClock extends Clock {
    private final Clock inner = new ManualClock();
    int reads;

    @Override
    public long millis() {
      reads++;
      return inner.millis();
    }

    @Override
    public Instant instant() {
      return Instant.ofEpochMilli(millis());
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      throw new UnsupportedOperationException();
    }
  }

  @Test
  void aStampAlreadySeenCostsNoClockRead() {
    CountingClock clock = new CountingClock();
    CommitStamps stamps = new CommitStamps(clock, "a");
    long issued = stamps.next();
    int before = clock.reads;

    stamps.observe(issued); // every read of a page this handle's commit stamped passes here
    stamps.observe(issued - (1L << CommitStamps.WRITER_BITS));

    assertThat(clock.reads).isEqualTo(before);
    assertThat(stamps.next()).isGreaterThan(issued);
  }
}
