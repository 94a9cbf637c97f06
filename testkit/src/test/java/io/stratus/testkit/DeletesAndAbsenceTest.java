package io.stratus.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Absence is ambiguous (the initial state or any delete), so checkers must accept every reading
 * of it that the history allows and still catch absence that no delete explains.
 */
class DeletesAndAbsenceTest {
  private static final Guarantees EVERY_CHECKER = Guarantees.forProtocol("atomic");

  private final HistoryRecorder rec = new HistoryRecorder();

  private void converged(Map<String, String> view) {
    rec.finalState("c1", view);
    rec.finalState("c2", view);
  }

  @Test
  void absenceAfterADeleteIsNewerThanTheValueDeleted() {
    rec.begin("c2").write("x", "x1").ok();
    rec.begin("c1").read("x", "x1").ok();
    rec.begin("c2").delete("x").ok();
    rec.begin("c1").read("x", null).ok();
    converged(Map.of());
    rec.snapshot().check(EVERY_CHECKER).assertValid();
  }

  @Test
  void absenceNoDeleteExplainsIsAStaleRead() {
    rec.begin("c2").write("x", "x1").ok();
    rec.begin("c1").read("x", "x1").ok();
    rec.begin("c1").read("x", null).ok();
    converged(Map.of("x", "x1"));
    assertThat(rec.snapshot().check(EVERY_CHECKER).failedCheckers())
        .containsExactly("monotonicReads");
  }

  @Test
  void readingAnOlderValueAfterOwnDeleteBreaksReadYourWrites() {
    rec.begin("c2").write("x", "x1").ok();
    rec.begin("c1").delete("x").ok();
    rec.begin("c1").read("x", "x1").ok();
    converged(Map.of());
    assertThat(rec.snapshot().check(EVERY_CHECKER).failedCheckers())
        .containsExactly("readYourWrites");
  }

  @Test
  void aDeleteThatIsTheOnlyExplanationOfAbsenceCountsAsApplied() {
    rec.begin("c1").write("x", "x1").write("y", "y1").ok();
    rec.begin("c2").delete("x").write("y", "y2").unknown();
    // x absent: only c2-1's delete explains it; y still y1: c2-1 not applied there.
    converged(Map.of("y", "y1"));
    assertThat(rec.snapshot().check(EVERY_CHECKER).failedCheckers()).containsExactly("atomicity");
  }

  @Test
  void aDeleteOfAKeyNeverWrittenCanBeEitherWay() {
    rec.begin("c1").delete("x").write("y", "y1").unknown();
    converged(Map.of());
    rec.snapshot().check(EVERY_CHECKER).assertValid();
  }

  @Test
  void aWriteDeletedByALaterUnknownTransactionMayBeAbsent() {
    rec.begin("c1").write("x", "x1").ok();
    rec.begin("c2").delete("x").unknown();
    converged(Map.of());
    rec.snapshot().check(EVERY_CHECKER).assertValid();
  }

  @Test
  void aClientsWriteThenDeleteAppliedOutOfOrderBreaksMonotonicWrites() {
    rec.begin("c1").delete("x").commitTime(20).ok();
    rec.begin("c1").write("x", "x2").commitTime(10).ok();
    converged(Map.of());
    Guarantees byCommitTime = EVERY_CHECKER.under(WriteOrder.byCommitTime());
    assertThat(rec.snapshot().check(byCommitTime).failedCheckers())
        .containsExactly("monotonicWrites");
  }

  @Test
  void readsAfterTheTransactionsOwnWriteAreNotSessionReads() {
    rec.begin("c2").write("x", "x1").ok();
    rec.begin("c1").read("x", "x1").write("x", "x2").read("x", "x2").ok();
    rec.begin("c1").read("x", "x2").ok();
    converged(Map.of("x", "x2"));
    rec.snapshot().check(EVERY_CHECKER).assertValid();
  }
}
