package io.stratus.protocols.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.LockService;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.decorate.Call;
import io.stratus.cloudapi.decorate.CallInterceptor;
import io.stratus.cloudapi.decorate.Decorators;
import io.stratus.cloudapi.decorate.SimulatedCrashException;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.cloudapi.time.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The lease-guarded pass: owners per pass, the lease counted from the request's sending, and what
 * ends a pass — a finish after a return or a failure, nothing after a simulated crash.
 */
class ExclusiveLeaseTest {
  private static final String PREFIX = "db/lease/";
  private static final String LOCK = PREFIX + "q";
  private static final Duration LOCK_TIMEOUT = Duration.ofSeconds(30);
  private static final Duration REPLY_DELAY = Duration.ofSeconds(2);

  private final ManualClock clock = new ManualClock();
  private final InProcessCloud cloud = InProcessCloud.builder().clock(clock).seed(1).build();
  private final LockService locks = cloud.services().locks();

  ExclusiveLeaseTest() {
    CloudFutures.await(locks.setTimeout(PREFIX, LOCK_TIMEOUT));
  }

  @AfterEach
  void close() {
    cloud.close();
  }

  @Test
  void twoPassesOfOneProcessAreTwoOwners() {
    ExclusivePasses passes = ExclusivePasses.ofProcess(locks, clock, "client");
    ExclusiveLease first = passes.acquire(LOCK);
    ExclusiveLease second = passes.acquire(LOCK);
    assertThat(first.held()).isTrue();
    assertThat(second.held()).as("not taken for a renewal of the first").isFalse();
    assertThat(first.owner()).startsWith("client/").isNotEqualTo(second.owner());
    assertThat(ExclusivePasses.ofProcess(locks, clock, "client").acquire(LOCK).owner())
        .as("another process with the same client id")
        .isNotEqualTo(first.owner());
  }

  @Test
  void theLeaseCountsFromWhenTheRequestWasSent() {
    CallInterceptor slowReplies =
        new CallInterceptor() {
          @Override
          public <T> CompletableFuture<T> intercept(
              Call<T> call, Supplier<CompletableFuture<T>> proceed) {
            CompletableFuture<T> f = proceed.get();
            if (call.operation() == Operation.LOCK_ACQUIRE_EXCLUSIVE) {
              clock.advance(REPLY_DELAY);
            }
            return f;
          }
        };
    long sent = clock.millis();
    ExclusiveLease lease =
        ExclusiveLease.acquire(Decorators.wrap(locks, slowReplies), clock, LOCK, "owner");
    assertThat(lease.held()).isTrue();
    assertThat(clock.millis()).isEqualTo(sent + REPLY_DELAY.toMillis());
    assertThat(lease.sentAt()).isEqualTo(sent);
    assertThat(lease.deadline()).isEqualTo(sent + LOCK_TIMEOUT.toMillis());
  }

  @Test
  void aPassThatFailsIsFinishedAndReleasedBeforeTheFailureGoesOn() {
    ExclusiveLease pass = ExclusiveLease.acquire(locks, clock, LOCK, "pass");
    List<String> steps = new ArrayList<>();
    assertThatThrownBy(
            () ->
                pass.run(
                    () -> {
                      steps.add("body");
                      throw new IllegalStateException("a bug");
                    },
                    () -> {
                      steps.add("finish");
                      pass.release();
                    }))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("a bug");
    assertThat(steps).containsExactly("body", "finish");
    assertThat(ExclusiveLease.acquire(locks, clock, LOCK, "next").held())
        .as("released at once")
        .isTrue();
  }

  @Test
  void aPassThatReturnsIsReleased() {
    ExclusiveLease pass = ExclusiveLease.acquire(locks, clock, LOCK, "pass");
    assertThat(pass.runThenRelease(() -> "done")).isEqualTo("done");
    assertThat(ExclusiveLease.acquire(locks, clock, LOCK, "next").held()).isTrue();
  }

  @Test
  void aPassThatDiesOfASimulatedCrashReleasesNothingAndItsLockLapses() {
    ExclusiveLease pass = ExclusiveLease.acquire(locks, clock, LOCK, "pass");
    List<String> finished = new ArrayList<>();
    assertThatThrownBy(
            () ->
                pass.run(
                    () -> {
                      throw new SimulatedCrashException("died");
                    },
                    () -> finished.add("finish")))
        .isInstanceOf(SimulatedCrashException.class);
    assertThat(finished).isEmpty();
    assertThat(ExclusiveLease.acquire(locks, clock, LOCK, "next").held())
        .as("still held by the dead pass")
        .isFalse();
    clock.advance(LOCK_TIMEOUT.plusMillis(1));
    assertThat(ExclusiveLease.acquire(locks, clock, LOCK, "next").held())
        .as("lapsed with its lease")
        .isTrue();
  }

  @Test
  void onlyAHeldLockRunsAPass() {
    ExclusiveLease.acquire(locks, clock, LOCK, "holder");
    ExclusiveLease refused = ExclusiveLease.acquire(locks, clock, LOCK, "other");
    assertThat(refused.held()).isFalse();
    assertThat(refused.validFor()).isEqualTo(LOCK_TIMEOUT);
    assertThatThrownBy(() -> refused.runThenRelease(() -> "never"))
        .isInstanceOf(IllegalStateException.class);
  }
}
