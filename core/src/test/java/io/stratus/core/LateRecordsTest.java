package io.stratus.core;

import static io.stratus.core.BasicProtocolTest.load;
import static io.stratus.core.BasicProtocolTest.read;
import static io.stratus.core.BasicProtocolTest.update;
import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.QueueMessage;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.protocols.ProtocolKind;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A record that reaches its page after a later writer's record of the same key was applied never
 * overwrites the later value (write stamps, the Thomas write rule): whether the queue hid it for a
 * while (a receive by a checkpoint that died) or recovery propagated it late from an atomic queue.
 * Every client, the late writer included, ends up reading the later value.
 */
@ExtendWith(SeedExtension.class)
class LateRecordsTest {
  private static final long KEY = 7;
  private static final long OTHER_KEY = 3;

  private static Database open(Fixture f, ProtocolKind kind, String client, ManualExecutor ex) {
    return f.open(f.config().protocol(kind).clientId(client).checkpointExecutor(ex));
  }

  /** Receives every visible message of every queue of the database, hiding it for 200 s. */
  private static int hideEverything(Fixture f) {
    int hidden = 0;
    List<String> queues = CloudFutures.await(f.services().simpleQueues().listQueues(""));
    for (String q : queues) {
      for (int i = 0; i < 20; i++) {
        List<QueueMessage> got =
            CloudFutures.await(f.services().simpleQueues().receive(q, 10, Duration.ofSeconds(200)));
        if (got.isEmpty()) {
          break;
        }
        hidden += got.size();
      }
    }
    return hidden;
  }

  @Test
  void aRecordHiddenByTheQueueDoesNotOverwriteALaterWriter(@Seed long seed) {
    for (ProtocolKind kind : List.of(ProtocolKind.BASIC, ProtocolKind.MONOTONIC)) {
      try (Fixture f = new Fixture(seed)) {
        ManualExecutor ex = new ManualExecutor();
        Database a = open(f, kind, "a", ex);
        load(a, 20);
        Database b = open(f, kind, "b", ex);
        update(a, KEY, "from-a");
        assertThat(hideEverything(f)).as("%s: a's record taken out of sight", kind).isPositive();
        f.clock.advance(Duration.ofMillis(1));
        update(b, KEY, "from-b");
        BasicProtocolTest.quiesce(f, b);
        assertThat(read(b, KEY)).as("%s: b's value applied", kind).isEqualTo("from-b");

        f.clock.advance(Duration.ofSeconds(200)); // a's record is visible again
        BasicProtocolTest.quiesce(f, b);
        BasicProtocolTest.quiesce(f, a);
        assertThat(read(open(f, kind, "reader", ex), KEY))
            .as("%s: a late record of an earlier commit", kind)
            .isEqualTo("from-b");
        assertThat(read(a, KEY)).as("%s: the late writer itself", kind).isEqualTo("from-b");
        assertThat(read(b, KEY)).as("%s: the later writer", kind).isEqualTo("from-b");
      }
    }
  }

  /**
   * Atomic: a's committed transaction is out of sight in its atomic queue (a receive by a pass
   * that died) while b's later commit of the same key is propagated and applied; then a's is
   * propagated and applied too.
   */
  @Test
  void aCommitPropagatedLateDoesNotOverwriteALaterWriter(@Seed long seed) {
    for (ProtocolKind kind : List.of(ProtocolKind.ATOMIC)) {
      try (Fixture f = new Fixture(seed)) {
        ManualExecutor ex = new ManualExecutor();
        ManualExecutor held = new ManualExecutor(); // a's propagation runs late
        Database b = open(f, kind, "b", ex);
        load(b, 20);
        Database a = open(f, kind, "a", held);
        try (Transaction tx = a.begin()) { // committed; waits in the atomic queue
          tx.update("items", Key.of(KEY), Fixture.bytes("from-a"));
          tx.update("items", Key.of(OTHER_KEY), Fixture.bytes("from-a"));
          tx.commit();
        }
        assertThat(
                CloudFutures.await(
                    f.services()
                        .simpleQueues()
                        .receive(AtomicProtocolTest.QUEUE_A, 10, Duration.ofSeconds(200))))
            .as("%s: a's commit out of sight", kind)
            .isNotEmpty();
        f.clock.advance(Duration.ofMillis(1));
        update(b, KEY, "from-b");
        b.admin().checkpointAll();
        f.clock.advance(Fixture.TTL.plusSeconds(1));
        assertThat(read(b, KEY)).as("%s: b's value applied", kind).isEqualTo("from-b");
        assertThat(read(b, OTHER_KEY)).as("%s: a's commit not yet", kind).isEqualTo("v0-3");

        f.clock.advance(Duration.ofSeconds(200)); // a's commit is visible again
        held.runAll(); // a propagates now
        b.admin().recoverAbandonedClients();
        AtomicProtocolTest.quiesce(f, b);
        AtomicProtocolTest.quiesce(f, a);
        Database reader = open(f, kind, "reader", ex);
        assertThat(read(reader, OTHER_KEY)).as("%s: a's commit applied", kind).isEqualTo("from-a");
        assertThat(read(reader, KEY))
            .as("%s: a commit propagated after a later one", kind)
            .isEqualTo("from-b");
        assertThat(read(b, KEY)).as("%s: the later writer", kind).isEqualTo("from-b");
        assertThat(read(a, KEY)).as("%s: the late writer itself", kind).isEqualTo("from-b");
      }
    }
  }
}
