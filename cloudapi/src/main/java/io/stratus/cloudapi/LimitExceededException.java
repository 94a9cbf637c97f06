package io.stratus.cloudapi;

/**
 * The request exceeds one of the configured {@link CloudLimits} (object size, metadata size,
 * message size, batch size, URI length) and was rejected without effect.
 */
public class LimitExceededException extends BadRequestException {
  private static final long serialVersionUID = 1L;
  private final String limit;
  private final long actual;
  private final long maximum;

  public LimitExceededException(String limit, long actual, long maximum) {
    super(limit + " is " + actual + ", the limit is " + maximum);
    this.limit = limit;
    this.actual = actual;
    this.maximum = maximum;
  }

  /** Which limit was exceeded, e.g. {@code "message size"}. */
  public String limit() {
    return limit;
  }

  public long actual() {
    return actual;
  }

  public long maximum() {
    return maximum;
  }
}
