package io.stratus;

/**
 * An eventually consistent store answered with an older state of a page than a write this client
 * knows of, so the page was not used. Either storage kept serving an older version than this
 * client has already seen (accepting it would break monotonic reads, paper 001, section 5.2; the
 * buffer pool re-reads a few times before it gives up), or a page that another page refers to read
 * as absent (a new page not visible yet, or the root of a tree created moments ago; on strongly
 * consistent storage that is a {@link CorruptPageException}, or a tree that does not exist,
 * instead). The lag is bounded, so running the transaction again later
 * succeeds. Retryable: nothing took effect.
 */
public class StalePageException extends StratusException {
  private static final long serialVersionUID = 1L;
  private final String uri;

  public StalePageException(String uri, long seen, long served) {
    super(
        "page "
            + uri
            + ": storage served version stamp "
            + served
            + " after this client saw "
            + seen
            + "; not used (monotonic reads), retry later");
    this.uri = uri;
  }

  /**
   * A page that {@code referrer} refers to read as absent from eventually consistent storage.
   *
   * @param uri the page read as absent
   * @param referrer the page that refers to it
   */
  public StalePageException(String uri, String referrer) {
    super(
        "page "
            + uri
            + " is referred to by "
            + referrer
            + " but storage does not show it yet (eventually consistent); not used, retry later");
    this.uri = uri;
  }

  /**
   * The root of a tree (a collection's or an index's, which the catalog names) read as absent from
   * eventually consistent storage: the tree may have been created moments ago and not be visible
   * here yet.
   *
   * @param rootUri the root read as absent
   */
  public StalePageException(String rootUri) {
    super(
        "there is no B-link tree at "
            + rootUri
            + " in what storage shows yet: storage reads may lag behind writes (eventually"
            + " consistent), and its collection or index may have been created moments ago; not"
            + " used, retry later");
    this.uri = rootUri;
  }

  /** The URI of the page. */
  public String uri() {
    return uri;
  }

  @Override
  public boolean isRetryable() {
    return true;
  }
}
