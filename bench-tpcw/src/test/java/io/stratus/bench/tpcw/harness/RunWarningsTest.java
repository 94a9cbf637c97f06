package io.stratus.bench.tpcw.harness;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.protocols.ProtocolKind;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RunWarningsTest {

  private static RunSettings run(
      ProtocolKind protocol, int ttlSeconds, int checkpointSeconds, int measureSeconds) {
    RunSettings d = Defaults.settings(protocol);
    return d.toBuilder()
        .protocol(protocol)
        .ttl(Duration.ofSeconds(ttlSeconds))
        .checkpointInterval(Duration.ofSeconds(checkpointSeconds))
        .measure(Duration.ofSeconds(measureSeconds))
        .build();
  }

  @Test
  void aMeasurementShorterThanThreeTtlsIsWarnedAbout() {
    Optional<String> warning = RunWarnings.check(run(ProtocolKind.NAIVE, 100, 10, 25));

    assertThat(warning)
        .hasValueSatisfying(
            w ->
                assertThat(w)
                    .startsWith("warning: measuring 25s is shorter than 3 times the TTL (100s)")
                    .contains("--duration 5m")
                    .contains("--ttl")
                    .doesNotContain("\n"));
  }

  @Test
  void threePeriodsExactlyAreLongEnough() {
    assertThat(RunWarnings.check(run(ProtocolKind.BASIC, 100, 45, 300))).isEmpty();
    assertThat(RunWarnings.check(run(ProtocolKind.BASIC, 100, 45, 299))).isPresent();
    assertThat(RunWarnings.shortestMeasure(run(ProtocolKind.BASIC, 100, 45, 1)))
        .isEqualTo(Duration.ofMinutes(5));
  }

  @Test
  void theCheckpointIntervalCountsOnlyForProtocolsThatCheckpoint() {
    assertThat(RunWarnings.check(run(ProtocolKind.NAIVE, 5, 45, 25))).isEmpty();
    for (ProtocolKind checkpointing :
        List.of(
            ProtocolKind.BASIC,
            ProtocolKind.MONOTONIC,
            ProtocolKind.ATOMIC,
            ProtocolKind.ADVANCED_ATOMIC,
            ProtocolKind.SNAPSHOT_ISOLATION)) {
      assertThat(RunWarnings.check(run(checkpointing, 5, 45, 25)))
          .as(checkpointing.name())
          .hasValueSatisfying(
              w ->
                  assertThat(w)
                      .contains("3 times the checkpoint interval (45s)")
                      .contains("--duration 135s")
                      .contains("--checkpoint-interval"));
    }
  }

  @Test
  void aTtlOfZeroLeavesTheCheckpointInterval() {
    assertThat(RunWarnings.shortestMeasure(run(ProtocolKind.ATOMIC, 0, 7, 21)))
        .isEqualTo(Duration.ofSeconds(21));
    assertThat(RunWarnings.shortestMeasure(run(ProtocolKind.NAIVE, 0, 7, 21)))
        .isEqualTo(Duration.ZERO);
  }

  @Test
  void aPlanGetsOneLinePerDistinctWarningNamingItsRuns() {
    RunSettings base = Defaults.settings(ProtocolKind.BASIC);
    List<Sweep.Planned> runs =
        Sweep.plan(
            base,
            List.of(ProtocolKind.NAIVE, ProtocolKind.BASIC),
            Optional.of(Sweep.parse("ttl=0,10s,100s")));

    List<String> lines = RunWarnings.forPlan("ttl", runs);

    assertThat(lines).hasSize(2);
    assertThat(lines.get(0)).contains("TTL (10s)").endsWith("(ttl=10s naive, ttl=10s basic)");
    assertThat(lines.get(1)).contains("TTL (100s)").endsWith("(ttl=100s naive, ttl=100s basic)");
  }

  @Test
  void theDefaultRunNeedsNoWarning() {
    List<Sweep.Planned> runs =
        Sweep.plan(Defaults.settings(ProtocolKind.NAIVE), Defaults.PROTOCOLS, Optional.empty());

    assertThat(RunWarnings.forPlan("protocol", runs)).isEmpty();
    assertThat(RunWarnings.forPlan("protocol", runs.subList(0, 1))).isEmpty();
  }
}
