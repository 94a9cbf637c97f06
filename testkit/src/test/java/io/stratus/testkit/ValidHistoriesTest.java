package io.stratus.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Histories no protocol may be blamed for must pass every profile: a checker that cries wolf
 * would make protocol tests useless. The generated ones come from a serial, strictly consistent
 * store, which gives every guarantee at once.
 */
class ValidHistoriesTest {
  private static final List<String> PROTOCOLS = List.of("naive", "basic", "monotonic", "atomic");

  @Test
  void aSmallHandBuiltHistoryPassesEveryProfile() {
    HistoryRecorder rec = new HistoryRecorder();
    rec.begin("c1").read("x", null).write("x", "x1").write("y", "y1").ok();
    rec.begin("c2").read("x", "x1").write("x", "x2").ok();
    rec.begin("c1").read("x", "x2").read("y", "y1").delete("y").read("y", null).ok();
    rec.begin("c2").write("y", "y-failed").failed();
    rec.begin("c2").read("y", null).write("z", "z1").unknown(); // applied
    rec.begin("c1").write("z", "z-lost").write("x", "x-lost").unknown(); // not applied
    rec.begin("c1").read("z", "z1").ok();
    Map<String, String> view = Map.of("x", "x2", "z", "z1");
    rec.finalState("c1", view);
    rec.finalState("c2", view);

    History h = rec.snapshot();
    for (String p : PROTOCOLS) {
      assertThat(h.check(Guarantees.forProtocol(p)).valid()).as(p).isTrue();
    }
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4, 5})
  void serialExecutionsOfAStrictStorePassEveryProfile(long seed) {
    History h = serialHistory(new Random(seed), 400);
    for (String p : PROTOCOLS) {
      CheckResult r = h.check(Guarantees.forProtocol(p));
      assertThat(r.valid()).as("%s: %s", p, r).isTrue();
    }
    CheckResult byCommitTime =
        h.check(Guarantees.forProtocol("atomic").under(WriteOrder.byCommitTime()));
    assertThat(byCommitTime.valid()).as("%s", byCommitTime).isTrue();
  }

  /**
   * Clients take turns against one map: each transaction reads and writes a few of five keys, then
   * commits (OK), fails (nothing applied) or ends UNKNOWN (applied wholly or not at all).
   */
  static History serialHistory(Random rnd, int txns) {
    HistoryRecorder rec = new HistoryRecorder();
    Map<String, String> store = new HashMap<>();
    int nextValue = 0;
    for (int i = 0; i < txns; i++) {
      String client = "c" + rnd.nextInt(4);
      HistoryRecorder.Recording t = rec.begin(client);
      Map<String, String> own = new HashMap<>(store);
      int ops = 1 + rnd.nextInt(4);
      for (int j = 0; j < ops; j++) {
        String key = "k" + rnd.nextInt(5);
        switch (rnd.nextInt(3)) {
          case 0 -> t.read(key, own.get(key));
          case 1 -> {
            String v = key + "=" + nextValue++;
            t.write(key, v);
            own.put(key, v);
          }
          default -> {
            t.delete(key);
            own.remove(key);
          }
        }
      }
      t.commitTime(i);
      int outcome = rnd.nextInt(10);
      if (outcome < 7) {
        store = own;
        t.ok();
      } else if (outcome < 8) {
        t.failed();
      } else {
        if (rnd.nextBoolean()) {
          store = own;
        }
        t.unknown();
      }
    }
    for (int c = 0; c < 4; c++) {
      rec.finalState("c" + c, store);
    }
    return rec.snapshot();
  }

  @Test
  void aSimulatedNaiveProtocolLosesUpdatesThatOnlyBasicDetects() {
    // Every client reads the whole page (keys a..d), changes one record and puts its whole copy
    // back; puts of overlapping transactions overwrite each other's records.
    HistoryRecorder rec = new HistoryRecorder();
    Map<String, String> page = new HashMap<>();
    Random rnd = new Random(7);
    int value = 0;
    for (int round = 0; round < 20; round++) {
      List<HistoryRecorder.Recording> open = new ArrayList<>();
      List<Map<String, String>> copies = new ArrayList<>();
      for (int c = 0; c < 3; c++) {
        HistoryRecorder.Recording t = rec.begin("c" + c);
        Map<String, String> copy = new HashMap<>(page);
        String key = String.valueOf((char) ('a' + rnd.nextInt(4)));
        String v = key + value++;
        t.write(key, v);
        copy.put(key, v);
        open.add(t);
        copies.add(copy);
      }
      for (int c = 0; c < 3; c++) {
        page = copies.get(c); // the last put wins
        open.get(c).ok();
      }
    }
    for (int c = 0; c < 3; c++) {
      rec.finalState("c" + c, page);
    }
    History h = rec.snapshot();
    h.check(Guarantees.forProtocol("naive")).assertValid();
    assertThat(h.check(Guarantees.forProtocol("basic")).failedCheckers())
        .containsExactly("committedWritesSurvive");
  }
}
