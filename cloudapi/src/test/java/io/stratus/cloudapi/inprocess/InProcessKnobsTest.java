package io.stratus.cloudapi.inprocess;

import static io.stratus.cloudapi.CloudFutures.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.cloudapi.CloudLimits;
import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.ConditionalRead;
import io.stratus.cloudapi.ItemSummary;
import io.stratus.cloudapi.PreconditionFailedException;
import io.stratus.cloudapi.QueueMessage;
import io.stratus.cloudapi.SimpleQueueService;
import io.stratus.cloudapi.StorageService;
import io.stratus.cloudapi.StoredItem;
import io.stratus.cloudapi.SupportsConditionalPut;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.cloudapi.time.ManualClock;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Shows that each weakness knob of the in-process cloud does what it says, and that the cloud is
 * deterministic for a seed: the contract suites only check that the weak services stay within their
 * contracts, which a knob that does nothing would pass too.
 *
 * <p>Statistical assertions use enough draws that a correct implementation fails them with a
 * negligible chance (below one in ten billion) for any seed.
 */
@ExtendWith(SeedExtension.class)
class InProcessKnobsTest {
  private static final Duration WINDOW = Duration.ofSeconds(5);
  private static final Duration VISIBILITY = Duration.ofSeconds(30);
  private static final int READS = 200;

  private final ManualClock clock = new ManualClock();

  private CloudServices cloud(long seed, StorageConsistency consistency, QueueBehavior behavior) {
    return cloud(seed, consistency, behavior, CloudLimits.aws());
  }

  private CloudServices cloud(
      long seed, StorageConsistency consistency, QueueBehavior behavior, CloudLimits limits) {
    return InProcessCloud.builder()
        .clock(clock)
        .seed(seed)
        .limits(limits)
        .storageConsistency(consistency)
        .queueBehavior(behavior)
        .build()
        .services();
  }

  // ---- eventual storage ----

  @Test
  void eventualStorageServesOlderVersionsWithinTheWindowOnly(@Seed long seed) {
    StorageService s =
        cloud(seed, StorageConsistency.eventual(WINDOW), QueueBehavior.reliable()).storage();
    await(s.put("k", bytes("v1"), Map.of()));
    clock.advance(Duration.ofMinutes(1));
    await(s.put("k", bytes("v2"), Map.of()));

    clock.advance(WINDOW.minusMillis(1));
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < READS; i++) {
      seen.add(payload(await(s.get("k"))));
    }
    assertThat(seen).containsExactlyInAnyOrder("v1", "v2");

    clock.advance(Duration.ofMillis(1));
    for (int i = 0; i < READS; i++) {
      assertThat(payload(await(s.get("k")))).isEqualTo("v2");
      assertThat(await(s.getMetadata("k")).orElseThrow().size()).isEqualTo(2);
    }
  }

  @Test
  void eventualStorageMayMissANewItemAndShowADeletedOne(@Seed long seed) {
    StorageService s =
        cloud(seed, StorageConsistency.eventual(WINDOW), QueueBehavior.reliable()).storage();
    await(s.put("old", bytes("x"), Map.of()));
    clock.advance(Duration.ofMinutes(1));
    await(s.put("new", bytes("y"), Map.of()));
    await(s.delete("old"));

    Set<Boolean> newVisible = new HashSet<>();
    Set<Boolean> oldVisible = new HashSet<>();
    Set<ConditionalRead.Status> newStatus = new HashSet<>();
    Set<List<String>> listings = new HashSet<>();
    for (int i = 0; i < READS; i++) {
      newVisible.add(await(s.get("new")).isPresent());
      oldVisible.add(await(s.getMetadata("old")).isPresent());
      newStatus.add(await(s.getIfChanged("new", "other")).status());
      listings.add(uris(await(s.listAll(""))));
    }
    assertThat(newVisible).containsExactlyInAnyOrder(true, false);
    assertThat(oldVisible).containsExactlyInAnyOrder(true, false);
    assertThat(newStatus)
        .containsExactlyInAnyOrder(ConditionalRead.Status.ABSENT, ConditionalRead.Status.MODIFIED);
    assertThat(listings).contains(List.of("new"), List.of("old"), List.of("new", "old"), List.of());

    clock.advance(WINDOW);
    for (int i = 0; i < READS; i++) {
      assertThat(await(s.get("new"))).isPresent();
      assertThat(await(s.get("old"))).isEmpty();
      assertThat(uris(await(s.listAll("")))).containsExactly("new");
    }
  }

  @Test
  void eventualStorageChecksConditionsAgainstTheLatestState(@Seed long seed) {
    StorageService s =
        cloud(seed, StorageConsistency.eventual(WINDOW), QueueBehavior.reliable()).storage();
    SupportsConditionalPut cs = (SupportsConditionalPut) s;
    String v1 = await(s.put("k", bytes("v1"), Map.of())).version();
    for (int i = 0; i < 50; i++) {
      assertThatThrownBy(() -> await(cs.putIfAbsent("k", bytes("x"), Map.of())))
          .isInstanceOf(PreconditionFailedException.class);
    }
    String v2 = await(cs.putIfVersionMatches("k", bytes("v2"), Map.of(), v1)).version();
    assertThatThrownBy(() -> await(cs.putIfVersionMatches("k", bytes("v3"), Map.of(), v1)))
        .isInstanceOf(PreconditionFailedException.class);
    await(cs.putIfVersionMatches("k", bytes("v3"), Map.of(), v2));
  }

  @Test
  void staleReadsNeverMixPayloadAndMetadata(@Seed long seed) {
    StorageService s =
        cloud(seed, StorageConsistency.eventual(WINDOW), QueueBehavior.reliable()).storage();
    for (int v = 0; v < 5; v++) {
      await(s.put("k", bytes("v" + v), Map.of("v", "" + v)));
      clock.advance(Duration.ofSeconds(1));
    }
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < READS; i++) {
      Optional<StoredItem> item = await(s.get("k"));
      item.ifPresent(
          it -> {
            assertThat(payload(Optional.of(it))).isEqualTo("v" + it.metadata().get("v"));
            seen.add(it.metadata().get("v"));
          });
    }
    // Versions superseded less than 5 s ago (v0 was superseded 4 s ago) and the current one.
    assertThat(seen).containsExactlyInAnyOrder("0", "1", "2", "3", "4");
  }

  @Test
  void strongStorageIsNeverStale(@Seed long seed) {
    StorageService s = cloud(seed, StorageConsistency.strong(), QueueBehavior.reliable()).storage();
    for (int i = 0; i < READS; i++) {
      await(s.put("k", bytes("v" + i), Map.of()));
      assertThat(payload(await(s.get("k")))).isEqualTo("v" + i);
    }
  }

  // ---- weak queues ----

  @Test
  void reorderReturnsMessagesOutOfSendingOrder(@Seed long seed) {
    List<String> sent = new ArrayList<>();
    SimpleQueueService q =
        cloud(seed, StorageConsistency.strong(), new QueueBehavior(true, 0, 0)).simpleQueues();
    await(q.createQueue("q"));
    for (int i = 0; i < 30; i++) {
      sent.add(await(q.send("q", bytes("m" + i))));
    }
    List<String> received = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      List<QueueMessage> got = await(q.receive("q", 10, VISIBILITY));
      assertThat(got).as("reordering does not shorten receives").hasSize(10);
      got.forEach(m -> received.add(m.messageId()));
    }
    assertThat(received).containsExactlyInAnyOrderElementsOf(sent).isNotEqualTo(sent);
  }

  @Test
  void shortReceivesReturnFewerThanVisible(@Seed long seed) {
    SimpleQueueService q =
        cloud(seed, StorageConsistency.strong(), new QueueBehavior(false, 0.5, 0)).simpleQueues();
    await(q.createQueue("q"));
    for (int i = 0; i < 10; i++) {
      await(q.send("q", bytes("m" + i)));
    }
    Set<Integer> sizes = new HashSet<>();
    for (int i = 0; i < 1000; i++) {
      // A zero visibility timeout leaves all ten visible for the next receive.
      sizes.add(await(q.receive("q", 10, Duration.ZERO)).size());
    }
    assertThat(sizes).contains(0, 10).allMatch(n -> n >= 0 && n <= 10);
    assertThat(sizes.size()).isGreaterThan(3);
  }

  @Test
  void aDuplicatedMessageComesBackOnceAfterItWasDeleted(@Seed long seed) {
    SimpleQueueService q =
        cloud(seed, StorageConsistency.strong(), new QueueBehavior(false, 0, 1.0)).simpleQueues();
    await(q.createQueue("q"));
    String id = await(q.send("q", bytes("dup")));
    QueueMessage first = await(q.receive("q", 1, VISIBILITY)).get(0);
    await(q.delete("q", first.receiptHandle()));

    assertThat(await(q.receive("q", 1, VISIBILITY))).as("hidden until the timeout").isEmpty();
    clock.advance(VISIBILITY);
    QueueMessage ghost = await(q.receive("q", 1, VISIBILITY)).get(0);
    assertThat(ghost.messageId()).isEqualTo(id);
    assertThat(ghost.receiptHandle()).isNotEqualTo(first.receiptHandle());
    assertThat(ghost.payload()).isEqualTo(bytes("dup"));
    assertThat(ghost.deliveryCount()).isEqualTo(2);
    await(q.delete("q", ghost.receiptHandle()));

    clock.advance(VISIBILITY);
    assertThat(await(q.receive("q", 10, VISIBILITY))).as("only one duplicate").isEmpty();
  }

  @Test
  void duplicatesHappenWithTheConfiguredChance(@Seed long seed) {
    SimpleQueueService q =
        cloud(seed, StorageConsistency.strong(), new QueueBehavior(false, 0, 0.5)).simpleQueues();
    await(q.createQueue("q"));
    Set<String> ids = new HashSet<>();
    for (int i = 0; i < 10; i++) {
      List<byte[]> batch = new ArrayList<>();
      for (int j = 0; j < 10; j++) {
        batch.add(bytes("m" + i + "-" + j));
      }
      ids.addAll(await(q.sendBatch("q", batch)));
    }
    for (int i = 0; i < 10; i++) {
      List<String> handles = new ArrayList<>();
      await(q.receive("q", 10, VISIBILITY)).forEach(m -> handles.add(m.receiptHandle()));
      await(q.deleteBatch("q", handles));
    }
    clock.advance(VISIBILITY);
    Set<String> again = new HashSet<>();
    List<QueueMessage> got;
    while (!(got = await(q.receive("q", 10, VISIBILITY))).isEmpty()) {
      got.forEach(m -> assertThat(again.add(m.messageId())).as("one ghost per message").isTrue());
    }
    assertThat(ids).containsAll(again);
    assertThat(again.size()).isBetween(10, 90);
  }

  @Test
  void retentionDropsOldMessages(@Seed long seed) {
    CloudLimits limits = CloudLimits.builder().messageRetention(Duration.ofHours(1)).build();
    SimpleQueueService q =
        cloud(seed, StorageConsistency.strong(), QueueBehavior.reliable(), limits).simpleQueues();
    await(q.createQueue("q"));
    await(q.send("q", bytes("old")));
    String inFlight = await(q.send("q", bytes("received, never deleted")));
    assertThat(await(q.receive("q", 1, Duration.ofMinutes(1)))).hasSize(1);
    assertThat(await(q.receive("q", 1, Duration.ofMinutes(1))).get(0).messageId())
        .isEqualTo(inFlight);
    clock.advance(Duration.ofMinutes(30));
    String young = await(q.send("q", bytes("young")));
    clock.advance(Duration.ofMinutes(30));

    List<QueueMessage> got = await(q.receive("q", 10, VISIBILITY));
    assertThat(got).extracting(QueueMessage::messageId).containsExactly(young);
    clock.advance(Duration.ofMinutes(30));
    assertThat(await(q.receive("q", 10, VISIBILITY))).isEmpty();
  }

  // ---- determinism ----

  @Test
  void theSameSeedAndCallsGiveTheSameResults(@Seed long seed) {
    List<String> first = script(seed, new ManualClock());
    List<String> second = script(seed, new ManualClock());
    assertThat(second).isEqualTo(first);
    assertThat(script(seed + 1, new ManualClock())).isNotEqualTo(first);
  }

  /** A fixed sequence of calls on a weak cloud; returns everything observable about it. */
  private static List<String> script(long seed, ManualClock clock) {
    CloudServices c =
        InProcessCloud.builder()
            .clock(clock)
            .seed(seed)
            .storageConsistency(StorageConsistency.eventual(WINDOW))
            .queueBehavior(QueueBehavior.weak())
            .build()
            .services();
    List<String> log = new ArrayList<>();
    StorageService s = c.storage();
    SimpleQueueService q = c.simpleQueues();
    await(q.createQueue("q"));
    for (int round = 0; round < 10; round++) {
      await(s.put("k" + (round % 3), bytes("v" + round), Map.of()));
      log.add(await(q.send("q", bytes("m" + round))));
      for (int i = 0; i < 5; i++) {
        log.add(String.valueOf(await(s.get("k" + i % 3)).map(it -> payload(Optional.of(it)))));
      }
      log.add(uris(await(s.listAll(""))).toString());
      for (QueueMessage m : await(q.receive("q", 10, Duration.ofSeconds(2)))) {
        log.add(m.messageId() + "/" + m.receiptHandle() + "/" + m.deliveryCount());
        if ((m.deliveryCount() + round) % 2 == 0) {
          await(q.delete("q", m.receiptHandle()));
        }
      }
      clock.advance(Duration.ofSeconds(1));
    }
    return log;
  }

  // ---- helpers ----

  private static String payload(Optional<StoredItem> item) {
    return new String(item.orElseThrow().payload(), StandardCharsets.UTF_8);
  }

  private static List<String> uris(List<ItemSummary> items) {
    List<String> out = new ArrayList<>();
    items.forEach(i -> out.add(i.uri()));
    return out;
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
