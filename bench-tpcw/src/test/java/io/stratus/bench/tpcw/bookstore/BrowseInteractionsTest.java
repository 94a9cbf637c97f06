package io.stratus.bench.tpcw.bookstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.bench.tpcw.bookstore.BookstoreSession.Search;
import io.stratus.bench.tpcw.bookstore.BrowseInteractions.Listed;
import io.stratus.bench.tpcw.bookstore.RecentOrders.Line;
import io.stratus.bench.tpcw.bookstore.Rows.AuthorRow;
import io.stratus.bench.tpcw.bookstore.Rows.ItemRow;
import io.stratus.bench.tpcw.bookstore.Rows.OrderLineRow;
import io.stratus.bench.tpcw.bookstore.StratusBookstore.Attempt;
import io.stratus.bench.tpcw.workload.Interaction;
import io.stratus.bench.tpcw.workload.InteractionOutcome;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.core.Record;
import io.stratus.protocols.ProtocolKind;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The catalogue pages against brute-force answers computed from full scans. */
@ExtendWith(SeedExtension.class)
class BrowseInteractionsTest {
  private static Map<Long, ItemRow> items(BookstoreFixture f) {
    Map<Long, ItemRow> out = new TreeMap<>();
    for (Record r : f.all(BookstoreSchema.ITEM)) {
      out.put(BookstoreKeys.idOf(r.key()), ItemRow.decode(r.payload()));
    }
    return out;
  }

  private static Comparator<Long> byTitle(Map<Long, ItemRow> items) {
    return Comparator.comparing((Long id) -> BookstoreKeys.fold(items.get(id).title()))
        .thenComparing(id -> id);
  }

  /** New Products' order: newest first, then by title (case ignored), then by id. */
  private static Comparator<Long> newestFirst(Map<Long, ItemRow> items) {
    return Comparator.comparing((Long id) -> -items.get(id).pubDay()).thenComparing(byTitle(items));
  }

  @Test
  void titleSearchFindsExactlyTheTitlesWithThePrefix(@Seed long seed) {
    try (BookstoreFixture f = new BookstoreFixture(seed, ProtocolKind.NAIVE)) {
      Map<Long, ItemRow> items = items(f);
      SplittableRandom r = new SplittableRandom(seed);
      BookstoreSession s = f.session(seed);
      for (int round = 0; round < 10; round++) {
        String title = items.get(r.nextLong(1, 101)).title();
        String term =
            title
                .substring(0, r.nextInt(1, Math.min(6, title.length()) + 1))
                .toLowerCase(java.util.Locale.ROOT);
        List<Long> expected =
            items.keySet().stream()
                .filter(id -> BookstoreKeys.fold(items.get(id).title()).startsWith(term))
                .sorted(byTitle(items))
                .limit(50)
                .toList();
        List<Listed> found =
            f.page(s, w -> f.store.browse().searchResults(w, new Search(Search.Kind.TITLE, term)));
        assertThat(found)
            .extracting(Listed::itemId)
            .as("term " + term)
            .containsExactlyElementsOf(expected)
            .isNotEmpty();
        assertThat(found).allMatch(l -> !l.authorName().isEmpty());
      }
    }
  }

  @Test
  void authorSearchGoesThroughLastNames(@Seed long seed) {
    try (BookstoreFixture f = new BookstoreFixture(seed, ProtocolKind.NAIVE)) {
      Map<Long, ItemRow> items = items(f);
      Map<Long, AuthorRow> authors = new HashMap<>();
      for (Record r : f.all(BookstoreSchema.AUTHOR)) {
        authors.put(BookstoreKeys.idOf(r.key()), AuthorRow.decode(r.payload()));
      }
      BookstoreSession s = f.session(seed);
      for (long a = 1; a <= 25; a += 6) {
        String last = authors.get(a).lastName();
        String term = last.substring(0, Math.min(3, last.length()));
        List<Long> expected =
            items.keySet().stream()
                .filter(
                    id ->
                        BookstoreKeys.fold(authors.get(items.get(id).authorId()).lastName())
                            .startsWith(BookstoreKeys.fold(term)))
                .sorted(byTitle(items))
                .limit(50)
                .toList();
        List<Listed> found =
            f.page(s, w -> f.store.browse().searchResults(w, new Search(Search.Kind.AUTHOR, term)));
        assertThat(found)
            .extracting(Listed::itemId)
            .as("term " + term)
            .containsExactlyElementsOf(expected)
            .isNotEmpty();
      }
    }
  }

  @Test
  void subjectSearchAndNewProductsListOnlyTheSubject(@Seed long seed) {
    try (BookstoreFixture f = new BookstoreFixture(seed, ProtocolKind.NAIVE)) {
      Map<Long, ItemRow> items = items(f);
      BookstoreSession s = f.session(seed);
      for (String subject : Text.SUBJECTS) {
        List<Long> ofSubject =
            items.keySet().stream().filter(id -> items.get(id).subject().equals(subject)).toList();
        List<Listed> bySubject =
            f.page(
                s,
                w -> f.store.browse().searchResults(w, new Search(Search.Kind.SUBJECT, subject)));
        assertThat(bySubject)
            .extracting(Listed::itemId)
            .as(subject)
            .containsExactlyElementsOf(ofSubject.stream().sorted(byTitle(items)).toList());
        List<Listed> newest = f.page(s, w -> f.store.browse().newProducts(w, subject));
        assertThat(newest)
            .extracting(Listed::itemId)
            .as(subject)
            .containsExactlyElementsOf(ofSubject.stream().sorted(newestFirst(items)).toList());
      }
    }
  }

  /**
   * Items published on the same day are listed by title: Admin Confirm republishes three items of
   * one subject today, and New Products lists them first, by title, whatever their ids.
   */
  @Test
  void newProductsOfOneDayAreListedByTitle(@Seed long seed) {
    try (BookstoreFixture f = new BookstoreFixture(seed, ProtocolKind.NAIVE)) {
      Map<Long, ItemRow> items = items(f);
      String subject =
          items.values().stream()
              .collect(Collectors.groupingBy(ItemRow::subject, Collectors.counting()))
              .entrySet()
              .stream()
              .max(Map.Entry.comparingByValue())
              .orElseThrow()
              .getKey();
      List<Long> ofSubject =
          items.keySet().stream().filter(id -> items.get(id).subject().equals(subject)).toList();
      assertThat(ofSubject).as("the largest subject of 100 items").hasSizeGreaterThanOrEqualTo(5);
      List<Long> republished = ofSubject.subList(0, 3);
      BookstoreSession s = f.session(seed);
      for (long id : republished) {
        s.lastItemId = id;
        f.page(s, w -> f.store.order().adminConfirm(w));
      }
      Map<Long, ItemRow> after = items(f);
      List<Long> expected = ofSubject.stream().sorted(newestFirst(after)).toList();
      assertThat(expected.subList(0, 3)).containsExactlyInAnyOrderElementsOf(republished);
      assertThat(expected.subList(0, 3)).isSortedAccordingTo(byTitle(after));
      List<Listed> newest = f.page(s, w -> f.store.browse().newProducts(w, subject));
      assertThat(newest).extracting(Listed::itemId).containsExactlyElementsOf(expected);
    }
  }

  /**
   * With many pages of items per subject, New Products and the subject search read a page of
   * items: queries of the subject indexes with a page's limit.
   */
  @Test
  void subjectPagesReadAboutAPageOfItems(@Seed long seed) {
    try (BookstoreFixture f =
        new BookstoreFixture(seed, ProtocolKind.NAIVE, new Scale(10_000, 1, 10))) {
      Map<Long, ItemRow> items = items(f);
      BookstoreSession s = f.session(seed);
      long newProductReads = 0;
      long subjectSearchReads = 0;
      for (int round = 0; round < 2; round++) { // the second round starts from what was learnt
        // past the age New Products may reuse its results, so that the second round probes
        f.clock.advance(BrowseInteractions.RESULT_MAX_AGE);
        newProductReads = 0;
        subjectSearchReads = 0;
        for (String subject : Text.SUBJECTS) {
          List<Long> ofSubject =
              items.keySet().stream()
                  .filter(id -> items.get(id).subject().equals(subject))
                  .toList();
          Attempt<List<Listed>> page = f.attempt(s, w -> f.store.browse().newProducts(w, subject));
          assertThat(page.page())
              .extracting(Listed::itemId)
              .as(subject)
              .containsExactlyElementsOf(
                  ofSubject.stream().sorted(newestFirst(items)).limit(50).toList());
          newProductReads += page.work().recordsRead();
          Attempt<List<Listed>> search =
              f.attempt(
                  s,
                  w -> f.store.browse().searchResults(w, new Search(Search.Kind.SUBJECT, subject)));
          assertThat(search.page())
              .extracting(Listed::itemId)
              .as(subject)
              .containsExactlyElementsOf(
                  ofSubject.stream().sorted(byTitle(items)).limit(50).toList());
          subjectSearchReads += search.work().recordsRead();
        }
      }
      // Probing whole subjects would read every item once, plus 50 authors per subject.
      assertThat(newProductReads).isLessThan((10_000 + 24 * 50) / 2);
      assertThat(subjectSearchReads)
          .as("a page of items and their authors")
          .isEqualTo(24 * (50 + 50));
    }
  }

  @Test
  void bestSellersRankTheSubjectsItemsOfTheRecentOrders(@Seed long seed) {
    try (BookstoreFixture f = new BookstoreFixture(seed, ProtocolKind.NAIVE)) {
      Map<String, Map<Long, Long>> sold = new HashMap<>();
      for (Record r : f.all(BookstoreSchema.ORDER_LINE)) {
        OrderLineRow l = OrderLineRow.decode(r.payload());
        sold.computeIfAbsent(l.itemSubject(), k -> new HashMap<>())
            .merge(l.itemId(), (long) l.quantity(), Long::sum);
      }
      BookstoreSession s = f.session(seed);
      for (String subject : Text.SUBJECTS) {
        Map<Long, Long> counts = sold.getOrDefault(subject, Map.of());
        List<Long> expected =
            counts.keySet().stream()
                .sorted(Comparator.comparing((Long id) -> -counts.get(id)).thenComparing(id -> id))
                .limit(50)
                .toList();
        List<Listed> found = f.page(s, w -> f.store.browse().bestSellers(w, subject));
        assertThat(found)
            .extracting(Listed::itemId)
            .as(subject)
            .containsExactlyElementsOf(expected);
      }
    }
  }

  @Test
  void recentOrdersAreTheTailOfTheOrderKeySpace(@Seed long seed) {
    try (BookstoreFixture f = new BookstoreFixture(seed, ProtocolKind.NAIVE)) {
      List<Long> orderIds = new ArrayList<>();
      for (Record r : f.all(BookstoreSchema.ORDERS)) {
        orderIds.add(BookstoreKeys.idOf(r.key()));
      }
      BookstoreSession s = f.session(seed);
      for (int n : new int[] {1, 5, 26, 27, 100}) {
        RecentOrders recent = new RecentOrders(n);
        for (int call = 0; call < 2; call++) { // the second call starts from the learnt window
          List<Line> lines = f.page(s, recent::lines);
          List<Long> expected = orderIds.subList(Math.max(0, orderIds.size() - n), orderIds.size());
          assertThat(lines.stream().map(Line::orderId).distinct().toList())
              .as("n=" + n)
              .containsExactlyElementsOf(expected);
        }
      }
      // A new order is the most recent one.
      long orderId = f.page(f.session(seed + 1), w -> f.store.order().buyConfirm(w));
      List<Line> newest = f.page(s, new RecentOrders(1)::lines);
      assertThat(newest).isNotEmpty().allMatch(l -> l.orderId() == orderId);
    }
  }

  @Test
  void readOnlyPagesReadTrackedRowsAndWriteNothing(@Seed long seed) {
    try (BookstoreFixture f = new BookstoreFixture(seed, ProtocolKind.NAIVE)) {
      BookstoreSession s = f.session(seed);
      for (Interaction i :
          List.of(
              Interaction.HOME,
              Interaction.NEW_PRODUCTS,
              Interaction.BEST_SELLERS,
              Interaction.PRODUCT_DETAIL,
              Interaction.SEARCH_REQUEST,
              Interaction.ADMIN_REQUEST)) {
        InteractionOutcome o = f.store.execute(i, s);
        assertThat(o.wrote()).as(i.label()).isFalse();
        assertThat(o.recordsWritten()).as(i.label()).isZero();
        if (i != Interaction.NEW_PRODUCTS) { // a random subject may have no item at 100 items
          assertThat(o.recordsRead()).as(i.label()).isPositive();
        }
        // current (0), or no item read at all (-1: a subject without items or sales)
        assertThat(o.stalenessMillis()).as(i.label()).isBetween(-1L, 0L);
        assertThat(o.retries()).isZero();
      }
      Attempt<Object> productDetail =
          f.attempt(s, w -> f.store.browse().productDetail(w).orElseThrow());
      assertThat(productDetail.work().recordsRead()).as("item and author").isEqualTo(2);
      assertThat(s.lastItemId).isPositive();
      List<Long> promo = f.page(s, w -> f.store.browse().home(w));
      assertThat(promo).hasSize(5).doesNotHaveDuplicates();
    }
  }
}
