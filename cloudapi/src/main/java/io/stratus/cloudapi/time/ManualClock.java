package io.stratus.cloudapi.time;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.concurrent.CompletableFuture;

/**
 * A clock that moves only when told to, and a {@link Scheduler} whose waits end when the clock is
 * advanced past them: tests inject it instead of sleeping (in the manner of Caffeine's {@code
 * Ticker}).
 *
 * <p>Thread-safe. {@link #advance} completes the due waits on the calling thread, in order of their
 * deadlines, after the clock has moved, and outside the lock, so their continuations may read the
 * clock or schedule new waits.
 */
public final class ManualClock extends Clock implements Scheduler {
  private final Object lock = new Object();
  private final PriorityQueue<Waiter> waiters = new PriorityQueue<>();
  private long sequence;
  private Instant now;

  /** A clock standing at {@code start}. */
  public ManualClock(Instant start) {
    this.now = Objects.requireNonNull(start, "start");
  }

  /** A clock standing at 2026-01-01T00:00:00Z. */
  public ManualClock() {
    this(Instant.parse("2026-01-01T00:00:00Z"));
  }

  @Override
  public Instant instant() {
    synchronized (lock) {
      return now;
    }
  }

  @Override
  public long millis() {
    return instant().toEpochMilli();
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    throw new UnsupportedOperationException("a ManualClock is always UTC");
  }

  /** Moves the clock forward by {@code amount} and completes every wait that is now due. */
  public void advance(Duration amount) {
    if (amount.isNegative()) {
      throw new IllegalArgumentException("a clock cannot go back: " + amount);
    }
    List<Waiter> due = new ArrayList<>();
    synchronized (lock) {
      now = now.plus(amount);
      while (!waiters.isEmpty() && !waiters.peek().deadline.isAfter(now)) {
        due.add(waiters.poll());
      }
    }
    for (Waiter w : due) {
      w.future.complete(null);
    }
  }

  /** How many waits are pending. */
  public int pendingWaits() {
    synchronized (lock) {
      return waiters.size();
    }
  }

  @Override
  public CompletableFuture<Void> after(Duration delay) {
    if (delay.isNegative() || delay.isZero()) {
      return CompletableFuture.completedFuture(null);
    }
    CompletableFuture<Void> f = new CompletableFuture<>();
    synchronized (lock) {
      waiters.add(new Waiter(now.plus(delay), sequence++, f));
    }
    return f;
  }

  @Override
  public String toString() {
    return "ManualClock[" + instant() + "]";
  }

  private static final class Waiter implements Comparable<Waiter> {
    final Instant deadline;
    final long order;
    final CompletableFuture<Void> future;

    Waiter(Instant deadline, long order, CompletableFuture<Void> future) {
      this.deadline = deadline;
      this.order = order;
      this.future = future;
    }

    @Override
    public int compareTo(Waiter o) {
      int c = deadline.compareTo(o.deadline);
      return c != 0 ? c : Long.compare(order, o.order);
    }
  }
}
