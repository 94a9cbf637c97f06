package io.stratus.bench.tpcw.bookstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.bench.tpcw.bookstore.BrowseInteractions.Listed;
import io.stratus.bench.tpcw.bookstore.Rows.CartLineRow;
import io.stratus.bench.tpcw.bookstore.Rows.CartRow;
import io.stratus.bench.tpcw.bookstore.Rows.ItemRow;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.core.Record;
import io.stratus.protocols.ProtocolKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * New Products and Best Sellers show a subject's results at most 30 seconds old, as the
 * specification allows, and never older: a change that would reorder the page shows from the
 * first request 30 s after the results were computed, and not before.
 */
@ExtendWith(SeedExtension.class)
class ResultCacheTest {
  private static final Duration JUST_UNDER = BrowseInteractions.RESULT_MAX_AGE.minusMillis(1);

  @Test
  void aResultIsReusedWhileYoungerThanItsMaximumAge() {
    ResultCache<String> cache = new ResultCache<>(Duration.ofSeconds(30));
    assertThat(cache.fresh("Arts", 1_000)).isNull();
    cache.put("Arts", 1_000, "first");
    assertThat(cache.fresh("Arts", 1_000)).isEqualTo("first");
    assertThat(cache.fresh("Arts", 30_999)).isEqualTo("first");
    assertThat(cache.fresh("Arts", 31_000)).as("30 s old").isNull();
    assertThat(cache.fresh("Arts", 999)).as("computed after now").isNull();
    assertThat(cache.fresh("Biographies", 1_000)).isNull();
    cache.put("Arts", 500, "older");
    assertThat(cache.fresh("Arts", 1_000)).as("the later computation is kept").isEqualTo("first");
    cache.put("Arts", 2_000, "second");
    assertThat(cache.fresh("Arts", 31_000)).isEqualTo("second");
  }

  @Test
  void bestSellersAreAtMostThirtySecondsOld(@Seed long seed) {
    try (BookstoreFixture f = new BookstoreFixture(seed, ProtocolKind.NAIVE)) {
      BookstoreSession s = f.session(seed);
      String subject = subjectOfTwoItems(f);
      List<Long> before = ids(f.page(s, w -> f.store.browse().bestSellers(w, subject)));
      long top = itemOf(f, subject, before.isEmpty() ? 0 : before.get(0));
      buy(f, s, top, 5_000); // far more than any loaded order line (300 at most)

      f.clock.advance(JUST_UNDER);
      assertThat(ids(f.page(s, w -> f.store.browse().bestSellers(w, subject))))
          .as("still the results of %s ago", JUST_UNDER)
          .isEqualTo(before);

      f.clock.advance(Duration.ofMillis(1));
      assertThat(ids(f.page(s, w -> f.store.browse().bestSellers(w, subject))))
          .as("30 s old: computed again")
          .first()
          .isEqualTo(top);
    }
  }

  @Test
  void newProductsAreAtMostThirtySecondsOld(@Seed long seed) {
    try (BookstoreFixture f = new BookstoreFixture(seed, ProtocolKind.NAIVE)) {
      BookstoreSession s = f.session(seed);
      String subject = subjectOfTwoItems(f);
      f.clock.advance(Duration.ofDays(1)); // so that an item published today is newer than all
      List<Long> before = ids(f.page(s, w -> f.store.browse().newProducts(w, subject)));
      long republished = itemOf(f, subject, before.get(0));
      s.lastItemId = republished; // Admin Confirm publishes it today
      f.page(s, w -> f.store.order().adminConfirm(w));

      f.clock.advance(JUST_UNDER);
      assertThat(ids(f.page(s, w -> f.store.browse().newProducts(w, subject))))
          .as("still the results of %s ago", JUST_UNDER)
          .isEqualTo(before);

      f.clock.advance(Duration.ofMillis(1));
      assertThat(ids(f.page(s, w -> f.store.browse().newProducts(w, subject))))
          .as("30 s old: computed again")
          .first()
          .isEqualTo(republished);
    }
  }

  /**
   * A subject at least two items have (the seed draws the subjects: one item's subject may be its
   * own alone), the first in item order.
   */
  private static String subjectOfTwoItems(BookstoreFixture f) {
    Map<String, Integer> items = new LinkedHashMap<>();
    for (Record r : f.all(BookstoreSchema.ITEM)) {
      items.merge(ItemRow.decode(r.payload()).subject(), 1, Integer::sum);
    }
    return items.entrySet().stream()
        .filter(e -> e.getValue() >= 2)
        .map(Map.Entry::getKey)
        .findFirst()
        .orElseThrow(() -> new AssertionError("no subject has two items: " + items));
  }

  /** An item of {@code subject} other than {@code not}. */
  private static long itemOf(BookstoreFixture f, String subject, long not) {
    for (Record r : f.all(BookstoreSchema.ITEM)) {
      long id = BookstoreKeys.idOf(r.key());
      if (id != not && ItemRow.decode(r.payload()).subject().equals(subject)) {
        return id;
      }
    }
    throw new AssertionError("no other item of " + subject);
  }

  /** The session orders {@code quantity} of {@code item} (Buy Confirm of a cart made for it). */
  private static void buy(BookstoreFixture f, BookstoreSession s, long item, int quantity) {
    long cartId = s.ids.next(f.clock.millis());
    f.page(
        s,
        w -> {
          w.create(
              BookstoreSchema.SHOPPING_CART,
              BookstoreKeys.id(cartId),
              new CartRow(0, w.startMillis, 0).encode());
          w.create(
              BookstoreSchema.SHOPPING_CART_LINE,
              BookstoreKeys.cartLine(cartId, item),
              new CartLineRow(quantity).encode());
          return null;
        });
    s.cartId = cartId;
    f.page(s, w -> f.store.order().buyConfirm(w));
  }

  private static List<Long> ids(List<Listed> listed) {
    return new ArrayList<>(listed.stream().map(Listed::itemId).toList());
  }
}
