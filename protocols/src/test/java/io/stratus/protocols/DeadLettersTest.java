package io.stratus.protocols;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.QueueMessage;
import io.stratus.cloudapi.StorageService;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.cloudapi.time.ManualClock;
import org.junit.jupiter.api.Test;

/** The dead-letter area of a database without one of the queue services. */
class DeadLettersTest {
  private static final StorageLayout LAYOUT = new StorageLayout("db/shop");

  /**
   * Without a simple queue service no simple queue's message is set aside: it is reported as
   * damaged and nothing is put into the area (there is no queue to delete it from).
   */
  @Test
  void withoutSimpleQueuesAMessageIsReportedNotSetAside() {
    ManualClock clock = new ManualClock();
    try (InProcessCloud cloud = InProcessCloud.builder().clock(clock).build()) {
      StorageService storage = cloud.services().storage();
      DamageReports reports = new DamageReports();
      DeadLetters area =
          new DeadLetters(storage, null, cloud.services().advancedQueues(), LAYOUT, clock, reports);
      QueueMessage m = new QueueMessage("m-1", "h-1", new byte[] {1, 2}, 1);

      assertThat(area.setAside("db/shop/pu/q", m, "bad checksum")).isFalse();

      assertThat(reports.corruptMessages()).isEqualTo(1);
      assertThat(reports.deadLettered()).isZero();
      assertThat(CloudFutures.await(storage.listAll(LAYOUT.deadLetterPrefix()))).isEmpty();
    }
  }
}
