package io.stratus.bench.tpcw.bookstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.bench.tpcw.bookstore.Rows.CcXactRow;
import io.stratus.bench.tpcw.bookstore.Rows.ItemRow;
import io.stratus.bench.tpcw.bookstore.Rows.OrderLineRow;
import io.stratus.bench.tpcw.bookstore.Rows.OrderRow;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.core.Record;
import io.stratus.core.Transaction;
import io.stratus.protocols.ProtocolKind;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Paper 001's complex transaction on a tiny bookstore: what it reads and what it writes. */
@ExtendWith(SeedExtension.class)
class ComplexOrderTest {

  @Test
  void aPlanSearchesSixDistinctProductsAndOrdersThreeOfThem(@Seed long seed) {
    Scale scale = BookstoreFixture.SMALL;
    ComplexOrder orders = new ComplexOrder(scale, seed);
    for (int i = 0; i < 200; i++) {
      ComplexOrder.Plan p = orders.next();
      assertThat(p.customerId()).isBetween(1L, scale.customers());
      assertThat(p.searched()).hasSize(ComplexOrder.SEARCHED).doesNotHaveDuplicates();
      assertThat(Arrays.stream(p.searched())).allMatch(id -> id >= 1 && id <= scale.items());
      assertThat(p.ordered()).hasSize(ComplexOrder.ORDERED).doesNotHaveDuplicates();
      assertThat(Arrays.stream(p.ordered())).allMatch(k -> k >= 0 && k < ComplexOrder.SEARCHED);
      assertThat(p.quantities()).hasSize(ComplexOrder.ORDERED);
      assertThat(Arrays.stream(p.quantities())).allMatch(q -> q >= 1 && q <= 5);
      assertThat(p.orderedItems()).hasSize(3).containsAnyOf(p.searched());
    }
  }

  @Test
  void theSameSeedDrawsTheSamePlans(@Seed long seed) {
    ComplexOrder a = new ComplexOrder(BookstoreFixture.SMALL, seed);
    ComplexOrder b = new ComplexOrder(BookstoreFixture.SMALL, seed);
    for (int i = 0; i < 20; i++) {
      ComplexOrder.Plan p = a.next();
      ComplexOrder.Plan q = b.next();
      assertThat(q.customerId()).isEqualTo(p.customerId());
      assertThat(q.searched()).containsExactly(p.searched());
      assertThat(q.ordered()).containsExactly(p.ordered());
      assertThat(q.quantities()).containsExactly(p.quantities());
    }
  }

  /**
   * Seven records read (the customer, six products) and eight written: one order, its three
   * lines and its payment, and the stock of the three ordered products; the order is found
   * through the customer's index, the products not ordered are unchanged.
   */
  @ParameterizedTest
  @EnumSource(
      value = ProtocolKind.class,
      names = {"NAIVE", "BASIC", "ATOMIC"})
  void readsSevenRecordsAndWritesEight(ProtocolKind protocol, @Seed long seed) {
    try (BookstoreFixture f = new BookstoreFixture(seed, protocol)) {
      ComplexOrder orders = new ComplexOrder(f.scale, seed);
      ComplexOrder.Plan plan = orders.next();
      Map<Long, ItemRow> before = new HashMap<>();
      for (long id : plan.searched()) {
        before.put(id, f.item(id));
      }

      ComplexOrder.Outcome o = f.db.run(tx -> orders.execute(tx, plan, f.clock.millis()));
      f.checkpoint();

      assertThat(o.recordsRead()).isEqualTo(ComplexOrder.RECORDS_READ).isEqualTo(7);
      assertThat(o.recordsWritten()).isEqualTo(ComplexOrder.RECORDS_WRITTEN).isEqualTo(8);
      OrderRow order = OrderRow.decode(f.read(BookstoreSchema.ORDERS, o.orderId()).orElseThrow());
      assertThat(order.customerId()).isEqualTo(plan.customerId());
      List<Record> lines =
          f.scan(BookstoreSchema.ORDER_LINE, BookstoreKeys.childrenOf(o.orderId()));
      long[] ordered = plan.orderedItems();
      assertThat(lines).hasSize(3);
      for (int i = 0; i < 3; i++) {
        OrderLineRow line = OrderLineRow.decode(lines.get(i).payload());
        assertThat(lines.get(i).key()).isEqualTo(ComplexOrder.orderLineKey(o.orderId(), i + 1));
        assertThat(line.itemId()).isEqualTo(ordered[i]);
        assertThat(line.quantity()).isEqualTo(plan.quantities()[i]);
        ItemRow was = before.get(ordered[i]);
        assertThat(f.item(ordered[i]).stock()).isEqualTo(was.afterSale(line.quantity()).stock());
        assertThat(f.item(ordered[i]).version()).isEqualTo(was.version() + 1);
      }
      CcXactRow payment =
          CcXactRow.decode(
              f.read(BookstoreSchema.CC_XACTS, ComplexOrder.orderKey(o.orderId())).orElseThrow());
      assertThat(payment.amountCents()).isEqualTo(order.totalCents());
      for (long id : plan.searched()) {
        if (Arrays.stream(ordered).noneMatch(x -> x == id)) {
          assertThat(f.item(id).stock()).isEqualTo(before.get(id).stock());
          assertThat(f.item(id).version()).isEqualTo(before.get(id).version());
        }
      }
      try (Transaction tx = f.db.begin()) {
        assertThat(
                tx.probeRange(
                    BookstoreSchema.ORDERS,
                    BookstoreSchema.ORDERS_BY_CUSTOMER,
                    BookstoreKeys.childrenOf(plan.customerId())))
            .extracting(Record::key)
            .contains(ComplexOrder.orderKey(o.orderId()));
        assertThat(ComplexOrder.stock(tx, ordered[0])).isEqualTo(f.item(ordered[0]).stock());
      }
    }
  }

  @Test
  void eachTransactionPlacesItsOwnOrder(@Seed long seed) {
    try (BookstoreFixture f = new BookstoreFixture(seed, ProtocolKind.NAIVE)) {
      ComplexOrder orders = new ComplexOrder(f.scale, seed);
      int before = f.all(BookstoreSchema.ORDERS).size();
      long[] ids = new long[5];
      for (int i = 0; i < ids.length; i++) {
        ComplexOrder.Plan plan = orders.next();
        ids[i] = f.db.run(tx -> orders.execute(tx, plan, f.clock.millis())).orderId();
      }
      assertThat(ids).doesNotHaveDuplicates();
      assertThat(f.all(BookstoreSchema.ORDERS)).hasSize(before + ids.length);
      assertThat(f.all(BookstoreSchema.CC_XACTS)).hasSize(before + ids.length);
    }
  }
}
