package io.stratus.bench.tpcw.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.bench.tpcw.workload.Mix;
import io.stratus.protocols.ProtocolKind;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SweepTest {
  private final RunSettings base = Defaults.settings(ProtocolKind.NAIVE);

  @Test
  void withoutASweepThereIsOneRunPerProtocolLabelledByIt() {
    List<Sweep.Planned> runs =
        Sweep.plan(base, List.of(ProtocolKind.BASIC, ProtocolKind.ATOMIC), Optional.empty());

    assertThat(runs).extracting(Sweep.Planned::label).containsExactly("basic", "atomic");
    assertThat(runs)
        .extracting(r -> r.settings().protocol())
        .containsExactly(ProtocolKind.BASIC, ProtocolKind.ATOMIC);
    assertThat(Sweep.parameterName(Optional.empty())).isEqualTo("protocol");
  }

  @Test
  void aSweepCrossesItsValuesWithTheProtocols() {
    Sweep sweep = Sweep.parse("ebs=1,10,50");
    List<Sweep.Planned> runs =
        Sweep.plan(base, List.of(ProtocolKind.NAIVE, ProtocolKind.BASIC), Optional.of(sweep));

    assertThat(runs).hasSize(6);
    assertThat(runs)
        .extracting(Sweep.Planned::label)
        .containsExactly("1", "1", "10", "10", "50", "50");
    assertThat(runs).extracting(r -> r.settings().ebs()).containsExactly(1, 1, 10, 10, 50, 50);
    assertThat(runs.get(5).settings().protocol()).isEqualTo(ProtocolKind.BASIC);
    assertThat(runs.get(5).settings().items()).isEqualTo(base.items());
  }

  @Test
  void everySweepableParameterChangesOnlyItsSetting() {
    assertThat(Sweep.parse("page-size=8k").apply(base, "8k").pageSize()).isEqualTo(8192);
    assertThat(Sweep.parse("ttl=0,5s").apply(base, "5s").ttl()).isEqualTo(Duration.ofSeconds(5));
    assertThat(Sweep.parse("checkpoint-interval=2s").apply(base, "2s").checkpointInterval())
        .isEqualTo(Duration.ofSeconds(2));
    assertThat(Sweep.parse("items=100").apply(base, "100").items()).isEqualTo(100);
    assertThat(Sweep.parse("mix=ordering").apply(base, "ordering").mix()).isEqualTo(Mix.ORDERING);
    assertThat(Sweep.parse("think-time=1s").apply(base, "1s").thinkTimeMean())
        .isEqualTo(Duration.ofSeconds(1));
    assertThat(Sweep.parse("end-user-rtt=100ms").apply(base, "100ms").endUserRoundTrip())
        .isEqualTo(Duration.ofMillis(100));
    assertThat(Sweep.parse("profile=eu").apply(base, "eu").latencyProfile()).isEqualTo("eu");
    RunSettings ebs = Sweep.parse("ebs=7").apply(base, "7");
    assertThat(ebs).isEqualTo(base.toBuilder().ebs(7).build());
  }

  @Test
  void badSweepsAreRefusedWhenParsed() {
    assertThatThrownBy(() -> Sweep.parse("ebs")).hasMessageContaining("name=v1,v2");
    assertThatThrownBy(() -> Sweep.parse("colour=red")).hasMessageContaining("sweepable");
    assertThatThrownBy(() -> Sweep.parse("ebs=1,zero")).hasMessageContaining("zero");
    assertThatThrownBy(() -> Sweep.parse("ebs=0")).hasMessageContaining("positive");
    assertThatThrownBy(() -> Sweep.parse("page-size=12")).hasMessageContaining("page size");
    assertThatThrownBy(() -> Sweep.parse("profile=mars")).hasMessageContaining("mars");
    assertThatThrownBy(() -> Sweep.parse("ttl=,")).hasMessageContaining("no values");
  }
}
