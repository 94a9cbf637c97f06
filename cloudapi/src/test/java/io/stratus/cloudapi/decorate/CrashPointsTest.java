package io.stratus.cloudapi.decorate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.CrashPoints;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.cloudapi.time.ManualClock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(SeedExtension.class)
class CrashPointsTest {

  @Test
  void noneNeverCrashes() {
    CrashPoints none = CrashPoints.none();
    assertThat(CrashPoints.none()).isSameAs(none);
    assertThatCode(
            () -> {
              for (int i = 0; i < 1000; i++) {
                none.reach("commit.after-log-send");
              }
            })
        .doesNotThrowAnyException();
  }

  @Test
  void armedPointCrashesAtItsNthOccurrenceAndEveryLaterReachToo() {
    List<String> hooks = new ArrayList<>();
    ScriptedCrashPoints points =
        new ScriptedCrashPoints().arm("commit.after-log-send", 3).onCrash(() -> hooks.add("hook"));

    points.reach("commit.after-log-send");
    points.reach("checkpoint.start");
    points.reach("commit.after-log-send");
    assertThat(points.crashed()).isFalse();
    assertThat(hooks).isEmpty();

    assertThatThrownBy(() -> points.reach("commit.after-log-send"))
        .isInstanceOf(SimulatedCrashException.class)
        .isNotInstanceOf(CloudException.class)
        .hasMessageContaining("commit.after-log-send #3");
    assertThat(points.crashed()).isTrue();
    assertThat(points.crashedAt()).contains("commit.after-log-send #3");
    assertThat(hooks).containsExactly("hook");

    assertThatThrownBy(() -> points.reach("checkpoint.start"))
        .isInstanceOf(SimulatedCrashException.class)
        .hasMessageContaining("already crashed");
    assertThat(hooks).containsExactly("hook"); // hooks run once
    assertThat(points.reached())
        .isEqualTo(Map.of("commit.after-log-send", 3L, "checkpoint.start", 2L));
    assertThat(points.reached("never")).isZero();
  }

  @Test
  void crashKillsTheFaultInterceptorThroughAHook(@Seed long seed) {
    FaultInterceptor faults = new FaultInterceptor(FaultPlan.none(), seed, new ManualClock());
    FakeStorage store = new FakeStorage();
    var storage = Decorators.wrap(store, faults);
    ScriptedCrashPoints points = new ScriptedCrashPoints().arm("p", 1).onCrash(faults::killClient);

    assertThatThrownBy(() -> points.reach("p")).isInstanceOf(SimulatedCrashException.class);

    assertThat(faults.isKilled()).isTrue();
    assertThat(storage.get("x")).isCompletedExceptionally();
    assertThat(store.callsMade.get()).isZero();
  }

  @Test
  void failingHookDoesNotHideTheCrash() {
    ScriptedCrashPoints points =
        new ScriptedCrashPoints()
            .arm("p", 1)
            .onCrash(
                () -> {
                  throw new IllegalStateException("hook bug");
                });
    assertThatThrownBy(() -> points.reach("p"))
        .isInstanceOf(SimulatedCrashException.class)
        .satisfies(e -> assertThat(e.getSuppressed()).hasSize(1));
  }

  @Test
  void randomArmingReplaysFromTheSeed(@Seed long seed) {
    String first = crashSite(seed);
    assertThat(crashSite(seed)).isEqualTo(first);
    assertThat(first).isNotNull();
  }

  /** Where random crashes at probability 5% end a loop over three points, or null. */
  private static String crashSite(long seed) {
    ScriptedCrashPoints points =
        new ScriptedCrashPoints().armRandomly(Set.of("a", "b", "c"), seed, 0.05);
    try {
      for (int i = 0; i < 10_000; i++) {
        points.reach("a");
        points.reach("b");
        points.reach("unarmed");
        points.reach("c");
      }
      return null;
    } catch (SimulatedCrashException e) {
      assertThat(points.reached("unarmed")).isLessThanOrEqualTo(points.reached("a"));
      return points.crashedAt().orElseThrow();
    }
  }

  @Test
  void probabilityZeroNeverCrashesAndOneAlwaysDoes(@Seed long seed) {
    ScriptedCrashPoints never = new ScriptedCrashPoints().armRandomly(Set.of("a"), seed, 0.0);
    for (int i = 0; i < 1000; i++) {
      never.reach("a");
    }
    assertThat(never.crashed()).isFalse();
    ScriptedCrashPoints always = new ScriptedCrashPoints().armRandomly(Set.of("a"), seed, 1.0);
    assertThatThrownBy(() -> always.reach("a")).isInstanceOf(SimulatedCrashException.class);
  }

  @Test
  void armingValidatesItsArguments(@Seed long seed) {
    ScriptedCrashPoints points = new ScriptedCrashPoints();
    assertThatThrownBy(() -> points.arm("p", 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> points.armRandomly(Set.of("p"), seed, 1.1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> points.arm(null, 1)).isInstanceOf(NullPointerException.class);
  }

  @Test
  void clientCrashIsASimulatedCrash() {
    assertThat(new ClientCrashedException("x"))
        .isInstanceOf(SimulatedCrashException.class)
        .isInstanceOf(RuntimeException.class)
        .isNotInstanceOf(CloudException.class);
  }
}
