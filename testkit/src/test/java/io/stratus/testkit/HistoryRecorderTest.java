package io.stratus.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class HistoryRecorderTest {
  private static final int THREADS = 8;
  private static final int TXNS_PER_THREAD = 250;

  @Test
  void manyThreadsRecordAtOnceWithStrictlyIncreasingSequenceNumbers() throws Exception {
    HistoryRecorder rec = new HistoryRecorder();
    CyclicBarrier start = new CyclicBarrier(THREADS);
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int th = 0; th < THREADS; th++) {
        String client = "c" + th;
        done.add(
            pool.submit(
                () -> {
                  start.await();
                  for (int i = 0; i < TXNS_PER_THREAD; i++) {
                    HistoryRecorder.Recording t = rec.begin(client);
                    t.read("shared", null).write("k" + i, client + "/" + i);
                    if (i % 3 == 0) {
                      t.ok();
                    } else if (i % 3 == 1) {
                      t.failed();
                    } else {
                      t.unknown();
                    }
                  }
                  return null;
                }));
      }
      for (Future<?> f : done) {
        f.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }

    History h = rec.snapshot();
    assertThat(h.transactions()).hasSize(THREADS * TXNS_PER_THREAD);
    Set<Long> seqs = new HashSet<>();
    Map<String, Long> lastByClient = new HashMap<>();
    for (Txn t : h.transactions()) {
      assertThat(t.completedAt()).isGreaterThan(t.invokedAt());
      seqs.add(t.invokedAt());
      seqs.add(t.completedAt());
      // One thread per client: its transactions follow each other in real time.
      Long last = lastByClient.put(t.clientId(), t.completedAt());
      if (last != null) {
        assertThat(t.invokedAt()).isGreaterThan(last);
      }
      assertThat(t.ops()).hasSize(2);
    }
    assertThat(seqs).hasSize(2 * THREADS * TXNS_PER_THREAD);
    assertThat(h.transactions()).extracting(Txn::invokedAt).isSorted();
  }

  @Test
  void aWriteValueIsAcceptedOnceEvenUnderContention() throws Exception {
    HistoryRecorder rec = new HistoryRecorder();
    CyclicBarrier start = new CyclicBarrier(THREADS);
    AtomicInteger accepted = new AtomicInteger();
    AtomicInteger rejected = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int th = 0; th < THREADS; th++) {
        String client = "c" + th;
        done.add(
            pool.submit(
                () -> {
                  HistoryRecorder.Recording t = rec.begin(client);
                  start.await();
                  try {
                    t.write("k", "same");
                    accepted.incrementAndGet();
                  } catch (IllegalArgumentException e) {
                    rejected.incrementAndGet();
                  }
                  t.ok();
                  return null;
                }));
      }
      for (Future<?> f : done) {
        f.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(accepted).hasValue(1);
    assertThat(rejected).hasValue(THREADS - 1);
    assertThat(rec.snapshot().transactions().stream().mapToLong(t -> t.ops().size()).sum())
        .isEqualTo(1);
  }

  @Test
  void duplicateValuesAreRejectedAlsoWithinOneTransactionAndAcrossKeys() {
    HistoryRecorder rec = new HistoryRecorder();
    HistoryRecorder.Recording t = rec.begin("c1").write("x", "v");
    assertThatThrownBy(() -> t.write("x", "v")).hasMessageContaining("already written by c1-1");
    assertThatThrownBy(() -> rec.begin("c2").write("y", "v"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aCompletedTransactionTakesNoMoreOperations() {
    HistoryRecorder rec = new HistoryRecorder();
    HistoryRecorder.Recording t = rec.begin("c1");
    t.ok();
    assertThatThrownBy(() -> t.read("x", null)).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(t::failed).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> rec.begin("c9", "c1-1")).hasMessageContaining("duplicate");
  }

  @Test
  void aTransactionStillOpenAtTheSnapshotIsUnknown() {
    HistoryRecorder rec = new HistoryRecorder();
    rec.begin("c1", "crashed").write("x", "x1").commitTime(5);
    rec.begin("c1").ok();
    Txn crashed = rec.snapshot().transaction("crashed");
    assertThat(crashed.outcome()).isEqualTo(Outcome.UNKNOWN);
    assertThat(crashed.commitTime()).isEqualTo(OptionalLong.of(5));
    assertThat(crashed.completedAt())
        .isGreaterThan(rec.snapshot().transaction("c1-1").completedAt());
  }

  @Test
  void generatedIdsSkipIdsTakenExplicitly() {
    HistoryRecorder rec = new HistoryRecorder();
    rec.begin("c1", "c1-1").ok();
    assertThat(rec.begin("c1").txId()).isEqualTo("c1-2");
  }

  @Test
  void handBuiltHistoriesAreValidatedToo() {
    OptionalLong none = OptionalLong.empty();
    Txn a = new Txn("c1", "t1", 1, 2, List.of(Op.write("x", "v")), Outcome.OK, none);
    Txn b = new Txn("c2", "t2", 3, 4, List.of(Op.write("y", "v")), Outcome.OK, none);
    assertThatThrownBy(() -> History.of(List.of(a, b), Map.of())).hasMessageContaining("'v'");
    assertThatThrownBy(() -> History.of(List.of(a, a), Map.of())).hasMessageContaining("duplicate");
    assertThatThrownBy(() -> new Txn("c1", "t3", 5, 5, List.of(), Outcome.OK, none))
        .isInstanceOf(IllegalArgumentException.class);
    History h = History.of(List.of(a), Map.of("c1", Map.of("x", "v")));
    assertThat(h.keys()).containsExactly("x");
    assertThat(h.check(Guarantees.forProtocol("atomic")).valid()).isTrue();
    assertThat(h.toString()).contains("t1", "w(x)=v", "final c1");
  }
}
