package io.stratus.bench.tpcw.bookstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.bench.tpcw.bookstore.Rows.OrderLineRow;
import io.stratus.bench.tpcw.bookstore.Rows.OrderRow;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.protocols.ProtocolKind;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Admin Confirm's related items on a hand-built order history: the customers who bought the item
 * in the recent orders, everything they bought in any order, ranked by total quantity.
 */
@ExtendWith(SeedExtension.class)
class RelatedItemsTest {
  /** The item whose related items are computed. */
  private static final long ITEM = 50;

  /** Places an order of {@code customer} with {@code lines} (item to quantity), one second on. */
  private static void order(
      BookstoreFixture f, BookstoreSession s, long customer, Map<Long, Integer> lines) {
    f.clock.advance(Duration.ofSeconds(1));
    f.page(
        s,
        w -> {
          long orderId = s.ids.next(w.startMillis);
          w.create(
              BookstoreSchema.ORDERS,
              BookstoreKeys.id(orderId),
              new OrderRow(
                      customer, w.startMillis, 100, 8, 408, "AIR", w.startMillis, 1, 1, "PENDING")
                  .encode());
          int n = 0;
          for (Map.Entry<Long, Integer> l : new TreeMap<>(lines).entrySet()) {
            w.create(
                BookstoreSchema.ORDER_LINE,
                BookstoreKeys.orderLine(orderId, ++n),
                new OrderLineRow(l.getKey(), l.getValue(), 0, "", "ARTS").encode());
          }
          return orderId;
        });
  }

  @Test
  void rankTheItemsBoughtByTheRecentBuyersOfTheItem(@Seed long seed) {
    try (BookstoreFixture f = new BookstoreFixture(seed, ProtocolKind.NAIVE)) {
      BookstoreSession s = f.session(seed);
      // Customers 1001.. have no loaded orders. Older than the window of the last four orders:
      order(f, s, 1001, Map.of(60L, 7));
      order(f, s, 1002, Map.of(ITEM, 1, 61L, 100)); // bought the item, but not recently
      // The window:
      order(f, s, 1001, Map.of(ITEM, 1, 62L, 3));
      order(f, s, 1003, Map.of(ITEM, 2, 62L, 1, 63L, 5));
      order(f, s, 1004, Map.of(63L, 1, 64L, 9)); // did not buy the item
      order(f, s, 1003, Map.of(65L, 2));

      RelatedItems related = new RelatedItems(f.scale, new RecentOrders(4));
      long[] found = f.page(s, w -> related.of(w, ITEM));
      // 60: 7 (1001's older order), 63: 5, 62: 3 + 1, 65: 2; then filled after 65
      assertThat(found).containsExactly(60, 63, 62, 65, 66);

      // Through Admin Confirm, which writes them into the item.
      OrderInteractions admin = new OrderInteractions(f.scale, new RecentOrders(4));
      s.lastItemId = ITEM;
      f.page(s, admin::adminConfirm);
      assertThat(f.item(ITEM).related()).containsExactly(60, 63, 62, 65, 66);
    }
  }

  @Test
  void tiesGoToTheSmallerItemAndTheItemItselfIsNeverRelated(@Seed long seed) {
    try (BookstoreFixture f = new BookstoreFixture(seed, ProtocolKind.NAIVE)) {
      BookstoreSession s = f.session(seed);
      order(f, s, 1001, Map.of(ITEM, 3, 71L, 4, 72L, 4));
      order(f, s, 1002, Map.of(ITEM, 1, 70L, 2, 73L, 2, 74L, 2, 75L, 1));
      RelatedItems related = new RelatedItems(f.scale, new RecentOrders(2));
      long[] found = f.page(s, w -> related.of(w, ITEM));
      assertThat(found).containsExactly(71, 72, 70, 73, 74);
    }
  }

  @Test
  void noRecentBuyerFillsFromTheStartOfTheItems(@Seed long seed) {
    try (BookstoreFixture f = new BookstoreFixture(seed, ProtocolKind.NAIVE)) {
      BookstoreSession s = f.session(seed);
      order(f, s, 1001, Map.of(80L, 1));
      RelatedItems related = new RelatedItems(f.scale, new RecentOrders(1));
      long[] found = f.page(s, w -> related.of(w, 2));
      assertThat(found).containsExactly(1, 3, 4, 5, 6);
    }
  }

  @Test
  void theFillWrapsAroundAndSkipsWhatIsListed() {
    assertThat(RelatedItems.fill(List.of(99L, 3L), 100, 100))
        .as("after 3: 4, 5, 6")
        .containsExactly(99, 3, 4, 5, 6);
    assertThat(RelatedItems.fill(List.of(2L, 99L), 100, 100))
        .as("after 99: 100 is the item, so 1, then 2 is listed")
        .containsExactly(2, 99, 1, 3, 4);
    assertThat(RelatedItems.fill(List.of(1L, 2L, 3L, 4L, 5L), 9, 100))
        .containsExactly(1, 2, 3, 4, 5);
  }
}
