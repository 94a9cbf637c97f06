package io.stratus.bench.tpcw.bookstore;

import io.stratus.bench.tpcw.workload.BrowserSession;
import io.stratus.bench.tpcw.workload.Interaction;
import java.util.SplittableRandom;

/**
 * What one emulated browser remembers between interactions: who the shopper is, its cart, the
 * item it last looked at, its last search, the page it is on (the interaction it last completed:
 * Shopping Cart acts on it as the specification's emulator does) and what it committed itself
 * ({@link OwnWrites}), plus its random source and id generator.
 *
 * <p>Used by one thread at a time (the {@link BrowserSession} contract); no synchronisation.
 * Interactions change it only after their transaction committed (see {@link
 * StratusBookstore}), so a failed attempt leaves it as it was.
 *
 * <p>A user session starts as a returning customer with probability {@link #RETURNING_SHARE}
 * (the shopper will log in as a loaded customer at Customer Registration or Buy Request, drawn
 * with {@link NuRand} as the specification's emulator draws customer ids) and as a new visitor
 * otherwise (who registers as a new customer at Buy Request).
 */
final class BookstoreSession implements BrowserSession {
  static final double RETURNING_SHARE = 0.8;

  final SplittableRandom random;
  final Ids ids;
  private final long customers;

  /** A loaded customer this shopper is, known before login; 0 for a new visitor. */
  long returningCustomerId;

  /** The customer logged in (after Customer Registration or Buy Request); 0 if none. */
  long customerId;

  /** The shopping cart, 0 until the first Shopping Cart interaction creates one. */
  long cartId;

  /** The item last shown by Product Detail or a search, 0 if none. */
  long lastItemId;

  /** The last search, null if none. */
  Search lastSearch;

  /**
   * The page the browser is on: the interaction last completed for this session; null at the
   * start of a user session and after an interaction failed.
   */
  Interaction previous;

  /** The cart versions and orders this user session committed. */
  final OwnWrites own = new OwnWrites();

  /** A search the shopper ran: by author, title or subject, and the term. */
  record Search(Kind kind, String term) {
    enum Kind {
      AUTHOR,
      TITLE,
      SUBJECT
    }
  }

  BookstoreSession(long seed, long customers) {
    this.random = new SplittableRandom(seed);
    this.ids = new Ids(random.nextLong());
    this.customers = customers;
    restart();
  }

  @Override
  public void restart() {
    returningCustomerId =
        random.nextDouble() < RETURNING_SHARE ? NuRand.customerId(random, customers) : 0;
    customerId = 0;
    cartId = 0;
    lastItemId = 0;
    lastSearch = null;
    previous = null;
    own.clear();
  }

  /** A loaded customer, NURand-skewed: whom an anonymous shopper's pages fall back to. */
  long anyCustomer() {
    return NuRand.customerId(random, customers);
  }

  /** The customer the shopper is known as: logged in, else returning, else 0. */
  long knownCustomer() {
    return customerId != 0 ? customerId : returningCustomerId;
  }
}
