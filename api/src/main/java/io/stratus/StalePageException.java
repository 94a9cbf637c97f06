package io.stratus;

/**
 * Storage kept answering with an older version of a page than this client has already seen (an
 * eventually consistent store lagging behind a write), so the page was not used: accepting it would
 * break monotonic reads (paper 001, section 5.2). The buffer pool re-reads a few times before it
 * gives up with this exception; the lag is bounded, so running the transaction again later
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

  /** The URI of the page. */
  public String uri() {
    return uri;
  }

  @Override
  public boolean isRetryable() {
    return true;
  }
}
