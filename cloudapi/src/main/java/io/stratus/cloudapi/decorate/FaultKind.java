package io.stratus.cloudapi.decorate;

/** What a {@link FaultInterceptor} does to a call it picked. */
public enum FaultKind {
  /** The call is not made; its future fails with {@link io.stratus.cloudapi.RetryableException}. */
  FAIL_RETRYABLE,
  /**
   * The call is not made; its future fails with {@link
   * io.stratus.cloudapi.ServiceUnavailableException}.
   */
  FAIL_UNAVAILABLE,
  /** The call is made after an extra delay. */
  DELAY,
  /**
   * The call is made and takes effect, but the reply is lost: its future fails with {@link
   * io.stratus.cloudapi.OutcomeUnknownException}.
   */
  LOSE_REPLY
}
