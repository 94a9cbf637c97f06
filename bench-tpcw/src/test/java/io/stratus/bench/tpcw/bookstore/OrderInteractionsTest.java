package io.stratus.bench.tpcw.bookstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.bench.tpcw.bookstore.BrowseInteractions.Listed;
import io.stratus.bench.tpcw.bookstore.OrderInteractions.OrderView;
import io.stratus.bench.tpcw.bookstore.Rows.AddressRow;
import io.stratus.bench.tpcw.bookstore.Rows.CartLineRow;
import io.stratus.bench.tpcw.bookstore.Rows.CartRow;
import io.stratus.bench.tpcw.bookstore.Rows.CcXactRow;
import io.stratus.bench.tpcw.bookstore.Rows.CustomerRow;
import io.stratus.bench.tpcw.bookstore.Rows.ItemRow;
import io.stratus.bench.tpcw.bookstore.Rows.OrderLineRow;
import io.stratus.bench.tpcw.bookstore.Rows.OrderRow;
import io.stratus.bench.tpcw.bookstore.StratusBookstore.Attempt;
import io.stratus.bench.tpcw.workload.Interaction;
import io.stratus.bench.tpcw.workload.InteractionOutcome;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.core.Key;
import io.stratus.core.Record;
import io.stratus.protocols.ProtocolKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The ordering pages' reads and writes, checked in the database afterwards (naive protocol). */
@ExtendWith(SeedExtension.class)
class OrderInteractionsTest {
  private static final long DAY = 86_400_000L;

  private static Map<Long, Integer> cartInDb(BookstoreFixture f, long cartId) {
    Map<Long, Integer> lines = new HashMap<>();
    for (Record r : f.scan(BookstoreSchema.SHOPPING_CART_LINE, BookstoreKeys.childrenOf(cartId))) {
      lines.put(BookstoreKeys.cartLineItem(r.key()), CartLineRow.decode(r.payload()).quantity());
    }
    return lines;
  }

  @Test
  void buyRequestRegistersANewVisitor(@Seed long seed) {
    try (BookstoreFixture f = new BookstoreFixture(seed, ProtocolKind.NAIVE)) {
      BookstoreSession s = f.session(seed);
      s.returningCustomerId = 0;
      Attempt<Optional<Long>> registration =
          f.attempt(s, w -> f.store.order().customerRegistration(w));
      assertThat(registration.page()).isEmpty();
      assertThat(registration.work().recordsWritten()).isZero();

      Attempt<Long> buy = f.attempt(s, w -> f.store.order().buyRequest(w));
      long id = buy.page();
      assertThat(buy.work().recordsWritten()).as("customer and address").isEqualTo(2);
      assertThat(s.customerId).isEqualTo(id);
      CustomerRow c = CustomerRow.decode(f.read(BookstoreSchema.CUSTOMER, id).orElseThrow());
      assertThat(c.userName()).isEqualTo(Text.digSyl(id));
      assertThat(f.read(BookstoreSchema.ADDRESS, c.addressId())).isPresent();
      try (var tx = f.db.begin()) {
        assertThat(
                tx.probe(
                    BookstoreSchema.CUSTOMER,
                    BookstoreSchema.CUSTOMER_BY_UNAME,
                    Key.of(c.userName())))
            .extracting(Record::key)
            .containsExactly(Key.of(id));
      }
      assertThat(f.all(BookstoreSchema.CUSTOMER)).hasSize(31);
      assertThat(f.all(BookstoreSchema.ADDRESS)).hasSize(61);
    }
  }

  @Test
  void buyRequestLogsInAReturningCustomer(@Seed long seed) {
    try (BookstoreFixture f = new BookstoreFixture(seed, ProtocolKind.NAIVE)) {
      BookstoreSession s = f.session(seed);
      s.returningCustomerId = 5;
      Optional<Long> registered = f.page(s, w -> f.store.order().customerRegistration(w));
      assertThat(registered).contains(5L);
      f.clock.advance(Duration.ofMinutes(1));
      Attempt<Long> buy = f.attempt(s, w -> f.store.order().buyRequest(w));
      assertThat(buy.page()).isEqualTo(5L);
      assertThat(buy.work().recordsWritten()).isEqualTo(1);
      CustomerRow c = CustomerRow.decode(f.read(BookstoreSchema.CUSTOMER, 5).orElseThrow());
      assertThat(c.version()).isEqualTo(1);
      assertThat(c.loginMillis()).isEqualTo(f.clock.millis());
      assertThat(c.expirationMillis()).isEqualTo(f.clock.millis() + 2 * 3_600_000L);
      assertThat(s.customerId).isEqualTo(5);
      assertThat(f.all(BookstoreSchema.CUSTOMER)).hasSize(30);
    }
  }

  @Test
  void buyConfirmTurnsTheCartIntoAnOrder(@Seed long seed) {
    try (BookstoreFixture f = new BookstoreFixture(seed, ProtocolKind.NAIVE)) {
      BookstoreSession s = f.session(seed);
      s.returningCustomerId = 4;
      f.page(s, w -> f.store.order().buyRequest(w));
      long cartId = s.ids.next(f.clock.millis());
      Map<Long, Integer> cart = Map.of(3L, 25, 8L, 1);
      f.page(
          s,
          w -> {
            w.create(
                BookstoreSchema.SHOPPING_CART,
                BookstoreKeys.id(cartId),
                new CartRow(0, w.startMillis, 4).encode());
            cart.forEach(
                (item, q) ->
                    w.create(
                        BookstoreSchema.SHOPPING_CART_LINE,
                        BookstoreKeys.cartLine(cartId, item),
                        new CartLineRow(q).encode()));
            return null;
          });
      s.cartId = cartId;
      Map<Long, ItemRow> before = Map.of(3L, f.item(3), 8L, f.item(8));
      f.clock.advance(Duration.ofSeconds(10));

      Attempt<Long> confirm = f.attempt(s, w -> f.store.order().buyConfirm(w, false));
      long orderId = confirm.page();
      // order + 2 lines + payment + 2 items + 2 cart lines deleted + cart time
      assertThat(confirm.work().recordsWritten()).isEqualTo(9);
      OrderRow order = OrderRow.decode(f.read(BookstoreSchema.ORDERS, orderId).orElseThrow());
      assertThat(order.customerId()).isEqualTo(4);
      assertThat(order.dateMillis()).isEqualTo(f.clock.millis());
      assertThat(Ids.millisOf(orderId)).isEqualTo(f.clock.millis());
      Map<Long, Integer> ordered = new HashMap<>();
      for (Record r : f.scan(BookstoreSchema.ORDER_LINE, BookstoreKeys.childrenOf(orderId))) {
        OrderLineRow l = OrderLineRow.decode(r.payload());
        ordered.put(l.itemId(), l.quantity());
        assertThat(l.itemSubject()).isEqualTo(before.get(l.itemId()).subject());
      }
      assertThat(ordered).isEqualTo(cart);
      CcXactRow payment = CcXactRow.decode(f.read(BookstoreSchema.CC_XACTS, orderId).orElseThrow());
      assertThat(payment.amountCents()).isEqualTo(order.totalCents());
      for (long item : cart.keySet()) {
        int left = before.get(item).stock() - cart.get(item);
        assertThat(f.item(item).stock())
            .as("stock of " + item)
            .isEqualTo(left < 10 ? left + 21 : left);
        assertThat(f.item(item).version()).isEqualTo(1);
      }
      assertThat(cartInDb(f, cartId)).as("the cart is emptied").isEmpty();
      assertThat(f.read(BookstoreSchema.SHOPPING_CART, cartId)).isPresent();

      Optional<OrderView> shown = f.page(s, w -> f.store.order().orderDisplay(w));
      assertThat(shown).isPresent();
      assertThat(shown.get().orderId()).isEqualTo(orderId);
      assertThat(shown.get().lines()).hasSize(2);
      assertThat(shown.get().payment()).isPresent();
      assertThat(shown.get().billTo()).isPresent();
    }
  }

  @Test
  void buyConfirmShipsToANewAddressInTheSameTransaction(@Seed long seed) {
    try (BookstoreFixture f = new BookstoreFixture(seed, ProtocolKind.NAIVE)) {
      BookstoreSession s = f.session(seed);
      s.returningCustomerId = 6;
      f.page(s, w -> f.store.order().buyRequest(w));
      CustomerRow customer = CustomerRow.decode(f.read(BookstoreSchema.CUSTOMER, 6).orElseThrow());
      Attempt<Long> home = f.attempt(s, w -> f.store.order().buyConfirm(w, false));
      Attempt<Long> away = f.attempt(s, w -> f.store.order().buyConfirm(w, true));
      assertThat(away.work().recordsWritten())
          .as("one more: the address")
          .isEqualTo(home.work().recordsWritten() + 1);
      assertThat(away.work().recordsRead())
          .as("one more: the address's country")
          .isEqualTo(home.work().recordsRead() + 1);
      assertThat(f.all(BookstoreSchema.ADDRESS)).hasSize(60 + 1);

      OrderRow plain = OrderRow.decode(f.read(BookstoreSchema.ORDERS, home.page()).orElseThrow());
      assertThat(plain.shipAddressId())
          .isEqualTo(customer.addressId())
          .isEqualTo(plain.billAddressId());
      OrderRow shipped = OrderRow.decode(f.read(BookstoreSchema.ORDERS, away.page()).orElseThrow());
      assertThat(shipped.billAddressId()).isEqualTo(customer.addressId());
      assertThat(shipped.shipAddressId()).isNotEqualTo(customer.addressId());
      AddressRow newAddress =
          AddressRow.decode(f.read(BookstoreSchema.ADDRESS, shipped.shipAddressId()).orElseThrow());
      assertThat(newAddress.countryId()).isBetween(1L, 92L);
      assertThat(
              CcXactRow.decode(f.read(BookstoreSchema.CC_XACTS, away.page()).orElseThrow())
                  .countryId())
          .as("paid in the shipping country")
          .isEqualTo(newAddress.countryId());
      Optional<OrderView> shown = f.page(s, w -> f.store.order().orderDisplay(w));
      assertThat(shown.map(OrderView::orderId)).contains(away.page());
      assertThat(shown.get().shipTo()).contains(newAddress);
    }
  }

  @Test
  void fivePerCentOfBuyConfirmsShipToANewAddress(@Seed long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    int draws = 100_000;
    int newAddresses = 0;
    for (int i = 0; i < draws; i++) {
      if (OrderInteractions.shipsToNewAddress(random)) {
        newAddresses++;
      }
    }
    // 5,000 expected, standard deviation about 69
    assertThat(newAddresses).isBetween(4_600, 5_400);
  }

  @Test
  void orderDisplayShowsTheLatestOrderOfTheCustomer(@Seed long seed) {
    try (BookstoreFixture f = new BookstoreFixture(seed, ProtocolKind.NAIVE)) {
      BookstoreSession s = f.session(seed);
      s.returningCustomerId = 0;
      f.page(s, w -> f.store.order().buyRequest(w)); // a new customer has no order yet
      Optional<OrderView> none = f.page(s, w -> f.store.order().orderDisplay(w));
      assertThat(none).isEmpty();
      long first = f.page(s, w -> f.store.order().buyConfirm(w));
      f.clock.advance(Duration.ofHours(1));
      long second = f.page(s, w -> f.store.order().buyConfirm(w));
      assertThat(second).isGreaterThan(first);
      Optional<OrderView> shown = f.page(s, w -> f.store.order().orderDisplay(w));
      assertThat(shown.map(OrderView::orderId)).contains(second);
      assertThat(shown.get().order().customerId()).isEqualTo(s.customerId);
      assertThat(shown.get().lines()).as("an empty cart orders one item").hasSize(1);
      Optional<CustomerRow> inquiry = f.page(s, w -> f.store.order().orderInquiry(w));
      assertThat(inquiry).isPresent();
    }
  }

  @Test
  void adminConfirmChangesTheItem(@Seed long seed) {
    try (BookstoreFixture f = new BookstoreFixture(seed, ProtocolKind.NAIVE)) {
      BookstoreSession s = f.session(seed);
      long cartId = s.ids.next(f.clock.millis());
      f.page(
          s,
          w -> {
            w.create(
                BookstoreSchema.SHOPPING_CART,
                BookstoreKeys.id(cartId),
                new CartRow(0, w.startMillis, 0).encode());
            // far more of item 12 than any loaded order line holds (300 at most), so that 12 ranks
            // first among the items bought by the customers who bought 11
            w.create(
                BookstoreSchema.SHOPPING_CART_LINE,
                BookstoreKeys.cartLine(cartId, 11),
                new CartLineRow(1).encode());
            w.create(
                BookstoreSchema.SHOPPING_CART_LINE,
                BookstoreKeys.cartLine(cartId, 12),
                new CartLineRow(5_000).encode());
            return null;
          });
      s.cartId = cartId;
      f.page(s, w -> f.store.order().buyConfirm(w)); // 11 and 12 bought together
      f.clock.advance(Duration.ofDays(2));
      ItemRow before = f.item(11);
      s.lastItemId = 11;
      assertThat(f.page(s, w -> f.store.browse().adminRequest(w)).map(Listed::itemId))
          .contains(11L);
      Optional<Long> changed = f.page(s, w -> f.store.order().adminConfirm(w));
      assertThat(changed).contains(11L);
      ItemRow after = f.item(11);
      assertThat(after.version()).isEqualTo(before.version() + 1);
      assertThat(after.image()).isNotEqualTo(before.image());
      assertThat(after.thumbnail()).isNotEqualTo(before.thumbnail());
      assertThat(after.pubDay()).isEqualTo(Math.floorDiv(f.clock.millis(), DAY));
      assertThat(after.related()).hasSize(5).doesNotHaveDuplicates().doesNotContain(11L);
      assertThat(after.related()[0]).as("bought most by the buyers of 11").isEqualTo(12L);
      assertThat(after.costCents()).isPositive();
      assertThat(after.title()).isEqualTo(before.title());
      assertThat(after.stock()).isEqualTo(before.stock());
      List<Listed> newest = f.page(s, w -> f.store.browse().newProducts(w, after.subject()));
      assertThat(newest.get(0).itemId()).as("published today").isEqualTo(11L);
    }
  }

  @Test
  void sessionsRunConcurrently(@Seed long seed) throws Exception {
    try (BookstoreFixture f = new BookstoreFixture(seed, ProtocolKind.NAIVE)) {
      ExecutorService threads = Executors.newFixedThreadPool(4);
      try {
        List<Future<Integer>> done = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
          long sessionSeed = seed + t;
          done.add(
              threads.submit(
                  () -> {
                    BookstoreSession s = f.session(sessionSeed);
                    SplittableRandom r = new SplittableRandom(sessionSeed);
                    int confirmed = 0;
                    for (int step = 0; step < 150; step++) {
                      Interaction i = Interaction.values()[r.nextInt(Interaction.values().length)];
                      if (f.store.execute(i, s).wrote() && i == Interaction.BUY_CONFIRM) {
                        confirmed++;
                      }
                    }
                    return confirmed;
                  }));
        }
        int confirmed = 0;
        for (Future<Integer> d : done) {
          confirmed += d.get();
        }
        assertThat(confirmed).isPositive();
        assertThat(f.all(BookstoreSchema.CC_XACTS).size()).isGreaterThan(27);
      } finally {
        threads.shutdownNow();
      }
    }
  }

  @Test
  void everyInteractionRunsThroughExecute(@Seed long seed) {
    try (BookstoreFixture f = new BookstoreFixture(seed, ProtocolKind.NAIVE)) {
      SplittableRandom r = new SplittableRandom(seed);
      List<BookstoreSession> sessions = List.of(f.session(1), f.session(2), f.session(3));
      Map<Interaction, Integer> wrote = new HashMap<>();
      Interaction[] all = Interaction.values();
      for (int step = 0; step < 600; step++) {
        BookstoreSession s = sessions.get(r.nextInt(sessions.size()));
        Interaction i = all[r.nextInt(all.length)];
        InteractionOutcome o = f.store.execute(i, s);
        assertThat(o.interaction()).isEqualTo(i);
        assertThat(o.wrote()).as(i.label()).isEqualTo(o.recordsWritten() > 0);
        if (o.wrote()) {
          assertThat(i.isUpdate()).as(i.label() + " wrote").isTrue();
          wrote.merge(i, 1, Integer::sum);
        }
        assertThat(o.stalenessMillis())
            .as("one handle sees its own commits")
            .isLessThanOrEqualTo(0);
        if (r.nextInt(50) == 0) {
          s.restart();
        }
        f.clock.advance(Duration.ofMillis(r.nextInt(1, 2000)));
      }
      assertThat(wrote)
          .containsKeys(
              Interaction.SHOPPING_CART, Interaction.BUY_CONFIRM, Interaction.ADMIN_CONFIRM);
      assertThat(f.all(BookstoreSchema.ORDERS)).hasSize(27 + wrote.get(Interaction.BUY_CONFIRM));
      assertThat(f.all(BookstoreSchema.CC_XACTS)).hasSize(27 + wrote.get(Interaction.BUY_CONFIRM));
      for (Record r2 : f.all(BookstoreSchema.ADDRESS)) {
        assertThat(AddressRow.decode(r2.payload()).countryId()).isBetween(1L, 92L);
      }
    }
  }
}
