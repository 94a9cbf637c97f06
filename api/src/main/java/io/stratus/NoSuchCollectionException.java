package io.stratus;

/**
 * The named collection is not in the database's catalog; create it first.
 *
 * <p>On storage whose reads may lag behind writes (eventually consistent), a collection another
 * process created moments ago may not be visible here yet: then the exception says so and is
 * {@linkplain #isRetryable() retryable} ({@link #notVisibleYet}), so {@code Database.run} tries
 * again; the lag is bounded. On strongly consistent storage the collection does not exist, and
 * repeating the request fails again.
 */
public class NoSuchCollectionException extends InvalidRequestException {
  private static final long serialVersionUID = 1L;
  private final String collection;
  private final boolean retryable;

  public NoSuchCollectionException(String collection) {
    this(collection, "no collection named \"" + collection + "\"", false);
  }

  private NoSuchCollectionException(String collection, String message, boolean retryable) {
    super(message);
    this.collection = collection;
    this.retryable = retryable;
  }

  /**
   * The collection is not in the catalog as storage whose reads may lag behind writes shows it
   * now: it may have been created moments ago and not be visible here yet. Retryable.
   */
  public static NoSuchCollectionException notVisibleYet(String collection) {
    return new NoSuchCollectionException(
        collection,
        "no collection named \""
            + collection
            + "\" in the catalog as storage shows it now; storage reads may lag behind writes"
            + " (eventually consistent), so the collection may have been created moments ago and"
            + " not be visible here yet: retry (Database.run does), and create it if it should"
            + " exist and nobody has",
        true);
  }

  public String collection() {
    return collection;
  }

  /** Whether the collection may exist and not be visible yet (reads lag): then retry later. */
  @Override
  public boolean isRetryable() {
    return retryable;
  }
}
