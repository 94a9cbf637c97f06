package io.stratus.bench.tpcw.rbe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.stratus.bench.tpcw.rbe.CostAllocation.Charge;
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
import io.stratus.cloudapi.decorate.PriceTables;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The background allocation rule: update interactions that wrote pay in proportion to records. */
@ExtendWith(SeedExtension.class)
class CostAllocationTest {

  @Test
  void sharesFollowTheRecordsWrittenByUpdateInteractions() {
    Map<Interaction, Long> written = new EnumMap<>(Interaction.class);
    written.put(Interaction.BUY_CONFIRM, 30L);
    written.put(Interaction.SHOPPING_CART, 10L);
    written.put(Interaction.HOME, 50L); // a read interaction never pays, whatever it reports
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
  void chargesAreOwnCallsPlusTheShareOfTheBackground() {
    Map<Interaction, MeterSnapshot> direct = new EnumMap<>(Interaction.class);
    direct.put(Interaction.BUY_CONFIRM, puts(4));
    MeterSnapshot background = puts(8);
    Map<Interaction, Charge> charges = CostAllocation.charges(direct, background,
        Map.of(Interaction.BUY_CONFIRM, 3L, Interaction.SHOPPING_CART, 1L),
        PriceTables.paper2008(), PriceTables.aws2026());
    // 2008: a put is $0.01 / 1000 plus 3 bytes of transfer at $0.10 / GB.
    assertThat(charges.get(Interaction.BUY_CONFIRM).requests()).isEqualTo(4 + 6);
    assertThat(charges.get(Interaction.SHOPPING_CART).requests()).isEqualTo(2);
    assertThat(charges.get(Interaction.HOME).requests()).isZero();
    double perPut = puts(1).cost(PriceTables.paper2008()).doubleValue();
    assertThat(charges.get(Interaction.BUY_CONFIRM).dollarsPaper())
        .isCloseTo(10 * perPut, within(1e-15));
    double perPutToday = puts(1).cost(PriceTables.aws2026()).doubleValue();
    assertThat(charges.get(Interaction.SHOPPING_CART).dollarsToday())
        .isCloseTo(2 * perPutToday, within(1e-15));
  }

  @Test
  void theEmulatorChargesBackgroundToTheInteractionsThatWrote(@Seed long seed) {
    InteractionAttribution attribution = new InteractionAttribution();
    CloudServices services = InteractionAttributionTest.wrappedCloud(seed, attribution);
    AtomicLong background = new AtomicLong();
    // Shopping Cart writes 1 record, Buy Confirm 3 and starts two "checkpoint" calls elsewhere;
    // every page makes one call of its own.
    ScriptedBookstore bookstore = new ScriptedBookstore((wi, s) -> {
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
    EmulatorReport report = ObservedMixTest.countMode(Mix.ORDERING, 1, 5_000, seed)
        .attribution(attribution).build().run(bookstore);

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
      metering.intercept(Call.of(Operation.STORAGE_PUT, "x", 3),
          () -> CompletableFuture.completedFuture(null)).join();
    }
    return meter.snapshot();
  }
}
