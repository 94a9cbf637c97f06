package io.stratus.protocols.isolation;

import io.stratus.TransactionTimeoutException;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.CounterService;
import io.stratus.cloudapi.OutcomeUnknownException;
import io.stratus.cloudapi.SupportsIdempotentIncrement;
import io.stratus.protocols.Pause;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * The commit-id counter of the isolating protocols ({@code <databaseUri>/si/commits}) as one
 * handle uses it: commit ids taken (a lost reply asked again under its request id), validated,
 * and waited for.
 *
 * <p><b>Validation is owed until it succeeds.</b> The counter's highest validated id cannot pass
 * an id that was taken and not validated, so one such id holds back every later snapshot — every
 * begin of a handle that must see a later commit of its own, and every commit of the serializable
 * mode — until the counter validates it by itself at the end of the isolation lease. A
 * validation that fails is therefore asked again at once ({@link #VALIDATE_ATTEMPTS} requests in
 * all), and when every one fails the id stays owed: it is asked again in the background, at each
 * begin and at each poll of a wait, until it succeeds, a poll shows the counter past it, or its
 * lease has ended. Repeating a validation is safe: validating an id twice succeeds without
 * effect, so a lost reply is simply asked again.
 *
 * <p>An id is validated (and so owed) only when no snapshot can miss part of its commit: its
 * records are all in the archive, or none of them ever will be (its commit ended before its
 * commit record was sent, so recovery has nothing to apply). A commit whose commit record may
 * have arrived but is not archived yet is never validated here; recovery archives it first.
 *
 * <p><b>Waits are bounded in real time and tolerate refused polls.</b> A wait (a begin whose
 * snapshot must include a commit, a serializable commit waiting for every earlier id) polls the
 * counter for at most {@link #WAIT_BUDGET} of real time, the polls {@link #FIRST_POLL_GAP} apart
 * at first and then further apart, up to {@link #LONGEST_POLL_GAP}: what a wait waits for is
 * another thread's or client's commit between taking its id and validating it, which takes a
 * queue round trip or two in real time whatever the handle's clock says (on a manual clock the
 * handle's time stands still), and a commit that has not validated its id after the budget has
 * most likely stopped. A poll that fails transiently is polled again within the budget; only
 * {@link #FAILED_POLLS_IN_A_ROW} failed polls in a row (the service is down, not one call refused)
 * end the wait with the last failure, which the caller's retries then back off from. Where an
 * earlier wait already gave up, later waits give up sooner ({@link #BUDGET_ON_A_KNOWN_STALL}).
 *
 * <p>Thread-safe.
 */
final class CommitCounter {
  private static final System.Logger LOG = System.getLogger(CommitCounter.class.getName());

  /**
   * The real time a snapshot or a validation waits for the counter before it gives up: many times
   * the round trips between a commit's increment and its validation (an archive put and a
   * validation, 10-100 ms on AWS), so that only a stopped client's id outlasts it. A wait that
   * gives up fails its begin or commit with a retryable timeout.
   */
  static final Duration WAIT_BUDGET = Duration.ofMillis(500);

  /**
   * The real time a wait polls while the counter stands where an earlier wait of this handle gave
   * up ({@link CounterStall#known}): the stall is known to outlast a full wait.
   */
  static final Duration BUDGET_ON_A_KNOWN_STALL = Duration.ofMillis(20);

  /** The gap between the first polls of a wait: a commit in flight validates within milliseconds. */
  static final Duration FIRST_POLL_GAP = Duration.ofMillis(1);

  /**
   * The longest gap between two polls of a wait, which doubles from {@link #FIRST_POLL_GAP}: a
   * longer wait is for a slower commit, and polls every millisecond for half a second would be
   * 500 requests to the counter service for one begin.
   */
  static final Duration LONGEST_POLL_GAP = Duration.ofMillis(8);

  /** Failed polls in a row that end a wait: the counter service is down rather than flaky. */
  static final int FAILED_POLLS_IN_A_ROW = 8;

  /**
   * Requests for one commit id under one request id, the first included, when replies are lost
   * (the retries wait 0, 1, 2, ... 32 ms before they ask).
   */
  static final int INCREMENT_ATTEMPTS = 8;

  /**
   * Requests that validate one id before it is left owed (the retries wait 0, 1 and 2 ms before
   * they ask).
   */
  static final int VALIDATE_ATTEMPTS = 4;

  /**
   * How the counter polls wait: they park for real. What they wait for is another request
   * thread's or process's commit reaching the counter, which progresses in real time whatever the
   * handle's clock; with the handle's {@link Pause} (which returns at once on a manual clock) the
   * polls could run out before a commit in flight on another thread reached the counter.
   */
  private static final Pause COUNTER_POLL = Pause.PARK;

  /** What a wait that ran out of polls or time throws, given the message of its cause. */
  @FunctionalInterface
  interface GiveUp {
    /**
     * The exception that ends the wait.
     *
     * @param validated the highest validated id the wait last saw
     * @param polls the polls it made
     * @param cause why the counter does not move, and what to do ({@link CounterStall})
     */
    TransactionTimeoutException after(long validated, int polls, String cause);
  }

  /** An increment in flight for one commit attempt; {@code requestId} null without the ability. */
  record Increment(CompletableFuture<Long> next, @Nullable String requestId) {}

  /** An id whose validation failed, since when, and how its last attempt failed. */
  private static final class Owed {
    final long sinceMillis;
    volatile CloudException lastFailure;

    Owed(long sinceMillis, CloudException lastFailure) {
      this.sinceMillis = sinceMillis;
      this.lastFailure = lastFailure;
    }
  }

  private final CounterService counters;

  /** {@link #counters} with idempotent increments, or null when they lack the ability. */
  private final @Nullable SupportsIdempotentIncrement idempotent;

  private final String uri;
  private final Clock clock;
  private final Pause pause;
  private final Duration lease;
  private final CounterStall stall;
  private final String requestIdPrefix;
  private final Consumer<Runnable> background;
  private final AtomicLong commitAttempts = new AtomicLong();
  private final Map<Long, Owed> owed = new ConcurrentHashMap<>();

  /** Real time in nanoseconds, for the budget of a wait ({@link System#nanoTime} in use). */
  private final LongSupplier nanoTime;

  /**
   * @param uri the counter's URI
   * @param pause how the retries of an increment or a validation wait
   * @param lease the counter's validation timeout: an id older than that is validated anyway
   * @param requestIdPrefix what makes this handle's request ids unique (at most 40 characters)
   * @param background runs work that need not hold up the caller
   * @param nanoTime real time in nanoseconds, which bounds the waits ({@link #WAIT_BUDGET})
   */
  CommitCounter(
      CounterService counters,
      String uri,
      Clock clock,
      Pause pause,
      Duration lease,
      CounterStall stall,
      String requestIdPrefix,
      Consumer<Runnable> background,
      LongSupplier nanoTime) {
    this.counters = counters;
    this.idempotent = SupportsIdempotentIncrement.of(counters);
    this.uri = uri;
    this.clock = clock;
    this.pause = pause;
    this.lease = lease;
    this.stall = stall;
    this.requestIdPrefix = requestIdPrefix;
    this.background = background;
    this.nanoTime = nanoTime;
  }

  // ---- taking ids ----

  /**
   * Sends the increment of one commit attempt: under a request id of its own when the counters
   * have idempotent increments.
   */
  Increment increment() {
    if (idempotent == null) {
      return new Increment(counters.increment(uri), null);
    }
    String requestId = requestIdPrefix + "/" + Long.toString(commitAttempts.incrementAndGet(), 36);
    return new Increment(idempotent.increment(uri, requestId), requestId);
  }

  /**
   * The id {@code increment} was issued. A lost reply is asked again under its request id ({@link
   * #askAgain}): the answer is the id the lost request was issued. Without the ability a lost
   * reply fails, and the id it may have been issued holds newer snapshots back until its lease
   * ends.
   *
   * @throws CloudException no id was learned
   */
  long await(Increment increment) {
    try {
      return CloudFutures.await(increment.next());
    } catch (OutcomeUnknownException e) {
      String requestId = increment.requestId();
      SupportsIdempotentIncrement asked = idempotent;
      if (requestId == null || asked == null) {
        throw e;
      }
      return askAgain(asked, requestId, e);
    }
  }

  /**
   * Repeats an increment whose outcome is unknown under its request id until an answer comes,
   * for at most {@link #INCREMENT_ATTEMPTS} requests in all; a definite refusal that no retry
   * can change ends it at once.
   *
   * @throws CloudException the last failure, when no answer came
   */
  private long askAgain(
      SupportsIdempotentIncrement asked, String requestId, CloudException unknown) {
    CloudException last = unknown;
    for (int attempt = 1; attempt < INCREMENT_ATTEMPTS; attempt++) {
      if (attempt > 1) {
        pause.pause(Duration.ofMillis(1L << (attempt - 2)));
      }
      try {
        long id = CloudFutures.await(asked.increment(uri, requestId));
        LOG.log(
            Level.DEBUG,
            () -> "commit id " + id + " learned again after a lost reply (" + requestId + ")");
        return id;
      } catch (CloudException e) {
        if (!worthRepeating(e)) {
          throw e;
        }
        last = e;
      }
    }
    throw last;
  }

  /**
   * Validates the id {@code increment} brings once it comes, for a commit that ends before it used
   * it; one whose reply was lost is first asked again, in the background.
   */
  void validateWhenKnown(Increment increment) {
    String requestId = increment.requestId();
    SupportsIdempotentIncrement asked = idempotent;
    increment
        .next()
        .whenComplete(
            (id, e) -> {
              if (e == null) {
                validate(id);
              } else if (requestId != null
                  && asked != null
                  && CloudFutures.unwrap(e) instanceof OutcomeUnknownException unknown) {
                askAgainInBackground(asked, requestId, unknown);
              }
            });
  }

  /** Learns in the background the id of a request whose reply was lost, and validates it. */
  private void askAgainInBackground(
      SupportsIdempotentIncrement asked, String requestId, OutcomeUnknownException unknown) {
    background.accept(
        () -> {
          try {
            validate(askAgain(asked, requestId, unknown));
          } catch (CloudException again) {
            LOG.log(Level.DEBUG, "commit id of " + requestId + " not learned; it lapses");
          }
        });
  }

  // ---- validating ----

  /**
   * Validates {@code commitId}, whose commit is archived whole or will never have a record
   * archived. Asked up to {@link #VALIDATE_ATTEMPTS} times; when each fails, the id is owed and
   * asked again later ({@link #retryOwed}). Never throws a cloud failure.
   */
  void validate(long commitId) {
    CloudException last = validateOnce(commitId);
    for (int attempt = 1; last != null && worthRepeating(last); attempt++) {
      if (attempt == VALIDATE_ATTEMPTS) {
        owe(commitId, last);
        return;
      }
      if (attempt > 1) {
        pause.pause(Duration.ofMillis(1L << (attempt - 2)));
      }
      last = validateOnce(commitId);
    }
  }

  /** Notes that every attempt to validate {@code commitId} failed, {@code failure} the last. */
  private void owe(long commitId, CloudException failure) {
    owed.put(commitId, new Owed(clock.millis(), failure));
    LOG.log(
        Level.DEBUG,
        () -> "validating commit id " + commitId + " failed; the handle asks again later",
        failure);
    background.accept(this::retryOwed);
  }

  /**
   * Asks again to validate every id this handle owes; forgets those the counter has validated by
   * itself (their lease ended).
   */
  void retryOwed() {
    if (owed.isEmpty()) {
      return;
    }
    long now = clock.millis();
    for (long id : List.copyOf(owed.keySet())) {
      Owed o = owed.get(id);
      if (o == null) {
        continue; // validated meanwhile by another thread
      }
      if (now - o.sinceMillis > lease.toMillis()) {
        owed.remove(id, o); // issued before it was owed: its lease has ended
        continue;
      }
      CloudException failure = validateOnce(id);
      if (failure != null && worthRepeating(failure)) {
        o.lastFailure = failure;
      } else {
        owed.remove(id, o);
      }
    }
  }

  /** One validation request: null when it succeeded, else how it failed (logged when for good). */
  private @Nullable CloudException validateOnce(long commitId) {
    try {
      CloudFutures.await(counters.validate(uri, commitId));
      return null;
    } catch (CloudException e) {
      if (!worthRepeating(e)) {
        // Never issued (a bad request), or refused for good: asking again cannot help.
        LOG.log(Level.WARNING, "validating commit id " + commitId + " was refused; it lapses", e);
      }
      return e;
    }
  }

  // ---- waiting ----

  /** One poll: the highest validated commit id (every commit up to it is archived). */
  long highestValidated() {
    long v = CloudFutures.await(counters.highestValidated(uri));
    if (!owed.isEmpty()) {
      owed.keySet().removeIf(id -> id <= v); // the counter is past it (its lease ended, a restart)
    }
    return v;
  }

  /**
   * Polls until the highest validated id reaches {@code target}, and returns it: for at most
   * {@link #WAIT_BUDGET} of real time ({@link #BUDGET_ON_A_KNOWN_STALL} while the counter stands
   * where an earlier wait gave up) and until {@code deadlineMillis} on the handle's clock. Each poll of the wait first
   * asks again to validate what this handle owes. The first poll's failure ends the wait (the
   * caller retries the call as a whole); later ones end it only {@link #FAILED_POLLS_IN_A_ROW}
   * in a row.
   *
   * @throws TransactionTimeoutException from {@code giveUp}, when the polls or the time ran out
   * @throws CloudException the first poll, or too many in a row, failed
   */
  long awaitAtLeast(long target, long deadlineMillis, GiveUp giveUp) {
    long v = highestValidated();
    CloudException failedPoll = null;
    int failedInARow = 0;
    long startedNanos = nanoTime.getAsLong();
    Duration gap = FIRST_POLL_GAP;
    for (int i = 0; v < target; i++) {
      long waitedMillis = stall.waiting(v);
      Duration budget = stall.known(v) ? BUDGET_ON_A_KNOWN_STALL : WAIT_BUDGET;
      if (nanoTime.getAsLong() - startedNanos >= budget.toNanos()
          || clock.millis() > deadlineMillis) {
        Owed mine = owed.get(v + 1);
        TransactionTimeoutException timeout =
            giveUp.after(
                v,
                i,
                mine == null
                    ? stall.cause(v, waitedMillis)
                    : stall.causeOwnValidation(v, waitedMillis, mine.lastFailure));
        if (failedPoll != null) {
          timeout.initCause(failedPoll);
        }
        throw timeout;
      }
      retryOwed();
      COUNTER_POLL.pause(gap);
      gap = gap.compareTo(LONGEST_POLL_GAP) < 0 ? gap.multipliedBy(2) : LONGEST_POLL_GAP;
      try {
        v = highestValidated();
        failedInARow = 0;
        failedPoll = null;
      } catch (CloudException e) {
        if (!worthRepeating(e) || ++failedInARow >= FAILED_POLLS_IN_A_ROW) {
          throw e;
        }
        failedPoll = e;
        LOG.log(Level.DEBUG, "a poll of the commit counter failed; the wait polls again", e);
      }
    }
    return v;
  }

  /**
   * Whether a call may be repeated: it failed without effect, or its reply was lost (every call
   * repeated here is idempotent: a poll reads, a validation or an increment under a request id
   * has one effect however often it is asked).
   */
  private static boolean worthRepeating(CloudException e) {
    return e.isRetryable() || e instanceof OutcomeUnknownException;
  }
}
