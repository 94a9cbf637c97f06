package io.stratus.bench.tpcw.harness;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.cloudapi.time.SystemScheduler;
import io.stratus.protocols.ProtocolKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The warm pass warms what is measured: each protocol browses a bookstore of the measured runs'
 * size, and the queue protocols browse copies of the very load the measured runs copy, so the
 * full size costs the plan no extra load.
 */
class WarmPassTest {
  @Test
  void theWarmPassBrowsesABookstoreOfTheMeasuredSize() {
    RunSettings measured =
        Defaults.settings(ProtocolKind.BASIC).toBuilder()
            .clients(2)
            .customersPerEb(2_880)
            .thinkTimeMean(Duration.ofSeconds(1))
            .endUserRoundTrip(Duration.ofMillis(100))
            .build();
    RunSettings warm = WarmPass.settings(measured, Duration.ofSeconds(10));

    assertThat(warm.customersPerEb()).isEqualTo(2_880);
    assertThat(warm.items()).isEqualTo(measured.items());
    assertThat(warm.totalEbs()).isEqualTo(measured.totalEbs());
    assertThat(LoadTemplates.Key.of(warm))
        .as("the warm pass's bookstore is the template the measured runs copy")
        .isEqualTo(LoadTemplates.Key.of(measured));
    assertThat(warm.thinkTimeMean()).isZero();
    assertThat(warm.endUserRoundTrip()).isZero();
    assertThat(warm.measure()).isEqualTo(Duration.ofSeconds(10));
  }

  @Test
  void theQueueProtocolsWarmOnTheLoadTheMeasuredRunsCopy() {
    RunSettings base = small(ProtocolKind.NAIVE);
    List<Sweep.Planned> runs =
        Sweep.plan(base, List.of(ProtocolKind.NAIVE, ProtocolKind.BASIC), Optional.empty());
    List<ProtocolKind> loads = new ArrayList<>();
    try (SystemScheduler scheduler = new SystemScheduler();
        LoadTemplates templates = new LoadTemplates()) {
      WarmPass.Warmed warmed =
          WarmPass.run(
              runs,
              Duration.ofSeconds(30),
              3,
              scheduler,
              templates,
              (CloudServices raw, RunSettings s) -> {
                loads.add(s.protocol());
                return WarmPass.loadTemplate(raw, s);
              });
      assertThat(warmed.took()).isPositive();

      for (Sweep.Planned run : runs) {
        try (InProcessCloud cloud = InProcessCloud.builder().seed(7).build()) {
          LoadTemplates.Copy copy =
              templates.copyInto(
                  cloud.services(),
                  run.settings(),
                  (raw, s) -> {
                    loads.add(s.protocol());
                    return WarmPass.loadTemplate(raw, s);
                  });
          assertThat(copy.loadedNow())
              .as("the measured run of %s copies the warm pass's load", run.settings().protocol())
              .isFalse();
        }
      }
    }
    assertThat(loads).as("one load for the warm pass and the measured runs").hasSize(1);
  }

  private static RunSettings small(ProtocolKind protocol) {
    return Defaults.settings(protocol).toBuilder()
        .latencyProfile("none")
        .pageSize(8192)
        .ebs(1)
        .items(100)
        .customersPerEb(20)
        .seed(7)
        .build();
  }
}
