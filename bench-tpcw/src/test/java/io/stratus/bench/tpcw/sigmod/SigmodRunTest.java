package io.stratus.bench.tpcw.sigmod;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.withinPercentage;

import io.stratus.bench.tpcw.bookstore.ComplexOrder;
import io.stratus.bench.tpcw.bookstore.Scale;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.decorate.PriceTable;
import io.stratus.cloudapi.decorate.PriceTables;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.protocols.ProtocolKind;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Runs of the complex transaction in simulated time (one thread, a manual clock, nothing waits):
 * every committed update is applied by the end, every call is charged to the transactions or to
 * the background, and longer checkpoint intervals make checkpoints cheaper per transaction.
 */
@ExtendWith(SeedExtension.class)
class SigmodRunTest {
  private static final Scale TINY = new Scale(100, 1, 30);

  private static SigmodRun.Spec simulated(
      ProtocolKind protocol,
      String profile,
      int clients,
      int transactions,
      Duration interval,
      long seed) {
    return new SigmodRun.Spec(
        protocol,
        SigmodRun.Mode.SIMULATED,
        profile,
        clients,
        2,
        transactions,
        interval,
        TINY,
        8192,
        Duration.ofSeconds(100),
        1,
        Duration.ofSeconds(1),
        seed);
  }

  /**
   * After the drain no pending-update or ATOMIC queue holds a message, and the transactions'
   * meter and the background meter together saw every call of the measured phase, so their
   * costs add up to the whole under either price table.
   */
  @ParameterizedTest
  @EnumSource(
      value = ProtocolKind.class,
      names = {"NAIVE", "BASIC", "MONOTONIC", "ATOMIC", "ADVANCED_ATOMIC"})
  void theDrainLeavesNothingPendingAndEveryCallIsChargedOnce(
      ProtocolKind protocol, @Seed long seed) {
    SigmodRun.Result r =
        new SigmodRun(simulated(protocol, "eu", 2, 15, Duration.ofSeconds(5), seed)).run();

    assertThat(r.committed()).isEqualTo(30);
    assertThat(r.failed()).isZero();
    assertThat(r.recordsRead()).isEqualTo(30L * ComplexOrder.RECORDS_READ);
    assertThat(r.recordsWritten()).isEqualTo(30L * ComplexOrder.RECORDS_WRITTEN);
    assertThat(r.pendingMessages()).isZero();
    assertThat(r.conserved()).isTrue();
    for (PriceTable prices : new PriceTable[] {SigmodPrices.paper001(), PriceTables.aws2026()}) {
      assertThat(r.transactions().cost(prices).add(r.background().cost(prices)))
          .isEqualByComparingTo(r.all().cost(prices));
    }
    if (protocol == ProtocolKind.NAIVE) {
      assertThat(r.background().requests()).isZero(); // no checkpoints: all cost is the commits'
      assertThat(
              r.transactions().stats(Operation.STORAGE_PUT).calls()
                  + r.transactions().stats(Operation.STORAGE_PUT_IF_VERSION).calls())
          .isPositive();
    } else {
      assertThat(r.checkpoints()).isPositive();
      assertThat(r.background().stats(Operation.LOCK_ACQUIRE_EXCLUSIVE).calls()).isPositive();
      assertThat(
              r.transactions().stats(Operation.STORAGE_PUT).calls()
                  + r.transactions().stats(Operation.STORAGE_PUT_IF_VERSION).calls())
          .isZero();
    }
  }

  /** The atomic protocol's propagation to the pending-update queues is queue work. */
  @Test
  void atomicCommitsSendOneMessageAndPropagationIsBackground(@Seed long seed) {
    SigmodRun.Result r =
        new SigmodRun(simulated(ProtocolKind.ATOMIC, "eu", 1, 20, Duration.ofSeconds(5), seed))
            .run();

    assertThat(SigmodBenchmark.sends(r.transactions())).isEqualTo(r.committed());
    assertThat(SigmodBenchmark.sends(r.background())).isGreaterThan(r.committed());
  }

  /** The one-by-one time adds at least the profile's 310 ms for every SQS send of a commit. */
  @Test
  void oneByOneTimeCountsEveryCallsLatency(@Seed long seed) {
    SigmodRun.Result r =
        new SigmodRun(simulated(ProtocolKind.BASIC, "eu", 1, 10, Duration.ofSeconds(5), seed))
            .run();

    long sends = SigmodBenchmark.sends(r.transactions());
    assertThat(sends).isGreaterThanOrEqualTo(r.committed());
    assertThat(r.serialNanos()).isGreaterThanOrEqualTo(sends * 310_000_000L);
    assertThat(r.averageSeconds()).isEqualTo(1.0); // simulated: the spacing
  }

  /** Paper 001 Figure 3: the longer the interval, the less the checkpoints cost per transaction. */
  @Test
  void longerCheckpointIntervalsMakeCheckpointsCheaper(@Seed long seed) {
    SigmodRun.Result often =
        new SigmodRun(simulated(ProtocolKind.BASIC, "eu", 1, 60, Duration.ofSeconds(1), seed))
            .run();
    SigmodRun.Result seldom =
        new SigmodRun(simulated(ProtocolKind.BASIC, "eu", 1, 60, Duration.ofSeconds(30), seed))
            .run();

    assertThat(seldom.checkpoints()).isLessThan(often.checkpoints());
    PriceTable prices = SigmodPrices.paper001();
    assertThat(seldom.perThousand(seldom.background(), prices))
        .isLessThan(often.perThousand(often.background(), prices));
    // The transactions' own work barely depends on the interval: within 1 % in requests and
    // cost. (Exact equality held while the checkpoint times were page fields; with the times in
    // the protocol state a run differs by a few requests in about 640, e.g. at seed
    // -2869362200512050356; docs/reliability.md lists this as an open finding.)
    assertThat((double) seldom.transactions().requests())
        .isCloseTo((double) often.transactions().requests(), withinPercentage(1));
    assertThat(seldom.perThousand(seldom.transactions(), prices).doubleValue())
        .isCloseTo(
            often.perThousand(often.transactions(), prices).doubleValue(), withinPercentage(1));
  }

  /** A simulated run replays exactly from its seed: the sweep's points are reproducible. */
  @Test
  void aSimulatedRunRepeatsFromItsSeed(@Seed long seed) {
    SigmodRun.Spec spec = simulated(ProtocolKind.BASIC, "eu", 2, 10, Duration.ofSeconds(3), seed);
    SigmodRun.Result a = new SigmodRun(spec).run();
    SigmodRun.Result b = new SigmodRun(spec).run();

    assertThat(b.all()).isEqualTo(a.all());
    assertThat(b.transactions()).isEqualTo(a.transactions());
    assertThat(b.checkpoints()).isEqualTo(a.checkpoints());
  }

  /**
   * A timed run with clients on threads: no latency (the none profile), so nothing waits; the
   * same conservation holds with background checkpoints on their own threads.
   */
  @Test
  void aTimedRunOnThreadsDrainsAndConservesToo(@Seed long seed) {
    SigmodRun.Spec spec =
        new SigmodRun.Spec(
            ProtocolKind.MONOTONIC,
            SigmodRun.Mode.TIMED,
            "none",
            3,
            1,
            8,
            Duration.ofMillis(1),
            TINY,
            8192,
            Duration.ofSeconds(100),
            1,
            Duration.ZERO,
            seed);
    SigmodRun.Result r = new SigmodRun(spec).run();

    assertThat(r.committed()).isEqualTo(24);
    assertThat(r.pendingMessages()).isZero();
    assertThat(r.conserved()).isTrue();
    assertThat(r.maxSeconds()).isGreaterThanOrEqualTo(r.averageSeconds());
  }
}
