package io.stratus.bench.tpcw.report;

import static org.assertj.core.api.Assertions.assertThat;

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

    assertThat(SweepView.costPerWi2008(atomic)).isEqualTo(atomic.total().milliDollars2008());
    assertThat(SweepView.backgroundPerWi2008(atomic))
        .isCloseTo(20.0 / atomic.total().count(), org.assertj.core.data.Offset.offset(1e-12));
    assertThat(SweepView.backgroundShare2008(atomic)).isBetween(0.0, 1.0);
    assertThat(SweepView.costPerWi2008(idle)).isNaN();
    assertThat(SweepView.backgroundPerWi2026(idle)).isNaN();
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
