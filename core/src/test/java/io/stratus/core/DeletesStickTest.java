package io.stratus.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.StratusException;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.decorate.FaultInterceptor;
import io.stratus.cloudapi.decorate.FaultPlan;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.protocols.Guarantee;
import io.stratus.protocols.ProtocolKind;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A delete sticks: a create of the key that reaches its page after a later delete (its message
 * hidden by another client's receive whose reply was lost) does not bring the key back, neither
 * the record nor its index entry; a create after the delete does. The delete's stamp (a tombstone
 * in the leaf) is forgotten only once no older create can still arrive.
 */
@ExtendWith(SeedExtension.class)
class DeletesStickTest {
  private static final String ITEMS = "items";
  private static final String BY_OWNER = "byOwner";
  private static final long KEY = 7;

  /** The search key: the payload's text before the first ':'. */
  private static final IndexKeyExtractor OWNER =
      (key, payload) -> {
        String s = Fixture.string(payload);
        int colon = s.indexOf(':');
        return colon < 0 ? Optional.empty() : Optional.of(Key.of(s.substring(0, colon)).toBytes());
      };

  private static final List<ProtocolKind> DURABLE_QUEUES =
      List.of(
          ProtocolKind.BASIC,
          ProtocolKind.MONOTONIC,
          ProtocolKind.ATOMIC,
          ProtocolKind.ADVANCED_ATOMIC);

  private static Database open(Fixture f, ProtocolKind kind, String client, ManualExecutor ex) {
    Database db = f.open(f.config().protocol(kind).clientId(client).checkpointExecutor(ex));
    db.attachIndex(ITEMS, BY_OWNER, OWNER);
    return db;
  }

  /**
   * A handle whose every receive from a pending-update queue takes effect but loses its reply:
   * the messages it received stay hidden for the visibility timeout, and nobody knows of them.
   */
  private static Database lostReceives(Fixture f, ProtocolKind kind, long seed) {
    FaultPlan plan =
        FaultPlan.builder()
            .loseReply(
                FaultPlan.Selector.operations(Operation.QUEUE_RECEIVE)
                    .withTargetPrefix(Fixture.DB + "/pu/"),
                1.0)
            .build();
    FaultInterceptor faults = new FaultInterceptor(plan, seed, f.clock);
    return f.open(
        f.config(faults)
            .protocol(kind)
            .clientId("unlucky")
            .checkpointExecutor(new ManualExecutor()));
  }

  private static void create(Database db, long key, String payload) {
    try (Transaction tx = db.begin()) {
      tx.create(ITEMS, Key.of(key), Fixture.bytes(payload));
      tx.commit();
    }
  }

  private static void delete(Database db, long key) {
    try (Transaction tx = db.begin()) {
      assertThat(tx.delete(ITEMS, Key.of(key))).as("key %d exists when deleted", key).isTrue();
      tx.commit();
    }
  }

  private static Optional<String> read(Database db, long key) {
    try (Transaction tx = db.begin()) {
      return tx.read(ITEMS, Key.of(key)).map(Fixture::string);
    }
  }

  private static List<Long> owned(Database db, String owner) {
    try (Transaction tx = db.begin()) {
      return tx.probe(ITEMS, BY_OWNER, Key.of(owner)).stream()
          .map(r -> r.key().decoder().nextLong())
          .toList();
    }
  }

  /** Past every visibility timeout and lease, every queue applied (and recovered), twice. */
  private static void settle(Fixture f, Database db) {
    for (int i = 0; i < 3; i++) {
      f.clock.advance(Duration.ofSeconds(61));
      db.recoverAbandonedClients();
      db.checkpointAll();
    }
    f.clock.advance(Fixture.TTL.plusSeconds(1));
  }

  private static void quietly(Runnable r) {
    try {
      r.run();
    } catch (CloudException | StratusException e) {
      // the injected lost reply: the pass gives up, its messages stay hidden
    }
  }

  @Test
  void aCreateHiddenUntilAfterALaterDeleteDoesNotBringTheKeyBack(@Seed long seed) {
    for (ProtocolKind kind : DURABLE_QUEUES) {
      try (Fixture f = new Fixture(seed)) {
        ManualExecutor exA = new ManualExecutor();
        ManualExecutor exB = new ManualExecutor();
        Database setup = f.open(f.config().protocol(kind).clientId("setup"));
        setup.createCollection(ITEMS);
        setup.createIndex(ITEMS, BY_OWNER, OWNER);
        // a schedules no checkpoint of its own: its create waits in the queue for others'
        Database a =
            f.open(
                f.config()
                    .protocol(kind)
                    .clientId("a")
                    .checkpointExecutor(exA)
                    .checkpointInterval(Duration.ofDays(1)));
        a.attachIndex(ITEMS, BY_OWNER, OWNER);
        Database b = open(f, kind, "b", exB);

        create(a, KEY, "alice:first");
        if (kind.guarantees(Guarantee.ATOMIC)) {
          exA.runQueued(); // propagated to the pending-update queues (not checkpointed: queued)
        }
        quietly(() -> lostReceives(f, kind, seed).checkpointAll()); // a's records now hidden
        f.clock.advance(Duration.ofMillis(1));
        assertThat(read(b, KEY)).as("%s: a's create is out of sight", kind).isEmpty();

        create(b, KEY, "bob:second");
        exB.runAll();
        b.checkpointAll();
        f.clock.advance(Duration.ofMillis(1));
        delete(b, KEY);
        exB.runAll();
        b.checkpointAll();
        f.clock.advance(Fixture.TTL.plusSeconds(1));
        assertThat(read(b, KEY)).as("%s: b's delete applied", kind).isEmpty();

        settle(f, b); // a's create is visible again and applied now
        settle(f, a);
        Database reader = open(f, kind, "reader", new ManualExecutor());
        assertThat(read(reader, KEY))
            .as("%s: a create older than the delete arrived late", kind)
            .isEmpty();
        assertThat(owned(reader, "alice")).as("%s: its index entry", kind).isEmpty();
        assertThat(owned(reader, "bob")).as("%s: the deleted index entry", kind).isEmpty();
        assertThat(read(b, KEY)).as("%s: the deleter", kind).isEmpty();

        create(reader, KEY, "carol:third"); // a create after the delete brings the key back
        settle(f, reader);
        assertThat(read(open(f, kind, "later", new ManualExecutor()), KEY))
            .as("%s: a create after the delete", kind)
            .contains("carol:third");
        assertThat(owned(reader, "carol")).as("%s: its index entry", kind).containsExactly(KEY);
      }
    }
  }
}
