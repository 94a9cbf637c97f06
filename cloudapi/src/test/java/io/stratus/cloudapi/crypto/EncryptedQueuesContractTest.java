package io.stratus.cloudapi.crypto;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.AdvancedQueueService;
import io.stratus.cloudapi.CloudLimits;
import io.stratus.cloudapi.SimpleQueueService;
import io.stratus.cloudapi.contract.AdvancedQueueServiceContract;
import io.stratus.cloudapi.contract.SimpleQueueServiceContract;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.cloudapi.inprocess.QueueBehavior;
import io.stratus.cloudapi.time.ManualClock;
import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The simple-queue contract through the encrypting wrapper, on in-process queues with every SQS
 * weakness on (reordering, short receives, duplicates): ids, handles, redeliveries and limits
 * must come through unchanged.
 */
class EncryptedSimpleQueuesContractTest extends SimpleQueueServiceContract {
  static final CloudLimits SMALL_LIMITS =
      CloudLimits.builder().maxMessageSize(64 * 1024).maxBatchSize(10).build();

  private final ManualClock clock = new ManualClock();

  @Override
  protected SimpleQueueService newQueues(long seed) {
    SimpleQueueService inner =
        InProcessCloud.builder()
            .clock(clock)
            .seed(seed)
            .limits(SMALL_LIMITS)
            .queueBehavior(QueueBehavior.weak())
            .build()
            .services()
            .simpleQueues();
    return Encryption.builder(new TestKeys("k1", seed))
        .nonceSource(new Random(seed))
        .build()
        .wrap(inner);
  }

  @Override
  protected void elapse(Duration d) {
    clock.advance(d);
  }

  @Override
  protected boolean deliversInOrder() {
    return false;
  }

  @Override
  protected boolean receivesAreComplete() {
    return false;
  }

  @Override
  protected boolean mayDuplicate() {
    return true;
  }

  @Test
  void limitsAreTheServicesLessTheOverhead() {
    assertThat(queues.limits().maxMessageSize())
        .isEqualTo(SMALL_LIMITS.maxMessageSize() - Encryption.OVERHEAD);
  }
}

/** The advanced-queue contract through the encrypting wrapper. */
class EncryptedAdvancedQueuesContractTest extends AdvancedQueueServiceContract {
  private static final int MAX_MESSAGE = 4096;
  private final ManualClock clock = new ManualClock();

  @Override
  protected AdvancedQueueService newQueues(long seed) {
    AdvancedQueueService inner =
        InProcessCloud.builder()
            .clock(clock)
            .seed(seed)
            .limits(CloudLimits.builder().maxAdvancedMessageSize(MAX_MESSAGE).build())
            .build()
            .services()
            .advancedQueues();
    return Encryption.builder(new TestKeys("k1", seed))
        .nonceSource(new Random(seed))
        .build()
        .wrap(inner);
  }

  @Override
  protected void elapse(Duration d) {
    clock.advance(d);
  }

  @Test
  void limitsAreTheServicesLessTheOverhead() {
    assertThat(queues.limits().maxAdvancedMessageSize())
        .isEqualTo(MAX_MESSAGE - Encryption.OVERHEAD);
  }
}
