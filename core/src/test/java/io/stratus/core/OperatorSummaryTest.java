package io.stratus.core;

import static io.stratus.core.BasicProtocolTest.load;
import static io.stratus.core.BasicProtocolTest.update;
import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.CheckpointSummary;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.protocols.ProtocolKind;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An operator's flush says what it could not finish instead of "nothing left": records it saw but
 * had to leave queued (after a gap in their chain), and queues another checkpoint held.
 */
@ExtendWith(SeedExtension.class)
class OperatorSummaryTest {

  @Test
  void recordsAfterAGapAreReportedAsDeferred(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database a =
          f.open(
              f.config()
                  .protocol(ProtocolKind.MONOTONIC)
                  .clientId("a")
                  .checkpointExecutor(new ManualExecutor()));
      load(a, 10);
      update(a, 3, "x1");
      String queue = MonotonicWritesTest.pageQueue(f);
      // Someone's receive hides the first update for ten minutes.
      assertThat(
              CloudFutures.await(
                  f.services().simpleQueues().receive(queue, 1, Duration.ofMinutes(10))))
          .hasSize(1);
      update(a, 3, "x2");

      Database b =
          f.open(
              f.config()
                  .protocol(ProtocolKind.MONOTONIC)
                  .clientId("b")
                  .checkpointExecutor(new ManualExecutor()));
      CheckpointSummary s = b.admin().checkpointAll();
      assertThat(s.recordsDeferred()).isEqualTo(1);
      assertThat(s.quiescent()).isFalse();

      f.clock.advance(Duration.ofMinutes(11));
      CheckpointSummary after = b.admin().checkpointAll();
      assertThat(after.recordsApplied()).isEqualTo(2);
      assertThat(after.quiescent()).isTrue();
    }
  }

  @Test
  void aQueueAnotherCheckpointHoldsIsReportedBusy(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database a =
          f.open(
              f.config()
                  .protocol(ProtocolKind.BASIC)
                  .clientId("a")
                  .checkpointExecutor(new ManualExecutor()));
      load(a, 10);
      update(a, 3, "x1");
      String queue = MonotonicWritesTest.pageQueue(f);
      assertThat(f.services().locks().acquireExclusive(queue, "someone").join().granted()).isTrue();
      CheckpointSummary s = a.admin().checkpointAll();
      assertThat(s.queuesBusy()).isEqualTo(1);
      assertThat(s.failures()).isZero();
      assertThat(s.quiescent()).isFalse();
    }
  }
}
