package io.stratus.bench.tpcw.bookstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.InvalidRequestException;
import io.stratus.bench.tpcw.bookstore.Rows.CustomerRow;
import io.stratus.bench.tpcw.bookstore.Rows.ItemRow;
import io.stratus.bench.tpcw.bookstore.Rows.OrderLineRow;
import io.stratus.bench.tpcw.bookstore.Rows.OrderRow;
import io.stratus.cloudapi.decorate.CloudMeter;
import io.stratus.cloudapi.decorate.Decorators;
import io.stratus.cloudapi.decorate.MeterSnapshot;
import io.stratus.cloudapi.decorate.MeteringInterceptor;
import io.stratus.cloudapi.decorate.PriceTables;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.cloudapi.time.ManualClock;
import io.stratus.core.Database;
import io.stratus.core.DatabaseConfig;
import io.stratus.core.Key;
import io.stratus.core.Record;
import io.stratus.protocols.ProtocolKind;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The initial population: cardinalities, relationships, determinism, and the Scale rules. */
@ExtendWith(SeedExtension.class)
class DataGeneratorTest {
  @Test
  void loadsTheSpecifiedCardinalities(@Seed long seed) {
    try (BookstoreFixture f = new BookstoreFixture(seed, ProtocolKind.NAIVE)) {
      Scale s = f.scale;
      Map<String, Long> expected =
          Map.of(
              BookstoreSchema.ITEM,
              100L,
              BookstoreSchema.AUTHOR,
              25L,
              BookstoreSchema.COUNTRY,
              92L,
              BookstoreSchema.CUSTOMER,
              30L,
              BookstoreSchema.ADDRESS,
              60L,
              BookstoreSchema.ORDERS,
              27L,
              BookstoreSchema.ORDER_LINE,
              s.orderLines(),
              BookstoreSchema.CC_XACTS,
              27L,
              BookstoreSchema.SHOPPING_CART,
              0L,
              BookstoreSchema.SHOPPING_CART_LINE,
              0L);
      for (Map.Entry<String, Long> e : expected.entrySet()) {
        assertThat((long) f.all(e.getKey()).size()).as(e.getKey()).isEqualTo(e.getValue());
        assertThat(f.report.rowsPerTable()).containsEntry(e.getKey(), e.getValue());
      }
      assertThat(s.orderLines()).isBetween(27L, 5 * 27L);
      assertThat(f.report.totalRows()).isEqualTo(s.totalRows());
      assertThat(f.progress).isSorted().last().isEqualTo(s.totalRows());
      assertThat(f.report.pagesWritten()).isPositive();
      assertThat(f.report.indexEntries()).isEqualTo(4 * 100 + 25 + 30 + 27);
      assertThat(f.report.elapsed()).isPositive();
    }
  }

  @Test
  void rowsAreConsistentWithEachOther(@Seed long seed) {
    try (BookstoreFixture f = new BookstoreFixture(seed, ProtocolKind.NAIVE)) {
      Set<Long> authorsWithBooks = new HashSet<>();
      for (Record r : f.all(BookstoreSchema.ITEM)) {
        long id = BookstoreKeys.idOf(r.key());
        ItemRow i = ItemRow.decode(r.payload());
        assertThat(i.authorId()).isBetween(1L, 25L);
        authorsWithBooks.add(i.authorId());
        assertThat(i.related()).hasSize(5).doesNotHaveDuplicates().doesNotContain(id);
        assertThat(Arrays.stream(i.related()).allMatch(x -> x >= 1 && x <= 100)).isTrue();
        assertThat(i.stock()).isBetween(10, 30);
        assertThat(i.costCents()).isPositive().isLessThanOrEqualTo(i.srpCents());
        assertThat(Text.SUBJECTS).contains(i.subject());
        assertThat(i.version()).isZero();
      }
      assertThat(authorsWithBooks).as("every author has a book").hasSize(25);
      for (Record r : f.all(BookstoreSchema.CUSTOMER)) {
        long id = BookstoreKeys.idOf(r.key());
        CustomerRow c = CustomerRow.decode(r.payload());
        assertThat(c.userName()).isEqualTo(Text.digSyl(id));
        assertThat(c.addressId()).isBetween(1L, 60L);
      }
      long now = f.clock.millis();
      TreeMap<Long, Integer> linesPerOrder = new TreeMap<>();
      for (Record r : f.all(BookstoreSchema.ORDER_LINE)) {
        long[] parts = BookstoreKeys.orderLineParts(r.key());
        linesPerOrder.merge(parts[0], 1, Integer::sum);
        OrderLineRow l = OrderLineRow.decode(r.payload());
        assertThat(l.itemSubject()).isEqualTo(f.item(l.itemId()).subject());
        assertThat(l.quantity()).isBetween(1, 300);
      }
      List<Record> orders = f.all(BookstoreSchema.ORDERS);
      long previousDate = Long.MIN_VALUE;
      for (Record r : orders) {
        long id = BookstoreKeys.idOf(r.key());
        OrderRow o = OrderRow.decode(r.payload());
        assertThat(linesPerOrder.get(id)).as("lines of order " + id).isBetween(1, 5);
        assertThat(f.read(BookstoreSchema.CC_XACTS, id)).as("payment of " + id).isPresent();
        assertThat(o.customerId()).isBetween(1L, 30L);
        assertThat(o.dateMillis()).isBetween(now - 60L * 86_400_000L, now - 1);
        assertThat(Ids.millisOf(id)).as("ids follow dates").isEqualTo(o.dateMillis());
        assertThat(o.dateMillis()).isGreaterThanOrEqualTo(previousDate);
        previousDate = o.dateMillis();
        assertThat(o.totalCents()).isGreaterThan(o.subTotalCents());
      }
      assertThat(linesPerOrder.keySet()).hasSize(orders.size());
    }
  }

  @Test
  void theSameSeedGivesTheSameDatabase(@Seed long seed) {
    try (BookstoreFixture a = new BookstoreFixture(seed, ProtocolKind.NAIVE);
        BookstoreFixture b = new BookstoreFixture(seed, ProtocolKind.NAIVE)) {
      for (String table : BookstoreSchema.TABLES) {
        List<Record> x = a.all(table);
        List<Record> y = b.all(table);
        assertThat(y).as(table).hasSameSizeAs(x);
        for (int i = 0; i < x.size(); i++) {
          assertThat(y.get(i).key()).isEqualTo(x.get(i).key());
          assertThat(Arrays.equals(y.get(i).payload(), x.get(i).payload())).as(table).isTrue();
        }
      }
    }
  }

  /**
   * Given a meter, the generator reports each table's cloud calls: the ITEM table's (what the
   * papers' Table 4 counts for the products) among them, all within the load's total.
   */
  @Test
  void reportsTheCloudUsageOfEachTable(@Seed long seed) {
    ManualClock clock = new ManualClock();
    CloudMeter meter = new CloudMeter();
    try (InProcessCloud cloud = InProcessCloud.builder().clock(clock).seed(seed).build();
        Database db =
            Database.open(
                BookstoreSchema.configure(
                        DatabaseConfig.builder(
                            Decorators.wrap(cloud.services(), new MeteringInterceptor(meter)),
                            "db/tpcw"))
                    .protocol(ProtocolKind.NAIVE)
                    .clock(clock)
                    .pageSize(8192)
                    .build())) {
      MeterSnapshot before = meter.snapshot();
      LoadReport report =
          new DataGenerator(db, BookstoreFixture.SMALL, seed, clock, meter::snapshot).load();
      MeterSnapshot whole = meter.snapshot().minus(before);

      MeterSnapshot items = report.usage(BookstoreSchema.ITEM);
      assertThat(items.requests())
          .as("pages of the table and its four indexes")
          .isGreaterThanOrEqualTo(5);
      assertThat(items.cost(PriceTables.paper2008()).signum()).isPositive();
      long perTable = 0;
      for (String table :
          List.of(
              BookstoreSchema.ITEM,
              BookstoreSchema.AUTHOR,
              BookstoreSchema.COUNTRY,
              BookstoreSchema.CUSTOMER,
              BookstoreSchema.ADDRESS,
              BookstoreSchema.ORDERS,
              BookstoreSchema.ORDER_LINE,
              BookstoreSchema.CC_XACTS)) {
        assertThat(report.usage(table).requests()).as(table).isPositive();
        perTable += report.usage(table).requests();
      }
      assertThat(report.usage(BookstoreSchema.SHOPPING_CART))
          .as("empty: not loaded")
          .isEqualTo(MeterSnapshot.empty());
      assertThat(perTable)
          .as("the schema's installation is outside the tables")
          .isLessThan(whole.requests());
    }
  }

  @Test
  void withoutAMeterTheUsageIsEmpty(@Seed long seed) {
    try (BookstoreFixture f = new BookstoreFixture(seed, ProtocolKind.NAIVE)) {
      assertThat(f.report.usage(BookstoreSchema.ITEM)).isEqualTo(MeterSnapshot.empty());
      assertThat(f.report.usagePerTable()).containsKey(BookstoreSchema.ITEM);
    }
  }

  @Test
  void loadingTwiceIsRefused(@Seed long seed) {
    try (BookstoreFixture f = new BookstoreFixture(seed, ProtocolKind.NAIVE)) {
      assertThat(BookstoreSchema.isEmpty(f.db)).isFalse();
      assertThatThrownBy(() -> new DataGenerator(f.db, f.scale, seed, f.clock).load(n -> {}))
          .isInstanceOf(InvalidRequestException.class);
    }
  }

  @Test
  void indexesFindTheLoadedRows(@Seed long seed) {
    try (BookstoreFixture f = new BookstoreFixture(seed, ProtocolKind.NAIVE)) {
      try (var tx = f.db.begin()) {
        assertThat(
                tx.probe(
                    BookstoreSchema.CUSTOMER,
                    BookstoreSchema.CUSTOMER_BY_UNAME,
                    Key.of(Text.digSyl(7))))
            .extracting(Record::key)
            .containsExactly(Key.of(7L));
        for (String table : List.of(BookstoreSchema.ITEM)) {
          for (String index :
              List.of(
                  BookstoreSchema.ITEM_BY_TITLE,
                  BookstoreSchema.ITEM_BY_AUTHOR,
                  BookstoreSchema.ITEM_BY_SUBJECT,
                  BookstoreSchema.ITEM_BY_SUBJECT_DATE)) {
            assertThat(tx.probeRange(table, index, io.stratus.core.KeyRange.all()))
                .as(index)
                .hasSize(100);
          }
        }
      }
    }
  }

  @Test
  void scaleFollowsTheSpecificationAndRejectsBadValues() {
    Scale s = Scale.of(10_000, 10);
    assertThat(s.customersPerEb()).isEqualTo(2_880);
    assertThat(s.customers()).isEqualTo(28_800);
    assertThat(s.authors()).isEqualTo(2_500);
    assertThat(s.addresses()).isEqualTo(57_600);
    assertThat(s.orders()).isEqualTo(25_920);
    assertThat(s.ccXacts()).isEqualTo(25_920);
    assertThat(s.orderLines()).isBetween(25_920L * 29 / 10, 25_920L * 31 / 10);
    assertThat(s.totalRows())
        .isEqualTo(10_000 + 2_500 + 92 + 28_800 + 57_600 + 25_920 + s.orderLines() + 25_920);
    assertThatThrownBy(() -> new Scale(5, 1, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least 20 items");
    assertThatThrownBy(() -> new Scale(1000, 0, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("EBs");
    assertThatThrownBy(() -> new Scale(1000, 1, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("customers per EB");
  }

  @Test
  void digSylSpellsDigits() {
    assertThat(Text.digSyl(0)).isEqualTo("BA");
    assertThat(Text.digSyl(371)).isEqualTo("RIULOG");
    assertThatThrownBy(() -> Text.digSyl(-1)).isInstanceOf(IllegalArgumentException.class);
  }
}
