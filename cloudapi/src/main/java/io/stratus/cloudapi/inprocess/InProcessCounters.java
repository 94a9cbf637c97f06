package io.stratus.cloudapi.inprocess;

import io.stratus.cloudapi.BadRequestException;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.CloudLimits;
import io.stratus.cloudapi.CounterValues;
import io.stratus.cloudapi.LimitExceededException;
import io.stratus.cloudapi.SupportsIdempotentIncrement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Advanced counters in memory (paper 000, sections 2.3.6 and 6.6): the counter service behind GSI's
 * commit ids and snapshot ids, as one fail-over server that loses its counters when it restarts and
 * continues in a higher epoch.
 *
 * <p>State of one counter, and why it is enough:
 *
 * <ul>
 *   <li>{@code lastIssued}: the sequence of the last value handed out in the current epoch.
 *   <li>{@code watermark}: every sequence up to it is validated (explicitly, or because its timeout
 *       passed). Validation is final (the clock only moves on), so this prefix never needs to be
 *       looked at again and is kept as one number: memory stays bounded by the values still in
 *       flight, not by the values ever issued.
 *   <li>{@code pending}: one entry per sequence in (watermark, lastIssued], with the instant it
 *       validates on its own (issue time plus the URI's timeout at issue) and whether it was
 *       validated explicitly. The highest validated value is the watermark after advancing it over
 *       the leading entries that are validated or due.
 *   <li>{@code requests}: the request ids of idempotent increments ({@link
 *       SupportsIdempotentIncrement}) with their sequences, in issue order. An id is forgotten once
 *       its value is folded into the watermark and at least {@link SupportsIdempotentIncrement#REMEMBERED}
 *       later ids are remembered; so the map is bounded as {@code pending} is, plus that window.
 * </ul>
 *
 * <p>Restarts: {@link #restart()} drops every counter, moves to the next epoch and refuses every
 * request for the longest timeout ever configured, so every value issued before has validated on
 * its own by the time the service answers again; from then on a counter reads as {@code
 * CounterValues.of(newEpoch, 0)}, above every old value, and remembers no request id. The epoch and configured timeouts survive
 * (the paper keeps them persistently, see {@link PrefixTimeouts}). Calls are admitted by the {@link
 * RefusalWindow}, which {@link #restart()} closes, so no call straddles a restart.
 *
 * <p>Thread-safe: each counter is guarded by its own monitor. Every call completes its future
 * before it returns; bad input fails the future.
 */
final class InProcessCounters implements SupportsIdempotentIncrement {
  private final CloudLimits limits;
  private final PrefixTimeouts timeouts;

  /** Admits every call that looks at counters; closed for a while by {@link #restart()}. */
  private final RefusalWindow window;

  private final ConcurrentHashMap<String, Counter> counters = new ConcurrentHashMap<>();

  /** Written inside {@link RefusalWindow#restart}, read inside its admits: its lock orders both. */
  private long epoch;

  InProcessCounters(Clock clock, CloudLimits limits, Duration defaultTimeout) {
    this.limits = Objects.requireNonNull(limits, "limits");
    this.timeouts = new PrefixTimeouts("counter", defaultTimeout);
    this.window =
        new RefusalWindow(clock, timeouts, "the counter service restarted and refuses requests");
  }

  /**
   * Simulates a crash and fail-over: every counter is lost, the epoch goes up by one, and every
   * request is refused for the longest timeout ever configured, measured from now.
   */
  void restart() {
    window.restart(
        () -> {
          if (epoch == CounterValues.MAX_EPOCH) {
            throw new IllegalStateException("the counter service ran out of epochs");
          }
          epoch++;
          counters.clear();
        });
  }

  @Override
  public CompletableFuture<Void> setTimeout(String uriPrefix, Duration timeout) {
    // Allowed during the refusal period: timeouts live outside the lost state.
    return call(
        () -> {
          limits.checkPrefix(uriPrefix);
          timeouts.set(uriPrefix, timeout);
          return null;
        });
  }

  @Override
  public CompletableFuture<Long> increment(String uri) {
    return call(() -> issue(uri, null));
  }

  @Override
  public CompletableFuture<Long> increment(String uri, String requestId) {
    return call(
        () -> {
          SupportsIdempotentIncrement.checkRequestId(requestId);
          return issue(uri, requestId);
        });
  }

  /** Issues the next value of {@code uri}, or the one issued before under {@code requestId}. */
  private long issue(String uri, @Nullable String requestId) {
    limits.checkUri(uri);
    return window.admit(
        now -> {
          Duration timeout = timeouts.lookup(uri);
          Counter c = counters.computeIfAbsent(uri, u -> new Counter());
          synchronized (c) {
            Long known = requestId == null ? null : c.requests.get(requestId);
            if (known != null) {
              return CounterValues.of(epoch, known);
            }
            if (c.lastIssued == CounterValues.MAX_SEQUENCE) {
              throw new LimitExceededException(
                  "counter sequence", c.lastIssued + 1, CounterValues.MAX_SEQUENCE);
            }
            long seq = ++c.lastIssued;
            c.pending.put(seq, new Pending(PrefixTimeouts.endOf(now, timeout)));
            if (requestId != null) {
              c.requests.put(requestId, seq);
            }
            c.advance(now);
            return CounterValues.of(epoch, seq);
          }
        });
  }

  @Override
  public CompletableFuture<Void> validate(String uri, long value) {
    return call(
        () -> {
          limits.checkUri(uri);
          return window.admit(
              now -> {
                if (value < 0) {
                  throw new BadRequestException("counter values are not negative: " + value);
                }
                long valueEpoch = CounterValues.epoch(value);
                if (valueEpoch < epoch) {
                  return null; // issued before a restart: validated on its own during the refusal
                  // period
                }
                long seq = CounterValues.sequence(value);
                Counter c = valueEpoch == epoch && seq > 0 ? counters.get(uri) : null;
                if (c == null) {
                  throw neverIssued(uri, value);
                }
                synchronized (c) {
                  if (seq > c.lastIssued) {
                    throw neverIssued(uri, value);
                  }
                  Pending p = c.pending.get(seq);
                  if (p != null) { // else at or below the watermark: already validated
                    p.validated = true;
                    c.advance(now);
                  }
                  return null;
                }
              });
        });
  }

  @Override
  public CompletableFuture<Long> highestValidated(String uri) {
    return call(
        () -> {
          limits.checkUri(uri);
          return window.admit(
              now -> {
                // A missing counter is not created: reading must not make the service hold state.
                Counter c = counters.get(uri);
                if (c == null) {
                  return CounterValues.of(epoch, 0);
                }
                synchronized (c) {
                  c.advance(now);
                  return CounterValues.of(epoch, c.watermark);
                }
              });
        });
  }

  /** Values of {@code uri} issued and not yet folded into its watermark, for tests. */
  int pendingCount(String uri) {
    Counter c = counters.get(uri);
    if (c == null) {
      return 0;
    }
    synchronized (c) {
      return c.pending.size();
    }
  }

  // ---- internals ----

  private BadRequestException neverIssued(String uri, long value) {
    return new BadRequestException(
        "counter "
            + uri
            + " never issued value "
            + value
            + " (epoch "
            + CounterValues.epoch(value)
            + ", sequence "
            + CounterValues.sequence(value)
            + "; current epoch "
            + epoch
            + ")");
  }

  /** Runs a call on the caller's thread; a rejected request becomes a failed future. */
  private static <T> CompletableFuture<T> call(Supplier<T> body) {
    try {
      return CompletableFuture.completedFuture(body.get());
    } catch (CloudException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /** One counter in the current epoch; every field is guarded by its monitor. */
  private static final class Counter {
    long lastIssued;
    long watermark;

    /** Exactly the sequences in (watermark, lastIssued]. */
    final NavigableMap<Long, Pending> pending = new TreeMap<>();

    /**
     * Request id to sequence, in issue order (so by sequence): every one above the watermark, and
     * the last {@link SupportsIdempotentIncrement#REMEMBERED} at least.
     */
    final LinkedHashMap<String, Long> requests = new LinkedHashMap<>();

    /** Folds the leading validated or due values into the watermark. */
    void advance(Instant now) {
      Map.Entry<Long, Pending> first;
      while ((first = pending.firstEntry()) != null && first.getValue().validAt(now)) {
        pending.pollFirstEntry();
        watermark = first.getKey();
      }
      Iterator<Long> oldest = requests.values().iterator();
      while (requests.size() > SupportsIdempotentIncrement.REMEMBERED
          && oldest.next() <= watermark) {
        oldest.remove();
      }
    }
  }

  /** An issued value above the watermark. */
  private static final class Pending {
    final Instant autoValidatedAt;
    boolean validated;

    Pending(Instant autoValidatedAt) {
      this.autoValidatedAt = autoValidatedAt;
    }

    /** Validated explicitly, or issued at i with timeout t and i + t <= now. */
    boolean validAt(Instant now) {
      return validated || !now.isBefore(autoValidatedAt);
    }
  }
}
