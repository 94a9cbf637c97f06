package io.stratus.bench.tpcw.outage;

import io.stratus.bench.tpcw.workload.Bookstore;
import io.stratus.bench.tpcw.workload.BrowserSession;
import io.stratus.bench.tpcw.workload.Interaction;
import io.stratus.bench.tpcw.workload.InteractionOutcome;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * A bookstore that times every interaction of the bookstore it wraps and lets a test wait until a
 * number of interactions have ended: the outage test injects its faults at points of the run's
 * progress, not at wall-clock instants. Several wrappers may share one {@link Log}.
 */
final class TimedBookstore implements Bookstore {
  /** One interaction: when it started and ended (nanoseconds of the log's clock), and whether it
   * succeeded. */
  record Sample(long startNanos, long endNanos, boolean ok, String error) {
    double millis() {
      return (endNanos - startNanos) / 1e6;
    }
  }

  /** The interactions of every wrapper that shares it, in the order they ended. */
  static final class Log {
    private final LongSupplier nanoTime;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition ended = lock.newCondition();
    private final List<Sample> samples = new ArrayList<>();

    /** Start times of the interactions in flight (started, not ended). */
    private final List<Long> inFlight = new ArrayList<>();

    Log(LongSupplier nanoTime) {
      this.nanoTime = nanoTime;
    }

    long now() {
      return nanoTime.getAsLong();
    }

    /** Notes that an interaction started at {@code start}; {@link #add} ends it. */
    void started(long start) {
      lock.lock();
      try {
        inFlight.add(start);
        ended.signalAll();
      } finally {
        lock.unlock();
      }
    }

    void add(Sample s) {
      lock.lock();
      try {
        inFlight.remove(Long.valueOf(s.startNanos()));
        samples.add(s);
        ended.signalAll();
      } finally {
        lock.unlock();
      }
    }

    int size() {
      lock.lock();
      try {
        return samples.size();
      } finally {
        lock.unlock();
      }
    }

    List<Sample> samples() {
      lock.lock();
      try {
        return List.copyOf(samples);
      } finally {
        lock.unlock();
      }
    }

    /**
     * Waits until {@code count} interactions that started at {@code since} or later are in
     * flight at once (started, not ended): during an outage that began at {@code since}, the
     * moment that many new interactions wait on the service.
     *
     * @throws AssertionError when they are not within {@code timeoutNanos}
     */
    void awaitInFlightSince(long since, int count, long timeoutNanos) throws InterruptedException {
      lock.lock();
      try {
        long left = timeoutNanos;
        while (inFlight.stream().filter(t -> t >= since).count() < count) {
          if (left <= 0) {
            throw new AssertionError(
                "fewer than "
                    + count
                    + " interactions started since the outage are in flight in time");
          }
          left = ended.awaitNanos(left);
        }
      } finally {
        lock.unlock();
      }
    }

    /**
     * Waits until an interaction that started at {@code since} or later has succeeded.
     *
     * @throws AssertionError when none has within {@code timeoutNanos}
     */
    void awaitSucceededSince(long since, long timeoutNanos) throws InterruptedException {
      lock.lock();
      try {
        long left = timeoutNanos;
        while (samples.stream().noneMatch(s -> s.ok() && s.startNanos() >= since)) {
          if (left <= 0) {
            throw new AssertionError(
                "no interaction started since the outage ended succeeded in time");
          }
          left = ended.awaitNanos(left);
        }
      } finally {
        lock.unlock();
      }
    }

    /**
     * Waits until {@code count} interactions have ended.
     *
     * @throws AssertionError when they have not within {@code timeoutNanos}
     */
    void awaitEnded(int count, long timeoutNanos) throws InterruptedException {
      lock.lock();
      try {
        long left = timeoutNanos;
        while (samples.size() < count) {
          if (left <= 0) {
            throw new AssertionError(
                "only " + samples.size() + " of " + count + " interactions ended in time");
          }
          left = ended.awaitNanos(left);
        }
      } finally {
        lock.unlock();
      }
    }
  }

  private final Bookstore inner;
  private final Log log;

  TimedBookstore(Bookstore inner, Log log) {
    this.inner = inner;
    this.log = log;
  }

  @Override
  public BrowserSession newSession(long seed) {
    return inner.newSession(seed);
  }

  @Override
  public InteractionOutcome execute(Interaction interaction, BrowserSession session) {
    long start = log.now();
    log.started(start);
    try {
      InteractionOutcome outcome = inner.execute(interaction, session);
      log.add(new Sample(start, log.now(), true, null));
      return outcome;
    } catch (RuntimeException | Error e) {
      log.add(new Sample(start, log.now(), false, interaction + ": " + e));
      throw e;
    }
  }
}
