package io.stratus.cloudapi.decorate;

import static io.stratus.cloudapi.Operation.ADVANCED_QUEUE_SEND;
import static io.stratus.cloudapi.Operation.COUNTER_INCREMENT;
import static io.stratus.cloudapi.Operation.LOCK_ACQUIRE_EXCLUSIVE;
import static io.stratus.cloudapi.Operation.MACHINE_START;
import static io.stratus.cloudapi.Operation.QUEUE_CREATE;
import static io.stratus.cloudapi.Operation.QUEUE_DELETE_BATCH;
import static io.stratus.cloudapi.Operation.QUEUE_DELETE_MESSAGE;
import static io.stratus.cloudapi.Operation.QUEUE_RECEIVE;
import static io.stratus.cloudapi.Operation.QUEUE_SEND;
import static io.stratus.cloudapi.Operation.QUEUE_SEND_BATCH;
import static io.stratus.cloudapi.Operation.STORAGE_DELETE;
import static io.stratus.cloudapi.Operation.STORAGE_GET;
import static io.stratus.cloudapi.Operation.STORAGE_GET_IF_CHANGED;
import static io.stratus.cloudapi.Operation.STORAGE_GET_METADATA;
import static io.stratus.cloudapi.Operation.STORAGE_LIST;
import static io.stratus.cloudapi.Operation.STORAGE_PUT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.ItemVersion;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.ServiceUnavailableException;
import io.stratus.cloudapi.StorageService;
import io.stratus.cloudapi.StoredItem;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.cloudapi.time.ManualClock;
import io.stratus.cloudapi.time.SystemScheduler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(SeedExtension.class)
class LatencyTest {
  private static final long KB = 1_000;

  private static Duration ms(double millis) {
    return Duration.ofNanos(Math.round(millis * 1_000_000));
  }

  @Test
  void euProfileFollowsPaperTableOneAndThree() {
    LatencyModel eu = LatencyProfiles.eu();
    // Table 1, and linear interpolation between its points.
    assertThat(eu.latency(STORAGE_GET, 0, 10 * KB)).isEqualTo(ms(140));
    assertThat(eu.latency(STORAGE_GET, 0, 55 * KB)).isEqualTo(ms(295));
    assertThat(eu.latency(STORAGE_GET, 0, 100 * KB)).isEqualTo(ms(450));
    assertThat(eu.latency(STORAGE_GET, 0, 550 * KB)).isEqualTo(ms(1660));
    assertThat(eu.latency(STORAGE_GET, 0, 1000 * KB)).isEqualTo(ms(2870));
    // Below 10 KB: the 10 KB figure; above 1 MB: the last segment extrapolated.
    assertThat(eu.latency(STORAGE_GET, 0, 1)).isEqualTo(ms(140));
    assertThat(eu.latency(STORAGE_GET, 0, 1900 * KB)).isEqualTo(ms(2870 + 2420));
    // Writes as reads of the same size; small calls as 10 KB.
    assertThat(eu.latency(STORAGE_PUT, 100 * KB, 0)).isEqualTo(ms(450));
    for (Operation op :
        List.of(STORAGE_GET_METADATA, STORAGE_LIST, STORAGE_DELETE, STORAGE_GET_IF_CHANGED)) {
      assertThat(eu.latency(op, 0, 0)).as(op.toString()).isEqualTo(ms(140));
    }
    // Table 3; batch calls as single ones.
    assertThat(eu.latency(QUEUE_SEND, 100, 0)).isEqualTo(ms(310));
    assertThat(eu.latency(QUEUE_SEND_BATCH, 1000, 0)).isEqualTo(ms(310));
    assertThat(eu.latency(QUEUE_RECEIVE, 0, 100)).isEqualTo(ms(160));
    assertThat(eu.latency(QUEUE_DELETE_MESSAGE, 0, 0)).isEqualTo(ms(160));
    assertThat(eu.latency(QUEUE_DELETE_BATCH, 0, 0)).isEqualTo(ms(160));
    assertThat(eu.latency(QUEUE_CREATE, 0, 0)).isEqualTo(ms(160));
    // Assumptions.
    assertThat(eu.latency(ADVANCED_QUEUE_SEND, 100, 0)).isEqualTo(ms(100));
    assertThat(eu.latency(LOCK_ACQUIRE_EXCLUSIVE, 0, 0)).isEqualTo(ms(100));
    assertThat(eu.latency(COUNTER_INCREMENT, 0, 0)).isEqualTo(ms(100));
  }

  @Test
  void ec2ProfileFollowsPaperTableTwoAndItsAssumptions() {
    LatencyModel ec2 = LatencyProfiles.ec2();
    assertThat(ec2.latency(STORAGE_GET, 0, 10 * KB)).isEqualTo(ms(35));
    assertThat(ec2.latency(STORAGE_GET, 0, 55 * KB)).isEqualTo(ms(40.5));
    assertThat(ec2.latency(STORAGE_PUT, 100 * KB, 0)).isEqualTo(ms(46));
    assertThat(ec2.latency(STORAGE_GET, 0, 550 * KB)).isEqualTo(ms(87));
    assertThat(ec2.latency(STORAGE_GET, 0, 1000 * KB)).isEqualTo(ms(128));
    assertThat(ec2.latency(QUEUE_SEND, 100, 0)).isEqualTo(ms(20));
    assertThat(ec2.latency(QUEUE_RECEIVE, 0, 0)).isEqualTo(ms(15));
    assertThat(ec2.latency(QUEUE_DELETE_MESSAGE, 0, 0)).isEqualTo(ms(15));
    assertThat(ec2.latency(COUNTER_INCREMENT, 0, 0)).isEqualTo(ms(2));
    assertThat(ec2.latency(MACHINE_START, 0, 0)).isEqualTo(ms(15));
  }

  @Test
  void hugeTransfersDoNotOverflow() {
    Duration fiveGb = LatencyProfiles.eu().latency(STORAGE_PUT, 5L << 30, 0);
    assertThat(fiveGb).isBetween(Duration.ofSeconds(14_000), Duration.ofSeconds(15_000));
  }

  @Test
  void profilesAreFoundByName() {
    assertThat(LatencyProfiles.byName("eu")).isSameAs(LatencyProfiles.eu());
    assertThat(LatencyProfiles.byName(" EC2 ")).isSameAs(LatencyProfiles.ec2());
    assertThat(LatencyProfiles.byName("none")).isSameAs(LatencyProfiles.none());
    assertThat(LatencyProfiles.none().latency(STORAGE_GET, 0, 1 << 20)).isZero();
    assertThatThrownBy(() -> LatencyProfiles.byName("us"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("us")
        .hasMessageContaining("eu, ec2, none");
  }

  @Test
  void futureCompletesOnlyOnceTheModelledLatencyHasPassed() {
    ManualClock clock = new ManualClock();
    FakeStorage store = new FakeStorage();
    StorageService storage =
        Decorators.wrap(store, new LatencyInterceptor(LatencyProfiles.eu(), clock));

    CompletableFuture<ItemVersion> put = storage.put("a", new byte[(int) (100 * KB)], Map.of());
    assertThat(store.items).containsKey("a"); // the call is made at once
    clock.advance(ms(449));
    assertThat(put).isNotDone();
    clock.advance(ms(1));
    assertThat(put).isCompleted();

    CompletableFuture<Optional<StoredItem>> get = storage.get("a");
    clock.advance(ms(449));
    assertThat(get).isNotDone();
    clock.advance(ms(1));
    assertThat(get.join()).isPresent();
  }

  @Test
  void failuresAreDelayedToo() {
    ManualClock clock = new ManualClock();
    StorageService storage =
        Decorators.wrap(
            new FakeStorage() {
              @Override
              public CompletableFuture<Void> delete(String uri) {
                return CloudFutures.failed(new ServiceUnavailableException("down"));
              }
            },
            new LatencyInterceptor(LatencyProfiles.ec2(), clock));

    CompletableFuture<Void> delete = storage.delete("a");
    clock.advance(ms(34));
    assertThat(delete).isNotDone();
    clock.advance(ms(1));
    assertThat(delete).isCompletedExceptionally();
    assertThatThrownBy(() -> CloudFutures.await(delete))
        .isInstanceOf(ServiceUnavailableException.class);
  }

  @Test
  void thousandsOfDelayedCallsHoldNoThreads() {
    ManualClock clock = new ManualClock();
    StorageService storage =
        Decorators.wrap(new FakeStorage(), new LatencyInterceptor(LatencyProfiles.eu(), clock));
    int threadsBefore = Thread.activeCount();

    List<CompletableFuture<Optional<StoredItem>>> calls = new ArrayList<>();
    for (int i = 0; i < 5_000; i++) {
      calls.add(storage.get("k" + i));
    }

    assertThat(clock.pendingWaits()).isEqualTo(5_000);
    assertThat(Thread.activeCount()).isLessThanOrEqualTo(threadsBefore + 2);
    assertThat(calls).noneMatch(CompletableFuture::isDone);
    clock.advance(ms(140));
    assertThat(calls).allMatch(f -> f.isDone() && !f.isCompletedExceptionally());
    assertThat(clock.pendingWaits()).isZero();
  }

  @Test
  void aClosedSchedulerFailsTheCallInsteadOfLeavingItPending() {
    SystemScheduler scheduler = new SystemScheduler();
    scheduler.close();
    StorageService storage =
        Decorators.wrap(new FakeStorage(), new LatencyInterceptor(LatencyProfiles.eu(), scheduler));

    assertThat(storage.get("a")).isCompletedExceptionally();
  }

  @Test
  void jitterStaysWithinItsBoundsAndReplaysFromTheSeed(@Seed long seed) {
    List<Duration> first = jitteredLatencies(seed);
    List<Duration> second = jitteredLatencies(seed);

    assertThat(second).isEqualTo(first);
    assertThat(first).allSatisfy(d -> assertThat(d).isBetween(ms(112), ms(168)));
    assertThat(first.stream().distinct().count()).isGreaterThan(10);
    assertThatThrownBy(
            () ->
                new LatencyInterceptor(LatencyProfiles.eu(), new ManualClock())
                    .withJitter(1.5, seed))
        .isInstanceOf(IllegalArgumentException.class);
  }

  /** The latency of 50 gets of one URI under 20% jitter, found by advancing a manual clock. */
  private static List<Duration> jitteredLatencies(long seed) {
    ManualClock clock = new ManualClock();
    StorageService storage =
        Decorators.wrap(
            new FakeStorage(),
            new LatencyInterceptor(LatencyProfiles.eu(), clock).withJitter(0.2, seed));
    List<Duration> out = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      CompletableFuture<?> f = storage.get("a");
      Duration waited = Duration.ZERO;
      while (!f.isDone()) {
        clock.advance(Duration.ofMillis(1));
        waited = waited.plusMillis(1);
      }
      out.add(waited);
    }
    return out;
  }
}
