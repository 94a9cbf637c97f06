package io.stratus.bench.tpcw.rbe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.stratus.bench.tpcw.workload.Interaction;
import io.stratus.bench.tpcw.workload.InteractionOutcome;
import io.stratus.bench.tpcw.workload.Mix;
import io.stratus.bench.tpcw.workload.ResponseStats;
import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.decorate.Call;
import io.stratus.cloudapi.decorate.CloudMeter;
import io.stratus.cloudapi.decorate.MeterSnapshot;
import io.stratus.cloudapi.decorate.MeteringInterceptor;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The background allocation rule and the read / update groups by what interactions did. */
@ExtendWith(SeedExtension.class)
class CostAllocationTest {

  @Test
  void sharesFollowTheRecordsWritten() {
    Map<Interaction, Long> written = new EnumMap<>(Interaction.class);
    written.put(Interaction.BUY_CONFIRM, 30L);
    written.put(Interaction.SHOPPING_CART, 10L);
    Map<Interaction, Double> shares = CostAllocation.backgroundShares(written);
    assertThat(shares.get(Interaction.BUY_CONFIRM)).isEqualTo(0.75);
    assertThat(shares.get(Interaction.SHOPPING_CART)).isEqualTo(0.25);
    assertThat(shares.get(Interaction.HOME)).isZero();
    assertThat(shares.get(Interaction.ADMIN_CONFIRM)).isZero();
  }

  @Test
  void withoutWritesNothingIsAllocated() {
    Map<Interaction, Double> shares = CostAllocation.backgroundShares(Map.of());
    assertThat(shares.values()).allSatisfy(s -> assertThat(s).isZero());
  }

  @Test
  void groupsFollowWhatInteractionsDidAndPayExactlyTheirOwnCalls(@Seed long seed) {
    InteractionAttribution attribution = new InteractionAttribution();
    CloudServices services = InteractionAttributionTest.wrappedCloud(seed, attribution);
    // Shopping Cart writes on every other visit of a session and makes 3 calls when it does, 1
    // when it only shows the cart; Customer Registration may write but never does; Buy Confirm
    // writes 2 records with 2 calls and fails on every fifth visit after 1 call.
    ScriptedBookstore bookstore =
        new ScriptedBookstore(
            (wi, s) -> {
              int visit = s.count(wi);
              if (wi == Interaction.SHOPPING_CART && visit % 2 == 0) {
                for (int i = 0; i < 3; i++) {
                  InteractionAttributionTest.put(services, wi);
                }
                return new InteractionOutcome(wi, true, 1, 1, 0, -1);
              }
              if (wi == Interaction.BUY_CONFIRM) {
                InteractionAttributionTest.put(services, wi);
                if (visit % 5 == 4) {
                  throw new IllegalStateException("scripted failure");
                }
                InteractionAttributionTest.put(services, wi);
                return new InteractionOutcome(wi, true, 4, 2, 0, -1);
              }
              InteractionAttributionTest.put(services, wi);
              return ScriptedBookstore.nothing(wi);
            });
    EmulatorReport report =
        ObservedMixTest.countMode(Mix.ORDERING, 2, 3_000, seed)
            .attribution(attribution)
            .build()
            .run(bookstore);

    ResponseStats cart = report.perInteraction().get(Interaction.SHOPPING_CART);
    ResponseStats registration = report.perInteraction().get(Interaction.CUSTOMER_REGISTRATION);
    ResponseStats buy = report.perInteraction().get(Interaction.BUY_CONFIRM);
    assertThat(cart.wrote()).isPositive().isLessThan(cart.count());
    assertThat(registration.count()).isPositive();
    assertThat(registration.wrote()).isZero();
    assertThat(buy.errors()).isPositive();
    assertThat(buy.wrote()).isEqualTo(buy.count());
    // The update group is exactly the interactions that wrote, plus the failures of interactions
    // that may write; the read group everything else.
    assertThat(report.update().count()).isEqualTo(cart.wrote() + buy.wrote());
    assertThat(report.update().errors()).isEqualTo(buy.errors());
    assertThat(report.read().count()).isEqualTo(report.total().count() - report.update().count());
    // Each group pays exactly its own calls (no background here): 3 per cart write, 2 per buy,
    // 1 per failed buy; 1 per interaction that only read.
    double updateCalls =
        report.update().requestsPerInteraction()
            * (report.update().count() + report.update().errors());
    assertThat(updateCalls)
        .isCloseTo(3.0 * cart.wrote() + 2.0 * buy.count() + buy.errors(), within(1e-6));
    assertThat(report.read().requestsPerInteraction()).isCloseTo(1.0, within(1e-12));
    assertThat(report.update().recordsWrittenPerInteraction())
        .isCloseTo((cart.wrote() + 2.0 * buy.count()) / report.update().count(), within(1e-9));
  }

  @Test
  void theEmulatorChargesBackgroundToTheInteractionsThatWrote(@Seed long seed) {
    InteractionAttribution attribution = new InteractionAttribution();
    CloudServices services = InteractionAttributionTest.wrappedCloud(seed, attribution);
    AtomicLong background = new AtomicLong();
    // Shopping Cart writes 1 record, Buy Confirm 3 and starts two "checkpoint" calls elsewhere;
    // every page makes one call of its own.
    ScriptedBookstore bookstore =
        new ScriptedBookstore(
            (wi, s) -> {
              InteractionAttributionTest.put(services, wi);
              if (wi == Interaction.BUY_CONFIRM) {
                for (int i = 0; i < 2; i++) {
                  InteractionAttributionTest.runOnAnotherThread(
                      () -> InteractionAttributionTest.put(services, wi));
                  background.incrementAndGet();
                }
                return new InteractionOutcome(wi, true, 5, 3, 0, 0);
              }
              if (wi == Interaction.SHOPPING_CART) {
                return new InteractionOutcome(wi, true, 2, 1, 1, -1);
              }
              return ScriptedBookstore.nothing(wi);
            });
    EmulatorReport report =
        ObservedMixTest.countMode(Mix.ORDERING, 1, 5_000, seed)
            .attribution(attribution)
            .build()
            .run(bookstore);

    long buys = report.count(Interaction.BUY_CONFIRM);
    long carts = report.count(Interaction.SHOPPING_CART);
    assertThat(buys).isPositive();
    assertThat(carts).isPositive();
    assertThat(report.backgroundRequests()).isEqualTo(background.get()).isEqualTo(2 * buys);
    double w = 3.0 * buys + carts;
    ResponseStats buy = report.perInteraction().get(Interaction.BUY_CONFIRM);
    ResponseStats cart = report.perInteraction().get(Interaction.SHOPPING_CART);
    assertThat(buy.requestsPerInteraction())
        .isCloseTo((buys + 2.0 * buys * 3 * buys / w) / buys, within(1e-9));
    assertThat(cart.requestsPerInteraction())
        .isCloseTo((carts + 2.0 * buys * carts / w) / carts, within(1e-9));
    assertThat(report.perInteraction().get(Interaction.HOME).requestsPerInteraction())
        .isEqualTo(1.0);
    // All calls are charged exactly once: the total is direct plus background.
    double charged = report.total().requestsPerInteraction() * report.total().count();
    assertThat(charged).isCloseTo(report.total().count() + 2.0 * buys, within(1e-6));
    assertThat(report.work().get(Interaction.BUY_CONFIRM).backgroundShare())
        .isCloseTo(3 * buys / w, within(1e-12));
    assertThat(report.work().get(Interaction.BUY_CONFIRM).recordsWritten()).isEqualTo(3 * buys);
    assertThat(report.work().get(Interaction.SHOPPING_CART).retries()).isEqualTo(carts);
    assertThat(buy.meanStalenessMillis()).isZero();
    assertThat(report.total().milliDollars2008()).isPositive();
  }

  /** A snapshot of {@code n} puts of 3 bytes each. */
  static MeterSnapshot puts(int n) {
    CloudMeter meter = new CloudMeter();
    MeteringInterceptor metering = new MeteringInterceptor(meter);
    for (int i = 0; i < n; i++) {
      metering
          .intercept(
              Call.of(Operation.STORAGE_PUT, "x", 3), () -> CompletableFuture.completedFuture(null))
          .join();
    }
    return meter.snapshot();
  }
}
