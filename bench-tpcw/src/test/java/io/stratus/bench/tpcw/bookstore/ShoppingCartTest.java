package io.stratus.bench.tpcw.bookstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.bench.tpcw.bookstore.CartPage.Action;
import io.stratus.bench.tpcw.bookstore.CartPage.CartView;
import io.stratus.bench.tpcw.bookstore.Rows.CartLineRow;
import io.stratus.bench.tpcw.bookstore.Rows.CartRow;
import io.stratus.bench.tpcw.bookstore.StratusBookstore.Attempt;
import io.stratus.bench.tpcw.workload.Interaction;
import io.stratus.bench.tpcw.workload.InteractionOutcome;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.core.Record;
import io.stratus.protocols.ProtocolKind;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Shopping Cart as the previous page requests it: add (from Product Detail), refresh (from
 * Shopping Cart) or view (from anywhere else), with the records each reads and writes and the
 * cart left in the database (naive protocol: every read sees every commit).
 */
@ExtendWith(SeedExtension.class)
class ShoppingCartTest {
  /** Reads of the promotional area: the random item and its five related items. */
  private static final int PROMOTION_READS = 6;

  private static Map<Long, Integer> cartInDb(BookstoreFixture f, long cartId) {
    Map<Long, Integer> lines = new HashMap<>();
    for (Record r : f.scan(BookstoreSchema.SHOPPING_CART_LINE, BookstoreKeys.childrenOf(cartId))) {
      lines.put(BookstoreKeys.cartLineItem(r.key()), CartLineRow.decode(r.payload()).quantity());
    }
    return lines;
  }

  private static CartRow cartRow(BookstoreFixture f, long cartId) {
    return CartRow.decode(f.read(BookstoreSchema.SHOPPING_CART, cartId).orElseThrow());
  }

  @Test
  void thePreviousPageDecidesTheRequest() {
    for (Interaction i : Interaction.values()) {
      Action expected =
          i == Interaction.PRODUCT_DETAIL
              ? Action.ADD
              : i == Interaction.SHOPPING_CART ? Action.REFRESH : Action.VIEW;
      assertThat(CartPage.actionAfter(i)).as(i.label()).isEqualTo(expected);
    }
    assertThat(CartPage.actionAfter(null)).as("a new user session").isEqualTo(Action.VIEW);
  }

  @Test
  void addCreatesTheCartThenAddsOrIncrementsTheItem(@Seed long seed) {
    try (BookstoreFixture f = new BookstoreFixture(seed, ProtocolKind.NAIVE)) {
      BookstoreSession s = f.session(seed);
      s.lastItemId = 7;
      Attempt<CartView> first = f.attempt(s, w -> f.store.order().shoppingCart(w, Action.ADD));
      assertThat(first.work().recordsWritten()).as("cart and line").isEqualTo(2);
      assertThat(first.work().recordsRead())
          .as("the line's item and the promotions")
          .isEqualTo(1 + PROMOTION_READS);
      long cartId = s.cartId;
      assertThat(cartId).isEqualTo(first.page().cartId()).isPositive();
      assertThat(cartInDb(f, cartId)).isEqualTo(Map.of(7L, 1));
      assertThat(first.page().promotions()).hasSize(5);
      assertThat(cartRow(f, cartId).version()).isZero();

      f.clock.advance(Duration.ofSeconds(1));
      Attempt<CartView> again = f.attempt(s, w -> f.store.order().shoppingCart(w, Action.ADD));
      assertThat(again.work().recordsWritten()).as("line and cart row").isEqualTo(2);
      assertThat(again.work().recordsRead())
          .as("cart, line, item, promotions")
          .isEqualTo(1 + 1 + 1 + PROMOTION_READS);
      s.lastItemId = 9;
      Attempt<CartView> other = f.attempt(s, w -> f.store.order().shoppingCart(w, Action.ADD));
      assertThat(other.work().recordsWritten()).as("new line and cart row").isEqualTo(2);
      assertThat(s.cartId).as("the same cart").isEqualTo(cartId);
      assertThat(cartInDb(f, cartId))
          .isEqualTo(Map.of(7L, 2, 9L, 1))
          .isEqualTo(other.page().quantities());
      CartRow row = cartRow(f, cartId);
      assertThat(row.version()).as("one version per change").isEqualTo(2);
      assertThat(row.timeMillis()).isEqualTo(f.clock.millis());
    }
  }

  @Test
  void viewOfANonEmptyCartWritesNothing(@Seed long seed) {
    try (BookstoreFixture f = new BookstoreFixture(seed, ProtocolKind.NAIVE)) {
      BookstoreSession s = f.session(seed);
      s.lastItemId = 7;
      f.page(s, w -> f.store.order().shoppingCart(w, Action.ADD));
      s.lastItemId = 9;
      f.page(s, w -> f.store.order().shoppingCart(w, Action.ADD));
      long cartId = s.cartId;
      CartRow before = cartRow(f, cartId);
      f.clock.advance(Duration.ofSeconds(5));

      Attempt<CartView> view = f.attempt(s, w -> f.store.order().shoppingCart(w, Action.VIEW));
      assertThat(view.work().recordsWritten()).isZero();
      assertThat(view.work().recordsRead())
          .as("cart, 2 lines, 2 items, promotions")
          .isEqualTo(1 + 2 + 2 + PROMOTION_READS);
      assertThat(view.page().quantities())
          .isEqualTo(Map.of(7L, 1, 9L, 1))
          .isEqualTo(cartInDb(f, cartId));
      assertThat(view.page().promotions()).hasSize(5);
      assertThat(cartRow(f, cartId)).as("not even the cart's time").isEqualTo(before);
    }
  }

  @Test
  void viewOfAnEmptyCartAddsARandomItem(@Seed long seed) {
    try (BookstoreFixture f = new BookstoreFixture(seed, ProtocolKind.NAIVE)) {
      BookstoreSession s = f.session(seed);
      Attempt<CartView> fresh = f.attempt(s, w -> f.store.order().shoppingCart(w, Action.VIEW));
      assertThat(fresh.work().recordsWritten()).as("a new cart and its random line").isEqualTo(2);
      assertThat(fresh.work().recordsRead()).isEqualTo(1 + PROMOTION_READS);
      long cartId = s.cartId;
      Map<Long, Integer> lines = cartInDb(f, cartId);
      assertThat(lines).hasSize(1).containsValue(1).isEqualTo(fresh.page().quantities());
      assertThat(lines.keySet().iterator().next()).isBetween(1L, 100L);

      f.page(s, w -> f.store.order().buyConfirm(w, false)); // empties the cart
      assertThat(cartInDb(f, cartId)).isEmpty();
      assertThat(cartRow(f, cartId).version()).isEqualTo(1);
      Attempt<CartView> refill = f.attempt(s, w -> f.store.order().shoppingCart(w, Action.VIEW));
      assertThat(refill.work().recordsWritten()).as("a random line and the cart row").isEqualTo(2);
      assertThat(refill.work().recordsRead())
          .as("cart, its item, promotions")
          .isEqualTo(1 + 1 + PROMOTION_READS);
      assertThat(cartInDb(f, cartId)).hasSize(1).isEqualTo(refill.page().quantities());
      assertThat(cartRow(f, cartId).version()).isEqualTo(2);
    }
  }

  @Test
  void refreshChangesQuantitiesByTheSpecificationsRule(@Seed long seed) {
    try (BookstoreFixture f = new BookstoreFixture(seed, ProtocolKind.NAIVE)) {
      BookstoreSession s = f.session(seed);
      for (long item : new long[] {3, 5, 8, 13}) {
        s.lastItemId = item;
        f.page(s, w -> f.store.order().shoppingCart(w, Action.ADD));
      }
      long cartId = s.cartId;
      for (int round = 0; round < 6; round++) {
        Map<Long, Integer> before = cartInDb(f, cartId);
        Attempt<CartView> refresh =
            f.attempt(s, w -> f.store.order().shoppingCart(w, Action.REFRESH));
        Map<Long, Integer> after = cartInDb(f, cartId);
        assertThat(after).isEqualTo(refresh.page().quantities()).isNotEmpty();
        int changed = 0;
        for (long item : before.keySet()) {
          int now = after.getOrDefault(item, 0);
          if (now != before.get(item)) {
            changed++;
            assertThat(now).as("item " + item).isBetween(0, before.size() == 1 ? 10 : 9);
          }
        }
        if (before.size() > 1) { // one line gets 1 to 10, possibly its present quantity
          assertThat(changed).as("round " + round + ": 1 to all lines change").isPositive();
        }
        // A refresh that removes every line gets a random item: all lines deleted, one created.
        int emptiedAndRefilled = before.size() + 1 + 1;
        int written = refresh.work().recordsWritten();
        if (!before.keySet().containsAll(after.keySet())) {
          assertThat(written).as("round " + round + ", refilled").isEqualTo(emptiedAndRefilled);
        } else if (after.size() == 1 && before.size() > 1) { // the random item may be an old one
          assertThat(written).as("round " + round).isIn(changed + 1, emptiedAndRefilled);
        } else {
          assertThat(written)
              .as("round " + round + ": changed lines and the cart row")
              .isEqualTo(changed + 1);
        }
      }
    }
  }

  @Test
  void theRefreshRuleChangesOneToAllLinesToOtherQuantities(@Seed long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    Map<Long, Integer> one = Map.of(4L, 3);
    Set<Integer> single = new HashSet<>();
    for (int i = 0; i < 2_000; i++) {
      Map<Long, Integer> next = CartPage.refreshedQuantities(random, one);
      assertThat(next).containsOnlyKeys(4L);
      single.add(next.get(4L));
    }
    assertThat(single)
        .as("a single line gets 1 to 10")
        .hasSize(10)
        .allMatch(q -> q >= 1 && q <= 10);

    Map<Long, Integer> lines = new LinkedHashMap<>();
    lines.put(1L, 1);
    lines.put(2L, 4);
    lines.put(3L, 9);
    lines.put(4L, 12);
    Set<Integer> changedCounts = new HashSet<>();
    for (int i = 0; i < 5_000; i++) {
      Map<Long, Integer> next = CartPage.refreshedQuantities(random, lines);
      assertThat(next.keySet()).containsExactlyElementsOf(lines.keySet());
      int changed = 0;
      for (long item : lines.keySet()) {
        if (!next.get(item).equals(lines.get(item))) {
          changed++;
          assertThat(next.get(item)).isBetween(0, 9);
        }
      }
      changedCounts.add(changed);
    }
    assertThat(changedCounts)
        .as("1 to all four lines change")
        .containsExactlyInAnyOrder(1, 2, 3, 4);
  }

  /**
   * Through {@code execute}: the session remembers the page it is on, so Product Detail then
   * Shopping Cart adds the item Product Detail showed, Shopping Cart again refreshes, and from
   * Home the cart is only shown; a new user session starts from no page.
   */
  @Test
  void executeDrivesTheCartByThePreviousPage(@Seed long seed) {
    try (BookstoreFixture f = new BookstoreFixture(seed, ProtocolKind.NAIVE)) {
      BookstoreSession s = f.session(seed);
      f.store.execute(Interaction.HOME, s);
      InteractionOutcome view = f.store.execute(Interaction.SHOPPING_CART, s);
      assertThat(view.recordsWritten()).as("a new cart with a random item").isEqualTo(2);
      long cartId = s.cartId;
      Map<Long, Integer> first = cartInDb(f, cartId);
      assertThat(first).hasSize(1);

      assertThat(f.store.execute(Interaction.PRODUCT_DETAIL, s).recordsRead()).isPositive();
      assertThat(s.previous).isEqualTo(Interaction.PRODUCT_DETAIL);
      long shown = s.lastItemId;
      InteractionOutcome add = f.store.execute(Interaction.SHOPPING_CART, s);
      assertThat(add.recordsWritten()).as("the line and the cart row").isEqualTo(2);
      Map<Long, Integer> expected = new HashMap<>(first);
      expected.merge(shown, 1, Integer::sum);
      assertThat(cartInDb(f, cartId))
          .as("the item Product Detail showed is added")
          .isEqualTo(expected);

      InteractionOutcome refresh = f.store.execute(Interaction.SHOPPING_CART, s);
      assertThat(refresh.recordsWritten())
          .as("changed lines and the cart row")
          .isGreaterThanOrEqualTo(2);
      Map<Long, Integer> refreshed = cartInDb(f, cartId);
      assertThat(refreshed).isNotEqualTo(expected);

      for (Interaction page :
          new Interaction[] {
            Interaction.HOME,
            Interaction.NEW_PRODUCTS,
            Interaction.BEST_SELLERS,
            Interaction.SEARCH_REQUEST,
            Interaction.SEARCH_RESULTS,
            Interaction.BUY_REQUEST
          }) {
        f.store.execute(page, s);
        InteractionOutcome shownCart = f.store.execute(Interaction.SHOPPING_CART, s);
        assertThat(shownCart.recordsWritten()).as("from " + page.label()).isZero();
        assertThat(shownCart.wrote()).isFalse();
        assertThat(cartInDb(f, cartId)).as("from " + page.label()).isEqualTo(refreshed);
      }

      s.restart();
      assertThat(s.previous).isNull();
      assertThat(s.cartId).isZero();
    }
  }
}
