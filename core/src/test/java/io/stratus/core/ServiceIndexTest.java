package io.stratus.core;

import static io.stratus.core.QueryTest.BY_GROUP;
import static io.stratus.core.QueryTest.GROUP;
import static io.stratus.core.QueryTest.PEOPLE;
import static io.stratus.core.QueryTest.person;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.CommitFailedException;
import io.stratus.InvalidConfigurationException;
import io.stratus.InvalidRequestException;
import io.stratus.RecordTooLargeException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.IndexItem;
import io.stratus.cloudapi.IndexQuery;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.decorate.CloudMeter;
import io.stratus.cloudapi.decorate.FaultInterceptor;
import io.stratus.cloudapi.decorate.FaultPlan;
import io.stratus.cloudapi.decorate.MeterSnapshot;
import io.stratus.cloudapi.decorate.MeteringInterceptor;
import io.stratus.cloudapi.inprocess.IndexBehavior;
import io.stratus.cloudapi.inprocess.QueueBehavior;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.core.query.Continuation;
import io.stratus.core.query.Query;
import io.stratus.core.query.QueryPage;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.StorageLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Indexes held by the index service, on 1 KB pages: the placement recorded in the catalog and
 * refused without a service; entries put at commit (one request for a commit's entries of one
 * index, none for a commit that moves no entry) and read a page per request; failed and lost
 * puts at commit leave nothing visible; lagging queries; verify.
 */
@ExtendWith(SeedExtension.class)
class ServiceIndexTest {

  private static long id(Record r) {
    return r.key().decoder().nextLong();
  }

  private static void people(Database db, int n) {
    db.createCollection(PEOPLE);
    List<Record> records = new ArrayList<>();
    for (long k = 0; k < n; k++) {
      records.add(new Record(Key.of(k), person(k % QueryTest.GROUPS, k)));
    }
    db.bulkLoad(PEOPLE, records);
  }

  @Test
  void thePlacementIsRecordedAndAnotherHandleReadsIt(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database db = f.open();
      people(db, 30);
      assertThat(db.createIndex(PEOPLE, BY_GROUP, GROUP, IndexPlacement.INDEX_SERVICE)).isTrue();
      assertThat(db.createIndex(PEOPLE, BY_GROUP, GROUP, IndexPlacement.INDEX_SERVICE)).isFalse();
      assertThatThrownBy(() -> db.createIndex(PEOPLE, BY_GROUP, GROUP))
          .isInstanceOf(InvalidRequestException.class)
          .hasMessageContaining("INDEX_SERVICE");
      String domain = new StorageLayout(Fixture.DB).indexDomain(PEOPLE, BY_GROUP);
      assertThat(
              CloudFutures.await(
                      f.services().index().query(domain, IndexQuery.on(ServiceEntries.ATTRIBUTE)))
                  .items())
          .as("filled from the records at creation")
          .hasSize(30);

      Database other = f.open(f.config().indexExtractor(PEOPLE, BY_GROUP, GROUP));
      assertThat(probe(other, BY_GROUP, Key.of(3L))).containsExactly(3L, 13L, 23L);
      DatabaseOverview overview =
          DatabaseAdmin.overview(f.config().build(), DatabaseOverview.Depth.PAGES);
      assertThat(overview.collections().get(0).indexes())
          .containsExactly(
              new DatabaseOverview.IndexOverview(BY_GROUP, 0, IndexPlacement.INDEX_SERVICE));
      assertThat(other.admin().verify().isClean())
          .as("%s", other.admin().verify().findings())
          .isTrue();
    }
  }

  @Test
  void aCloudWithoutAnIndexServiceIsRefusedWithWhatToDo(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      CloudServices s = f.services();
      CloudServices without =
          CloudServices.builder()
              .storage(s.storage())
              .simpleQueues(s.simpleQueues())
              .advancedQueues(s.advancedQueues())
              .locks(s.locks())
              .counters(s.counters())
              .build();
      Database db =
          f.open(
              DatabaseConfig.builder(without, Fixture.DB)
                  .protocol(ProtocolKind.NAIVE)
                  .clock(f.clock)
                  .pageSize(Fixture.PAGE_SIZE)
                  .ttl(Fixture.TTL));
      people(db, 3);
      assertThatThrownBy(
              () -> db.createIndex(PEOPLE, BY_GROUP, GROUP, IndexPlacement.INDEX_SERVICE))
          .isInstanceOf(InvalidConfigurationException.class)
          .hasMessageContaining("CloudServices.Builder.index")
          .hasMessageContaining("CLIENT_TREE");
      assertThat(db.indexes(PEOPLE)).as("nothing recorded").isEmpty();
    }
  }

  @Test
  void commitsPutEntriesAndQueriesReadAPagePerRequest(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      CloudMeter meter = new CloudMeter();
      Database db =
          f.open(f.config(new MeteringInterceptor(meter)).protocol(ProtocolKind.MONOTONIC));
      people(db, 200);
      db.createIndex(PEOPLE, BY_GROUP, GROUP, IndexPlacement.INDEX_SERVICE);
      MeterSnapshot before = meter.snapshot();
      db.run(
          tx -> {
            for (long k = 1000; k < 1010; k++) {
              tx.create(PEOPLE, Key.of(k), person(3, k));
            }
            return null;
          });
      MeterSnapshot commit = meter.snapshot().minus(before);
      long puts = indexRequests(commit);
      System.out.println("[service index] a commit of 10 creates: " + puts + " index requests");
      assertThat(puts).as("one batch put for ten entries").isEqualTo(1);

      before = meter.snapshot();
      db.run(tx -> tx.update(PEOPLE, Key.of(1000L), Fixture.bytes("3:renamed")));
      assertThat(indexRequests(meter.snapshot().minus(before)))
          .as("an update keeping the search key puts nothing")
          .isZero();
      db.run(tx -> tx.update(PEOPLE, Key.of(1001L), person(4, 1001)));
      db.run(tx -> tx.delete(PEOPLE, Key.of(1002L)));

      Query q = Query.onIndex(PEOPLE, BY_GROUP).equalTo(Key.of(3L)).limit(10);
      before = meter.snapshot();
      QueryPage<Record> page = db.read(tx -> tx.query(q));
      long queries = indexRequests(meter.snapshot().minus(before));
      System.out.println("[service index] a query page of 10: " + queries + " index requests");
      assertThat(queries).as("one request per page").isEqualTo(1);
      List<Long> all = new ArrayList<>();
      page.rows().forEach(r -> all.add(id(r)));
      Optional<Continuation> next = page.continuation();
      while (next.isPresent()) {
        Query after = q.after(next.get());
        QueryPage<Record> p = db.read(tx -> tx.query(after));
        p.rows().forEach(r -> all.add(id(r)));
        next = p.continuation();
      }
      List<Long> expected = new ArrayList<>();
      for (long k = 3; k < 200; k += 10) {
        expected.add(k);
      }
      expected.addAll(List.of(1000L, 1003L, 1004L, 1005L, 1006L, 1007L, 1008L, 1009L));
      assertThat(all).as("moved and deleted records dropped").isEqualTo(expected);
      assertThat(probe(db, BY_GROUP, Key.of(4L))).contains(1001L);
      VerificationReport report = db.admin().verify();
      assertThat(report.findings(Finding.Severity.ERROR)).isEmpty();
      assertThat(report.count(Finding.Kind.STALE_INDEX_ENTRY))
          .as("the stale entries, counted")
          .isEqualTo(1);
    }
  }

  /**
   * Requests of a commit of ten creates and of a cold and a warm query page of ten, with the index
   * in a tree and in the service (printed for docs/protocols.md; the service's commit puts its
   * entries in one request, its query page is one index request however warm).
   */
  @Test
  void requestsPerCommitAndQueryPageBothWays(@Seed long seed) {
    for (IndexPlacement placement : IndexPlacement.values()) {
      try (Fixture f = new Fixture(seed)) {
        Database loader = f.open(f.config().protocol(ProtocolKind.MONOTONIC));
        people(loader, 200);
        loader.createIndex(PEOPLE, BY_GROUP, GROUP, placement);
        CloudMeter meter = new CloudMeter();
        Database db =
            f.open(
                f.config(new MeteringInterceptor(meter))
                    .protocol(ProtocolKind.MONOTONIC)
                    .indexExtractor(PEOPLE, BY_GROUP, GROUP));
        db.read(tx -> tx.read(PEOPLE, Key.of(0L)));
        MeterSnapshot before = meter.snapshot();
        db.run(
            tx -> {
              for (long k = 1000; k < 1010; k++) {
                tx.create(PEOPLE, Key.of(k), person(3, k));
              }
              return null;
            });
        long commit = meter.snapshot().minus(before).requests();
        Query q = Query.onIndex(PEOPLE, BY_GROUP).equalTo(Key.of(5L)).limit(10);
        before = meter.snapshot();
        QueryPage<Record> cold = db.read(tx -> tx.query(q));
        long coldRequests = meter.snapshot().minus(before).requests();
        before = meter.snapshot();
        db.read(tx -> tx.query(q));
        MeterSnapshot warm = meter.snapshot().minus(before);
        System.out.println(
            "[service index] "
                + placement
                + ": commit of 10 creates "
                + commit
                + " requests; query page of 10: cold "
                + coldRequests
                + ", warm "
                + warm.requests()
                + " ("
                + indexRequests(warm)
                + " to the index service)");
        assertThat(cold.rows()).hasSize(10);
        assertThat(indexRequests(warm))
            .isEqualTo(placement == IndexPlacement.INDEX_SERVICE ? 1 : 0);
      }
    }
  }

  private static List<Long> probe(Database db, String index, Key searchKey) {
    List<Record> found = db.read(tx -> tx.probe(PEOPLE, index, searchKey));
    return found.stream().map(ServiceIndexTest::id).toList();
  }

  private static long indexRequests(MeterSnapshot s) {
    return s.total(Operation.Service.INDEX).calls();
  }

  @Test
  void aFailedOrLostPutAtCommitLeavesNothingVisible(@Seed long seed) {
    for (FaultPlan.Fault fault :
        List.of(FaultPlan.Fault.unavailable(), FaultPlan.Fault.loseReply())) {
      try (Fixture f = new Fixture(seed)) {
        Database setup = f.open(f.config().protocol(ProtocolKind.MONOTONIC));
        people(setup, 20);
        setup.createIndex(PEOPLE, BY_GROUP, GROUP, IndexPlacement.INDEX_SERVICE);
        FaultPlan plan = FaultPlan.builder().onNthCall(Operation.INDEX_PUT, "", 1, fault).build();
        Database db =
            f.open(
                f.config(new FaultInterceptor(plan, seed, f.clock))
                    .protocol(ProtocolKind.MONOTONIC)
                    .indexExtractor(PEOPLE, BY_GROUP, GROUP));
        Transaction tx = db.begin();
        tx.create(PEOPLE, Key.of(500L), person(3, 500));
        assertThatThrownBy(tx::commit)
            .as("%s seed %d", fault, seed)
            .isInstanceOf(CommitFailedException.class)
            .matches(e -> ((CommitFailedException) e).isRetryable());
        f.clock.advance(Fixture.TTL.plusSeconds(1));
        setup.admin().checkpointAll();
        Optional<byte[]> gone = db.read(tx2 -> tx2.read(PEOPLE, Key.of(500L)));
        assertThat(gone).isEmpty();
        assertThat(probe(db, BY_GROUP, Key.of(3L)))
            .as("a put that may have landed names no record")
            .containsExactly(3L, 13L);
        db.run(t -> t.put(PEOPLE, Key.of(500L), person(3, 500))); // retried: commits
        assertThat(probe(db, BY_GROUP, Key.of(3L))).containsExactly(3L, 13L, 500L);
      }
    }
  }

  @Test
  void lateQueriesShowACommitOnceTheServiceCaughtUp(@Seed long seed) {
    try (Fixture f =
        new Fixture(
            seed,
            true,
            QueueBehavior.reliable(),
            b -> b.indexBehavior(IndexBehavior.eventual(Duration.ofSeconds(2))))) {
      Database db = f.open(f.config().indexExtractor(PEOPLE, BY_GROUP, GROUP));
      people(db, 10);
      db.createIndex(PEOPLE, BY_GROUP, GROUP, IndexPlacement.INDEX_SERVICE);
      f.clock.advance(Duration.ofSeconds(3));
      db.run(tx -> tx.put(PEOPLE, Key.of(33L), person(3, 33)));
      List<Long> now = probe(db, BY_GROUP, Key.of(3L));
      assertThat(now).as("a query may lag, never shows a record wrongly").isSubsetOf(3L, 33L);
      f.clock.advance(Duration.ofSeconds(3));
      assertThat(probe(db, BY_GROUP, Key.of(3L))).containsExactly(3L, 33L);
    }
  }

  @Test
  void anEntryTheServiceCannotHoldIsRefusedBeforeAnythingChanges(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database db = f.open(f.config().pageSize(16 * 1024));
      db.createCollection(PEOPLE);
      db.createIndex(PEOPLE, "byPayload", (k, p) -> Optional.of(p), IndexPlacement.INDEX_SERVICE);
      try (Transaction tx = db.begin()) {
        assertThatThrownBy(() -> tx.create(PEOPLE, Key.of(1L), new byte[600]))
            .isInstanceOf(RecordTooLargeException.class)
            .hasMessageContaining("index service");
        tx.create(PEOPLE, Key.of(2L), new byte[10]);
        tx.commit();
      }
      assertThat(probe(db, "byPayload", Key.ofBytes(new byte[10]))).hasSize(1);
    }
  }

  @Test
  void anItemWithoutTheEntryAttributeIsNamedNotDecoded() {
    byte[] composite = {1, 2, 3};
    assertThat(ServiceEntries.composite(ServiceEntries.item(composite))).isEqualTo(composite);
    assertThatThrownBy(() -> ServiceEntries.composite(IndexItem.of("foreign", "other", "0102")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("index item foreign has no attribute " + ServiceEntries.ATTRIBUTE);
  }
}
