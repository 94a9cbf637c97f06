package io.stratus.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Hand-built histories, one per anomaly: each must be caught by the checker meant for it and
 * accepted by the checkers whose guarantee it does not break, so a failing protocol test names
 * the right cause.
 */
class AnomalyHistoriesTest {
  private static final Guarantees EVERY_CHECKER = Guarantees.forProtocol("atomic");

  private final HistoryRecorder rec = new HistoryRecorder();

  /** Every client in {@code clients} ends with {@code view}. */
  private void converged(Map<String, String> view, String... clients) {
    for (String c : clients) {
      rec.finalState(c, view);
    }
  }

  private Set<String> failing(Guarantees g) {
    return rec.snapshot().check(g).failedCheckers();
  }

  @Test
  void lostUpdateOnASharedPageIsCaughtByCommittedWritesSurvive() {
    HistoryRecorder.Recording load = rec.begin("c0");
    load.write("x", "x0").write("y", "y0").ok();
    // Two clients change different records of one page; the naive protocol puts each whole copy,
    // so the later put (c2's, still holding x0) wins.
    rec.begin("c1").write("x", "x1").ok();
    rec.begin("c2").write("y", "y1").ok();
    converged(Map.of("x", "x0", "y", "y1"), "c0", "c1", "c2");

    CheckResult r = rec.snapshot().check(EVERY_CHECKER);
    // Atomicity also sees it: an OK transaction whose write is not visible is not all-or-nothing.
    assertThat(r.failedCheckers()).containsExactly("atomicity", "committedWritesSurvive");
    assertThat(r.anomalies())
        .filteredOn(a -> a.checker().equals("committedWritesSurvive"))
        .singleElement()
        .satisfies(
            a -> {
              assertThat(a.key()).isEqualTo("x");
              assertThat(a.txIds()).contains("c1-1");
              assertThat(a.message()).contains("x0", "lost update");
            });
    assertThat(failing(Guarantees.forProtocol("naive"))).isEmpty();
    assertThat(failing(Guarantees.forProtocol("basic"))).containsExactly("committedWritesSurvive");
    assertThatThrownBy(() -> r.assertValid())
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("lost update");
  }

  @Test
  void aLostDeleteAndAVanishedWriteAreLostUpdates() {
    rec.begin("c1").write("x", "x1").ok();
    rec.begin("c2").delete("x").ok();
    rec.begin("c1").write("y", "y1").ok();
    converged(Map.of("x", "x1"), "c1", "c2"); // x's delete lost, y's write lost

    CheckResult r = rec.snapshot().check(Checkers.committedWritesSurvive());
    assertThat(r.anomalies()).extracting(Anomaly::key).containsExactlyInAnyOrder("x", "y");
  }

  @Test
  void aFailedWriteThatBecomesVisibleIsCaught() {
    rec.begin("c1").write("x", "x1").ok();
    rec.begin("c2").write("x", "x2").failed();
    converged(Map.of("x", "x2"), "c1", "c2");

    CheckResult r = rec.snapshot().check(EVERY_CHECKER);
    assertThat(r.failedCheckers()).containsExactly("atomicity", "committedWritesSurvive");
    assertThat(r.toString()).contains("FAILED c2-1");
  }

  @Test
  void divergentClientsAreCaughtByConvergenceOnly() {
    rec.begin("c1").write("x", "x1").ok();
    rec.begin("c2").write("x", "x2").unknown();
    rec.finalState("c1", Map.of("x", "x2"));
    rec.finalState("c2", Map.of("x", "x1"));

    CheckResult r = rec.snapshot().check(EVERY_CHECKER);
    assertThat(r.failedCheckers()).containsExactly("convergence");
    assertThat(r.anomalies().get(0).message()).contains("c1=x2", "c2=x1");
  }

  @Test
  void aHalfAppliedUnknownTransactionBreaksAtomicityOnly() {
    rec.begin("c1").write("x", "x1").write("y", "y1").unknown();
    converged(Map.of("x", "x1"), "c1", "c2");

    assertThat(failing(EVERY_CHECKER)).containsExactly("atomicity");
    assertThat(failing(Guarantees.forProtocol("basic"))).isEmpty();
    assertThat(failing(Guarantees.forProtocol("monotonic"))).isEmpty();
    assertThat(rec.snapshot().check(Checkers.atomicity()).anomalies().get(0).message())
        .contains("half-applied", "[x] visible", "[y] not");
  }

  @Test
  void unknownTransactionsMayBeAppliedWhollyOrNotAtAll() {
    rec.begin("c1").write("x", "x1").write("y", "y1").unknown();
    rec.begin("c1").write("x", "x2").write("y", "y2").unknown();
    rec.begin("c1").delete("x").write("z", "z3").unknown();
    // The first applied, the second not, the third applied (x absent again).
    converged(Map.of("y", "y1", "z", "z3"), "c1", "c2");

    rec.snapshot().check(EVERY_CHECKER).assertValid();
  }

  @Test
  void aSupersededWriteCountsAsApplied() {
    rec.begin("c1").write("x", "x1").write("y", "y1").unknown();
    rec.begin("c2").write("x", "x2").ok();
    // x shows c2's later write, so whether c1-1 reached x cannot be told: y decides.
    converged(Map.of("x", "x2", "y", "y1"), "c1", "c2");
    rec.snapshot().check(EVERY_CHECKER).assertValid();
  }

  @Test
  void aStaleReadAfterAFresherOneBreaksMonotonicReadsOnly() {
    rec.begin("c0").write("x", "x1").ok();
    rec.begin("c0").write("x", "x2").ok();
    rec.begin("c1").read("x", "x2").ok();
    rec.begin("c1").read("x", "x1").ok();
    converged(Map.of("x", "x2"), "c0", "c1");

    CheckResult r = rec.snapshot().check(EVERY_CHECKER);
    assertThat(r.failedCheckers()).containsExactly("monotonicReads");
    assertThat(r.anomalies().get(0).txIds()).containsExactly("c1-1", "c1-2");
    assertThat(failing(Guarantees.forProtocol("basic"))).isEmpty();
  }

  @Test
  void readsInOverlappingTransactionsOfOneClientAreNotOrdered() {
    rec.begin("c0").write("x", "x1").ok();
    rec.begin("c0").write("x", "x2").ok();
    HistoryRecorder.Recording slow = rec.begin("c1");
    rec.begin("c1").read("x", "x2").ok();
    slow.read("x", "x1").ok(); // began before the fresher read: another thread of c1
    converged(Map.of("x", "x2"), "c0", "c1");
    rec.snapshot().check(EVERY_CHECKER).assertValid();
  }

  @Test
  void aClientNotSeeingItsOwnWriteBreaksReadYourWritesOnly() {
    rec.begin("c2").write("x", "x1").ok();
    rec.begin("c1").write("x", "x2").ok();
    rec.begin("c1").read("x", "x1").ok();
    rec.begin("c1").write("y", "y1").ok();
    rec.begin("c1").read("y", null).ok();
    converged(Map.of("x", "x2", "y", "y1"), "c1", "c2");

    CheckResult r = rec.snapshot().check(EVERY_CHECKER);
    assertThat(r.failedCheckers()).containsExactly("readYourWrites");
    assertThat(r.anomalies()).extracting(Anomaly::key).containsExactly("x", "y");
  }

  @Test
  void oneClientsWritesAppliedOutOfOrderBreakMonotonicWrites() {
    // c1's clock went back between its commits: by commit time its second write is older, so a
    // protocol applying in commit-time order keeps the first.
    rec.begin("c1").write("x", "x1").commitTime(20).ok();
    rec.begin("c1").write("x", "x2").commitTime(10).ok();
    converged(Map.of("x", "x1"), "c1", "c2");

    Guarantees byCommitTime = EVERY_CHECKER.under(WriteOrder.byCommitTime());
    CheckResult r = rec.snapshot().check(byCommitTime);
    assertThat(r.failedCheckers()).containsExactly("monotonicWrites");
    assertThat(r.anomalies().get(0).txIds()).containsExactly("c1-1", "c1-2");
    assertThat(failing(Guarantees.forProtocol("basic").under(WriteOrder.byCommitTime()))).isEmpty();
    // By completion order the second write is the latest, so durability fails as well.
    assertThat(failing(EVERY_CHECKER)).contains("monotonicWrites", "committedWritesSurvive");
  }

  @Test
  void aThirdWriteSupersedingBothIsFine() {
    rec.begin("c1").write("x", "x1").commitTime(20).ok();
    rec.begin("c1").write("x", "x2").commitTime(10).ok();
    rec.begin("c2").write("x", "x3").commitTime(30).ok();
    converged(Map.of("x", "x3"), "c1", "c2");
    rec.snapshot().check(EVERY_CHECKER.under(WriteOrder.byCommitTime())).assertValid();
  }

  @Test
  void aWriteOverwrittenByTheValueItWasBasedOnBreaksWritesFollowReads() {
    // c1's commit is in flight when c2 already reads its value and writes over it; c1's write
    // then takes effect after c2's (by completion order it is the latest), so c2's is lost.
    HistoryRecorder.Recording c1 = rec.begin("c1").write("x", "x1");
    rec.begin("c2").read("x", "x1").ok();
    rec.begin("c2").write("x", "x2").ok();
    c1.ok();
    converged(Map.of("x", "x1"), "c1", "c2");

    CheckResult r = rec.snapshot().check(EVERY_CHECKER);
    assertThat(r.failedCheckers()).containsExactly("writesFollowReads");
    assertThat(r.anomalies().get(0).txIds()).containsExactly("c2-1", "c2-2");
  }

  @Test
  void valuesNobodyWroteAreCaughtEvenForNaive() {
    HistoryRecorder.Recording t = rec.begin("c1").write("x", "x0").write("x", "x1");
    t.ok();
    HistoryRecorder.Recording reader = rec.begin("c2");
    reader.read("x", "x0"); // intermediate value of c1-1
    reader.read("x", "garbage");
    reader.read("y", "x1"); // c1-1 wrote x1 to x, not y
    reader.ok();
    HistoryRecorder.Recording early = rec.begin("c3");
    early.read("z", "z1").ok();
    rec.begin("c4").write("z", "z1").ok(); // began after c3-1's read had ended
    converged(Map.of("x", "x1", "z", "z1"), "c1", "c2", "c3", "c4");

    CheckResult r = rec.snapshot().check(Guarantees.forProtocol("naive"));
    assertThat(r.failedCheckers()).containsExactly("valuesWereWritten");
    assertThat(r.anomalies())
        .extracting(Anomaly::message)
        .anySatisfy(m -> assertThat(m).contains("intermediate"))
        .anySatisfy(m -> assertThat(m).contains("nobody wrote"))
        .anySatisfy(m -> assertThat(m).contains("written to key x"))
        .anySatisfy(m -> assertThat(m).contains("began after"));
  }

  @Test
  void anExplicitWriteOrderDecidesWhichWriteIsLatest() {
    HistoryRecorder.Recording a = rec.begin("c1").write("x", "x1");
    HistoryRecorder.Recording b = rec.begin("c2").write("x", "x2");
    b.ok();
    a.ok(); // overlapping commits: completion order says x1 is latest
    converged(Map.of("x", "x2"), "c1", "c2");
    History h = rec.snapshot();

    assertThat(h.check(Checkers.committedWritesSurvive()).valid()).isFalse();
    Checker durable = Checkers.committedWritesSurvive();
    assertThat(h.check(durable, WriteOrder.explicit(List.of("c1-1", "c2-1"))).valid()).isTrue();
    assertThatThrownBy(() -> h.check(durable, WriteOrder.explicit(List.of("c1-1"))))
        .hasMessageContaining("c2-1 is OK but missing");
    assertThatThrownBy(() -> h.check(Checkers.committedWritesSurvive(), WriteOrder.byCommitTime()))
        .hasMessageContaining("no commit time");
    assertThatThrownBy(() -> h.check(durable, history -> List.of()))
        .hasMessageContaining("unplaced");
  }

  @Test
  void finalStateCheckersNeedAFinalState() {
    rec.begin("c1").write("x", "x1").ok();
    assertThat(failing(EVERY_CHECKER))
        .containsExactly("atomicity", "committedWritesSurvive", "convergence");
    assertThat(failing(Guarantees.forProtocol("naive"))).isEmpty();
  }

  @Test
  void profilesNameTheirCheckers() {
    assertThat(Guarantees.forProtocol("naive").checkerNames()).containsExactly("valuesWereWritten");
    assertThat(Guarantees.forProtocol("basic").checkerNames())
        .containsExactly("valuesWereWritten", "committedWritesSurvive", "convergence");
    assertThat(Guarantees.forProtocol("monotonic").checkerNames())
        .containsExactly(
            "valuesWereWritten",
            "committedWritesSurvive",
            "convergence",
            "monotonicReads",
            "readYourWrites",
            "monotonicWrites",
            "writesFollowReads");
    assertThat(Guarantees.forProtocol("atomic").checkerNames())
        .endsWith("writesFollowReads", "atomicity")
        .hasSize(8);
    assertThat(Guarantees.of(Checkers.convergence()).with(Checkers.atomicity()).checkerNames())
        .containsExactly("convergence", "atomicity");
    assertThatThrownBy(() -> Guarantees.forProtocol("strict"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aCustomCheckerJoinsAProfile() {
    Checker noKeyY =
        Checker.named(
            "noKeyY",
            (h, o) ->
                new CheckResult(
                    List.of("noKeyY"),
                    h.keys().contains("y")
                        ? List.of(new Anomaly("noKeyY", "y", List.of(), "y used"))
                        : List.of()));
    rec.begin("c1").write("y", "y1").ok();
    Map<String, String> view = new HashMap<>();
    view.put("y", "y1");
    converged(view, "c1");
    assertThat(failing(Guarantees.forProtocol("basic").with(noKeyY))).containsExactly("noKeyY");
  }
}
