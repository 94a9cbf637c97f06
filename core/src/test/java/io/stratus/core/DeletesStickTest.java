package io.stratus.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.StratusException;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.CloudLimits;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.decorate.CallInterceptor;
import io.stratus.cloudapi.decorate.FaultInterceptor;
import io.stratus.cloudapi.decorate.FaultPlan;
import io.stratus.cloudapi.inprocess.QueueBehavior;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageCodec;
import io.stratus.protocols.Guarantee;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.StorageLayout;
import io.stratus.protocols.engine.TombstoneHorizon;
import java.time.Duration;
import java.util.ArrayList;
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
  static final String ITEMS = "items";
  static final String BY_OWNER = "byOwner";
  private static final long KEY = 7;

  /** The search key: the payload's text before the first ':'. */
  static final IndexKeyExtractor OWNER =
      (key, payload) -> {
        String s = Fixture.string(payload);
        int colon = s.indexOf(':');
        return colon < 0 ? Optional.empty() : Optional.of(Key.of(s.substring(0, colon)).toBytes());
      };

  static final List<ProtocolKind> DURABLE_QUEUES =
      List.of(
          ProtocolKind.BASIC,
          ProtocolKind.MONOTONIC,
          ProtocolKind.ATOMIC,
          ProtocolKind.ADVANCED_ATOMIC);

  /** Settings of every handle of a test: the protocol, the client id, maybe encryption. */
  private interface Configs {
    DatabaseConfig.Builder of(Fixture f, CallInterceptor... interceptors);
  }

  private static Configs plain(ProtocolKind kind) {
    return (f, interceptors) -> f.config(interceptors).protocol(kind);
  }

  private static Database open(Fixture f, Configs c, String client, ManualExecutor ex) {
    Database db = f.open(c.of(f).clientId(client).checkpointExecutor(ex));
    db.attachIndex(ITEMS, BY_OWNER, OWNER);
    return db;
  }

  /**
   * A handle whose every receive from a pending-update queue takes effect but loses its reply:
   * the messages it received stay hidden for the visibility timeout, and nobody knows of them.
   */
  private static Database lostReceives(Fixture f, Configs c, long seed) {
    FaultPlan plan =
        FaultPlan.builder()
            .loseReply(
                FaultPlan.Selector.operations(Operation.QUEUE_RECEIVE)
                    .withTargetPrefix(Fixture.DB + "/pu/"),
                1.0)
            .build();
    FaultInterceptor faults = new FaultInterceptor(plan, seed, f.clock);
    return f.open(c.of(f, faults).clientId("unlucky").checkpointExecutor(new ManualExecutor()));
  }

  /** The two writers of the schedule. */
  private record Writers(Database a, Database b) {}

  /**
   * The schedule: a creates {@link #KEY} (with an index entry for "alice"), and another client's
   * receive of its records loses its reply, so they are hidden; b, which does not see a's create,
   * creates the key for the same owner and deletes it (record and index entry), each applied by a
   * checkpoint. The hidden records are visible again once the clock passes the visibility timeout.
   * (Had b created it for another owner, a's index entry would outlive the delete: two creates of
   * one key by clients that do not see each other leave the older one's index entry behind, which
   * the verifier reports and probes skip; docs/reliability.md.)
   */
  private static Writers hiddenCreateThenDelete(
      Fixture f, ProtocolKind kind, Configs c, long seed) {
    ManualExecutor exA = new ManualExecutor();
    ManualExecutor exB = new ManualExecutor();
    Database setup = f.open(c.of(f).clientId("setup"));
    setup.createCollection(ITEMS);
    setup.createIndex(ITEMS, BY_OWNER, OWNER);
    // a schedules no checkpoint of its own: its create waits in the queue for others'
    Database a =
        f.open(
            c.of(f).clientId("a").checkpointExecutor(exA).checkpointInterval(Duration.ofDays(1)));
    a.attachIndex(ITEMS, BY_OWNER, OWNER);
    Database b = open(f, c, "b", exB);

    create(a, KEY, "alice:first");
    if (kind.guarantees(Guarantee.ATOMIC)) {
      exA.runQueued(); // propagated to the pending-update queues (not checkpointed: queued)
    }
    quietly(() -> lostReceives(f, c, seed).admin().checkpointAll()); // a's records now hidden
    f.clock.advance(Duration.ofMillis(1));
    assertThat(read(b, KEY)).as("%s: a's create is out of sight", kind).isEmpty();

    create(b, KEY, "alice:second");
    exB.runAll();
    b.admin().checkpointAll();
    f.clock.advance(Duration.ofMillis(1));
    delete(b, KEY);
    exB.runAll();
    b.admin().checkpointAll();
    f.clock.advance(Fixture.TTL.plusSeconds(1));
    assertThat(read(b, KEY)).as("%s: b's delete applied", kind).isEmpty();
    return new Writers(a, b);
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

  /** The record keys the index lists under {@code owner}. */
  static List<Long> owned(Database db, String owner) {
    try (Transaction tx = db.begin()) {
      return tx.probe(ITEMS, BY_OWNER, Key.of(owner)).stream()
          .map(r -> r.key().decoder().nextLong())
          .toList();
    }
  }

  /** Past every visibility timeout and lease, every queue applied (and recovered), twice. */
  static void settle(Fixture f, Database db) {
    for (int i = 0; i < 3; i++) {
      f.clock.advance(Duration.ofSeconds(61));
      db.admin().recoverAbandonedClients();
      db.admin().checkpointAll();
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
        Configs c = plain(kind);
        Writers w = hiddenCreateThenDelete(f, kind, c, seed);
        settle(f, w.b()); // a's create is visible again and applied now
        settle(f, w.a());
        Database reader = open(f, c, "reader", new ManualExecutor());
        assertThat(read(reader, KEY))
            .as("%s: a create older than the delete arrived late", kind)
            .isEmpty();
        assertThat(owned(reader, "alice")).as("%s: the index entry", kind).isEmpty();
        assertThat(read(w.b(), KEY)).as("%s: the deleter", kind).isEmpty();
        assertThat(read(w.a(), KEY)).as("%s: the late writer itself", kind).isEmpty();
        VerificationReport report = reader.admin().verify();
        assertThat(report.isClean())
            .as("%s: the verifier finds %s", kind, report.findings())
            .isTrue();
        assertThat(report.recordsChecked()).as("%s: a tombstone is no record", kind).isZero();

        create(reader, KEY, "carol:third"); // a create after the delete brings the key back
        settle(f, reader);
        assertThat(read(open(f, c, "later", new ManualExecutor()), KEY))
            .as("%s: a create after the delete", kind)
            .contains("carol:third");
        assertThat(owned(reader, "carol")).as("%s: its index entry", kind).containsExactly(KEY);
      }
    }
  }

  /**
   * Basic has no counters to recognise a duplicate: the queue delivers the create's message once
   * more (its copy reappears after the visibility timeout) after the delete was applied. The copy
   * is older than the delete and changes nothing.
   */
  @Test
  void aDuplicateOfACreateDeliveredAfterTheDeleteDoesNotBringTheKeyBack(@Seed long seed) {
    try (Fixture f = new Fixture(seed, true, new QueueBehavior(false, 0, 1.0))) {
      Configs c = plain(ProtocolKind.BASIC);
      Database setup = f.open(c.of(f).clientId("setup"));
      setup.createCollection(ITEMS);
      setup.createIndex(ITEMS, BY_OWNER, OWNER);
      Database w = open(f, c, "w", new ManualExecutor());
      create(w, KEY, "alice:first");
      w.admin().checkpointAll(); // applied; every message received comes back once more in 30 s
      f.clock.advance(Duration.ofSeconds(1));
      delete(w, KEY);
      w.admin().checkpointAll();
      f.clock.advance(Duration.ofMillis(29_500)); // the create's copy is due, the delete's not yet
      w.admin().checkpointAll();
      f.clock.advance(Fixture.TTL.plusSeconds(1));
      Database reader = open(f, c, "reader", new ManualExecutor());
      assertThat(read(reader, KEY)).as("a duplicate of the create, after the delete").isEmpty();
      assertThat(owned(reader, "alice")).as("its index entry").isEmpty();
    }
  }

  /**
   * A bulk load into the collection the delete emptied rebuilds its trees; the delete's stamp
   * (of a key the load does not hold) is kept, in the primary tree and in the index.
   */
  @Test
  void aBulkLoadAfterTheDeleteKeepsItsStamp(@Seed long seed) {
    ProtocolKind kind = ProtocolKind.MONOTONIC;
    try (Fixture f = new Fixture(seed)) {
      Configs c = plain(kind);
      Writers w = hiddenCreateThenDelete(f, kind, c, seed);
      List<Record> load = new ArrayList<>();
      for (long k = 100; k < 160; k++) {
        load.add(new Record(Key.of(k), Fixture.bytes("dave:loaded-" + k)));
      }
      w.b().bulkLoad(ITEMS, load);
      settle(f, w.b());
      settle(f, w.a());
      Database reader = open(f, c, "reader", new ManualExecutor());
      assertThat(read(reader, KEY)).as("a create older than the delete, after a load").isEmpty();
      assertThat(owned(reader, "alice")).as("its index entry").isEmpty();
      assertThat(owned(reader, "dave")).as("the loaded records").hasSize(60);
    }
  }

  /**
   * A re-seal under a new key rewrites every page, the leaf with the delete's stamp included: the
   * stamp survives it.
   */
  @Test
  void aResealAfterTheDeleteKeepsItsStamp(@Seed long seed) {
    ProtocolKind kind = ProtocolKind.MONOTONIC;
    Keyring k1 =
        Keyring.builder().key("k1", EncryptionTest.material(seed)).defaultKey("k1").build();
    Keyring rotated =
        k1.toBuilder().key("k2", EncryptionTest.material(seed + 1)).defaultKey("k2").build();
    try (Fixture f = new Fixture(seed)) {
      Writers w =
          hiddenCreateThenDelete(f, kind, (g, i) -> plain(kind).of(g, i).encryption(k1), seed);
      ResealReport report =
          DatabaseAdmin.reseal(
              plain(kind).of(f).clientId("ops").encryption(rotated).build(),
              ResealOptions.defaults());
      assertThat(report.rewritten()).as("pages re-sealed").isPositive();
      Configs after = (g, i) -> plain(kind).of(g, i).encryption(rotated);
      Database checkpointer = open(f, after, "checkpointer", new ManualExecutor());
      settle(f, checkpointer); // a's create (sealed with k1, readable with the rotated keyring)
      assertThat(read(open(f, after, "reader", new ManualExecutor()), KEY))
          .as("a create older than the delete, after a re-seal")
          .isEmpty();
    }
  }

  /** The leaf of collection {@code items} that is responsible for {@code key}, from storage. */
  static Page leafOf(Fixture f, String rootUri, byte[] key) {
    Page p = page(f, rootUri);
    while (p.level() > 0) {
      int i = Math.max(0, p.floorIndex(key));
      p = page(f, p.valueText(i));
    }
    while (p.isBeyondHighKey(key)) {
      p = page(f, p.rightSibling().orElseThrow());
    }
    return p;
  }

  private static Page page(Fixture f, String uri) {
    return PageCodec.decode(
        uri, CloudFutures.await(f.services().storage().get(uri)).orElseThrow().payload());
  }

  /**
   * The delete stamp stays in the leaf while an older create may still arrive (queue retention,
   * twice, plus a day), and a checkpoint that changes the leaf after that drops it.
   */
  @Test
  void aDeleteStampIsForgottenOnceNoOlderCreateCanArrive(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Configs c = plain(ProtocolKind.MONOTONIC);
      Database setup = f.open(c.of(f).clientId("setup"));
      setup.createCollection(ITEMS);
      setup.createIndex(ITEMS, BY_OWNER, OWNER);
      Database db = open(f, c, "w", new ManualExecutor());
      create(db, KEY, "alice:first");
      settle(f, db);
      delete(db, KEY);
      settle(f, db);
      String root = new StorageLayout(Fixture.DB).collectionRoot(ITEMS);
      byte[] key = Key.of(KEY).toBytes();
      assertThat(leafOf(f, root, key).tombstoneStamp(key)).as("the delete's stamp").isPositive();

      Duration kept = // as long as an older create may arrive
          CloudLimits.DEFAULT_MESSAGE_RETENTION.multipliedBy(2).plus(TombstoneHorizon.MARGIN);
      f.clock.advance(kept.minusHours(1));
      create(db, KEY + 1, "bob:other"); // a checkpoint changes the leaf
      settle(f, db);
      assertThat(leafOf(f, root, key).tombstoneStamp(key))
          .as("kept while an older create may still arrive")
          .isPositive();

      f.clock.advance(Duration.ofHours(2));
      create(db, KEY + 2, "bob:another");
      settle(f, db);
      Page leaf = leafOf(f, root, key);
      assertThat(leaf.tombstoneStamp(key)).as("forgotten after the horizon").isZero();
      assertThat(read(db, KEY)).isEmpty();
      assertThat(read(db, KEY + 2)).contains("bob:another");
    }
  }
}
