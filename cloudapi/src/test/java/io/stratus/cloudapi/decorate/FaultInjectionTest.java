package io.stratus.cloudapi.decorate;

import static io.stratus.cloudapi.Operation.STORAGE_GET;
import static io.stratus.cloudapi.Operation.STORAGE_PUT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.ItemVersion;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.OutcomeUnknownException;
import io.stratus.cloudapi.RetryableException;
import io.stratus.cloudapi.ServiceUnavailableException;
import io.stratus.cloudapi.StorageService;
import io.stratus.cloudapi.decorate.FaultPlan.Fault;
import io.stratus.cloudapi.decorate.FaultPlan.Selector;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.cloudapi.time.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(SeedExtension.class)
class FaultInjectionTest {
  private static final byte[] PAYLOAD = {1, 2, 3};
  private static final Comparator<InjectedFault> BY_CALL =
      Comparator.comparing(InjectedFault::operation)
          .thenComparing(InjectedFault::target)
          .thenComparingLong(InjectedFault::ordinal);

  private final ManualClock clock = new ManualClock();
  private final FakeConditionalStorage store = new FakeConditionalStorage();

  private StorageService wrap(FaultInterceptor faults) {
    return Decorators.wrap(store, faults);
  }

  @Test
  void sameSeedGivesSameFaultsWhateverTheThreadInterleaving(@Seed long seed) throws Exception {
    FaultPlan plan =
        FaultPlan.builder()
            .fail(Selector.all(), 0.05)
            .unavailable(Selector.services(Operation.Service.STORAGE), 0.05)
            .loseReply(Selector.operations(STORAGE_PUT), 0.1)
            .delay(Selector.operations(STORAGE_GET), 0.05, Duration.ofSeconds(1))
            .build();

    List<InjectedFault> a = runConcurrently(plan, seed, 4, seed ^ 1);
    List<InjectedFault> b = runConcurrently(plan, seed, 3, seed ^ 2);
    List<InjectedFault> c = runConcurrently(plan, seed + 1, 4, seed ^ 1);

    assertThat(a).isNotEmpty().isEqualTo(b).isNotEqualTo(c);
    assertThat(a).extracting(InjectedFault::kind).contains(FaultKind.values());
  }

  /**
   * Makes 20 puts and 20 gets on each of 25 URIs, shuffled by {@code orderSeed} and spread over
   * {@code threads} threads that start together; returns the fault log sorted by call.
   */
  private static List<InjectedFault> runConcurrently(
      FaultPlan plan, long seed, int threads, long orderSeed) throws Exception {
    FaultInterceptor faults = new FaultInterceptor(plan, seed, new ManualClock());
    StorageService storage = Decorators.wrap(new FakeStorage(), faults);
    List<Runnable> calls = new ArrayList<>();
    for (int t = 0; t < 25; t++) {
      String uri = "pages/" + t;
      for (int i = 0; i < 20; i++) {
        calls.add(() -> storage.put(uri, PAYLOAD, Map.of()));
        calls.add(() -> storage.get(uri));
      }
    }
    Collections.shuffle(calls, new Random(orderSeed));
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int first = t;
        done.add(
            pool.submit(
                () -> {
                  start.await();
                  for (int i = first; i < calls.size(); i += threads) {
                    calls.get(i).run();
                  }
                  return null;
                }));
      }
      start.countDown();
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
    List<InjectedFault> log = new ArrayList<>(faults.injectedFaults());
    log.sort(BY_CALL);
    return log;
  }

  @Test
  void lostReplyTakesEffectButLeavesTheOutcomeUnknown(@Seed long seed) {
    FaultInterceptor faults =
        new FaultInterceptor(
            FaultPlan.builder().loseReply(Selector.operations(STORAGE_PUT), 1.0).build(),
            seed,
            clock);
    StorageService storage = wrap(faults);

    CompletableFuture<ItemVersion> put = storage.put("a", PAYLOAD, Map.of());

    assertThatThrownBy(() -> CloudFutures.await(put))
        .isInstanceOf(OutcomeUnknownException.class)
        .hasMessageContaining("reply was lost");
    assertThat(store.items).containsKey("a");
    assertThat(storage.get("a").join()).isPresent();
    assertThat(faults.injectedFaults())
        .containsExactly(new InjectedFault(STORAGE_PUT, "a", 1, FaultKind.LOSE_REPLY));
  }

  @Test
  void failedCallsAreNotMade(@Seed long seed) {
    FaultInterceptor faults =
        new FaultInterceptor(
            FaultPlan.builder()
                .fail(Selector.operations(STORAGE_PUT), 1.0)
                .unavailable(Selector.operations(STORAGE_GET), 1.0)
                .build(),
            seed,
            clock);
    StorageService storage = wrap(faults);

    CompletableFuture<ItemVersion> put = storage.put("a", PAYLOAD, Map.of());
    assertThatThrownBy(() -> CloudFutures.await(put))
        .isInstanceOf(RetryableException.class)
        .isNotInstanceOf(ServiceUnavailableException.class);
    assertThatThrownBy(() -> CloudFutures.await(storage.get("a")))
        .isInstanceOf(ServiceUnavailableException.class);

    assertThat(store.items).isEmpty();
    assertThat(store.callsMade.get()).isZero();
    storage.delete("a").join(); // not selected: made
    assertThat(store.callsMade.get()).isEqualTo(1);
  }

  @Test
  void delayedCallsAreMadeOnlyAfterTheDelay(@Seed long seed) {
    FaultInterceptor faults =
        new FaultInterceptor(
            FaultPlan.builder()
                .delay(Selector.operations(STORAGE_PUT), 1.0, Duration.ofSeconds(2))
                .build(),
            seed,
            clock);
    StorageService storage = wrap(faults);

    CompletableFuture<ItemVersion> put = storage.put("a", PAYLOAD, Map.of());
    clock.advance(Duration.ofMillis(1999));
    assertThat(put).isNotDone();
    assertThat(store.items).isEmpty();
    clock.advance(Duration.ofMillis(1));
    assertThat(put).isCompleted();
    assertThat(store.items).containsKey("a");
  }

  @Test
  void targetPrefixLimitsARule(@Seed long seed) {
    FaultInterceptor faults =
        new FaultInterceptor(
            FaultPlan.builder().fail(Selector.all().withTargetPrefix("log/"), 1.0).build(),
            seed,
            clock);
    StorageService storage = wrap(faults);

    storage.put("pages/1", PAYLOAD, Map.of()).join();
    assertThat(storage.put("log/1", PAYLOAD, Map.of())).isCompletedExceptionally();

    assertThat(store.items).containsOnlyKeys("pages/1");
  }

  @Test
  void nthCallRuleFiresOnceOnTheNthMatchingCall(@Seed long seed) {
    FaultInterceptor faults =
        new FaultInterceptor(
            FaultPlan.builder().onNthCall(STORAGE_PUT, "pages/", 3, Fault.loseReply()).build(),
            seed,
            clock);
    StorageService storage = wrap(faults);

    List<Boolean> failed = new ArrayList<>();
    for (String uri : List.of("pages/a", "log/x", "pages/b", "pages/a", "pages/c", "pages/a")) {
      failed.add(storage.put(uri, PAYLOAD, Map.of()).isCompletedExceptionally());
    }

    assertThat(failed).containsExactly(false, false, false, true, false, false);
    assertThat(faults.injectedFaults())
        .containsExactly(new InjectedFault(STORAGE_PUT, "pages/a", 2, FaultKind.LOSE_REPLY));
    assertThat(store.items).containsOnlyKeys("pages/a", "pages/b", "pages/c", "log/x");
  }

  @Test
  void killedClientMakesNoCallsAndSeesNoRepliesUntilRevived(@Seed long seed) {
    CompletableFuture<ItemVersion> slow = new CompletableFuture<>();
    FakeStorage slowStore =
        new FakeStorage() {
          @Override
          public CompletableFuture<ItemVersion> put(
              String uri, byte[] payload, Map<String, String> md) {
            super.put(uri, payload, md);
            return slow;
          }
        };
    FaultInterceptor faults = new FaultInterceptor(FaultPlan.none(), seed, clock);
    StorageService storage = Decorators.wrap(slowStore, faults);

    CompletableFuture<ItemVersion> inFlight = storage.put("a", PAYLOAD, Map.of());
    faults.killClient();
    slow.complete(new ItemVersion("v", java.time.Instant.EPOCH));

    assertThat(faults.isKilled()).isTrue();
    assertThatThrownBy(() -> CloudFutures.await(inFlight))
        .isInstanceOf(ClientCrashedException.class)
        .isInstanceOf(SimulatedCrashException.class)
        .isNotInstanceOf(CloudException.class);
    assertThat(slowStore.items).containsKey("a"); // it took effect nonetheless
    int made = slowStore.callsMade.get();
    assertThatThrownBy(() -> CloudFutures.await(storage.get("a")))
        .isInstanceOf(ClientCrashedException.class);
    assertThat(slowStore.callsMade.get()).isEqualTo(made);

    faults.revive();
    assertThat(faults.isKilled()).isFalse();
    assertThat(storage.get("a").join()).isPresent();
  }

  @Test
  void killWhileADelayedCallWaitsMeansTheCallIsNeverMade(@Seed long seed) {
    FaultInterceptor faults =
        new FaultInterceptor(
            FaultPlan.builder().delay(Selector.all(), 1.0, Duration.ofSeconds(1)).build(),
            seed,
            clock);
    StorageService storage = wrap(faults);

    CompletableFuture<ItemVersion> put = storage.put("a", PAYLOAD, Map.of());
    faults.killClient();
    clock.advance(Duration.ofSeconds(1));

    assertThatThrownBy(() -> CloudFutures.await(put)).isInstanceOf(ClientCrashedException.class);
    assertThat(store.items).isEmpty();
  }

  @Test
  void emptyPlanChangesNothing(@Seed long seed) {
    FaultInterceptor faults = new FaultInterceptor(FaultPlan.none(), seed, clock);
    StorageService storage = wrap(faults);
    for (int i = 0; i < 100; i++) {
      storage.put("a" + i, PAYLOAD, Map.of()).join();
    }
    assertThat(faults.injectedFaults()).isEmpty();
    assertThat(store.items).hasSize(100);
  }

  @Test
  void planRejectsInvalidSettings() {
    FaultPlan.Builder b = FaultPlan.builder();
    assertThatThrownBy(() -> b.fail(Selector.all(), 1.5))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> b.fail(Selector.all(), Double.NaN))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> b.delay(Selector.all(), 0.5, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> b.onNthCall(STORAGE_PUT, "", 0, Fault.fail()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(Selector::operations).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Fault(FaultKind.FAIL_RETRYABLE, Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> b.fail(null, 0.5)).isInstanceOf(NullPointerException.class);
  }
}
