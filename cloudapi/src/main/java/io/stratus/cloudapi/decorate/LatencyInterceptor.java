package io.stratus.cloudapi.decorate;

import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.time.Scheduler;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Makes each call take as long as a {@link LatencyModel} says: the call is made at once, and its
 * future completes (with the call's result or failure) only after the modelled latency has passed
 * since the call itself completed.
 *
 * <p>Why a {@link Scheduler}: waiting must not hold a thread per call, or a benchmark with
 * thousands of calls in flight would need thousands of threads. The scheduler parks each waiting
 * call as one timer entry ({@link io.stratus.cloudapi.time.SystemScheduler} in real time, {@link
 * io.stratus.cloudapi.time.ManualClock} in tests, where the test advances time instead of
 * sleeping).
 *
 * <p>Optional jitter scales each latency by a factor drawn uniformly from {@code [1 - f, 1 + f]},
 * decided per (seed, operation, target, call ordinal) so that a run replays from its seed whatever
 * the thread interleaving. Immutable (apart from the ordinal counters of jitter) and thread-safe.
 */
public final class LatencyInterceptor implements CallInterceptor {
  private final LatencyModel model;
  private final Scheduler scheduler;
  private final double jitter;
  private final long seed;
  private final @Nullable Decisions decisions;

  /** An interceptor adding {@code model}'s latency, without jitter. */
  public LatencyInterceptor(LatencyModel model, Scheduler scheduler) {
    this(model, scheduler, 0, 0);
  }

  private LatencyInterceptor(LatencyModel model, Scheduler scheduler, double jitter, long seed) {
    this.model = Objects.requireNonNull(model, "model");
    this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
    this.jitter = jitter;
    this.seed = seed;
    this.decisions = jitter > 0 ? new Decisions() : null;
  }

  /**
   * A copy that varies each latency by up to {@code fraction} of it either way.
   *
   * @param fraction 0 (none, the default) to 1
   * @param seed the seed of the jitter decisions
   */
  public LatencyInterceptor withJitter(double fraction, long seed) {
    if (!(fraction >= 0 && fraction <= 1)) {
      throw new IllegalArgumentException("jitter fraction must be in [0, 1], got " + fraction);
    }
    return new LatencyInterceptor(model, scheduler, fraction, seed);
  }

  public LatencyModel model() {
    return model;
  }

  @Override
  public <T> CompletableFuture<T> intercept(Call<T> call, Supplier<CompletableFuture<T>> proceed) {
    double factor = 1.0;
    if (decisions != null) {
      long ordinal = decisions.nextOrdinal(call.operation(), call.target());
      double u =
          Decisions.random(seed, "jitter", call.operation(), call.target(), ordinal).nextDouble();
      factor = 1.0 + jitter * (2 * u - 1);
    }
    double scale = factor;
    CompletableFuture<T> result = new CompletableFuture<>();
    proceed
        .get()
        .whenComplete(
            (value, failure) -> {
              CompletableFuture<Void> wait;
              try {
                long received = failure == null ? call.responseBytes(value) : 0;
                wait =
                    scheduler.after(
                        scaled(
                            model.latency(call.operation(), call.requestBytes(), received), scale));
              } catch (RuntimeException e) {
                // A broken model or a closed scheduler must not leave the caller waiting forever.
                result.completeExceptionally(e);
                return;
              }
              wait.whenComplete(
                  (ignored, schedulerFailure) -> {
                    if (failure != null) {
                      result.completeExceptionally(CloudFutures.unwrap(failure));
                    } else {
                      result.complete(value);
                    }
                  });
            });
    return result;
  }

  private static Duration scaled(Duration d, double factor) {
    if (factor == 1.0 || d.isZero()) {
      return d;
    }
    return Duration.ofNanos(Math.round(d.toNanos() * factor));
  }
}
