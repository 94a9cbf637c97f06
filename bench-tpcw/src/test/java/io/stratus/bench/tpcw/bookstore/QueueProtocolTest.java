package io.stratus.bench.tpcw.bookstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.bench.tpcw.bookstore.OrderInteractions.OrderView;
import io.stratus.bench.tpcw.workload.Interaction;
import io.stratus.bench.tpcw.workload.InteractionOutcome;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.protocols.ProtocolKind;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Under the queue-based protocols a client's writes become visible only when a checkpoint applies
 * them: the interactions must cope with their own writes missing, and see them after a
 * checkpoint.
 */
@ExtendWith(SeedExtension.class)
class QueueProtocolTest {
  @Test
  void ownWritesMayBeMissingUntilACheckpoint(@Seed long seed) {
    try (BookstoreFixture f = new BookstoreFixture(seed, ProtocolKind.BASIC)) {
      BookstoreSession s = f.session(seed);
      s.returningCustomerId = 0;
      s.lastItemId = 17;
      for (Interaction i :
          List.of(
              Interaction.SHOPPING_CART,
              Interaction.SHOPPING_CART,
              Interaction.CUSTOMER_REGISTRATION,
              Interaction.BUY_REQUEST,
              Interaction.BUY_REQUEST,
              Interaction.BUY_CONFIRM,
              Interaction.ORDER_INQUIRY,
              Interaction.ORDER_DISPLAY,
              Interaction.SHOPPING_CART,
              Interaction.BUY_CONFIRM,
              Interaction.ADMIN_CONFIRM,
              Interaction.ADMIN_REQUEST,
              Interaction.HOME)) {
        f.store.execute(i, s);
        f.clock.advance(Duration.ofMillis(500));
      }
      long customer = s.customerId;
      assertThat(customer).isPositive();
      f.checkpoint();
      assertThat(f.read(BookstoreSchema.CUSTOMER, customer)).isPresent();
      Optional<OrderView> shown = f.page(s, w -> f.store.order().orderDisplay(w));
      assertThat(shown).isPresent();
      assertThat(shown.get().order().customerId()).isEqualTo(customer);
      assertThat(f.all(BookstoreSchema.ORDERS).size()).isGreaterThan(27);
    }
  }

  @Test
  void aCartKeepsItsIdAndGathersLinesAcrossCheckpoints(@Seed long seed) {
    try (BookstoreFixture f = new BookstoreFixture(seed, ProtocolKind.BASIC)) {
      BookstoreSession s = f.session(seed);
      s.lastItemId = 17;
      f.page(s, w -> f.store.order().shoppingCart(w, CartPage.Action.ADD));
      long cartId = s.cartId;
      s.lastItemId = 18;
      // the cart is not visible yet
      f.page(s, w -> f.store.order().shoppingCart(w, CartPage.Action.ADD));
      assertThat(s.cartId).isEqualTo(cartId);
      f.checkpoint();
      s.lastItemId = 19;
      CartPage.CartView view = f.page(s, w -> f.store.order().shoppingCart(w, CartPage.Action.ADD));
      assertThat(view.quantities()).containsOnlyKeys(17L, 18L, 19L);
      f.checkpoint();
      assertThat(f.scan(BookstoreSchema.SHOPPING_CART_LINE, BookstoreKeys.childrenOf(cartId)))
          .hasSize(3);
      assertThat(f.all(BookstoreSchema.SHOPPING_CART)).hasSize(1);
    }
  }

  /** The writer's own later reads are stale until the checkpoint, by the time since its commit. */
  @Test
  void ownUpdatesAreStaleUntilTheCheckpoint(@Seed long seed) {
    try (BookstoreFixture f = new BookstoreFixture(seed, ProtocolKind.BASIC)) {
      BookstoreSession s = f.session(seed);
      s.lastItemId = 42;
      assertThat(f.store.execute(Interaction.ADMIN_CONFIRM, s).wrote()).isTrue();
      f.clock.advance(Duration.ofSeconds(5));
      assertThat(f.store.execute(Interaction.ADMIN_REQUEST, s).stalenessMillis()).isEqualTo(5_000);
      f.checkpoint();
      assertThat(f.store.execute(Interaction.ADMIN_REQUEST, s).stalenessMillis()).isZero();
      assertThat(f.item(42).version()).isEqualTo(1);
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = ProtocolKind.class,
      names = {"BASIC", "MONOTONIC", "ATOMIC"})
  void aRandomWalkWithCheckpointsNeverFails(ProtocolKind protocol, @Seed long seed) {
    try (BookstoreFixture f = new BookstoreFixture(seed, protocol)) {
      SplittableRandom r = new SplittableRandom(seed);
      List<BookstoreSession> sessions = List.of(f.session(1), f.session(2), f.session(3));
      Interaction[] all = Interaction.values();
      int confirmed = 0;
      for (int step = 0; step < 400; step++) {
        BookstoreSession s = sessions.get(r.nextInt(sessions.size()));
        Interaction i = all[r.nextInt(all.length)];
        InteractionOutcome o = f.store.execute(i, s);
        assertThat(o.stalenessMillis()).isGreaterThanOrEqualTo(-1);
        if (i == Interaction.BUY_CONFIRM) {
          assertThat(o.wrote()).as("an order is always written").isTrue();
          confirmed++;
        }
        if (r.nextInt(40) == 0) {
          f.checkpoint();
        }
        if (r.nextInt(60) == 0) {
          s.restart();
        }
        f.clock.advance(Duration.ofMillis(r.nextInt(1, 1500)));
      }
      f.checkpoint();
      assertThat(f.all(BookstoreSchema.ORDERS)).hasSize(27 + confirmed);
      assertThat(f.all(BookstoreSchema.CC_XACTS)).hasSize(27 + confirmed);
    }
  }
}
