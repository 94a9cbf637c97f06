package io.stratus.cloudapi;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * Advanced counters (paper 000, sections 2.3.6 and 6.6), the service behind generalized snapshot
 * isolation: counters named by URI that hand out increasing values, which their holders validate
 * (explicitly, or automatically after a timeout set per URI prefix).
 *
 * <p>Guarantees every implementation MUST give:
 *
 * <ul>
 *   <li><b>Increasing values.</b> {@link #increment} creates a missing counter at 0 and returns the
 *       new value; every value it returns for a URI is greater than every value returned for that
 *       URI before, across restarts of the service (values carry an epoch, {@link CounterValues}).
 *   <li><b>Validation.</b> A value is validated by {@link #validate} or, failing that, once the
 *       timeout of its URI has passed since it was issued. {@link #highestValidated} returns the
 *       largest issued value {@code v} such that every value issued up to {@code v} is validated: a
 *       snapshot id below which no commit is still in flight. Before any increment in the current
 *       epoch it returns the epoch's base value ({@code CounterValues.of(epoch, 0)}).
 *   <li><b>Restarts.</b> A service may lose its counters when it fails. After a restart it MUST
 *       refuse every request with {@link ServiceUnavailableException} for the longest timeout it has
 *       ever been configured with (so that every value issued before is validated by then), and
 *       then continue in a higher epoch. Timeouts and the epoch survive restarts.
 *   <li>Validating a value that was never issued fails with {@link BadRequestException}; validating
 *       a value of an earlier epoch, or twice, succeeds without effect.
 * </ul>
 *
 * <p>Implementations MUST be thread-safe.
 */
public interface CounterService extends AutoCloseable {

  /** Sets the validation timeout for counters whose URI starts with {@code uriPrefix}. */
  CompletableFuture<Void> setTimeout(String uriPrefix, Duration timeout);

  /** Increments the counter (creating it at 0) and returns the new value. */
  CompletableFuture<Long> increment(String uri);

  /** Validates a value this counter issued. */
  CompletableFuture<Void> validate(String uri, long value);

  /** The highest value up to which every issued value is validated. */
  CompletableFuture<Long> highestValidated(String uri);

  /** Releases client resources. The default holds none. */
  @Override
  default void close() {}
}
