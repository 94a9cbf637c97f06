package io.stratus.core;

import io.stratus.CloudServiceException;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.OutcomeUnknownException;
import java.util.function.Supplier;

/**
 * Translates failures of the cloud services into {@link CloudServiceException} where they would
 * leave the record manager, so an application sees one exception root. What a cloud failure means
 * depends on the work it interrupted, which only this layer knows:
 *
 * <ul>
 *   <li>work that changes nothing shared ({@link #reading}: reads, a transaction's operations
 *       before its commit, which only stage changes, taking ids from a gap-tolerant sequence,
 *       checkpoints, which apply idempotent records): a lost reply changed nothing that matters,
 *       so an unknown outcome is as safe to retry as a refused call;
 *   <li>work that changes shared state ({@link #changing}: creating collections and indexes, bulk
 *       loads): a lost reply leaves the outcome unknown.
 * </ul>
 *
 * Commits are the protocols' to map ({@code CommitFailedException}, {@code
 * CommitStateUnknownException}).
 */
final class CloudFailures {
  private CloudFailures() {}

  /** What a piece of work does to shared state, which decides what its cloud failure means. */
  enum Effect {
    /** Changes nothing shared: see {@link CloudFailures#reading(String, CloudException)}. */
    READS,
    /** Changes shared state: see {@link CloudFailures#changing(String, CloudException)}. */
    CHANGES;

    /** {@code e} interrupting {@code what}, which has this effect. */
    CloudServiceException translate(String what, CloudException e) {
      return this == READS ? reading(what, e) : changing(what, e);
    }
  }

  /** {@code e} interrupting {@code what}, which changes nothing shared. */
  static CloudServiceException reading(String what, CloudException e) {
    boolean retryable = e.isRetryable() || e instanceof OutcomeUnknownException;
    return new CloudServiceException(
        what
            + " failed: "
            + e.getMessage()
            + (retryable ? " (nothing changed; safe to retry)" : ""),
        e,
        retryable,
        false);
  }

  /** {@code e} interrupting {@code what}, which changes shared state. */
  static CloudServiceException changing(String what, CloudException e) {
    boolean unknown = e instanceof OutcomeUnknownException;
    return new CloudServiceException(
        what
            + " failed: "
            + e.getMessage()
            + (unknown
                ? " (it may have taken effect; read to find out)"
                : e.isRetryable() ? " (nothing changed; safe to retry)" : ""),
        e,
        e.isRetryable() && !unknown,
        unknown);
  }

  /** Runs {@code body}, which changes nothing shared, translating a cloud failure. */
  static <T> T reading(Supplier<String> what, Supplier<T> body) {
    try {
      return body.get();
    } catch (CloudException e) {
      throw reading(what.get(), e);
    }
  }

  /** Runs {@code body}, which changes shared state, translating a cloud failure. */
  static <T> T changing(Supplier<String> what, Supplier<T> body) {
    try {
      return body.get();
    } catch (CloudException e) {
      throw changing(what.get(), e);
    }
  }
}
