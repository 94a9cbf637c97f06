package io.stratus.cloudapi.inprocess;

import io.stratus.cloudapi.ServiceUnavailableException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Function;

/**
 * The restarts of the lock and counter services (paper 000, sections 6.5 and 6.6): a restart loses
 * the service's state, and requests are then refused with {@link ServiceUnavailableException}
 * until the longest timeout ever configured has passed since the restart. By then every lease or
 * value handed out before the restart has lapsed or validated on its own, which is the paper's
 * whole safety argument for losing the state.
 *
 * <p>Why it also holds the restart lock: a request must see the state before a restart or the state
 * after it, never half of each. Requests run under the read side ({@link #admit}), so they proceed
 * in parallel; {@link #restart} takes the write side, so it waits for the requests in flight and no
 * request straddles it. The clock is read under the lock, so a request admitted after a restart is
 * judged against the new window.
 *
 * <p>Thread-safe.
 */
final class RefusalWindow {
  private final Clock clock;
  private final PrefixTimeouts timeouts;
  private final String refusal;

  /** Read side: requests. Write side: {@link #restart}. */
  private final ReentrantReadWriteLock restartLock = new ReentrantReadWriteLock();

  /** End of the refusal period after the last restart; written under the write lock. */
  private Instant refuseUntil = Instant.MIN;

  /**
   * @param timeouts the service's timeouts, whose longest ever bounds the window
   * @param refusal what a refused request is told, e.g. "the lock service restarted and refuses
   *     acquires"; the remaining wait is appended
   */
  RefusalWindow(Clock clock, PrefixTimeouts timeouts, String refusal) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.timeouts = Objects.requireNonNull(timeouts, "timeouts");
    this.refusal = Objects.requireNonNull(refusal, "refusal");
  }

  /**
   * Runs {@code loseState} while no request is in flight, then refuses requests for the longest
   * timeout ever configured, measured from now. If {@code loseState} throws, nothing is refused.
   */
  void restart(Runnable loseState) {
    restartLock.writeLock().lock();
    try {
      loseState.run();
      refuseUntil = PrefixTimeouts.endOf(clock.instant(), timeouts.longestEver());
    } finally {
      restartLock.writeLock().unlock();
    }
  }

  /**
   * Runs {@code body} with the current instant, outside any restart.
   *
   * @throws ServiceUnavailableException while requests are refused, with the rest of the refusal
   *     period as its retry-after
   */
  <T> T admit(Function<Instant, T> body) {
    restartLock.readLock().lock();
    try {
      Instant now = clock.instant();
      if (now.isBefore(refuseUntil)) {
        Duration wait = Duration.between(now, refuseUntil);
        throw new ServiceUnavailableException(refusal + " for another " + wait, wait);
      }
      return body.apply(now);
    } finally {
      restartLock.readLock().unlock();
    }
  }

  /** Like {@link #admit}, but answers {@code whileRefusing} instead of refusing. */
  <T> T admitOr(T whileRefusing, Function<Instant, T> body) {
    restartLock.readLock().lock();
    try {
      Instant now = clock.instant();
      return now.isBefore(refuseUntil) ? whileRefusing : body.apply(now);
    } finally {
      restartLock.readLock().unlock();
    }
  }
}
