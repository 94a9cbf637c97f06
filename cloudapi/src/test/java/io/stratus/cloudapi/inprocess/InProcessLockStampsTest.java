package io.stratus.cloudapi.inprocess;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.CloudLimits;
import io.stratus.cloudapi.SupportsLockStamps.StampedGrant;
import io.stratus.cloudapi.time.ManualClock;
import java.time.Duration;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * What the in-process locks add to the stamp contract: they keep a bounded number of stamps, and
 * past the bound forget every one in the only way that never reports a wrong stamp — untouched
 * URIs then read unknown too, since a URI without an entry may be one whose entry was dropped.
 */
class InProcessLockStampsTest {
  private final ManualClock clock = new ManualClock();
  private final InProcessLocks locks =
      new InProcessLocks(clock, CloudLimits.aws(), Duration.ofSeconds(10), 3);

  private OptionalLong stampOf(String uri) {
    StampedGrant g = CloudFutures.await(locks.acquireSharedStamped(uri, "reader"));
    assertThat(g.grant().granted()).isTrue();
    CloudFutures.await(locks.release(uri, "reader"));
    return g.stamp();
  }

  private void write(String uri, long stamp) {
    assertThat(CloudFutures.await(locks.acquireExclusive(uri, "writer")).granted()).isTrue();
    assertThat(CloudFutures.await(locks.releaseStamped(uri, "writer", stamp))).isTrue();
  }

  @Test
  void pastTheBoundEveryStampIsForgottenAndUntouchedUrisReadUnknown() {
    write("a", 1);
    write("b", 2);
    write("c", 3);
    assertThat(stampOf("a")).isEqualTo(OptionalLong.of(1));
    assertThat(stampOf("c")).isEqualTo(OptionalLong.of(3));
    assertThat(stampOf("untouched")).isEqualTo(OptionalLong.of(0));

    write("d", 4); // its grant adds a fourth entry: over the bound, all forgotten
    assertThat(stampOf("a")).isEmpty();
    assertThat(stampOf("d")).as("left by the release after it").isEqualTo(OptionalLong.of(4));
    assertThat(stampOf("untouched")).as("may have been dropped").isEmpty();

    write("a", 5);
    assertThat(stampOf("a")).as("a stamp left afterwards").isEqualTo(OptionalLong.of(5));
  }
}
