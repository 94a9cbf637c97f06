package io.stratus.bench.tpcw.rbe;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.bench.tpcw.workload.Interaction;
import io.stratus.bench.tpcw.workload.InteractionOutcome;
import io.stratus.bench.tpcw.workload.Mix;
import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.decorate.Call;
import io.stratus.cloudapi.decorate.CallInterceptor;
import io.stratus.cloudapi.decorate.Decorators;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Which meter a call lands in, through the in-process cloud wrapped with the attribution. */
@ExtendWith(SeedExtension.class)
class InteractionAttributionTest {

  @Test
  void callsOnTheBrowserThreadGoToItsInteractionAndOthersToBackground(@Seed long seed) {
    InteractionAttribution attribution = new InteractionAttribution();
    CloudServices services = wrappedCloud(seed, attribution);
    AtomicLong backgroundStarted = new AtomicLong();
    // Every page puts one item on its own thread; Buy Confirm also has another thread put one.
    ScriptedBookstore bookstore =
        new ScriptedBookstore(
            (wi, s) -> {
              put(services, wi);
              if (wi == Interaction.BUY_CONFIRM) {
                runOnAnotherThread(() -> put(services, wi));
                backgroundStarted.incrementAndGet();
              }
              return ScriptedBookstore.nothing(wi);
            });
    EmulatorReport report =
        ObservedMixTest.countMode(Mix.ORDERING, 2, 2_000, seed)
            .attribution(attribution)
            .build()
            .run(bookstore);

    for (Interaction wi : Interaction.values()) {
      long count = report.count(wi);
      assertThat(report.directUsage().get(wi).requests()).as("%s", wi).isEqualTo(count);
      if (count > 0) {
        assertThat(report.perInteraction().get(wi).requestsPerInteraction())
            .as("%s", wi)
            .isEqualTo(1.0);
      }
    }
    assertThat(backgroundStarted.get()).isPositive();
    assertThat(report.backgroundRequests()).isEqualTo(backgroundStarted.get());
    assertThat(report.warmUpUsage().requests()).isZero();
    // Nothing was written, so the background is reported but charged to no interaction.
    assertThat(report.work().values()).allSatisfy(w -> assertThat(w.backgroundShare()).isZero());
    assertThat(report.backgroundMilliDollars2008()).isPositive();
  }

  @Test
  void warmUpCallsGoToTheWarmUpMeters(@Seed long seed) {
    InteractionAttribution attribution = new InteractionAttribution();
    CloudServices services = wrappedCloud(seed, attribution);
    FakeTicker ticker = new FakeTicker();
    // 1 ms per page: 50 pages of warm-up, 100 measured. Every page has a thread put one item.
    ScriptedBookstore bookstore = new ScriptedBookstore(onOtherThreadToo(services, ticker));
    EmulatorReport report =
        Emulator.builder()
            .ebs(1)
            .seed(seed)
            .warmUp(Duration.ofMillis(50))
            .measure(Duration.ofMillis(100))
            .nanoTime(ticker)
            .waiter(new RecordingWaiter(ticker))
            .attribution(attribution)
            .build()
            .run(bookstore);

    assertThat(report.warmUpInteractions()).isEqualTo(50);
    assertThat(report.warmUpUsage().requests()).isEqualTo(50);
    assertThat(report.warmUpBackground().requests()).isEqualTo(50);
    assertThat(report.total().count()).isEqualTo(100);
    long measuredDirect = report.directUsage().values().stream().mapToLong(s -> s.requests()).sum();
    assertThat(measuredDirect).isEqualTo(100);
    assertThat(report.backgroundRequests()).isEqualTo(100);
  }

  @Test
  void callsOutsideTheRunAreNotTheRuns(@Seed long seed) {
    InteractionAttribution attribution = new InteractionAttribution();
    CloudServices services = wrappedCloud(seed, attribution);
    put(services, Interaction.HOME); // e.g. loading the database before the run
    EmulatorReport report =
        ObservedMixTest.countMode(Mix.BROWSING, 1, 10, seed)
            .attribution(attribution)
            .build()
            .run(ScriptedBookstore.idle());
    put(services, Interaction.HOME); // and after it
    assertThat(report.backgroundRequests()).isZero();
    assertThat(report.total().requestsPerInteraction()).isZero();
    assertThat(attribution.snapshot().backgroundOutside().requests()).isEqualTo(2);
  }

  @Test
  void aSecondRunReportsOnlyItsOwnCalls(@Seed long seed) {
    InteractionAttribution attribution = new InteractionAttribution();
    CloudServices services = wrappedCloud(seed, attribution);
    Emulator emulator =
        ObservedMixTest.countMode(Mix.SHOPPING, 1, 300, seed).attribution(attribution).build();
    BiFunction<Interaction, ScriptedBookstore.Session, InteractionOutcome> putOne =
        (wi, s) -> {
          put(services, wi);
          return ScriptedBookstore.nothing(wi);
        };
    emulator.run(new ScriptedBookstore(putOne));
    EmulatorReport second = emulator.run(new ScriptedBookstore(putOne));
    long direct = second.directUsage().values().stream().mapToLong(s -> s.requests()).sum();
    assertThat(direct).isEqualTo(300);
  }

  @Test
  void aCallChainedOnACompletionElsewhereCountsWhereTheFirstCallDid(@Seed long seed) {
    // Futures complete on a thread of their own (as with a latency decorator or an SDK), and each
    // page chains a second put on the first one's completion, as the queue sender does.
    InteractionAttribution attribution = new InteractionAttribution();
    CallInterceptor completeElsewhere =
        new CallInterceptor() {
          @Override
          public <T> CompletableFuture<T> intercept(
              Call<T> call, Supplier<CompletableFuture<T>> proceed) {
            return proceed.get().thenApplyAsync(v -> v, r -> new Thread(r).start());
          }
        };
    CloudServices services =
        Decorators.wrap(
            InProcessCloud.builder().seed(seed).build().services(), attribution, completeElsewhere);
    ScriptedBookstore bookstore =
        new ScriptedBookstore(
            (wi, s) -> {
              services
                  .storage()
                  .put("a/" + wi.name(), new byte[1], Map.of())
                  .thenCompose(v -> services.storage().put("b/" + wi.name(), new byte[1], Map.of()))
                  .join();
              return ScriptedBookstore.nothing(wi);
            });
    EmulatorReport report =
        ObservedMixTest.countMode(Mix.SHOPPING, 2, 300, seed)
            .attribution(attribution)
            .build()
            .run(bookstore);
    assertThat(report.total().requestsPerInteraction()).isEqualTo(2.0);
    assertThat(report.backgroundRequests()).isZero();
  }

  private static BiFunction<Interaction, ScriptedBookstore.Session, InteractionOutcome>
      onOtherThreadToo(CloudServices services, FakeTicker ticker) {
    return (wi, s) -> {
      put(services, wi);
      runOnAnotherThread(() -> put(services, wi));
      ticker.advance(Duration.ofMillis(1));
      return ScriptedBookstore.nothing(wi);
    };
  }

  /** Runs {@code work} on a new thread and waits for it. */
  static void runOnAnotherThread(Runnable work) {
    Thread t = new Thread(work);
    t.start();
    try {
      t.join();
    } catch (InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }

  static CloudServices wrappedCloud(long seed, InteractionAttribution attribution) {
    return Decorators.wrap(InProcessCloud.builder().seed(seed).build().services(), attribution);
  }

  static void put(CloudServices services, Interaction wi) {
    services.storage().put("tpcw/" + wi.name(), new byte[] {1, 2, 3}, Map.of()).join();
  }
}
