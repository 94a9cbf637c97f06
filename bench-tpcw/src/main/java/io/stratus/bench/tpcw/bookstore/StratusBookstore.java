package io.stratus.bench.tpcw.bookstore;

import io.stratus.CheckpointSummary;
import io.stratus.DuplicateKeyException;
import io.stratus.StratusException;
import io.stratus.bench.tpcw.bookstore.Rows.ItemRow;
import io.stratus.bench.tpcw.workload.Bookstore;
import io.stratus.bench.tpcw.workload.BrowserSession;
import io.stratus.bench.tpcw.workload.Interaction;
import io.stratus.bench.tpcw.workload.InteractionOutcome;
import io.stratus.core.Database;
import io.stratus.core.DatabaseAdmin;
import io.stratus.core.KeyRange;
import io.stratus.core.RetryPolicy;
import io.stratus.core.TypedCollection;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import java.util.function.LongConsumer;

/**
 * The TPC-W bookstore on a Stratus database loaded by {@link DataGenerator}: opens browser
 * sessions and runs the fourteen web interactions for them, each as one Stratus transaction.
 *
 * <p><b>Attempts and retries.</b> An interaction's body runs as a transaction function of {@link
 * Database#run} (read-only bodies commit an empty write set, which costs nothing): a failure that
 * says nothing took effect (a retryable {@link io.stratus.CommitFailedException}, a stale page,
 * an unavailable service) runs the whole body again after a jittered back-off, up to {@link
 * #MAX_ATTEMPTS} attempts, each counted in {@link InteractionOutcome#retries()}. A {@link
 * DuplicateKeyException} on a freshly generated id (two sessions drew the same id) runs the
 * interaction again too, drawing new ids, without counting a retry. Everything else propagates.
 * Session changes
 * (cart, login, last item and search) and the versions of tracked rows it wrote are applied only
 * after the commit succeeded.
 *
 * <p><b>Staleness.</b> Item and customer rows carry versions. After each commit the new versions
 * are recorded with the clock's time; every tracked read is compared with them ({@link
 * StalenessTracker}), and the outcome reports the largest staleness of the interaction's reads,
 * reads of the session's own cart and orders included ({@link OwnWrites}; their counts go to the
 * tracker too).
 *
 * <p><b>The previous page.</b> Every interaction executed for a session passes here in order, so
 * the session remembers the last one that completed ({@link BookstoreSession#previous}): Shopping
 * Cart adds, refreshes or only shows the cart depending on it, as the specification's emulator
 * requests it from each page.
 *
 * <p><b>Stock audit.</b> Every committed stock change (Buy Confirm's sales and restocks) is
 * recorded, and those of interactions whose commit outcome was unknown separately; {@link
 * #auditStock()} compares every item's stock with its loaded stock plus the committed changes,
 * which finds lost updates by accounting.
 *
 * <p><b>Thread safety.</b> Thread-safe: sessions are confined to their emulated browser's thread,
 * and the shared parts (the database, the tracker, the recent-orders windows, the counters) are
 * thread-safe. Several bookstores (processes) may share one database: new ids are time-ordered
 * with a per-session random component ({@link Ids}).
 */
public final class StratusBookstore implements Bookstore {
  /** Attempts at one interaction before its retryable commit failure propagates. */
  public static final int MAX_ATTEMPTS = 5;

  /** Rounds of {@link DatabaseAdmin#checkpointAll()} at most before an audit reads the stock. */
  static final int AUDIT_CHECKPOINT_ROUNDS = 10;

  private final Database db;
  private final Scale scale;
  private final Clock clock;
  private final long seed;
  private final StalenessTracker tracker;
  private final BrowseInteractions browse;
  private final OrderInteractions order;
  private final LongAdder retries = new LongAdder();
  private final RetryPolicy retryPolicy;
  private final StockLedger stock;

  /**
   * A bookstore on {@code db}, whose schema must be installed in this process ({@link
   * BookstoreSchema#install}) and whose population has {@code scale}; {@code clock} dates orders,
   * logins and commits; {@code seed} is mixed into every session's seed and is the seed the
   * {@link DataGenerator} loaded the database with (the stock audit recomputes the loaded stock
   * from it).
   */
  public StratusBookstore(Database db, Scale scale, Clock clock, long seed) {
    this(db, scale, clock, seed, new StalenessTracker());
  }

  /**
   * A bookstore that shares {@code tracker} with others, e.g. several bookstores on their own
   * database handles in one process emulating several clients: a read by one is then measured
   * against the commits of all.
   */
  public StratusBookstore(
      Database db, Scale scale, Clock clock, long seed, StalenessTracker tracker) {
    this.tracker = Objects.requireNonNull(tracker, "tracker");
    this.stock = tracker.stockLedger();
    this.db = Objects.requireNonNull(db, "db");
    this.scale = Objects.requireNonNull(scale, "scale");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.seed = seed;
    this.retryPolicy = RetryPolicy.builder().maxAttempts(MAX_ATTEMPTS).seed(seed).build();
    this.browse =
        new BrowseInteractions(scale, new RecentOrders(BrowseInteractions.BEST_SELLER_ORDERS));
    this.order = new OrderInteractions(scale, new RecentOrders(OrderInteractions.RELATED_ORDERS));
  }

  @Override
  public BrowserSession newSession(long sessionSeed) {
    return new BookstoreSession(sessionSeed * 0x9E3779B97F4A7C15L ^ seed, scale.customers());
  }

  @Override
  public InteractionOutcome execute(Interaction interaction, BrowserSession session) {
    Objects.requireNonNull(interaction, "interaction");
    if (!(session instanceof BookstoreSession s)) {
      throw new IllegalArgumentException(
          "the session was not opened by this bookstore: " + session);
    }
    return execute(interaction, s, w -> run(interaction, w));
  }

  /**
   * Runs {@code body} as {@code interaction} with the retry policy of the class comment; the
   * session then is on {@code interaction}'s page, or on none when it failed.
   */
  InteractionOutcome execute(Interaction interaction, BookstoreSession s, Function<Work, ?> body) {
    try {
      for (int attempt = 1; ; attempt++) {
        try {
          InteractionOutcome outcome =
              attempt(s, body, !interaction.isUpdate()).outcome(interaction);
          s.previous = interaction;
          return outcome;
        } catch (DuplicateKeyException e) {
          if (attempt >= MAX_ATTEMPTS) {
            throw e;
          }
        }
      }
    } catch (RuntimeException | Error e) {
      s.previous = null; // an error page: the next request comes from no known page
      throw e;
    }
  }

  /** Commits retried since this bookstore was created, over all sessions. */
  public long retries() {
    return retries.sum();
  }

  /**
   * The staleness tracker: staleness and lost updates of item and customer rows, and the reads
   * of the sessions' own carts and orders ({@link StalenessTracker#ownReadsChecked()}, {@link
   * StalenessTracker#ownStaleReads()}).
   */
  public StalenessTracker tracker() {
    return tracker;
  }

  /**
   * Audits the stock of every item: applies the database's pending updates ({@link
   * DatabaseAdmin#checkpointAll()}, until it reports nothing left or after {@link
   * #AUDIT_CHECKPOINT_ROUNDS} rounds), reads every item in a new transaction of this bookstore's
   * handle, and compares each stock with the stock the generator loaded plus the changes of the
   * Buy Confirms committed by every bookstore that shares this one's {@link StalenessTracker}
   * ({@link StockAudit}).
   *
   * <p>Call it when no interaction runs any more (after the emulated browsers stopped): changes
   * committed during the audit may or may not be counted. It accounts for the Buy Confirms of
   * every bookstore that shares the tracker: several bookstores (clients) on one database must
   * share it, and must have been built with the seed the database was loaded with. It reads
   * through this handle's buffer pool after its checkpoint passes, which keep those pages
   * current.
   */
  public StockAudit auditStock() {
    for (int round = 0; round < AUDIT_CHECKPOINT_ROUNDS; round++) {
      CheckpointSummary done = db.admin().checkpointAll();
      if (done.quiescent() && done.recordsApplied() == 0) {
        break;
      }
    }
    Map<Long, Integer> stockRead =
        db.run(
            retryPolicy,
            tx -> {
              Map<Long, Integer> read = new HashMap<>();
              for (TypedCollection.Entry<ItemRow> e :
                  BookstoreSchema.ITEMS.scan(tx, KeyRange.all())) {
                read.put(BookstoreKeys.idOf(e.key()), e.value().stock());
              }
              return read;
            });
    return stock.audit(stockRead, item -> DataGenerator.loadedStock(seed, item));
  }

  /** What the committed attempt returned and did, and how many attempts before it failed. */
  record Attempt<T>(T page, Work work, int retried) {
    InteractionOutcome outcome(Interaction interaction) {
      return new InteractionOutcome(
          interaction,
          work.recordsWritten() > 0,
          work.recordsRead(),
          work.recordsWritten(),
          retried,
          work.staleness());
    }
  }

  /**
   * Runs {@code body} once in a fresh transaction and commits; then records the tracked writes
   * and applies the session changes. Package-private so that tests can drive single pages.
   */
  <T> Attempt<T> attempt(BookstoreSession s, Function<Work, T> body) {
    return attempt(s, body, false);
  }

  /**
   * {@link #attempt(BookstoreSession, Function)}; {@code readOnly}: the interaction only reads,
   * so it runs as a read-only transaction ({@code Database.read}; the snapshot protocols serve it
   * from a snapshot the handle holds).
   */
  <T> Attempt<T> attempt(BookstoreSession s, Function<Work, T> body, boolean readOnly) {
    int[] runs = {0};
    Work[] last = {null};
    io.stratus.core.TransactionFunction<T> fn =
        tx -> {
          if (runs[0]++ > 0) {
            retries.increment();
          }
          last[0] = new Work(tx, s, clock.millis(), tracker);
          return body.apply(last[0]);
        };
    T page;
    try {
      page = readOnly ? db.read(retryPolicy, fn) : db.run(retryPolicy, fn);
    } catch (StratusException e) {
      if (e.isOutcomeUnknown() && last[0] != null) {
        stock.uncertain(last[0].stockChanges()); // the commit may have applied them
      }
      throw e;
    }
    Work w = last[0];
    long committed = clock.millis();
    for (Work.TrackedWrite t : w.trackedWrites()) {
      tracker.committed(t.row(), t.version(), committed);
    }
    stock.committed(w.stockChanges());
    tracker.ownReads(w.ownReadsChecked(), w.ownStaleReads(), w.ownStaleness());
    for (LongConsumer change : w.sessionChanges()) {
      change.accept(committed);
    }
    return new Attempt<>(page, w, runs[0] - 1);
  }

  /** The body of one attempt, by interaction; package-private so tests can drive pages. */
  Object run(Interaction interaction, Work w) {
    return switch (interaction) {
      case HOME -> browse.home(w);
      case NEW_PRODUCTS -> browse.newProducts(w);
      case BEST_SELLERS -> browse.bestSellers(w);
      case PRODUCT_DETAIL -> browse.productDetail(w);
      case SEARCH_REQUEST -> browse.searchRequest(w);
      case SEARCH_RESULTS -> browse.searchResults(w);
      case SHOPPING_CART -> order.shoppingCart(w);
      case CUSTOMER_REGISTRATION -> order.customerRegistration(w);
      case BUY_REQUEST -> order.buyRequest(w);
      case BUY_CONFIRM -> order.buyConfirm(w);
      case ORDER_INQUIRY -> order.orderInquiry(w);
      case ORDER_DISPLAY -> order.orderDisplay(w);
      case ADMIN_REQUEST -> browse.adminRequest(w);
      case ADMIN_CONFIRM -> order.adminConfirm(w);
    };
  }

  /** The interactions' bodies, for tests that check what a page showed. */
  BrowseInteractions browse() {
    return browse;
  }

  OrderInteractions order() {
    return order;
  }

  Database database() {
    return db;
  }

  Clock clock() {
    return clock;
  }

  /** The recorded stock changes, for tests that inspect them. */
  StockLedger stockLedger() {
    return stock;
  }
}
