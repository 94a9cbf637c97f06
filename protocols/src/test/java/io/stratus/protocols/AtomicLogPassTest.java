package io.stratus.protocols;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.CrashPoints;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.cloudapi.time.ManualClock;
import io.stratus.pagemanager.BufferPool;
import io.stratus.pagemanager.BufferPoolConfig;
import io.stratus.protocols.LogicalChange.Kind;
import io.stratus.protocols.log.AtomicMessages;
import io.stratus.protocols.log.LogRecord;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * Every pass over an ATOMIC queue is a lock holder of its own: a pass that left messages hidden
 * keeps the queue's lock until they reappear, and a later pass of the same process must not be
 * granted it as a renewal (it would see nothing and release the lock with the messages hidden).
 */
class AtomicLogPassTest {
  private static final String DB = "db/shop";

  @Test
  void aLaterPassOfTheSameProcessWaitsForTheHiddenMessagesOfAnEarlierOne() {
    ManualClock clock = new ManualClock();
    try (InProcessCloud cloud = InProcessCloud.builder().clock(clock).build();
        BufferPool pool = new BufferPool(cloud.services().storage(),
            BufferPoolConfig.builder().build(), clock)) {
      CloudServices services = cloud.services();
      ProtocolContext ctx = new ProtocolContext(services, DB, "c1", clock, CrashPoints.none(),
          pool, Duration.ofSeconds(45));
      PuQueues names = new PuQueues(DB);
      AtomicLog log = new AtomicLog(ctx, "c1#n1", names,
          new QueueSender(services.simpleQueues()), ConcurrentHashMap.newKeySet());
      String queue = log.queueOf("c1");
      services.simpleQueues().createQueue(queue).join();
      LogRecord r = new LogRecord(new LogicalChange(Kind.INSERT, DB + "/c/items/root",
          new byte[] {1}, new byte[] {2}, Optional.empty()), "c1", 0, "c1-1", clock.millis(), 0);
      // A young two-step transaction whose commit record has not arrived: a pass waits for it,
      // keeping the log message hidden and the lock held.
      byte[] logMessage = AtomicMessages.pack("n1/c1-1", clock.millis(), List.of(r), 256 * 1024)
          .get(0);
      services.simpleQueues().send(queue, logMessage).join();

      AtomicLog.Pass first = log.run(queue, Set.of(), Set.of());
      assertThat(first.ran()).isTrue();
      assertThat(first.waiting()).isEqualTo(1);

      AtomicLog.Pass second = log.run(queue, Set.of(), Set.of());
      assertThat(second.ran()).as("a later pass of this process is not granted the lock").isFalse();
      assertThat(services.locks().acquireExclusive(queue, "another-client").join().granted())
          .as("the lock still guards the hidden message").isFalse();
    }
  }
}
