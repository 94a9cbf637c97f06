package io.stratus.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.testkit.ListAppendHistory.Status;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Each anomaly class on a minimal list-append history, and long serial histories that pass. */
class ListAppendHistoryTest {

  private static ListAppendHistory.Transaction t(
      String id, Map<String, List<String>> reads, Map<String, String> appends) {
    return new ListAppendHistory.Transaction(id, reads, appends, Status.COMMITTED);
  }

  @Test
  void aLostUpdateIsFound() {
    ListAppendHistory h = new ListAppendHistory();
    h.add(t("T1", Map.of("x", List.of()), Map.of("x", "1")));
    h.add(t("T2", Map.of("x", List.of()), Map.of("x", "2")));
    assertThat(h.check(Map.of("x", List.of("2"))).kinds()).contains("lost update");
  }

  @Test
  void writeCyclesAreG0() {
    ListAppendHistory h = new ListAppendHistory();
    h.add(t("T1", Map.of(), Map.of("x", "1", "y", "4")));
    h.add(t("T2", Map.of(), Map.of("x", "2", "y", "3")));
    assertThat(h.check(Map.of("x", List.of("1", "2"), "y", List.of("3", "4"))).kinds())
        .containsExactly("G0");
  }

  @Test
  void circularInformationFlowIsG1c() {
    ListAppendHistory h = new ListAppendHistory();
    h.add(t("T1", Map.of("y", List.of("2")), Map.of("x", "1")));
    h.add(t("T2", Map.of("x", List.of("1")), Map.of("y", "2")));
    assertThat(h.check(Map.of("x", List.of("1"), "y", List.of("2"))).kinds())
        .containsExactly("G1c");
  }

  @Test
  void readSkewIsGSingle() {
    ListAppendHistory h = new ListAppendHistory();
    h.add(t("T0", Map.of(), Map.of("x", "0", "y", "9")));
    // T1 reads x before T2's append and y after it: one anti-dependency in the cycle.
    h.add(t("T1", Map.of("x", List.of("0"), "y", List.of("9", "8")), Map.of()));
    h.add(t("T2", Map.of(), Map.of("x", "1", "y", "8")));
    assertThat(h.check(Map.of("x", List.of("0", "1"), "y", List.of("9", "8"))).kinds())
        .containsExactly("G-single");
  }

  @Test
  void writeSkewIsG2AndNothingElse() {
    ListAppendHistory h = new ListAppendHistory();
    h.add(t("T1", Map.of("x", List.of(), "y", List.of()), Map.of("x", "1")));
    h.add(t("T2", Map.of("x", List.of(), "y", List.of()), Map.of("y", "2")));
    assertThat(h.check(Map.of("x", List.of("1"), "y", List.of("2"))).kinds()).containsExactly("G2");
  }

  @Test
  void abortedReadsAndNonPrefixReadsAreFound() {
    ListAppendHistory h = new ListAppendHistory();
    h.add(new ListAppendHistory.Transaction("A", Map.of(), Map.of("x", "1"), Status.ABORTED));
    h.add(t("T", Map.of("x", List.of("1")), Map.of()));
    h.add(t("U", Map.of("y", List.of("7")), Map.of("y", "8")));
    h.add(t("V", Map.of(), Map.of("y", "7")));
    ListAppendHistory.Result r = h.check(Map.of("x", List.of(), "y", List.of("8", "7")));
    assertThat(r.kinds()).contains("G1a", "incompatible order");
  }

  @Test
  void serialHistoriesPassAndAMutationIsCaught() {
    long seed = new Random().nextLong();
    Random r = new Random(seed);
    ListAppendHistory h = new ListAppendHistory();
    Map<String, List<String>> state = new HashMap<>();
    for (int i = 0; i < 3000; i++) {
      Map<String, List<String>> reads = new HashMap<>();
      Map<String, String> appends = new HashMap<>();
      for (int k = 0; k < 3; k++) {
        String key = "k" + r.nextInt(20);
        reads.put(key, List.copyOf(state.getOrDefault(key, List.of())));
        if (r.nextBoolean() && !appends.containsKey(key)) {
          appends.put(key, "e" + i + "-" + k);
        }
      }
      appends.forEach((k, e) -> state.computeIfAbsent(k, x -> new ArrayList<>()).add(e));
      h.add(t("T" + i, reads, appends));
    }
    assertThat(h.check(state).anomalies()).as("seed " + seed).isEmpty();
    // A transaction reading an old version of a key it does not write, and writing a key read by
    // a later reader of that old version... simplest: a write lost from the final state.
    Map<String, List<String>> mutated = new HashMap<>(state);
    String key = mutated.keySet().iterator().next();
    List<String> shorter = new ArrayList<>(mutated.get(key));
    shorter.remove(shorter.size() - 1);
    mutated.put(key, shorter);
    assertThat(h.check(mutated).kinds()).as("seed " + seed).isNotEmpty();
  }
}
