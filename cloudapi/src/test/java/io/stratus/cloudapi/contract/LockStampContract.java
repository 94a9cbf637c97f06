package io.stratus.cloudapi.contract;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.BadRequestException;
import io.stratus.cloudapi.LockGrant;
import io.stratus.cloudapi.LockMode;
import io.stratus.cloudapi.LockService;
import io.stratus.cloudapi.SupportsLockStamps;
import io.stratus.cloudapi.SupportsLockStamps.StampedGrant;
import java.time.Duration;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * The part of {@link LockServiceContract} that checks lock stamps ({@link SupportsLockStamps}), in
 * a file of its own; it runs through the subclasses of {@link LockServiceContract}, when the
 * service has the ability ({@link #supportsLockStamps()}), and checks nothing otherwise.
 *
 * <p>What it holds the service to is what a reader relies on to skip a look elsewhere: a stamp is
 * reported only when it is the one the last writer left, and is unknown after anything else a
 * writer's lock may have gone through (a plain release, a lapse, a restart).
 */
public abstract class LockStampContract extends ContractSupport {
  /** The timeout the suite sets for its per-test prefix. */
  protected static final Duration TIMEOUT = Duration.ofSeconds(10);

  /** The service under test, fresh for each test. */
  protected LockService locks;

  /** Makes the service fail and come back without its locks. */
  protected abstract void restartService();

  /** Whether {@link #restartService()} works; restart tests check nothing when false. */
  protected abstract boolean supportsRestart();

  /** Whether the service has insert intentions ({@code SupportsIntentionLocks}). */
  protected abstract boolean supportsIntentionLocks();

  protected abstract LockGrant x(String uri, String client);

  protected abstract LockGrant i(String uri, String client);

  protected abstract boolean release(String uri, String client);

  /** The service's default timeout: that of a URI under no configured prefix. */
  protected abstract Duration defaultTimeout();

  /**
   * Whether the service has lock stamps; the stamp tests check nothing when false. The default
   * asks the service ({@code instanceof}).
   */
  protected boolean supportsLockStamps() {
    return locks instanceof SupportsLockStamps;
  }

  @Test
  public void anUntouchedUriHasStampZeroAndAWritersGrantMakesItUnknown() {
    if (!supportsLockStamps()) {
      return;
    }
    String u = uri("st-untouched");
    StampedGrant g = stamped(u, "A");
    assertThat(g.grant().granted()).isTrue();
    assertThat(g.grant().mode()).isEqualTo(LockMode.SHARED);
    assertThat(g.stamp()).isEqualTo(OptionalLong.of(0));
    assertThat(stamped(u, "B").stamp()).as("a second reader").isEqualTo(OptionalLong.of(0));
    assertThat(release(u, "A")).isTrue();
    assertThat(releaseStamped(u, "B", 5)).as("a reader leaves no stamp").isTrue();
    assertThat(stamped(u, "C").stamp()).isEqualTo(OptionalLong.of(0));
    assertThat(release(u, "C")).isTrue();

    assertThat(x(u, "W").granted()).isTrue();
    assertThat(release(u, "W")).isTrue();
    assertThat(stamped(u, "C").stamp()).as("released without a stamp").isEmpty();
  }

  @Test
  public void anExclusiveReleaseLeavesItsStampUntilTheNextWriter() {
    if (!supportsLockStamps()) {
      return;
    }
    String u = uri("st-release");
    assertThat(x(u, "W").granted()).isTrue();
    assertThat(stamped(u, "R").grant().granted()).isFalse();
    assertThat(stamped(u, "R").stamp()).as("a refusal reports nothing").isEmpty();
    assertThat(releaseStamped(u, "W", 42)).isTrue();
    assertThat(stamped(u, "R").stamp()).isEqualTo(OptionalLong.of(42));
    assertThat(stamped(u, "S").stamp()).isEqualTo(OptionalLong.of(42));
    assertThat(releaseStamped(u, "R", 7)).as("a reader leaves no stamp").isTrue();
    assertThat(releaseStamped(u, "S", 7)).isTrue();
    assertThat(stamped(u, "R").stamp()).isEqualTo(OptionalLong.of(42));

    // A renewal reports the stamp; the sole reader's upgrade is a writer's grant and clears it.
    StampedGrant renewal = stamped(u, "R");
    assertThat(renewal.grant().mode()).isEqualTo(LockMode.SHARED);
    assertThat(renewal.stamp()).isEqualTo(OptionalLong.of(42));
    assertThat(x(u, "R").mode()).isEqualTo(LockMode.EXCLUSIVE);
    StampedGrant asked = stamped(u, "R");
    assertThat(asked.grant().mode())
        .as("an exclusive holder keeps its lock")
        .isEqualTo(LockMode.EXCLUSIVE);
    assertThat(asked.stamp()).as("a writer's grant reports no stamp").isEmpty();
    assertThat(releaseStamped(u, "R", 43)).isTrue();
    assertThat(stamped(u, "T").stamp()).isEqualTo(OptionalLong.of(43));
    assertThat(release(u, "T")).isTrue();

    assertThat(x(u, "W").granted()).isTrue();
    assertThat(releaseStamped(u, "other-client", 99)).as("not the holder").isFalse();
    elapse(TIMEOUT.plus(slack()).plus(slack()));
    assertThat(stamped(u, "T").stamp()).as("the writer's lock lapsed").isEmpty();
    assertThat(releaseStamped(u, "W", 44)).as("a lapsed lock is not held").isFalse();
    assertThat(stamped(u, "T").stamp()).as("a lapsed writer leaves no stamp").isEmpty();
  }

  @Test
  public void anIntentionMakesTheStampUnknown() {
    if (!supportsLockStamps() || !supportsIntentionLocks()) {
      return;
    }
    String u = uri("st-intention");
    assertThat(x(u, "W").granted()).isTrue();
    assertThat(releaseStamped(u, "W", 8)).isTrue();
    assertThat(i(u, "I").granted()).isTrue();
    assertThat(releaseStamped(u, "I", 9)).as("an intention leaves no stamp").isTrue();
    assertThat(stamped(u, "R").stamp()).isEmpty();
    assertThat(stamped(uri("st-intention-untouched"), "R").stamp())
        .as("another URI")
        .isEqualTo(OptionalLong.of(0));
  }

  @Test
  public void aNegativeStampIsRefusedAndLeavesTheLockHeld() {
    if (!supportsLockStamps()) {
      return;
    }
    String u = uri("st-negative");
    assertThat(x(u, "W").granted()).isTrue();
    assertFails(() -> stamps().releaseStamped(u, "W", -1), BadRequestException.class);
    assertThat(releaseStamped(u, "W", 3)).isTrue();
    assertThat(stamped(u, "R").stamp()).isEqualTo(OptionalLong.of(3));
  }

  @Test
  public void afterARestartEveryStampIsUnknown() {
    if (!supportsLockStamps() || !supportsRestart()) {
      return;
    }
    String stampedUri = uri("st-r-stamped");
    String untouched = uri("st-r-untouched");
    assertThat(x(stampedUri, "W").granted()).isTrue();
    assertThat(releaseStamped(stampedUri, "W", 12)).isTrue();
    assertThat(stamped(stampedUri, "R").stamp()).isEqualTo(OptionalLong.of(12));
    assertThat(stamped(untouched, "R").stamp()).isEqualTo(OptionalLong.of(0));

    restartService();
    Duration longest = defaultTimeout().compareTo(TIMEOUT) >= 0 ? defaultTimeout() : TIMEOUT;
    StampedGrant g = afterRefusal(() -> stamps().acquireSharedStamped(stampedUri, "S"), longest);
    assertThat(g.grant().granted()).isTrue();
    assertThat(g.stamp()).as("the stamp left before the restart").isEmpty();
    assertThat(stamped(untouched, "S").stamp()).as("an untouched URI").isEmpty();
    assertThat(stamped(uri("st-r-new"), "S").stamp()).as("a URI never used").isEmpty();

    assertThat(x(untouched, "W2").granted()).isFalse();
    assertThat(release(untouched, "S")).isTrue();
    assertThat(x(untouched, "W2").granted()).isTrue();
    assertThat(releaseStamped(untouched, "W2", 13)).isTrue();
    assertThat(stamped(untouched, "S").stamp())
        .as("a stamp left after the restart")
        .isEqualTo(OptionalLong.of(13));
  }

  // ---- helpers ----

  private SupportsLockStamps stamps() {
    return SupportsLockStamps.of(locks);
  }

  /** A shared lock and the stamp reported with it. */
  protected StampedGrant stamped(String uri, String client) {
    return await(stamps().acquireSharedStamped(uri, client));
  }

  protected boolean releaseStamped(String uri, String client, long stamp) {
    return await(stamps().releaseStamped(uri, client, stamp));
  }
}
