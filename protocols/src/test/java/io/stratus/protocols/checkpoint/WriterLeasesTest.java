package io.stratus.protocols.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.LockGrant;
import io.stratus.cloudapi.LockService;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.cloudapi.time.ManualClock;
import io.stratus.protocols.checkpoint.WriterLeases.State;
import io.stratus.protocols.log.WriterIds;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Writer leases against the lock service's restart rule: a restart drops every lease and refuses
 * every acquire for the longest configured timeout, after which a live writer's lease is free
 * until its next renewal. A probe in that moment must not take the writer for dead, and the
 * leases must not stretch the restart window beyond the checkpoint lock timeout.
 */
class WriterLeasesTest {
  private static final String DB = "db/leases";
  private static final Duration LOCK_TIMEOUT = Duration.ofSeconds(30);
  private static final String WRITER = "writer#abc-12345678";

  private final ManualClock clock = new ManualClock();

  private InProcessCloud cloud() {
    InProcessCloud cloud = InProcessCloud.builder().clock(clock).seed(1).build();
    // What the queue engine configures for its checkpoint locks.
    CloudFutures.await(cloud.services().locks().setTimeout(DB + "/pu/", LOCK_TIMEOUT));
    return cloud;
  }

  private WriterLeases leases(InProcessCloud cloud, String client) {
    return new WriterLeases(cloud.services().locks(), DB, client, clock, LOCK_TIMEOUT);
  }

  @Test
  void aProbeSeesTheLeaseAsItIsNow() {
    try (InProcessCloud cloud = cloud()) {
      WriterLeases writer = leases(cloud, "writer");
      WriterLeases prober = leases(cloud, "prober");
      String lane = WriterIds.of(WRITER, 0);
      writer.hold(WRITER);
      try {
        assertThat(prober.probe(lane)).isEqualTo(State.ALIVE);
        assertThat(writer.probe(lane)).as("its own").isEqualTo(State.ALIVE);

        cloud.restartLockService();
        assertThat(prober.probe(lane)).isEqualTo(State.UNKNOWN);
        writer.renewIfDue(); // refused: the service grants nothing in its restart window
        clock.advance(LOCK_TIMEOUT.multipliedBy(2));
        // The window has ended and the live writer's renewal has not come yet: free, which is
        // why one free probe never retires a chain (WriteChains counts a death time).
        assertThat(prober.probe(lane)).isEqualTo(State.FREE);
        writer.renewIfDue();
        assertThat(prober.probe(lane)).isEqualTo(State.ALIVE);
      } finally {
        writer.release();
      }
      assertThat(prober.probe(lane)).as("released at close").isEqualTo(State.FREE);
      assertThat(prober.deathTime())
          .isEqualTo(LOCK_TIMEOUT.multipliedBy(WriterLeases.DEATH_FACTOR));
    }
  }

  @Test
  void leasesKeepTheRestartWindowAtTheCheckpointLockTimeout() {
    try (InProcessCloud cloud = cloud()) {
      LockService locks = cloud.services().locks();
      WriterLeases writer = leases(cloud, "writer");
      writer.hold(WRITER);
      try {
        assertThat(writer.leaseTime()).isEqualTo(LOCK_TIMEOUT);
        Duration serviceDefault = CloudFutures.await(locks.timeoutFor("unconfigured/uri"));
        Duration longest =
            serviceDefault.compareTo(LOCK_TIMEOUT) > 0 ? serviceDefault : LOCK_TIMEOUT;
        cloud.restartLockService();
        clock.advance(longest.plusMillis(1));
        LockGrant g = CloudFutures.await(locks.acquireExclusive(DB + "/pu/p/page", "checkpoint"));
        assertThat(g.granted())
            .as("a checkpoint lock once the lock timeout (or the service default) has passed")
            .isTrue();
      } finally {
        writer.release();
      }
    }
  }
}
