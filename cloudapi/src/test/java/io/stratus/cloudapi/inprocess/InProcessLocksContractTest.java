package io.stratus.cloudapi.inprocess;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.LockService;
import io.stratus.cloudapi.contract.LockServiceContract;
import io.stratus.cloudapi.time.ManualClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The lock contract on the in-process cloud, plus the exact refusal period and the bookkeeping that
 * only the in-process service exposes.
 */
class InProcessLocksContractTest extends LockServiceContract {
  private final ManualClock clock = new ManualClock();
  private InProcessCloud cloud;

  @Override
  protected LockService newLocks(long seed) {
    cloud = InProcessCloud.builder().clock(clock).seed(seed).build();
    return cloud.services().locks();
  }

  @Override
  protected void elapse(Duration d) {
    clock.advance(d);
  }

  @Override
  protected void restartService() {
    cloud.restartLockService();
  }

  @Test
  void refusalLastsExactlyTheLongestTimeoutEverConfigured() {
    String u = uri("r");
    await(locks.setTimeout(uri("long"), Duration.ofSeconds(90)));
    await(locks.setTimeout(uri("long"), Duration.ofSeconds(20))); // the 90 s still count
    assertThat(x(u, "A").granted()).isTrue();

    cloud.restartLockService();
    assertThat(assertRefused(() -> locks.acquireExclusive(u, "B")).retryAfter())
        .contains(Duration.ofSeconds(90));
    clock.advance(Duration.ofSeconds(30));
    assertThat(assertRefused(() -> locks.acquireShared(u, "B")).retryAfter())
        .contains(Duration.ofSeconds(60));
    assertThat(release(u, "A")).as("the restart lost A's lock").isFalse();
    await(locks.setTimeout(uri("later"), Duration.ofSeconds(5)));
    assertThat(await(locks.timeoutFor(uri("later/x")))).isEqualTo(Duration.ofSeconds(5));

    clock.advance(Duration.ofSeconds(60).minusMillis(1));
    assertThat(assertRefused(() -> locks.acquireShared(u, "B")).retryAfter())
        .contains(Duration.ofMillis(1));
    clock.advance(Duration.ofMillis(1));
    assertThat(x(u, "B").granted()).isTrue();
  }

  @Test
  void theDefaultTimeoutCountsForTheRefusalAndSurvivesRestarts() {
    cloud.restartLockService();
    assertThat(assertRefused(() -> locks.acquireExclusive(uri("a"), "A")).retryAfter())
        .contains(InProcessCloud.DEFAULT_LOCK_TIMEOUT);
    clock.advance(Duration.ofSeconds(10));
    cloud.restartLockService(); // a second failure starts a new refusal period
    assertThat(assertRefused(() -> locks.acquireExclusive(uri("a"), "A")).retryAfter())
        .contains(InProcessCloud.DEFAULT_LOCK_TIMEOUT);
    clock.advance(InProcessCloud.DEFAULT_LOCK_TIMEOUT);
    await(locks.setTimeout(uri("b"), Duration.ofMinutes(5)));
    cloud.restartLockService();
    assertThat(assertRefused(() -> locks.acquireExclusive(uri("a"), "A")).retryAfter())
        .contains(Duration.ofMinutes(5));
    assertThat(await(locks.timeoutFor(uri("b")))).isEqualTo(Duration.ofMinutes(5));
  }

  @Test
  void theBuildersDefaultTimeoutApplies() {
    LockService other =
        InProcessCloud.builder()
            .clock(clock)
            .defaultLockTimeout(Duration.ofSeconds(3))
            .build()
            .services()
            .locks();
    assertThat(await(other.timeoutFor("anything"))).isEqualTo(Duration.ofSeconds(3));
    assertThat(await(other.acquireExclusive("anything", "A")).validFor())
        .isEqualTo(Duration.ofSeconds(3));
    await(other.setTimeout("", Duration.ofSeconds(7)));
    assertThat(await(other.timeoutFor("anything"))).isEqualTo(Duration.ofSeconds(7));
  }

  @Test
  void lapsedLeasesOfUntouchedUrisAreSwept() {
    InProcessLocks impl = (InProcessLocks) locks;
    for (int i = 0; i < 3000; i++) {
      assertThat(x(uri("sweep/" + i), "A").granted()).isTrue();
    }
    assertThat(impl.lockedUriCount()).isGreaterThanOrEqualTo(3000);
    clock.advance(TIMEOUT);
    for (int i = 0; i < 3100; i++) {
      release(uri("other"), "A");
    }
    assertThat(impl.lockedUriCount()).isLessThan(10);
  }
}
