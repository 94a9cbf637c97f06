package io.stratus.protocols.isolation;

import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Why the commit-id counter does not move, as far as a handle can tell while it waits for it: the
 * highest validated id stays below the next one, which some client took and has not validated
 * (another client, or this handle when its validation calls failed).
 * Used by the waits of a begin (a snapshot that must include this handle's own commits) and of a
 * commit (every earlier commit archived), which give up after a bounded time.
 *
 * <p>Why it matters: a client that stops (crashed, killed, cut off) between taking its commit id
 * and validating it holds every later snapshot back until the counter validates the id by itself,
 * at the end of its lease (or recovery finishes its transaction, once its commit record is older
 * than the atomic timeout). Other clients' begins fail meanwhile; a message saying only "not
 * validated yet" named neither the cause nor how long it lasts, so an operator could not tell a
 * dead client from a broken database. Each value the counter stalls at is warned about once.
 * Once a wait has given up at a value, later waits at the same value give up after a few milliseconds
 * ({@link #known}): a begin or serializable commit then fails in milliseconds rather than seconds
 * while the stall lasts, and waits get their full bound again once the counter moves.
 * Thread-safe.
 */
final class CounterStall {
  private static final System.Logger LOG = System.getLogger(CounterStall.class.getName());

  /** The value a wait found the counter at, and when this handle first found it there. */
  private record Since(long value, long sinceMillis) {}

  private final Clock clock;
  private final Duration lease;
  private final Duration atomicTimeout;
  private final String databaseUri;
  private final AtomicReference<Since> since = new AtomicReference<>(new Since(Long.MIN_VALUE, 0));

  /** The value the counter stood at when a wait of this handle last gave up (warned about). */
  private final AtomicLong gaveUpAt = new AtomicLong(Long.MIN_VALUE);

  /**
   * @param lease the counter's validation timeout (the isolation lease)
   * @param atomicTimeout after which recovery finishes a transaction whose commit record arrived
   */
  CounterStall(Clock clock, Duration lease, Duration atomicTimeout, String databaseUri) {
    this.clock = clock;
    this.lease = lease;
    this.atomicTimeout = atomicTimeout;
    this.databaseUri = databaseUri;
  }

  /**
   * Notes that a wait found the counter at {@code validated}; returns how long this handle has
   * been finding it there.
   */
  long waiting(long validated) {
    long now = clock.millis();
    Since s = since.updateAndGet(x -> x.value() == validated ? x : new Since(validated, now));
    return Math.max(0, now - s.sinceMillis());
  }

  /**
   * Whether a wait of this handle already gave up with the counter at {@code validated}: the id
   * above it is held by a client that stopped or a commit that waits for recovery, so a new wait
   * learns nothing from polling long.
   */
  boolean known(long validated) {
    return gaveUpAt.get() == validated;
  }

  /**
   * What holds the counter at {@code validated}, how long it can last, and what to do, for the
   * message of a wait that gave up after {@code waitedMillis}; warned about once per value.
   */
  String cause(long validated, long waitedMillis) {
    long held = validated + 1;
    String why =
        "Commit id "
            + held
            + " was taken and not validated: most likely the client that took it stopped"
            + " (crashed, killed or cut off) between taking its commit id and finishing its"
            + " commit, and no snapshot can include a later commit while that id is held. The"
            + " counter validates it by itself when its lease ends, at most "
            + seconds(lease.toMillis())
            + " after it was taken (the isolation lease timeout), or sooner, once its commit"
            + " record is older than the atomic timeout ("
            + seconds(atomicTimeout.toMillis())
            + ") and a client's recovery finishes its transaction; this handle has waited "
            + seconds(waitedMillis)
            + " so far. Nothing was applied: retry after that (Database.run retries this); a"
            + " shorter isolationLeaseTimeout shortens such stalls";
    return warnedOnce(validated, why);
  }

  /**
   * As {@link #cause}, when the id the counter waits for is one this handle took and could not
   * validate yet: its commit ended (committed, or failed before its commit record), and the
   * validation calls failed, the last with {@code lastFailure}.
   */
  String causeOwnValidation(long validated, long waitedMillis, Throwable lastFailure) {
    long held = validated + 1;
    String why =
        "Commit id "
            + held
            + " was taken by this handle, whose commit has ended, and validating it has failed so"
            + " far (the last attempt: "
            + lastFailure
            + "); the handle asks again at every begin and every poll, and the counter validates"
            + " it by itself at most "
            + seconds(lease.toMillis())
            + " after it was taken (the isolation lease timeout); this handle has waited "
            + seconds(waitedMillis)
            + " so far. Nothing was applied: retry (Database.run retries this); if it persists,"
            + " check the counter service";
    return warnedOnce(validated, why);
  }

  private String warnedOnce(long validated, String why) {
    if (gaveUpAt.getAndSet(validated) != validated) {
      LOG.log(Level.WARNING, "database " + databaseUri + ": " + why);
    }
    return why;
  }

  private static String seconds(long millis) {
    return String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
  }
}
