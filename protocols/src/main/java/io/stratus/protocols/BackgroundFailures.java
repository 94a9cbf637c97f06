package io.stratus.protocols;

import io.stratus.cloudapi.ServiceUnavailableException;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Failures of background work that leave committed records invisible until a later pass
 * (checkpoints, the atomic protocol's propagation and clean-up, recovery), counted and reported
 * as warnings an operator sees, at most one per kind of failure per {@link #WARN_EVERY}.
 *
 * <p>Why warnings, and why rate-limited: while such work fails, committed data stays invisible to
 * other clients — an operator must hear of it (at DEBUG nobody does). But a failing service makes
 * every background pass fail the same way, many times a second; one warning per kind and minute,
 * saying how many failures it stands for, tells the operator as much without flooding the log.
 * The count is in the handle's stats. Thread-safe; one instance per protocol instance.
 */
public final class BackgroundFailures {
  /** The least time between two warnings of one kind. */
  public static final Duration WARN_EVERY = Duration.ofMinutes(1);

  private final System.Logger log;
  private final Clock clock;
  private final LongAdder total = new LongAdder();
  private final ConcurrentHashMap<String, Window> windows = new ConcurrentHashMap<>();

  /** Failures logged to {@code log}, rate-limited on {@code clock}. */
  public BackgroundFailures(System.Logger log, Clock clock) {
    this.log = Objects.requireNonNull(log, "log");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * Counts one failure of kind {@code kind} (e.g. "propagation") and warns about it unless a
   * warning of that kind was given within {@link #WARN_EVERY}; then it is logged at DEBUG and
   * the next warning says how many it stood for.
   */
  public void report(String kind, String message, Throwable cause) {
    total.increment();
    Window w = windows.computeIfAbsent(kind, k -> new Window());
    long now = clock.millis();
    long suppressed;
    synchronized (w) {
      if (w.warnedAt != Long.MIN_VALUE && now - w.warnedAt < WARN_EVERY.toMillis()) {
        w.suppressed++;
        suppressed = -1;
      } else {
        suppressed = w.suppressed;
        w.suppressed = 0;
        w.warnedAt = now;
      }
    }
    if (suppressed < 0) {
      log.log(Level.DEBUG, message, cause);
    } else {
      // A service that says it is unavailable (a lock service refusing after a restart, an
      // outage) explains itself; its stack trace would only bury that. DEBUG keeps the trace.
      boolean unavailable = cause instanceof ServiceUnavailableException;
      if (unavailable) {
        log.log(Level.DEBUG, message, cause);
      }
      log.log(
          Level.WARNING,
          message
              + (unavailable ? ": " + cause.getMessage() : "")
              + (suppressed == 0
                  ? ""
                  : " (and "
                      + suppressed
                      + " more "
                      + kind
                      + " failure(s) since the last warning)"),
          unavailable ? null : cause);
    }
  }

  /** Failures reported so far. */
  public long count() {
    return total.sum();
  }

  private static final class Window {
    long warnedAt = Long.MIN_VALUE;
    long suppressed;
  }
}
