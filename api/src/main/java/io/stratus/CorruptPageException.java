package io.stratus;

/**
 * A page read from storage failed its integrity check (checksum, format, or structure) and was not
 * used; nothing of it reached the buffer pool. Reading again returns the same bytes unless the page
 * is rewritten: the stored item needs repair from a replica, a backup, or the log.
 */
public class CorruptPageException extends StratusException {
  private static final long serialVersionUID = 1L;
  private final String uri;

  public CorruptPageException(String uri, String problem) {
    super("page " + uri + " is corrupt: " + problem);
    this.uri = uri;
  }

  public CorruptPageException(String uri, String problem, Throwable cause) {
    super("page " + uri + " is corrupt: " + problem, cause);
    this.uri = uri;
  }

  /** The URI of the corrupt page. */
  public String uri() {
    return uri;
  }
}
