package io.stratus.cloudapi;

import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * The optional ability to increment a counter under a request id, so that a caller whose reply
 * was lost can ask again and learn the value it was issued, instead of leaving it unvalidated.
 *
 * <p>Why it matters: a value nobody validates holds {@link CounterService#highestValidated} back
 * until its timeout, and the caller of a plain {@link CounterService#increment} that got {@link
 * OutcomeUnknownException} cannot tell whether it was issued one, let alone which. With a request
 * id the retry is safe: it returns the earlier value, which the caller then uses and validates.
 *
 * <p>Guarantees every implementation MUST give, in addition to {@link CounterService}'s:
 *
 * <ul>
 *   <li><b>Once per request id.</b> {@link #increment(String, String)} with a request id the
 *       counter remembers returns the value it issued for that id and issues nothing; with any
 *       other request id it increments as {@link CounterService#increment} does and remembers the
 *       id with the new value. Concurrent calls with one id on one counter issue one value and
 *       all return it.
 *   <li><b>What is remembered.</b> A counter remembers the request id of every value it issued
 *       under one that is not yet validated (neither validated explicitly nor past its timeout),
 *       and of at least the last {@value #REMEMBERED} values it issued under request ids in the
 *       current epoch. So a retry made while the value awaits validation always finds it, however
 *       many other increments came in between. A retry of an id no longer remembered issues a new
 *       value.
 *   <li><b>Per counter.</b> Request ids are scoped to a counter URI: the same id on two counters
 *       names two requests.
 *   <li><b>Restarts.</b> A service that loses its counters on a restart loses what they remember:
 *       a retry after the restart issues a new value in the new epoch. The first value is
 *       validated by then (the refusal period outlasts every timeout), so it holds nothing back.
 *   <li>A request id is 1 to {@value #MAX_REQUEST_ID_LENGTH} printable ASCII characters without
 *       spaces; any other fails with {@link BadRequestException}.
 * </ul>
 *
 * <p>Use: check with {@code instanceof} (or {@link #of(CounterService)}), then use a fresh request
 * id per logical increment and repeat it on every retry; fall back to plain increments when the
 * ability is missing.
 *
 * <p>Implementations MUST be thread-safe.
 */
public interface SupportsIdempotentIncrement extends CounterService {

  /** How many of the last values issued under request ids a counter remembers, at least. */
  int REMEMBERED = 32;

  /** The longest request id, in characters (as long as an AWS client token). */
  int MAX_REQUEST_ID_LENGTH = 64;

  /**
   * Increments the counter (creating it at 0) and returns the new value, or returns the value
   * already issued for {@code requestId} on this counter.
   */
  CompletableFuture<Long> increment(String uri, String requestId);

  /**
   * Checks a request id against the rule above.
   *
   * @throws BadRequestException when it breaks the rule
   */
  static void checkRequestId(String requestId) {
    if (requestId == null
        || requestId.isEmpty()
        || requestId.length() > MAX_REQUEST_ID_LENGTH
        || !requestId.chars().allMatch(c -> c > 0x20 && c < 0x7F)) {
      throw new BadRequestException(
          "a request id must be 1 to "
              + MAX_REQUEST_ID_LENGTH
              + " printable ASCII characters without spaces: "
              + (requestId == null ? "null" : '"' + requestId + '"'));
    }
  }

  /** {@code counters} as counters with idempotent increments, or null when they lack the ability. */
  static @Nullable SupportsIdempotentIncrement of(CounterService counters) {
    return counters instanceof SupportsIdempotentIncrement
        ? (SupportsIdempotentIncrement) counters
        : null;
  }
}
