package io.stratus.bench.tpcw.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** Machines paid by the hour, spread over a run's interactions. */
class ServerCostTest {

  @Test
  void serversAndTheEnsembleArePaidByTheHourPerInteraction() {
    // Two servers for 30 minutes and the ensemble for as long, over 1,000 interactions.
    ServerCost c = ServerCost.of(2, 500, 1_800, 1_000);
    assertThat(c.serverHours()).isEqualTo(1.0);
    assertThat(c.coordinationHours()).isEqualTo(0.5);
    assertThat(c.serverMilliDollarsPerWi2008()).isCloseTo(0.10 * 1000 / 1000, within(1e-12));
    assertThat(c.serverMilliDollarsPerWi2026()).isCloseTo(0.0816, within(1e-12));
    assertThat(c.coordinationMilliDollarsPerWi2026()).isCloseTo(0.5 * 3 * 0.0408, within(1e-12));
    assertThat(c.milliDollarsPerWi2026()).isCloseTo(0.0816 + 0.0612, within(1e-12));
    // The 2008 table prices locks and counters per request: no ensemble hours then.
    assertThat(c.milliDollarsPerWi2008()).isEqualTo(c.serverMilliDollarsPerWi2008());
  }

  @Test
  void outsideTheCloudAndWithoutCoordinationNothingIsCharged() {
    ServerCost c = ServerCost.of(0, 0, 25, 500);
    assertThat(c.milliDollarsPerWi2008()).isZero();
    assertThat(c.milliDollarsPerWi2026()).isZero();
    assertThat(ServerCost.of(1, 7, 25, 0).milliDollarsPerWi2026()).isZero();
    assertThatThrownBy(() -> ServerCost.of(-1, 0, 1, 1))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
