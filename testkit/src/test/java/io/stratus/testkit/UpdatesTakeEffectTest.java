package io.stratus.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link Checkers#updatesTakeEffect()}: an older committed write re-applied over a newer one is
 * accepted (durability without order), the initial state surviving a committed update is not,
 * unless that initial state was not settled ({@link Checkers#updatesTakeEffect(Set)}).
 */
class UpdatesTakeEffectTest {
  private static final Guarantees DURABLE_UNORDERED = Guarantees.of(Checkers.updatesTakeEffect());

  private final HistoryRecorder rec = new HistoryRecorder();

  private void load() {
    rec.begin("loader").write("x", "x0").write("y", "y0").ok();
  }

  @Test
  void anOlderCommittedWriteMayStay() {
    load();
    rec.begin("c1").write("x", "x1").ok();
    rec.begin("c1").write("x", "x2").ok();
    rec.finalState("c1", Map.of("x", "x1", "y", "y0"));
    assertThat(rec.snapshot().check(DURABLE_UNORDERED).valid()).isTrue();
    assertThat(
            rec.snapshot().check(Guarantees.of(Checkers.committedWritesSurvive())).failedCheckers())
        .containsExactly("committedWritesSurvive");
  }

  @Test
  void theInitialStateSurvivingAnUpdateIsCaught() {
    load();
    rec.begin("c1").write("x", "x1").ok();
    rec.finalState("c1", Map.of("x", "x0", "y", "y0"));
    CheckResult r = rec.snapshot().check(DURABLE_UNORDERED);
    assertThat(r.failedCheckers()).containsExactly("updatesTakeEffect");
    assertThat(r.anomalies())
        .singleElement()
        .satisfies(a -> assertThat(a.message()).contains("x0", "never took effect"));
  }

  @Test
  void aLostInsertIsCaughtAndADeleteExplainsAbsence() {
    rec.begin("c1").write("n", "n1").ok();
    rec.begin("c1").write("n", "n2").ok();
    rec.finalState("c1", Map.of());
    assertThat(rec.snapshot().check(DURABLE_UNORDERED).failedCheckers())
        .containsExactly("updatesTakeEffect");

    HistoryRecorder other = new HistoryRecorder();
    other.begin("c1").write("n", "m1").ok();
    other.begin("c1").delete("n").ok();
    other.finalState("c1", Map.of());
    assertThat(other.snapshot().check(DURABLE_UNORDERED).valid()).isTrue();
  }

  @Test
  void anUnsettledFirstWriteMayComeBackAfterALaterWrite() {
    // An insert made while the system runs, then deleted: a duplicate delivery of the insert's
    // record, applied after the delete, brings the inserted value back.
    load();
    HistoryRecorder.Recording inserting = rec.begin("c1").write("n", "n1");
    inserting.ok();
    String insert = inserting.txId();
    rec.begin("c1").delete("n").ok();
    rec.finalState("c1", Map.of("x", "x0", "y", "y0", "n", "n1"));
    History h = rec.snapshot();
    assertThat(h.check(Guarantees.of(Checkers.updatesTakeEffect(Set.of("loader-1")))).valid())
        .isTrue();
    assertThat(
            h.check(Guarantees.of(Checkers.updatesTakeEffect(Set.of("loader-1", insert))))
                .failedCheckers())
        .containsExactly("updatesTakeEffect");
    assertThat(h.check(DURABLE_UNORDERED).failedCheckers()).containsExactly("updatesTakeEffect");
  }

  @Test
  void aSettledFirstWriteSurvivingAnUpdateIsCaughtAndUnsettledOnesAreStillChecked() {
    load();
    rec.begin("c1").write("x", "x1").ok();
    rec.begin("c1").write("n", "n1").ok();
    rec.begin("c1").write("n", "n2").ok();
    rec.begin("c2").write("y", "y1").failed();
    rec.finalState("c1", Map.of("x", "x0", "y", "y1"));
    CheckResult r =
        rec.snapshot().check(Guarantees.of(Checkers.updatesTakeEffect(Set.of("loader-1"))));
    // x: the settled initial state survived an update; n: absent with no delete; y: FAILED.
    assertThat(r.anomalies()).extracting(Anomaly::key).containsExactlyInAnyOrder("x", "n", "y");
  }

  @Test
  void aFailedWriteMustNotShowAndUnknownOnesMay() {
    load();
    rec.begin("c1").write("x", "x1").failed();
    rec.begin("c1").write("y", "y1").unknown();
    rec.finalState("c1", Map.of("x", "x1", "y", "y1"));
    CheckResult r = rec.snapshot().check(DURABLE_UNORDERED);
    assertThat(r.anomalies()).singleElement().satisfies(a -> assertThat(a.key()).isEqualTo("x"));
  }
}
