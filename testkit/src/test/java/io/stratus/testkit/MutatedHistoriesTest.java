package io.stratus.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Valid generated histories with one anomaly planted: the checker for it must notice, however
 * much else is going on around it.
 */
class MutatedHistoriesTest {

  /** The OK writes of {@code key} (values), in completion order. */
  private static List<String> okWrites(History h, String key) {
    List<String> values = new ArrayList<>();
    h.transactions().stream()
        .filter(t -> t.outcome() == Outcome.OK)
        .sorted((a, b) -> Long.compare(a.completedAt(), b.completedAt()))
        .forEach(
            t -> {
              if (t.effectiveWrites().get(key) instanceof Op.Write w) {
                values.add(w.value());
              }
            });
    return values;
  }

  private static long lastSeq(History h) {
    return h.transactions().stream().mapToLong(Txn::completedAt).max().orElse(0);
  }

  @ParameterizedTest
  @ValueSource(longs = {11, 12, 13})
  void rollingOneKeyBackToAnOlderCommittedValueIsALostUpdate(long seed) {
    History valid = ValidHistoriesTest.serialHistory(new Random(seed), 300);
    String key = "k0";
    List<String> writes = okWrites(valid, key);
    Map<String, Map<String, String>> finals = new HashMap<>();
    valid
        .finalStates()
        .forEach(
            (c, v) -> {
              Map<String, String> view = new HashMap<>(v);
              view.put(key, writes.get(0)); // the first OK write: many OK writes since
              finals.put(c, view);
            });
    History mutated = History.of(valid.transactions(), finals);
    assertThat(mutated.check(Guarantees.forProtocol("basic")).failedCheckers())
        .containsExactly("committedWritesSurvive");
  }

  @ParameterizedTest
  @ValueSource(longs = {21, 22, 23})
  void aStaleReadAppendedToAClientsSessionBreaksMonotonicReads(long seed) {
    History valid = ValidHistoriesTest.serialHistory(new Random(seed), 300);
    String key = "k1";
    List<String> writes = okWrites(valid, key);
    long seq = lastSeq(valid);
    List<Txn> txns = new ArrayList<>(valid.transactions());
    // A fresh client reads the newest OK write, then the oldest one.
    txns.add(
        new Txn(
            "reader",
            "r1",
            seq + 1,
            seq + 2,
            List.of(Op.read(key, writes.get(writes.size() - 1))),
            Outcome.OK,
            OptionalLong.of(seq)));
    txns.add(
        new Txn(
            "reader",
            "r2",
            seq + 3,
            seq + 4,
            List.of(Op.read(key, writes.get(0))),
            Outcome.OK,
            OptionalLong.of(seq + 1)));
    History mutated = History.of(txns, valid.finalStates());
    CheckResult r = mutated.check(Guarantees.forProtocol("monotonic"));
    assertThat(r.failedCheckers()).containsExactly("monotonicReads");
    assertThat(r.anomalies())
        .singleElement()
        .satisfies(a -> assertThat(a.txIds()).containsExactly("r1", "r2"));
  }
}
