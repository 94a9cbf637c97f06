package io.stratus.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.decorate.CloudMeter;
import io.stratus.cloudapi.decorate.MeterSnapshot;
import io.stratus.cloudapi.decorate.MeteringInterceptor;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.core.query.Query;
import io.stratus.core.query.QueryPage;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What a page of a query costs in cloud requests, on 100 KB pages: the pages it reads and nothing
 * more — a fresh handle reads each page once (the index's root and leaf, the primary tree's root
 * and the leaves of the records it returns); within the TTL the same page costs nothing; the next
 * page only the leaves it moves on to.
 */
@ExtendWith(SeedExtension.class)
class QueryCostTest {
  @Test
  void aQueryPageReadsEachPageOnce(@Seed long seed) {
    Random r = new Random(seed);
    try (Fixture f = new Fixture(seed)) {
      Database loader = f.open(f.config().pageSize(100 * 1024));
      loader.createCollection(QueryTest.PEOPLE);
      List<Record> records = new ArrayList<>();
      for (long k = 0; k < 20_000; k++) {
        records.add(new Record(Key.of(k), QueryTest.person(r.nextInt(QueryTest.GROUPS), k)));
      }
      loader.bulkLoad(QueryTest.PEOPLE, records);
      loader.createIndex(QueryTest.PEOPLE, QueryTest.BY_GROUP, QueryTest.GROUP);

      CloudMeter meter = new CloudMeter();
      Database db = f.open(f.config(new MeteringInterceptor(meter)).pageSize(100 * 1024));
      db.read(tx -> tx.read(QueryTest.PEOPLE, Key.of(0L))); // catalog and primary root, once
      Query byGroup = Query.onIndex(QueryTest.PEOPLE, QueryTest.BY_GROUP).equalTo(Key.of(3L));
      Query byKey = Query.on(QueryTest.PEOPLE).range(KeyRange.atLeast(Key.of(5_000L)));
      for (Query q : List.of(byGroup.limit(50), byKey.limit(50), byKey.limit(1_000))) {
        MeterSnapshot before = meter.snapshot();
        QueryPage<Record> page = db.read(tx -> tx.query(q));
        long cold = meter.snapshot().minus(before).requests();
        before = meter.snapshot();
        db.read(tx -> tx.query(q));
        long warm = meter.snapshot().minus(before).requests();
        before = meter.snapshot();
        db.read(tx -> tx.query(q.after(page.continuation().orElseThrow())));
        long next = meter.snapshot().minus(before).requests();
        System.out.println(
            "[query cost] "
                + q
                + ": first page "
                + cold
                + " requests, again "
                + warm
                + ", next page "
                + next);
        assertThat(page.rows()).hasSize(q.limit());
        assertThat(warm).as("a page again within the TTL").isZero();
        // at most: the index's root and leaf, and one data page per record returned
        assertThat(cold).as("a cold page of %s", q).isLessThanOrEqualTo(2 + q.limit());
      }
    }
  }
}
