package io.stratus.core;

import static io.stratus.core.BasicProtocolTest.load;
import static io.stratus.core.BasicProtocolTest.read;
import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.decorate.FaultInterceptor;
import io.stratus.cloudapi.decorate.FaultPlan;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.protocols.ProtocolKind;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A propagation to the PU queues that fails leaves its commits pending in the writer, which sends
 * them with its next propagation: their records are numbered in the writer's chains, and records
 * missing from a chain hold every later record of it back. Until then nothing else may be counted
 * on: here the ATOMIC queue's lock is held by another pass the whole time, so no clean-up or
 * recovery pass can propagate them instead.
 */
@ExtendWith(SeedExtension.class)
class AtomicPropagationFailureTest {
  @Test
  void aFailedPropagationIsSentWithTheNextOne(@Seed long seed) {
    for (ProtocolKind kind : List.of(ProtocolKind.ATOMIC, ProtocolKind.ADVANCED_ATOMIC)) {
      try (Fixture f = new Fixture(seed)) {
        Failed failed = commitWhosePropagationFails(f, kind, seed);
        BasicProtocolTest.update(failed.writer(), 20, "second");
        failed.executor().runAll();
        Database fresh = settledReader(f, kind, failed.executor());
        assertThat(read(fresh, 10))
            .as("%s: the commit whose propagation failed", kind)
            .isEqualTo("first");
        assertThat(read(fresh, 20)).as("%s: the commit after it", kind).isEqualTo("second");
      }
    }
  }

  /**
   * A handle that commits nothing after its propagation failed sends it again at its next sweep
   * (here driven by a read of its own, as the manual executor hands background timing to the
   * test), without waiting for a commit, a flush or a close.
   */
  @Test
  void anIdleHandleSendsAFailedPropagationAgainAtItsNextSweep(@Seed long seed) {
    for (ProtocolKind kind : List.of(ProtocolKind.ATOMIC, ProtocolKind.ADVANCED_ATOMIC)) {
      try (Fixture f = new Fixture(seed)) {
        Failed failed = commitWhosePropagationFails(f, kind, seed);
        f.clock.advance(Duration.ofMinutes(1)); // past the checkpoint interval
        holdPasses(f); // the holder's leases lapsed with that minute: it takes them again
        read(failed.writer(), 30); // a read of its own sweeps
        failed.executor().runAll();
        Database fresh = settledReader(f, kind, failed.executor());
        assertThat(read(fresh, 10))
            .as("%s: sent again by the idle handle", kind)
            .isEqualTo("first");
      }
    }
  }

  /** A writer, its executor, after a commit whose propagation failed every attempt. */
  private record Failed(Database writer, ManualExecutor executor) {}

  /**
   * Loads a database, then has writer "a" commit key 10 = "first" while its sends to the PU queues
   * are refused, with every pass over its log held off ({@link #holdPasses}); the faults end after.
   */
  private static Failed commitWhosePropagationFails(Fixture f, ProtocolKind kind, long seed) {
    ManualExecutor ex = new ManualExecutor();
    load(f.open(f.config().protocol(kind).clientId("setup").checkpointExecutor(ex)), 50);
    FaultPlan refusePuSends =
        FaultPlan.builder()
            .fail(
                FaultPlan.Selector.operations(Operation.QUEUE_SEND_BATCH)
                    .withTargetPrefix(Fixture.DB + "/pu/"),
                1.0)
            .build();
    SwitchedFaults faults = new SwitchedFaults(new FaultInterceptor(refusePuSends, seed, f.clock));
    Database a = f.open(f.config(faults).protocol(kind).clientId("a").checkpointExecutor(ex));
    holdPasses(f);
    faults.switchTo(true);
    BasicProtocolTest.update(a, 10, "first");
    ex.runAll(); // the propagation fails, every attempt
    assertThat(faults.injected()).as("%s: propagation refused", kind).isPositive();
    faults.switchTo(false);
    return new Failed(a, ex);
  }

  /** A reader's checkpointAll (its recovery held off), then a fresh handle past the TTL. */
  private static Database settledReader(Fixture f, ProtocolKind kind, ManualExecutor ex) {
    f.open(f.config().protocol(kind).clientId("r").checkpointExecutor(ex)).admin().checkpointAll();
    f.clock.advance(Fixture.TTL.plusSeconds(1));
    return f.open(f.config().protocol(kind).clientId("f").checkpointExecutor(ex));
  }

  /** Every pass over a's ATOMIC log (and every advanced recovery) waits for another holder. */
  private static void holdPasses(Fixture f) {
    for (String lock : List.of(Fixture.DB + "/atomic/a", Fixture.DB + "/aatomic/commit")) {
      assertThat(CloudFutures.await(f.services().locks().acquireExclusive(lock, "another-pass")))
          .satisfies(g -> assertThat(g.granted()).as("%s held", lock).isTrue());
    }
  }
}
