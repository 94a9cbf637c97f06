package io.stratus.protocols.atomic;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.SupportsQueueInspection;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.cloudapi.inprocess.QueueBehavior;
import io.stratus.cloudapi.time.ManualClock;
import io.stratus.pagemanager.BufferPool;
import io.stratus.pagemanager.BufferPoolConfig;
import io.stratus.protocols.LogicalChange;
import io.stratus.protocols.LogicalChange.Kind;
import io.stratus.protocols.ProtocolContext;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.ProtocolSettings;
import io.stratus.protocols.log.AtomicMessages;
import io.stratus.protocols.log.LogRecord;
import io.stratus.protocols.log.PuQueues;
import io.stratus.protocols.log.QueueSender;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * Every pass over an ATOMIC queue is a lock holder of its own: a pass that left messages hidden
 * keeps the queue's lock until they reappear, and a later pass of the same process must not be
 * granted it as a renewal (it would see nothing and release the lock with the messages hidden).
 * Where the queue can hand messages back, a pass that leaves messages hands them back and
 * releases the lock, and the next pass sees them at once.
 */
class AtomicQueueSweeperTest {
  private static final String DB = "db/shop";

  /** A cloud, a pool, and the sweeper of client {@code recoverer} over client c1's queue. */
  private static final class Setup implements AutoCloseable {
    final ManualClock clock = new ManualClock();
    final InProcessCloud cloud;
    final BufferPool pool;
    final CloudServices services;
    final PuQueues names = new PuQueues(DB);
    final AtomicQueueSweeper log;
    final String queue;

    Setup(String recoverer) {
      this(recoverer, QueueBehavior.reliable());
    }

    Setup(String recoverer, QueueBehavior queues) {
      this(recoverer, queues, true);
    }

    /** With {@code handBack} false, the queues cannot change a message's visibility. */
    Setup(String recoverer, QueueBehavior queues, boolean handBack) {
      cloud =
          InProcessCloud.builder()
              .clock(clock)
              .queueBehavior(queues)
              .visibilityChange(handBack)
              .build();
      pool = new BufferPool(cloud.services().storage(), BufferPoolConfig.builder().build(), clock);
      services = cloud.services();
      ProtocolContext ctx =
          ProtocolContext.builder(
                  services, DB, recoverer, pool, ProtocolSettings.defaults(ProtocolKind.ATOMIC))
              .clock(clock)
              .build();
      log =
          new AtomicQueueSweeper(
              ctx,
              recoverer + "#n",
              names,
              new QueueSender(services.simpleQueues()),
              ConcurrentHashMap.newKeySet());
      queue = log.queueOf("c1");
      services.simpleQueues().createQueue(queue).join();
    }

    @Override
    public void close() {
      pool.close();
      cloud.close();
    }
  }

  @Test
  void aLaterPassOfTheSameProcessWaitsForTheHiddenMessagesOfAnEarlierOne() {
    try (Setup t = new Setup("c1", QueueBehavior.reliable(), false)) {
      ManualClock clock = t.clock;
      CloudServices services = t.services;
      AtomicQueueSweeper log = t.log;
      String queue = t.queue;
      LogRecord r =
          new LogRecord(
              new LogicalChange(
                  Kind.INSERT,
                  DB + "/c/items/root",
                  new byte[] {1},
                  new byte[] {2},
                  Optional.empty()),
              "c1",
              0,
              "c1-1",
              clock.millis(),
              0);
      // A young two-step transaction whose commit record has not arrived: a pass waits for it,
      // keeping the log message hidden and the lock held.
      byte[] logMessage =
          AtomicMessages.pack("n1/c1-1", clock.millis(), List.of(r), 256 * 1024).get(0);
      services.simpleQueues().send(queue, logMessage).join();

      AtomicQueueSweeper.Pass first = log.run(queue, Set.of(), Set.of(), new HashSet<>());
      assertThat(first.ran()).isTrue();
      assertThat(first.waiting()).isEqualTo(1);

      AtomicQueueSweeper.Pass second = log.run(queue, Set.of(), Set.of(), new HashSet<>());
      assertThat(second.ran()).as("a later pass of this process is not granted the lock").isFalse();
      assertThat(services.locks().acquireExclusive(queue, "another-client").join().granted())
          .as("the lock still guards the hidden message")
          .isFalse();
    }
  }

  /**
   * On queues that can hand messages back, a pass that waits hands its messages back and releases
   * the lock: a later pass of the same process runs at once and sees them, and so can another
   * client.
   */
  @Test
  void aPassThatWaitsHandsItsMessagesBackAndReleasesTheLock() {
    try (Setup t = new Setup("c1")) {
      byte[] logMessage =
          AtomicMessages.pack("n1/c1-1", t.clock.millis(), List.of(insert(t.clock, 1)), 256 * 1024)
              .get(0);
      t.services.simpleQueues().send(t.queue, logMessage).join();

      AtomicQueueSweeper.Pass first = t.log.run(t.queue, Set.of(), Set.of(), new HashSet<>());
      assertThat(first.waiting()).isEqualTo(1);

      AtomicQueueSweeper.Pass second = t.log.run(t.queue, Set.of(), Set.of(), new HashSet<>());
      assertThat(second.ran()).as("the lock was released with nothing hidden").isTrue();
      assertThat(second.waiting()).as("the handed-back message is seen at once").isEqualTo(1);
      assertThat(t.services.locks().acquireExclusive(t.queue, "another-client").join().granted())
          .isTrue();
    }
  }

  /**
   * A two-step transaction whose commit record arrives after a pass looked: where the queue can
   * hand messages back, the next pass propagates it at once; where it cannot, only once the first
   * pass's lease has lapsed and its hidden log message reappeared.
   */
  @Test
  void theNextPassFindsAWaitingTransactionWholeAtOnceWhenMessagesAreHandedBack() {
    for (boolean handBack : new boolean[] {true, false}) {
      try (Setup t = new Setup("c1", QueueBehavior.reliable(), handBack)) {
        int oneRecord =
            AtomicMessages.pack("n1/c1-1", t.clock.millis(), List.of(insert(t.clock, 1)), 1 << 20)
                .get(0)
                .length;
        List<byte[]> logs =
            AtomicMessages.pack(
                "n1/c1-1",
                t.clock.millis(),
                List.of(insert(t.clock, 1), insert(t.clock, 2)),
                oneRecord + 25);
        t.services.simpleQueues().send(t.queue, logs.get(0)).join();
        t.services.simpleQueues().send(t.queue, logs.get(1)).join();
        AtomicQueueSweeper.Pass early = t.log.run(t.queue, Set.of(), Set.of(), new HashSet<>());
        assertThat(early.waiting()).as("no commit record yet").isEqualTo(1);
        t.services
            .simpleQueues()
            .send(t.queue, AtomicMessages.commitRecord("n1/c1-1", t.clock.millis(), 2, 2))
            .join();

        AtomicQueueSweeper.Pass next = t.log.run(t.queue, Set.of(), Set.of(), new HashSet<>());
        if (handBack) {
          assertThat(next.winners()).as("handed back: whole at once").isEqualTo(1);
        } else {
          assertThat(next.ran()).as("the first pass's lease guards its hidden messages").isFalse();
          // Past the lease of the first pass (the lock service's default timeout).
          t.clock.advance(InProcessCloud.DEFAULT_LOCK_TIMEOUT.plusSeconds(1));
          next = t.log.run(t.queue, Set.of(), Set.of(), new HashSet<>());
          assertThat(next.winners()).isEqualTo(1);
        }
        assertThat(propagatedRecords(t.services, t.names)).isEqualTo(2);
      }
    }
  }

  private static LogRecord insert(ManualClock clock, int key) {
    return new LogRecord(
        new LogicalChange(
            Kind.INSERT,
            DB + "/c/items/root",
            new byte[] {(byte) key},
            new byte[] {2},
            Optional.empty()),
        "c1",
        0,
        "c1-1",
        clock.millis(),
        0);
  }

  /** Records waiting in the tree queue the two-step transaction propagates to. */
  private static int propagatedRecords(CloudServices services, PuQueues names) {
    String q = names.treeQueue(DB + "/c/items/root", false);
    if (!services.simpleQueues().listQueues(q).join().contains(q)) {
      return 0;
    }
    int n = 0;
    for (var m : services.simpleQueues().receive(q, 10, Duration.ofMillis(1)).join()) {
      n += io.stratus.protocols.log.LogMessages.unpack(m.payload()).size();
    }
    return n;
  }

  @Test
  void anOldCommittedTransactionWithAHiddenLogMessageIsNeverPropagatedInPart() {
    try (Setup t = new Setup("c2")) {
      ManualClock clock = t.clock;
      CloudServices services = t.services;
      PuQueues names = t.names;
      AtomicQueueSweeper log = t.log;
      String queue = t.queue; // a dead client's queue, recovered by c2
      // A two-step transaction: two log messages (one record each), then its commit record.
      int oneRecord =
          AtomicMessages.pack("n1/c1-1", clock.millis(), List.of(insert(clock, 1)), 1 << 20)
              .get(0)
              .length;
      List<byte[]> logs =
          AtomicMessages.pack(
              "n1/c1-1",
              clock.millis(),
              List.of(insert(clock, 1), insert(clock, 2)),
              oneRecord + 25);
      assertThat(logs).hasSize(2);
      services.simpleQueues().send(queue, logs.get(0)).join();
      services.simpleQueues().send(queue, logs.get(1)).join();
      services
          .simpleQueues()
          .send(queue, AtomicMessages.commitRecord("n1/c1-1", clock.millis(), 2, 2))
          .join();
      // Someone's receive hides the first log message for ten minutes.
      assertThat(services.simpleQueues().receive(queue, 1, Duration.ofMinutes(10)).join())
          .hasSize(1);
      clock.advance(Duration.ofMinutes(2)); // older than the atomic timeout

      AtomicQueueSweeper.Pass partial = log.run(queue, Set.of(), Set.of(), new HashSet<>());
      assertThat(partial.incomplete()).isEqualTo(1);
      assertThat(partial.winners()).isZero();
      assertThat(propagatedRecords(services, names)).as("nothing of it propagated").isZero();

      clock.advance(Duration.ofMinutes(10)); // the hidden message is back
      AtomicQueueSweeper.Pass whole = log.run(queue, Set.of(), Set.of(), new HashSet<>());
      assertThat(whole.winners()).isEqualTo(1);
      assertThat(propagatedRecords(services, names)).isEqualTo(2);
    }
  }

  @Test
  void aCleanUpThatDiedAfterItsMarkerIsFinishedWithoutPropagatingAgain() {
    try (Setup t = new Setup("c2")) {
      ManualClock clock = t.clock;
      CloudServices services = t.services;
      PuQueues names = t.names;
      AtomicQueueSweeper log = t.log;
      String queue = t.queue;
      // Propagated, marked, one of two log messages deleted, then the clean-up died.
      services
          .simpleQueues()
          .send(
              queue,
              AtomicMessages.pack("n1/c1-1", clock.millis(), List.of(insert(clock, 2)), 1 << 20)
                  .get(0))
          .join();
      services
          .simpleQueues()
          .send(queue, AtomicMessages.commitRecord("n1/c1-1", clock.millis(), 2, 2))
          .join();
      services
          .simpleQueues()
          .send(queue, AtomicMessages.propagated("n1/c1-1", clock.millis()))
          .join();

      AtomicQueueSweeper.Pass pass = log.run(queue, Set.of(), Set.of(), new HashSet<>());

      assertThat(pass.finished()).containsExactly("n1/c1-1");
      assertThat(pass.recordsPropagated()).isZero();
      assertThat(propagatedRecords(services, names)).isZero();
      clock.advance(Duration.ofMinutes(1));
      assertThat(services.simpleQueues().receive(queue, 10, Duration.ofSeconds(1)).join())
          .as("the queue is clean")
          .isEmpty();
    }
  }

  /**
   * A weak queue hands a pass a message and its duplicate in one receive: the pass propagates the
   * transaction once and deletes both copies, so neither comes back to be propagated again.
   */
  @Test
  void aDuplicateReceivedWithItsOriginalIsDeletedWithIt() {
    try (Setup t = new Setup("c2", new QueueBehavior(false, 0, 1.0))) {
      ManualClock clock = t.clock;
      CloudServices services = t.services;
      String queue = t.queue; // a dead client's queue, recovered by c2
      byte[] message =
          AtomicMessages.complete("n1/c1-1", clock.millis(), List.of(insert(clock, 1)), 1 << 20)
              .orElseThrow();
      services.simpleQueues().send(queue, message).join();
      // A receive that never deletes (its client died) leaves the message and, on this queue, a
      // duplicate; both are visible again after its visibility timeout.
      assertThat(services.simpleQueues().receive(queue, 1, Duration.ofSeconds(30)).join())
          .hasSize(1);
      clock.advance(Duration.ofMinutes(2)); // older than the atomic timeout too

      AtomicQueueSweeper.Pass pass = t.log.run(queue, Set.of(), Set.of(), new HashSet<>());
      assertThat(pass.winners()).isEqualTo(1);
      assertThat(propagatedRecords(services, t.names)).isEqualTo(1);
      clock.advance(Duration.ofMinutes(10)); // past every visibility timeout of the pass
      assertThat(services.simpleQueues().receive(queue, 10, Duration.ofSeconds(1)).join())
          .as("copies left in the ATOMIC queue")
          .isEmpty();
      assertThat(
              SupportsQueueInspection.of(services.simpleQueues())
                  .inspect(queue, 0)
                  .join()
                  .messages())
          .isZero();
    }
  }
}
