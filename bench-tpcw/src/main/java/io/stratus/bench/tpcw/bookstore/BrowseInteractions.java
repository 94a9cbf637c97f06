package io.stratus.bench.tpcw.bookstore;

import io.stratus.bench.tpcw.bookstore.BookstoreSession.Search;
import io.stratus.bench.tpcw.bookstore.RecentOrders.Line;
import io.stratus.bench.tpcw.bookstore.Rows.AuthorRow;
import io.stratus.bench.tpcw.bookstore.Rows.ItemRow;
import io.stratus.core.KeyRange;
import io.stratus.core.Record;
import io.stratus.core.query.Join;
import io.stratus.core.query.Joined;
import io.stratus.core.query.Query;
import io.stratus.core.query.QueryPage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * The read-only catalogue interactions (specification clauses 2.3 to 2.5 and 2.13): Home, New
 * Products, Best Sellers, Product Detail, Search Request, Search Results and Admin Request. Each
 * method is the body of one attempt: it reads through {@link Work} and returns what the page
 * would show (the tests check it); session changes are deferred to the commit.
 *
 * <p>New Products and Best Sellers reuse a subject's list of items for up to {@link
 * #RESULT_MAX_AGE} ({@link ResultCache}), as the specification allows; the listed items and their
 * authors are read afresh for every page.
 *
 * <p>The lists of items come from queries of the item indexes with a limit of a page ({@link
 * Work#query}); the author search joins the authors whose last name starts with the term to their
 * items ({@link Work#join}). Stateless apart from the cached lists; thread-safe.
 */
final class BrowseInteractions {
  /** Rows on a result page (New Products, Best Sellers, Search Results). */
  static final int PAGE_ROWS = 50;

  /** Orders Best Sellers counts (clause 2.4.3). */
  static final int BEST_SELLER_ORDERS = 3_333;

  /** One item as a page lists it, with its author's name. */
  record Listed(long itemId, ItemRow item, String authorName) {}

  /**
   * How old the results of New Products and Best Sellers may be: 30 s, the specification's bound
   * for these two pages.
   */
  static final Duration RESULT_MAX_AGE = Duration.ofSeconds(30);

  private final Scale scale;
  private final RecentOrders bestSellerOrders;

  /** Authors per page of the author search's join (all pages are read). */
  static final int AUTHORS_PER_JOIN = 100;

  /** Per subject, the items New Products listed, newest first. */
  private final ResultCache<List<Long>> newProductIds = new ResultCache<>(RESULT_MAX_AGE);

  /** Per subject, the items Best Sellers listed, best first. */
  private final ResultCache<List<Long>> bestSellerIds = new ResultCache<>(RESULT_MAX_AGE);

  BrowseInteractions(Scale scale, RecentOrders bestSellerOrders) {
    this.scale = scale;
    this.bestSellerOrders = bestSellerOrders;
  }

  /** Home: the customer's name if known, and the promotional items. */
  List<Long> home(Work w) {
    long customer = w.session.knownCustomer();
    if (customer != 0) {
      w.customer(customer); // the greeting; a customer not yet visible is simply not greeted
    }
    return promotionalItems(w);
  }

  /**
   * The promotional area of Home and Search Request ({@link #promotions}); the shopper may click
   * the first promoted item next.
   */
  List<Long> promotionalItems(Work w) {
    List<Long> shown = promotions(w, scale.items());
    if (!shown.isEmpty()) {
      w.afterCommit(() -> w.session.lastItemId = shown.get(0));
    }
    return shown;
  }

  /**
   * The promotional processing of Home, Shopping Cart and Search Request (clause 2.3.3): a
   * random item's five related items, whose thumbnails are shown. Reads the random item and the
   * related ones; returns those visible.
   */
  static List<Long> promotions(Work w, long items) {
    long anchor = w.session.random.nextLong(1, items + 1);
    List<Long> shown = new ArrayList<>();
    Optional<ItemRow> item = w.item(anchor);
    if (item.isEmpty()) {
      return shown;
    }
    for (long related : item.get().related()) {
      if (w.item(related).isPresent()) {
        shown.add(related);
      }
    }
    return shown;
  }

  /**
   * New Products: the 50 newest items of a random subject, newest first, items published the same
   * day by title (clause 2.12; the index's search key orders them so).
   */
  List<Listed> newProducts(Work w) {
    String subject = Text.pick(w.session.random, Text.SUBJECTS);
    return newProducts(w, subject);
  }

  List<Listed> newProducts(Work w, String subject) {
    List<Long> cached = newProductIds.fresh(subject, w.startMillis);
    List<Listed> out;
    if (cached != null) {
      out = byId(w, cached);
    } else {
      out = listed(w, newestOfSubject(w, subject));
      newProductIds.put(subject, w.startMillis, ids(out));
    }
    remember(w, out);
    return out;
  }

  /** The newest {@link #PAGE_ROWS} items of a subject, newest first (a query of its index). */
  private static List<Record> newestOfSubject(Work w, String subject) {
    return w.query(
            Query.onIndex(BookstoreSchema.ITEM, BookstoreSchema.ITEM_BY_SUBJECT_DATE)
                .range(BookstoreKeys.subject(subject))
                .limit(PAGE_ROWS))
        .rows();
  }

  /**
   * Best Sellers: among the lines of the 3,333 most recent orders, the 50 items of a random
   * subject sold in the largest quantities (ties: smaller item id first).
   */
  List<Listed> bestSellers(Work w) {
    return bestSellers(w, Text.pick(w.session.random, Text.SUBJECTS));
  }

  List<Listed> bestSellers(Work w, String subject) {
    List<Long> cached = bestSellerIds.fresh(subject, w.startMillis);
    if (cached != null) {
      List<Listed> out = byId(w, cached);
      remember(w, out);
      return out;
    }
    Map<Long, Long> sold = new HashMap<>();
    for (Line l : bestSellerOrders.lines(w)) {
      if (l.row().itemSubject().equals(subject)) {
        sold.merge(l.row().itemId(), (long) l.row().quantity(), Long::sum);
      }
    }
    List<Map.Entry<Long, Long>> ranked = new ArrayList<>(sold.entrySet());
    ranked.sort(
        Map.Entry.<Long, Long>comparingByValue()
            .reversed()
            .thenComparing(Map.Entry.comparingByKey()));
    List<Listed> out = new ArrayList<>();
    for (Map.Entry<Long, Long> e : ranked) {
      if (out.size() == PAGE_ROWS) {
        break;
      }
      Optional<ItemRow> item = w.item(e.getKey());
      item.ifPresent(i -> out.add(new Listed(e.getKey(), i, authorName(w, i.authorId()))));
    }
    bestSellerIds.put(subject, w.startMillis, ids(out));
    remember(w, out);
    return out;
  }

  /** The visible items of {@code ids}, in that order, with their authors. */
  private static List<Listed> byId(Work w, List<Long> ids) {
    List<Listed> out = new ArrayList<>(ids.size());
    for (long id : ids) {
      w.item(id).ifPresent(i -> out.add(new Listed(id, i, authorName(w, i.authorId()))));
    }
    return out;
  }

  private static List<Long> ids(List<Listed> listed) {
    return listed.stream().map(Listed::itemId).toList();
  }

  /** Product Detail: an item the shopper saw listed (or a random one) and its author. */
  Optional<Listed> productDetail(Work w) {
    long id =
        w.session.lastItemId != 0 && w.session.random.nextInt(4) != 0
            ? w.session.lastItemId
            : randomItem(w);
    return itemWithAuthor(w, id);
  }

  /** Admin Request: an item and its author, as the edit form shows them. */
  Optional<Listed> adminRequest(Work w) {
    long id = w.session.lastItemId != 0 ? w.session.lastItemId : randomItem(w);
    return itemWithAuthor(w, id);
  }

  private Optional<Listed> itemWithAuthor(Work w, long id) {
    Optional<Listed> shown = w.item(id).map(i -> new Listed(id, i, authorName(w, i.authorId())));
    w.afterCommit(() -> w.session.lastItemId = id);
    return shown;
  }

  /** Search Request: the search form, with promotional items. */
  List<Long> searchRequest(Work w) {
    return promotionalItems(w);
  }

  /**
   * Search Results: a search by author, title or subject. The subject is uniform; an author or
   * title term is the DigSyl of a NURand-drawn number (clause 2.10.5.1, A by the item scale), in
   * the range the generator draws the leading syllables of last names and titles from, so that
   * searches concentrate on some terms as the specification's emulator's do.
   */
  List<Listed> searchResults(Work w) {
    SplittableRandom random = w.session.random;
    Search.Kind kind = Search.Kind.values()[random.nextInt(3)];
    long a = NuRand.itemA(scale.items());
    String term =
        switch (kind) {
          case AUTHOR -> Text.digSyl(NuRand.draw(random, a, 1, scale.authors()));
          case TITLE -> Text.digSyl(NuRand.draw(random, a, 1, scale.items()));
          case SUBJECT -> Text.pick(random, Text.SUBJECTS);
        };
    return searchResults(w, new Search(kind, term));
  }

  /**
   * The first 50 results of a search, by title: authors whose last name starts with the term
   * and their items, items whose title starts with the term, or items of the subject.
   */
  List<Listed> searchResults(Work w, Search search) {
    List<Listed> out;
    switch (search.kind()) {
      case AUTHOR -> {
        out = new ArrayList<>();
        Join join =
            Join.onIndex(
                    Query.onIndex(BookstoreSchema.AUTHOR, BookstoreSchema.AUTHOR_BY_LAST_NAME)
                        .range(BookstoreKeys.startsWith(search.term()))
                        .limit(AUTHORS_PER_JOIN),
                    (key, payload) -> Optional.of(key),
                    BookstoreSchema.ITEM,
                    BookstoreSchema.ITEM_BY_AUTHOR)
                .maxRows(Query.MAX_LIMIT);
        Join page = join;
        while (true) {
          QueryPage<Joined<Record, Record>> found = w.join(page);
          for (Joined<Record, Record> j : found.rows()) {
            AuthorRow author = AuthorRow.decode(j.outer().payload());
            Record i = j.inner();
            out.add(new Listed(BookstoreKeys.idOf(i.key()), w.item(i), name(author)));
          }
          if (found.continuation().isEmpty()) {
            break;
          }
          page = join.after(found.continuation().get());
        }
        out.sort(
            Comparator.comparing((Listed l) -> BookstoreKeys.fold(l.item().title()))
                .thenComparingLong(Listed::itemId));
        out = new ArrayList<>(out.subList(0, Math.min(PAGE_ROWS, out.size())));
      }
      case TITLE ->
          out =
              listed(
                  w,
                  firstPage(
                      w, BookstoreSchema.ITEM_BY_TITLE, BookstoreKeys.startsWith(search.term())));
      case SUBJECT ->
          out =
              listed(
                  w,
                  firstPage(
                      w, BookstoreSchema.ITEM_BY_SUBJECT, BookstoreKeys.subject(search.term())));
      default -> throw new IllegalStateException("unknown search " + search.kind());
    }
    remember(w, out);
    w.afterCommit(() -> w.session.lastSearch = search);
    return out;
  }

  /** The first {@link #PAGE_ROWS} items whose search key in {@code index} lies in {@code range}. */
  private static List<Record> firstPage(Work w, String index, KeyRange range) {
    return w.query(Query.onIndex(BookstoreSchema.ITEM, index).range(range).limit(PAGE_ROWS)).rows();
  }

  /** Items found by a query, with their authors' names. */
  private static List<Listed> listed(Work w, List<Record> items) {
    List<Listed> out = new ArrayList<>(items.size());
    for (Record r : items) {
      ItemRow item = w.item(r);
      out.add(new Listed(BookstoreKeys.idOf(r.key()), item, authorName(w, item.authorId())));
    }
    return out;
  }

  /** The shopper may click one of the listed items next (Product Detail, Shopping Cart). */
  private static void remember(Work w, List<Listed> shown) {
    if (!shown.isEmpty()) {
      long pick = shown.get(w.session.random.nextInt(shown.size())).itemId();
      w.afterCommit(() -> w.session.lastItemId = pick);
    }
  }

  private static String authorName(Work w, long authorId) {
    return w.author(authorId).map(BrowseInteractions::name).orElse("");
  }

  private static String name(AuthorRow a) {
    return a.firstName() + " " + a.lastName();
  }

  long randomItem(Work w) {
    return w.session.random.nextLong(1, scale.items() + 1);
  }
}
