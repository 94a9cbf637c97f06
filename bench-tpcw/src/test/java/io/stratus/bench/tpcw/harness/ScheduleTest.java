package io.stratus.bench.tpcw.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.protocols.ProtocolKind;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The schedule gives every protocol the same warm state (a warm pass of each before any measured
 * run) and no protocol a better place: repeats alternate the order, so that every run has the same
 * mean place among the runs it is compared with.
 */
class ScheduleTest {
  private static final List<ProtocolKind> THREE =
      List.of(ProtocolKind.NAIVE, ProtocolKind.BASIC, ProtocolKind.SNAPSHOT_ISOLATION);

  private static List<Sweep.Planned> protocols(List<ProtocolKind> kinds) {
    return Sweep.plan(Defaults.settings(ProtocolKind.NAIVE), kinds, Optional.empty());
  }

  @Test
  void everyProtocolIsWarmedOnceBeforeAnyIsMeasured() {
    Schedule s = Schedule.of("protocol", protocols(THREE), 2);
    assertThat(s.warmPass())
        .extracting(p -> p.settings().protocol())
        .containsExactlyElementsOf(THREE);
    Schedule sweep =
        Schedule.of(
            "ebs",
            Sweep.plan(
                Defaults.settings(ProtocolKind.NAIVE),
                THREE,
                Optional.of(Sweep.parse("ebs=1,10,50"))),
            1);
    assertThat(sweep.warmPass())
        .as("one per protocol, not per run")
        .extracting(p -> p.settings().protocol())
        .containsExactlyElementsOf(THREE);
  }

  @Test
  void repeatsAlternateTheOrderSoThatEveryRunHasTheSameMeanPlace() {
    List<Sweep.Planned> runs = protocols(THREE);
    Schedule once = Schedule.of("protocol", runs, 1);
    assertThat(once.measured())
        .containsExactly(new Schedule.Slot(0, 1), new Schedule.Slot(1, 1), new Schedule.Slot(2, 1));
    Schedule twice = Schedule.of("protocol", runs, 2);
    assertThat(twice.measured())
        .containsExactly(
            new Schedule.Slot(0, 1),
            new Schedule.Slot(1, 1),
            new Schedule.Slot(2, 1),
            new Schedule.Slot(2, 2),
            new Schedule.Slot(1, 2),
            new Schedule.Slot(0, 2));
    Map<Integer, Integer> placeSum = new HashMap<>();
    for (int i = 0; i < twice.measured().size(); i++) {
      placeSum.merge(twice.measured().get(i).run(), i % runs.size(), Integer::sum);
    }
    assertThat(placeSum.values()).as("sum of places per run").containsOnly(runs.size() - 1);
  }

  @Test
  void theBlocksOfASweepAlternateToo() {
    List<Sweep.Planned> runs =
        Sweep.plan(
            Defaults.settings(ProtocolKind.NAIVE),
            List.of(ProtocolKind.NAIVE, ProtocolKind.BASIC),
            Optional.of(Sweep.parse("ebs=1,10")));
    assertThat(Schedule.of("ebs", runs, 1).measured())
        .extracting(Schedule.Slot::run)
        .as("ebs=1: naive, basic; ebs=10: basic, naive")
        .containsExactly(0, 1, 3, 2);
    assertThat(Schedule.of("ebs", runs, 2).measured())
        .extracting(Schedule.Slot::run)
        .containsExactly(0, 1, 3, 2, 1, 0, 2, 3);
  }

  @Test
  void everyRunIsMeasuredOncePerRepeat() {
    Schedule s = Schedule.of("protocol", protocols(THREE), 3);
    assertThat(s.measured()).hasSize(9).doesNotHaveDuplicates();
    assertThat(s.measured()).extracting(Schedule.Slot::repeat).containsOnly(1, 2, 3);
    assertThatThrownBy(() -> Schedule.of("protocol", protocols(THREE), 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("repeats");
  }
}
