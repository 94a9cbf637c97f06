package io.stratus.core;

import static io.stratus.core.Fixture.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.btree.SecondaryKeys;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.QueueBacklog;
import io.stratus.cloudapi.StorageService;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.core.Finding.Kind;
import io.stratus.core.Finding.Severity;
import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageCodec;
import io.stratus.pagemanager.PageKind;
import io.stratus.protocols.DeadLetters;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.StorageLayout;
import io.stratus.protocols.log.LogMessages;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The verifier reports a clean database as clean and finds each kind of damage it claims to
 * detect, planted behind the database's back in storage, while the scan goes on past it.
 */
@ExtendWith(SeedExtension.class)
class VerifierTest {
  private static final StorageLayout LAYOUT = new StorageLayout(Fixture.DB);
  private static final String ITEMS = LAYOUT.collectionRoot("items");
  private static final String INDEX = LAYOUT.indexRoot("items", "byCategory");
  private static final int RECORDS = 300;

  /** A naive database with "items" (a tree of several levels), an index on it, and "other". */
  private static Database build(Fixture f, long seed) {
    Database db = f.open(f.config().indexExtractor("items", "byCategory", Fixture.BY_CATEGORY));
    db.createCollection("items");
    db.createIndex("items", "byCategory", Fixture.BY_CATEGORY);
    db.createCollection("other");
    Random r = new Random(seed);
    for (int batch = 0; batch < RECORDS / 30; batch++) {
      try (Transaction tx = db.begin()) {
        for (int i = 0; i < 30; i++) {
          byte[] payload = new byte[20];
          r.nextBytes(payload);
          tx.create("items", Key.of((long) batch * 30 + i), payload);
        }
        tx.create("other", Key.of((long) batch), bytes("o" + batch));
        tx.commit();
      }
    }
    return db;
  }

  @Test
  void aCleanDatabaseIsReportedClean(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database db = build(f, seed);

      VerificationReport report = db.admin().verify();

      assertThat(report.findings()).isEmpty();
      assertThat(report.isClean()).isTrue();
      assertThat(report.worst()).isNull();
      assertThat(report.treesChecked()).isEqualTo(3);
      assertThat(report.recordsChecked()).isGreaterThan(RECORDS + RECORDS / 30);
      assertThat(read(f, ITEMS).level()).as("several levels").isGreaterThanOrEqualTo(2);
      assertThat(report.pagesChecked()).isGreaterThan(10);
    }
  }

  @Test
  void aCorruptPageIsAFindingAndTheScanGoesOn(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database db = build(f, seed);
      Page leaf = leaves(f, ITEMS).get(2);
      byte[] garbage = PageCodec.encode(leaf);
      garbage[garbage.length / 2] ^= 0x5a;
      CloudFutures.await(f.services().storage().put(leaf.uri(), garbage, Map.of()));

      VerificationReport report = db.admin().verify();

      assertThat(report.findings(Severity.ERROR))
          .extracting(Finding::kind, Finding::uri)
          .contains(org.assertj.core.groups.Tuple.tuple(Kind.CORRUPT_PAGE, leaf.uri()));
      assertThat(report.worst()).isEqualTo(Severity.ERROR);
      assertThat(report.treesChecked()).isEqualTo(3);
      assertThat(report.count(Kind.INDEX_NOT_CHECKED))
          .as("the index is not compared with a" + " collection read in part")
          .isEqualTo(1);
      assertThat(report.findings()).noneMatch(x -> x.kind() == Kind.INDEX_ENTRY_WITHOUT_RECORD);
    }
  }

  @Test
  void aBrokenSiblingLinkIsFound(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database db = build(f, seed);
      List<Page> leaves = leaves(f, ITEMS);
      assertThat(leaves).hasSizeGreaterThan(4);
      Page first = leaves.get(1);
      Page skipped = leaves.get(2);
      write(f, first.toBuilder().rightSibling(leaves.get(3).uri()).build());

      VerificationReport report = db.admin().verify();

      assertThat(report.count(Kind.SIBLING_MISMATCH)).isEqualTo(1);
      assertThat(report.findings())
          .anySatisfy(
              x -> {
                assertThat(x.kind()).isEqualTo(Kind.UNREACHABLE_NODE);
                assertThat(x.uri()).isEqualTo(skipped.uri());
                assertThat(x.severity()).isEqualTo(Severity.ERROR);
              });
    }
  }

  @Test
  void aKeyBeyondItsPagesHighKeyIsFound(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database db = build(f, seed);
      Page leaf = leaves(f, ITEMS).get(0);
      byte[] beyond = leaf.highKey().orElseThrow();
      write(f, leaf.withPut(beyond, bytes("misplaced")));

      VerificationReport report = db.admin().verify();

      assertThat(report.findings())
          .anySatisfy(
              x -> {
                assertThat(x.kind()).isEqualTo(Kind.KEY_OUT_OF_RANGE);
                assertThat(x.uri()).isEqualTo(leaf.uri());
              });
    }
  }

  @Test
  void aRecordDeletedBehindItsIndexAndAnEntryDroppedFromTheIndexAreFound(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database db = build(f, seed);
      Page dataLeaf = leaves(f, ITEMS).get(1);
      byte[] gone = null;
      for (int i = 0; i < dataLeaf.entryCount() && gone == null; i++) {
        if (Fixture.BY_CATEGORY.extract(dataLeaf.key(i), dataLeaf.value(i)).isPresent()) {
          gone = dataLeaf.key(i);
        }
      }
      write(f, dataLeaf.withRemoved(gone));
      Page indexLeaf = leaves(f, INDEX).get(0);
      // An entry of another record: dropping the deleted record's own entry would leave nothing
      // to find.
      int first = 0;
      while (Arrays.equals(SecondaryKeys.recordKey(indexLeaf.key(first)), gone)) {
        first++;
      }
      byte[] dropped = indexLeaf.key(first);
      write(f, indexLeaf.withRemoved(dropped));

      VerificationReport report = db.admin().verify();

      byte[] goneKey = gone;
      assertThat(report.findings(Severity.ERROR))
          .anySatisfy(
              x -> {
                assertThat(x.kind()).isEqualTo(Kind.INDEX_ENTRY_WITHOUT_RECORD);
                assertThat(x.message()).contains(TreeWalk.show(goneKey));
              });
      assertThat(report.findings(Severity.ERROR))
          .anySatisfy(
              x -> {
                assertThat(x.kind()).isEqualTo(Kind.RECORD_MISSING_FROM_INDEX);
                assertThat(x.uri()).isEqualTo(INDEX);
                assertThat(x.message()).contains(TreeWalk.show(SecondaryKeys.recordKey(dropped)));
              });

      // Without the extractor, entries without records are still found; missing ones are not.
      VerificationReport bare = DatabaseAdmin.verify(f.config().build(), VerifyOptions.defaults());
      assertThat(bare.count(Kind.INDEX_ENTRY_WITHOUT_RECORD)).isEqualTo(1);
      assertThat(bare.count(Kind.RECORD_MISSING_FROM_INDEX)).isZero();
      assertThat(bare.count(Kind.INDEX_NOT_CHECKED)).isEqualTo(1);
    }
  }

  @Test
  void aMissingRootAndARootWithoutCatalogEntryAreFound(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database db = build(f, seed);
      String otherRoot = LAYOUT.collectionRoot("other");
      CloudFutures.await(f.services().storage().delete(otherRoot));
      String ghost = LAYOUT.collectionRoot("ghost");
      write(f, Page.builder(ghost, PageKind.LEAF).build());

      VerificationReport report = db.admin().verify();

      assertThat(report.findings())
          .extracting(Finding::kind, Finding::uri, Finding::severity)
          .contains(
              org.assertj.core.groups.Tuple.tuple(Kind.MISSING_ROOT, otherRoot, Severity.ERROR),
              org.assertj.core.groups.Tuple.tuple(Kind.ORPHAN_ROOT, ghost, Severity.WARNING));
    }
  }

  @Test
  void aDamagedCatalogIsFoundAndTheTreesAreStillChecked(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      build(f, seed);
      CloudFutures.await(
          f.services().storage().put(LAYOUT.catalog(), bytes("not a page"), Map.of()));

      VerificationReport report =
          DatabaseAdmin.verify(f.config().build(), VerifyOptions.defaults());

      assertThat(report.count(Kind.CATALOG_CORRUPT)).isEqualTo(1);
      assertThat(report.treesChecked()).isEqualTo(3);
      assertThat(report.findings()).noneMatch(x -> x.kind() == Kind.ORPHAN_ROOT);
    }
  }

  @Test
  void aLateBacklogIsReportedWithoutConsumingIt(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database db =
          f.open(
              f.config()
                  .protocol(ProtocolKind.MONOTONIC)
                  .clientId("a")
                  .checkpointInterval(Duration.ofSeconds(30))
                  .checkpointExecutor(new ManualExecutor()));
      BasicProtocolTest.load(db, 10);
      BasicProtocolTest.update(db, 3, "x1");
      VerifyOptions peek = VerifyOptions.builder().peekPerQueue(5).build();

      VerificationReport fresh = db.admin().verify(peek);
      assertThat(fresh.isClean()).as(fresh.findings().toString()).isTrue();
      QueueBacklog queue =
          fresh.queues().stream().filter(q -> q.messages() > 0).findFirst().orElseThrow();
      assertThat(queue.peeked()).hasSize(1);

      f.clock.advance(Duration.ofMinutes(6)); // more than 10 intervals of 30 s
      VerificationReport late = db.admin().verify();
      assertThat(late.findings())
          .singleElement()
          .satisfies(
              x -> {
                assertThat(x.kind()).isEqualTo(Kind.QUEUE_BACKLOG);
                assertThat(x.severity()).isEqualTo(Severity.WARNING);
                assertThat(x.uri()).isEqualTo(queue.uri());
              });

      f.clock.advance(Duration.ofDays(2)); // beyond half the 4-day retention
      VerificationReport old = db.admin().verify();
      assertThat(old.count(Kind.QUEUE_NEAR_RETENTION)).isEqualTo(1);

      // Verifying took nothing from the queue: a checkpoint still applies the update.
      assertThat(db.admin().checkpointAll().recordsApplied()).isEqualTo(1);
      assertThat(BasicProtocolTest.read(db, 3)).isEqualTo("x1");
      assertThat(db.admin().verify().isClean()).isTrue();
    }
  }

  /**
   * The snapshot archive and the advanced atomicity queues are read too, without effect: their
   * messages are counted, an archived record no checkpoint applied long after every snapshot could
   * need it is a backlog warning, and a commit record older than twice the atomic timeout is one
   * naming recovery.
   */
  @Test
  void theArchiveAndTheAdvancedAtomicityQueuesAreCheckedWithoutConsumingThem(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database db =
          f.open(
              f.config()
                  .protocol(ProtocolKind.SNAPSHOT_ISOLATION)
                  .clientId("a")
                  .checkpointExecutor(new ManualExecutor()));
      BasicProtocolTest.load(db, 10);
      BasicProtocolTest.update(db, 3, "x1");

      VerificationReport fresh = db.admin().verify();
      assertThat(fresh.isClean()).as(fresh.findings().toString()).isTrue();
      QueueBacklog archive =
          fresh.queues().stream()
              .filter(q -> q.uri().startsWith(LAYOUT.archivePrefix()) && q.messages() > 0)
              .findFirst()
              .orElseThrow();
      assertThat(archive.retention()).isEqualTo(QueueBacklog.KEPT_UNTIL_DELETED);
      assertThat(fresh.queues()).extracting(QueueBacklog::uri).contains(LAYOUT.advancedAtomicLog());

      f.clock.advance(Duration.ofHours(1));
      VerificationReport late = db.admin().verify();
      assertThat(late.findings())
          .anySatisfy(
              x -> {
                assertThat(x.kind()).isEqualTo(Kind.QUEUE_BACKLOG);
                assertThat(x.uri()).isEqualTo(archive.uri());
                assertThat(x.message()).contains("run checkpoint-all");
              });

      // A commit record whose client stopped before recovery could finish it.
      f.services()
          .advancedQueues()
          .send(LAYOUT.advancedAtomicCommits(), bytes("a stopped client's commit"), 7)
          .join();
      f.clock.advance(Duration.ofHours(1));
      assertThat(db.admin().verify().findings())
          .anySatisfy(
              x -> {
                assertThat(x.kind()).isEqualTo(Kind.QUEUE_BACKLOG);
                assertThat(x.uri()).isEqualTo(LAYOUT.advancedAtomicCommits());
                assertThat(x.message()).contains("run recover");
              });

      // Verifying takes nothing from the archive; the update is still there to read.
      int before =
          f.services().advancedQueues().receiveAfterId(archive.uri(), 1_000, 0).join().size();
      db.admin().verify();
      assertThat(f.services().advancedQueues().receiveAfterId(archive.uri(), 1_000, 0).join())
          .hasSize(before);
      assertThat(BasicProtocolTest.read(db, 3)).isEqualTo("x1");
    }
  }

  /** An encrypted database's queues are inspected too, and their peeked records come out opened. */
  @Test
  void theBacklogOfAnEncryptedDatabaseIsInspected(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database db =
          f.open(
              f.config()
                  .protocol(ProtocolKind.BASIC)
                  .clientId("a")
                  .encryption(EncryptionTest.keyring(seed))
                  .checkpointExecutor(new ManualExecutor()));
      BasicProtocolTest.load(db, 10);
      BasicProtocolTest.update(db, 3, "x1");

      VerificationReport report =
          db.admin().verify(VerifyOptions.builder().peekPerQueue(5).build());

      assertThat(report.count(Kind.QUEUE_NOT_INSPECTABLE)).isZero();
      assertThat(report.isClean()).as(report.findings().toString()).isTrue();
      QueueBacklog queue =
          report.queues().stream().filter(q -> q.messages() > 0).findFirst().orElseThrow();
      assertThat(LogMessages.unpack(queue.peeked().get(0).payload()))
          .singleElement()
          .satisfies(r -> assertThat(r.change().value()).isEqualTo(Fixture.bytes("x1")));
    }
  }

  @Test
  void deadLettersAreReported(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database db = build(f, seed);
      String queue = LAYOUT.pendingUpdatePrefix() + "t/x";
      CloudFutures.await(
          f.services()
              .storage()
              .put(
                  LAYOUT.deadLetter(queue, "m-1"),
                  DeadLetters.encode(queue, "m-1", "bad checksum", 0, new byte[] {1, 2}),
                  java.util.Map.of()));

      VerificationReport report = db.admin().verify();

      assertThat(report.findings())
          .singleElement()
          .satisfies(
              x -> {
                assertThat(x.kind()).isEqualTo(Kind.DEAD_LETTER);
                assertThat(x.severity()).isEqualTo(Severity.WARNING);
                assertThat(x.message()).contains("bad checksum");
              });
    }
  }

  @Test
  void findingsBeyondTheLimitAreCountedNotListed(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database db = build(f, seed);
      List<Page> leaves = leaves(f, ITEMS);
      for (Page leaf : leaves.subList(0, 3)) {
        CloudFutures.await(f.services().storage().put(leaf.uri(), bytes("x"), Map.of()));
      }

      VerificationReport report =
          db.admin().verify(VerifyOptions.builder().maxFindingsPerKind(1).build());

      assertThat(report.count(Kind.CORRUPT_PAGE)).isEqualTo(3);
      assertThat(report.findings()).filteredOn(x -> x.kind() == Kind.CORRUPT_PAGE).hasSize(1);
      assertThat(report.suppressed()).isGreaterThanOrEqualTo(2);
    }
  }

  // ---- storage helpers ----

  static Page read(Fixture f, String uri) {
    return PageCodec.decode(
        uri, CloudFutures.await(f.services().storage().get(uri)).orElseThrow().payload());
  }

  static void write(Fixture f, Page page) {
    StorageService s = f.services().storage();
    CloudFutures.await(s.put(page.uri(), PageCodec.encode(page), Map.of()));
  }

  /** The leaves of a tree, left to right, as storage holds them. */
  static List<Page> leaves(Fixture f, String root) {
    Page p = read(f, root);
    while (p.level() > 0) {
      p = read(f, p.valueText(0));
    }
    List<Page> out = new ArrayList<>(List.of(p));
    while (p.rightSibling().isPresent()) {
      p = read(f, p.rightSibling().get());
      out.add(p);
    }
    return out;
  }

  static boolean same(byte[] a, byte[] b) {
    return Arrays.equals(a, b);
  }
}
