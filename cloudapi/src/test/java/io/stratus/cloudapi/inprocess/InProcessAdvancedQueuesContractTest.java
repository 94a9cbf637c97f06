package io.stratus.cloudapi.inprocess;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.AdvancedMessage;
import io.stratus.cloudapi.AdvancedQueueService;
import io.stratus.cloudapi.CloudLimits;
import io.stratus.cloudapi.contract.AdvancedQueueServiceContract;
import io.stratus.cloudapi.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The advanced-queue contract on the in-process cloud, plus what only in-process queues fix. */
class InProcessAdvancedQueuesContractTest extends AdvancedQueueServiceContract {
  /** Small, so that the limit test sends small payloads. */
  private static final int MAX_MESSAGE = 4096;

  private final ManualClock clock = new ManualClock();
  private InProcessCloud cloud;

  @Override
  protected AdvancedQueueService newQueues(long seed) {
    cloud =
        InProcessCloud.builder()
            .clock(clock)
            .seed(seed)
            .limits(CloudLimits.builder().maxAdvancedMessageSize(MAX_MESSAGE).build())
            .build();
    return cloud.services().advancedQueues();
  }

  @Override
  protected void elapse(Duration d) {
    clock.advance(d);
  }

  @Test
  void idsCountFromOneAndEnqueuedAtIsTheClock() {
    String q = queue("q");
    Instant t0 = clock.instant();
    assertThat(await(queues.send(q, bytes("a"), 1))).isEqualTo(1);
    clock.advance(Duration.ofSeconds(3));
    assertThat(await(queues.send(q, bytes("b"), 1))).isEqualTo(2);
    List<AdvancedMessage> all = await(queues.receiveAfterId(q, 10, 0));
    assertThat(all.get(0).enqueuedAt()).isEqualTo(t0);
    assertThat(all.get(1).enqueuedAt()).isEqualTo(t0.plusSeconds(3));
  }

  @Test
  void aRecreatedQueueIsANewQueue() {
    String q = queue("q");
    await(queues.send(q, bytes("a"), 1));
    await(queues.send(q, bytes("b"), 1));
    await(queues.deleteQueue(q));
    await(queues.createQueue(q));
    assertThat(await(queues.receiveAfterId(q, 10, 0))).isEmpty();
    assertThat(await(queues.send(q, bytes("c"), 1))).isEqualTo(1);
  }

  @Test
  void limitsAreTheConfiguredOnes() {
    assertThat(queues.limits().maxAdvancedMessageSize()).isEqualTo(MAX_MESSAGE);
  }

  @Test
  void narrowKeyRangesOnALongQueueFindTheirMessages() {
    String q = queue("q");
    for (int i = 0; i < 20_000; i++) {
      await(queues.send(q, bytes(""), i));
    }
    // GSI reads a page's log records with a range like (SnapshotId, CommitId + 1).
    assertThat(keys(await(queues.receiveByKey(q, Integer.MAX_VALUE, 19_990, 19_993))))
        .containsExactly(19_991L, 19_992L);
    assertThat(await(queues.deleteByKey(q, 100, 19_900))).isEqualTo(19_799);
    assertThat(await(queues.receiveAfterId(q, Integer.MAX_VALUE, 0))).hasSize(201);
  }
}
