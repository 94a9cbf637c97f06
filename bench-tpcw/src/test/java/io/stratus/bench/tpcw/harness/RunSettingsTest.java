package io.stratus.bench.tpcw.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.protocols.ProtocolKind;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class RunSettingsTest {
  @Test
  void aBuilderCopiesEverySettingAndChangesOnlyWhatItIsTold() {
    RunSettings base =
        Defaults.settings(ProtocolKind.BASIC).toBuilder().clients(3).index(IndexChoice.SDB).build();

    RunSettings copy = base.toBuilder().build();
    RunSettings changed = base.toBuilder().ebs(7).build();

    assertThat(copy).isEqualTo(base);
    assertThat(changed.ebs()).isEqualTo(7);
    assertThat(changed.toBuilder().ebs(base.ebs()).build()).isEqualTo(base);
    assertThat(changed.clients()).isEqualTo(3);
    assertThat(changed.index()).isEqualTo(IndexChoice.SDB);
  }

  @Test
  void aNewBuilderHasOneClientWithBTreeIndexes() {
    RunSettings s = Defaults.settings(ProtocolKind.NAIVE);

    assertThat(s.clients()).isEqualTo(1);
    assertThat(s.index()).isEqualTo(IndexChoice.BTREE);
  }

  @Test
  void buildNamesTheSettingThatIsMissingOrOutOfRange() {
    RunSettings.Builder b = Defaults.settings(ProtocolKind.NAIVE).toBuilder();

    assertThatThrownBy(() -> RunSettings.builder().build())
        .isInstanceOf(NullPointerException.class)
        .hasMessage("protocol");
    assertThatThrownBy(() -> b.clients(0).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("clients must be positive");
    assertThatThrownBy(() -> b.clients(1).ebs(0).build()).hasMessageContaining("ebs");
    assertThatThrownBy(() -> b.ebs(1).ttl(Duration.ofSeconds(-1)).build())
        .hasMessageContaining("ttl must not be negative");
    assertThatThrownBy(() -> b.ttl(Duration.ZERO).measure(Duration.ZERO).build())
        .hasMessageContaining("measure must be positive");
    assertThat(b.measure(Duration.ofSeconds(1)).build().ttl()).isEqualTo(Duration.ZERO);
  }
}
