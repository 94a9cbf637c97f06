package io.stratus.core.contract;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.core.Database;
import io.stratus.core.ListAppendWorkload;
import io.stratus.core.RetryPolicy;
import io.stratus.protocols.Guarantee;
import io.stratus.protocols.ProtocolKind;
import io.stratus.testkit.ListAppendHistory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The contract's isolation check: four threads on two handles run the list-append workload
 * ({@link ListAppendWorkload}) over five hot lists; after quiescence the recorded history is
 * checked for Adya's anomalies ({@link ListAppendHistory}), and what a protocol declares decides
 * what must be absent: {@link Guarantee#SERIALIZABLE} — every anomaly; {@link
 * Guarantee#SNAPSHOT_ISOLATION} — every one but write skew (G2); {@link Guarantee#ATOMIC} — reads
 * of aborted writes (G1a). Protocols that promise none of these are run and checked too, and
 * nothing is asserted of their anomalies.
 */
final class IsolationContract {
  private static final int KEYS = 5;
  private static final int THREADS = 4;
  private static final int TRANSACTIONS = 15;

  private IsolationContract() {}

  static void check(ProtocolKind kind, long seed) throws Exception {
    check(kind, seed, null);
  }

  /** {@link #check(ProtocolKind, long)} on {@code real} services (in-process when null). */
  static void check(ProtocolKind kind, long seed, RealServices real) throws Exception {
    ListAppendHistory history = new ListAppendHistory();
    ListAppendWorkload workload = new ListAppendWorkload("lists", KEYS);
    ListAppendHistory.Result result;
    try (ContractCloud c =
        real == null ? new ContractCloud(kind, seed) : new ContractCloud(kind, seed, real)) {
      List<Database> handles = List.of(c.open("a"), c.open("b"));
      workload.load(handles.get(0));
      RetryPolicy retries =
          RetryPolicy.builder()
              .maxAttempts(200)
              .initialBackoff(Duration.ofMillis(1))
              .maxBackoff(Duration.ofMillis(5))
              .seed(seed)
              .build();
      ExecutorService pool = Executors.newFixedThreadPool(THREADS);
      try {
        List<Future<?>> work = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
          int thread = t;
          Database db = handles.get(t % 2);
          SplittableRandom r = new SplittableRandom(seed + 31L * t);
          work.add(
              pool.submit(
                  () -> {
                    for (int i = 0; i < TRANSACTIONS; i++) {
                      workload.transact(db, retries, history, r, "t" + thread + "." + i);
                    }
                    return null;
                  }));
        }
        for (Future<?> w : work) {
          w.get(2, TimeUnit.MINUTES);
        }
      } finally {
        pool.shutdownNow();
      }
      c.settle(handles.get(0));
      c.settle(handles.get(1));
      result = history.check(workload.lists(c.open("verifier")));
    }
    System.out.println(
        "[contract] "
            + kind
            + " isolation: "
            + history.transactions().size()
            + " attempts, anomalies "
            + result.kinds());
    assertThat(history.transactions()).as("a history was recorded").isNotEmpty();
    if (kind.guarantees(Guarantee.SERIALIZABLE)) {
      assertThat(result.anomalies()).as("seed %d: serializable", seed).isEmpty();
    } else if (kind.guarantees(Guarantee.SNAPSHOT_ISOLATION)) {
      assertThat(result.beyond(Set.of("G2"))).as("seed %d: snapshot isolation", seed).isEmpty();
    } else if (kind.guarantees(Guarantee.ATOMIC)) {
      assertThat(result.kinds()).as("seed %d: no aborted read", seed).doesNotContain("G1a");
    }
  }
}
