package io.stratus.cloudapi;

/**
 * The stored bytes of an item or a message could not be opened by a decorator that encodes
 * payloads (client-side encryption, {@code io.stratus.cloudapi.crypto.Encryption}): they failed
 * authentication — changed, truncated, or written for another URI — or name a key the reader does
 * not hold. Nothing of them is handed out.
 *
 * <p>Not retryable: reading again returns the same bytes. The layers above report it as corrupt
 * data (a corrupt page, a corrupt log message), so their handling of damaged data applies
 * unchanged. The message names the URI and, where known, the key id; never key material.
 */
public class UnreadablePayloadException extends CloudException {
  private static final long serialVersionUID = 1L;
  private final String uri;
  private final String problem;

  /**
   * @param uri the item's URI, or the queue's URI for a message
   * @param problem what failed, for the message
   */
  public UnreadablePayloadException(String uri, String problem) {
    super("unreadable payload at " + uri + ": " + problem);
    this.uri = uri;
    this.problem = problem;
  }

  public UnreadablePayloadException(String uri, String problem, Throwable cause) {
    super("unreadable payload at " + uri + ": " + problem, cause);
    this.uri = uri;
    this.problem = problem;
  }

  /** The item's URI, or the queue's URI for a message. */
  public String uri() {
    return uri;
  }

  /** What failed, without the URI: the message's tail. */
  public String problem() {
    return problem;
  }
}
