package io.stratus.bench.tpcw.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import io.stratus.bench.tpcw.harness.RunResult;
import io.stratus.bench.tpcw.harness.SweepResult;
import io.stratus.protocols.ProtocolKind;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class SweepViewTest {

  @Test
  void namesRunsByProtocolAndSweptValue() {
    SweepView protocols = new SweepView(Fixtures.protocolSweep());
    SweepView ebs = new SweepView(Fixtures.ebsSweep());

    assertThat(protocols.name(0)).isEqualTo("naive");
    assertThat(ebs.name(3)).isEqualTo("atomic ebs=10");
    assertThat(ebs.protocols()).containsExactly("basic", "atomic");
  }

  @Test
  void duplicateNamesAreMadeUnique() {
    RunResult basic = Fixtures.protocolSweep().runs().get(1);
    SweepView view = new SweepView(new SweepResult("protocol", List.of(basic, basic)));

    assertThat(view.name(0)).isEqualTo("basic");
    assertThat(view.name(1)).isEqualTo("basic #2");
  }

  @Test
  void baselineIsNaiveElseTheFirstRunAtTheSameValueElseTheFirstRun() {
    SweepView protocols = new SweepView(Fixtures.protocolSweep());
    SweepView ebs = new SweepView(Fixtures.ebsSweep());
    SweepView mix = new SweepView(Fixtures.mixSweep());

    assertThat(protocols.baseline(3)).isZero();
    assertThat(protocols.baseline(0)).isZero();
    assertThat(ebs.baseline(3)).isEqualTo(2); // atomic ebs=10 against basic ebs=10
    assertThat(ebs.baseline(2)).isEqualTo(2);
    assertThat(mix.baseline(2)).isZero(); // one protocol: against the first run
  }

  @Test
  void numericAxisForNumbersAndDurationsOnly() {
    assertThat(new SweepView(Fixtures.ebsSweep()).numericAxis())
        .get()
        .satisfies(a -> assertThat(a.values()).containsExactly(1, 1, 10, 10, 50, 50));
    assertThat(new SweepView(Fixtures.ttlSweep()).numericAxis())
        .get()
        .satisfies(
            a -> {
              assertThat(a.axisTitle()).isEqualTo("ttl (s)");
              assertThat(a.values()).containsExactly(0.25, 0.25, 10, 10, 100, 100);
            });
    assertThat(new SweepView(Fixtures.protocolSweep()).numericAxis()).isEmpty();
    assertThat(new SweepView(Fixtures.mixSweep()).numericAxis()).isEmpty();
  }

  @Test
  void costPerWiIsTheTotalRowsAndBackgroundIsItsShare() {
    RunResult atomic =
        Fixtures.run(
            "atomic", Fixtures.settings(ProtocolKind.ATOMIC, 10, Duration.ofSeconds(100)), 1.0);
    RunResult idle = Fixtures.awkward().runs().get(2);

    assertThat(SweepView.requestCostPerWi2008(atomic)).isEqualTo(atomic.total().milliDollars2008());
    assertThat(SweepView.backgroundPerWi2008(atomic))
        .isCloseTo(20.0 / atomic.total().count(), org.assertj.core.data.Offset.offset(1e-12));
    assertThat(SweepView.backgroundShare2008(atomic)).isBetween(0.0, 1.0);
    assertThat(SweepView.costPerWi2008(idle)).isNaN();
    assertThat(SweepView.backgroundPerWi2026(idle)).isNaN();
  }

  /**
   * The cost per WI is the papers': the requests (the total row's, background included) plus the
   * machines paid by the hour, the server's rent at both prices and the ensemble's at today's.
   */
  @Test
  void costPerWiAddsTheMachinesToTheRequests() {
    RunResult atomic =
        Fixtures.run(
            "atomic", Fixtures.settings(ProtocolKind.ATOMIC, 10, Duration.ofSeconds(100)), 1.0);
    long wis = atomic.total().attempts();
    // One server for 25 s at $0.10 / $0.0816 an hour, and the ensemble (3 x $0.0408) at 2026.
    double rent2008 = 25 / 3600.0 * 0.10 * 1000 / wis;
    double rent2026 = 25 / 3600.0 * (0.0816 + 3 * 0.0408) * 1000 / wis;

    assertThat(SweepView.machinesPerWi2008(atomic)).isCloseTo(rent2008, offset(1e-15));
    assertThat(SweepView.machinesPerWi2026(atomic)).isCloseTo(rent2026, offset(1e-15));
    assertThat(SweepView.costPerWi2008(atomic))
        .isCloseTo(atomic.total().milliDollars2008() + rent2008, offset(1e-15));
    assertThat(SweepView.costPerWi2026(atomic))
        .isCloseTo(atomic.total().milliDollars2026() + rent2026, offset(1e-15));
    // Naive makes no coordination request: its run pays the server only, at both prices.
    RunResult naive =
        Fixtures.run(
            "naive", Fixtures.settings(ProtocolKind.NAIVE, 10, Duration.ofSeconds(100)), 1.0);
    assertThat(SweepView.machinesPerWi2026(naive))
        .isCloseTo(25 / 3600.0 * 0.0816 * 1000 / naive.total().attempts(), offset(1e-15));
  }

  @Test
  void commonAndVaryingSettings() {
    SweepView ebs = new SweepView(Fixtures.ebsSweep());

    assertThat(ebs.varyingSettings()).containsExactly("protocol", "ebs");
    assertThat(ebs.commonSettings()).containsKey("page size").doesNotContainKey("ebs");
  }

  @Test
  void numbersAreFormattedWithThreeSignificantDigitsAndPlainDecimals() {
    assertThat(Numbers.sig3(0.000412)).isEqualTo("0.000412");
    assertThat(Numbers.sig3(0.0000412)).isEqualTo("0.000041");
    assertThat(Numbers.sig3(4.123)).isEqualTo("4.12");
    assertThat(Numbers.sig3(41234)).isEqualTo("41234");
    assertThat(Numbers.sig3(Double.NaN)).isEqualTo("-");
    assertThat(Numbers.plain(1e-4)).isEqualTo("0.0001");
    assertThat(Numbers.plain(100000.0)).isEqualTo("100000");
    assertThat(Numbers.plain(Double.POSITIVE_INFINITY)).isNull();
    assertThat(Numbers.ratio(1, 0, "x")).isEqualTo("-");
  }
}
