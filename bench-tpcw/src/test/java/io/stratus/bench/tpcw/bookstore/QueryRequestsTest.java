package io.stratus.bench.tpcw.bookstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.bench.tpcw.bookstore.BookstoreSession.Search;
import io.stratus.cloudapi.decorate.CloudMeter;
import io.stratus.cloudapi.decorate.Decorators;
import io.stratus.cloudapi.decorate.MeteringInterceptor;
import io.stratus.core.Database;
import io.stratus.core.DatabaseConfig;
import io.stratus.protocols.ProtocolKind;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The cloud requests of the catalogue interactions that read through queries, each run on a
 * fresh handle (nothing cached) over a bookstore of 10,000 items and about a thousand orders:
 * New Products and the subject search for every subject, Best Sellers, title and author searches,
 * and Admin Confirm (whose related items read the recent orders). The counts must not exceed
 * what the hand-written probes and scans that the queries replaced cost on the same data (seed
 * {@value #SEED}): {@link #BEFORE}, measured with them.
 */
class QueryRequestsTest {
  static final long SEED = 7;

  /** The requests of the probes and scans the queries replaced, on the bookstore of {@link #SEED}. */
  static final Map<String, Long> BEFORE =
      Map.of(
          "new products", 856L,
          "best sellers", 750L,
          "search by subject", 925L,
          "search by TITLE", 839L,
          "search by AUTHOR", 864L,
          "admin confirm", 57L);

  @Test
  void catalogueInteractionsCostNoMoreRequestsThanTheirProbesDid() {
    long seed = SEED;
    try (BookstoreFixture f =
        new BookstoreFixture(seed, ProtocolKind.NAIVE, new Scale(10_000, 4, 288))) {
      Map<String, Long> requests = new LinkedHashMap<>();
      requests.put(
          "new products",
          cost(f, seed, (store, w) -> eachSubject(s -> store.browse().newProducts(w, s))));
      requests.put(
          "best sellers",
          cost(f, seed, (store, w) -> eachSubject(s -> store.browse().bestSellers(w, s))));
      requests.put(
          "search by subject",
          cost(
              f,
              seed,
              (store, w) ->
                  eachSubject(
                      s -> store.browse().searchResults(w, new Search(Search.Kind.SUBJECT, s)))));
      SplittableRandom terms = new SplittableRandom(seed);
      for (Search.Kind kind : new Search.Kind[] {Search.Kind.TITLE, Search.Kind.AUTHOR}) {
        String[] term = new String[20];
        for (int i = 0; i < term.length; i++) {
          term[i] = Text.digSyl(terms.nextLong(1, 100));
        }
        requests.put(
            "search by " + kind,
            cost(
                f,
                seed,
                (store, w) -> {
                  for (String t : term) {
                    store.browse().searchResults(w, new Search(kind, t));
                  }
                  return null;
                }));
      }
      requests.put(
          "admin confirm",
          cost(
              f,
              seed,
              (store, w) -> {
                w.session.lastItemId = 1 + seed % 1_000;
                return store.order().adminConfirm(w);
              }));
      System.out.println(
          "[bookstore query requests] seed "
              + seed
              + ", cold handle, per interaction set: "
              + requests
              + " (before: "
              + BEFORE
              + ")");
      assertThat(requests.keySet()).isEqualTo(BEFORE.keySet());
      requests.forEach(
          (interaction, n) ->
              assertThat(n)
                  .as(interaction)
                  .isPositive()
                  .isLessThanOrEqualTo(BEFORE.get(interaction)));
    }
  }

  private static Object eachSubject(Function<String, Object> page) {
    for (String s : Text.SUBJECTS) {
      page.apply(s);
    }
    return null;
  }

  /** The requests of {@code body} in one attempt on a fresh handle and bookstore. */
  private static long cost(
      BookstoreFixture f,
      long seed,
      java.util.function.BiFunction<StratusBookstore, Work, Object> body) {
    CloudMeter meter = new CloudMeter();
    DatabaseConfig.Builder b =
        BookstoreSchema.configure(
                DatabaseConfig.builder(
                    Decorators.wrap(f.cloud.services(), new MeteringInterceptor(meter)), "db/tpcw"))
            .protocol(ProtocolKind.NAIVE)
            .clock(f.clock)
            .pageSize(8192);
    try (Database db = Database.open(b.build())) {
      StratusBookstore store = new StratusBookstore(db, f.scale, f.clock, seed);
      BookstoreSession s = (BookstoreSession) store.newSession(seed);
      long before = meter.snapshot().requests();
      store.attempt(s, w -> body.apply(store, w));
      return meter.snapshot().requests() - before;
    }
  }
}
