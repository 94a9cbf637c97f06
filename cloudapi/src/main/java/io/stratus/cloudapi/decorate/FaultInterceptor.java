package io.stratus.cloudapi.decorate;

import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.OutcomeUnknownException;
import io.stratus.cloudapi.RetryableException;
import io.stratus.cloudapi.ServiceUnavailableException;
import io.stratus.cloudapi.time.Scheduler;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Injects the faults of a {@link FaultPlan}, and kills the client on demand.
 *
 * <p><b>Reproducibility.</b> Each probabilistic decision draws from a random stream seeded with a
 * hash of (seed, operation, target, ordinal), the ordinal counting the calls of that operation on
 * that target. So the same seed gives the same faults to the same per-target call sequences however
 * threads interleave; no shared sequential random number generator is involved.
 *
 * <p><b>Death.</b> {@link #killClient()} models the client process dying: every later call fails
 * with {@link ClientCrashedException} without being made, and calls still in flight complete with
 * it too (a dead process sees no replies), although they may have taken effect. {@link #revive()}
 * models the restarted process. Liveness is one counter whose odd values mean dead: a call
 * remembers the value it started in, and its reply is discarded when the value has moved.
 *
 * <p>Thread-safe and lock-free; the fault log is a concurrent queue.
 */
public final class FaultInterceptor implements CallInterceptor {
  private final FaultPlan plan;
  private final long seed;
  private final Scheduler scheduler;
  private final Decisions decisions = new Decisions();
  private final AtomicLong[] nthCounts;
  private final AtomicLong life = new AtomicLong();
  private final ConcurrentLinkedQueue<InjectedFault> log = new ConcurrentLinkedQueue<>();

  public FaultInterceptor(FaultPlan plan, long seed, Scheduler scheduler) {
    this.plan = Objects.requireNonNull(plan, "plan");
    this.seed = seed;
    this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
    this.nthCounts = new AtomicLong[plan.nthRules().size()];
    for (int i = 0; i < nthCounts.length; i++) {
      nthCounts[i] = new AtomicLong();
    }
  }

  /** From now on every call fails with {@link ClientCrashedException}; idempotent. */
  public void killClient() {
    life.updateAndGet(v -> (v & 1) == 0 ? v + 1 : v);
  }

  /** Ends the dead state: calls are made again (a restarted process). Idempotent. */
  public void revive() {
    life.updateAndGet(v -> (v & 1) == 1 ? v + 1 : v);
  }

  /** Whether {@link #killClient()} was called and not followed by {@link #revive()}. */
  public boolean isKilled() {
    return (life.get() & 1) == 1;
  }

  /** The faults injected so far, in the order they were decided. */
  public List<InjectedFault> injectedFaults() {
    return List.copyOf(log);
  }

  @Override
  public <T> CompletableFuture<T> intercept(Call<T> call, Supplier<CompletableFuture<T>> proceed) {
    long started = life.get();
    if ((started & 1) == 1) {
      return CompletableFuture.failedFuture(crashed(call));
    }
    long ordinal = decisions.nextOrdinal(call.operation(), call.target());
    FaultPlan.Fault fault = decide(call, ordinal);
    if (fault == null) {
      return unlessKilled(started, call, proceed.get());
    }
    log.add(new InjectedFault(call.operation(), call.target(), ordinal, fault.kind()));
    String what =
        "injected fault: " + call.operation() + " on " + call.target() + " (call #" + ordinal + ")";
    switch (fault.kind()) {
      case FAIL_RETRYABLE:
        return CompletableFuture.failedFuture(new RetryableException(what + " was not made"));
      case FAIL_UNAVAILABLE:
        return CompletableFuture.failedFuture(
            new ServiceUnavailableException(what + " was refused"));
      case DELAY:
        CompletableFuture<T> delayed =
            scheduler
                .after(fault.delay())
                .thenCompose(
                    v ->
                        life.get() == started
                            ? proceed.get()
                            : CompletableFuture.<T>failedFuture(crashed(call)));
        return unlessKilled(started, call, delayed);
      case LOSE_REPLY:
        CompletableFuture<T> lost = new CompletableFuture<>();
        proceed
            .get()
            .whenComplete(
                (v, e) ->
                    lost.completeExceptionally(
                        new OutcomeUnknownException(what + " was made, but its reply was lost")));
        return unlessKilled(started, call, lost);
      default:
        throw new IllegalStateException("unknown fault kind " + fault.kind());
    }
  }

  private <T> FaultPlan.@Nullable Fault decide(Call<T> call, long ordinal) {
    FaultPlan.Fault chosen = null;
    List<FaultPlan.NthRule> nth = plan.nthRules();
    for (int i = 0; i < nth.size(); i++) {
      FaultPlan.NthRule r = nth.get(i);
      // Every matching rule counts the call, even when an earlier one already fired.
      if (r.matches(call.operation(), call.target())
          && nthCounts[i].incrementAndGet() == r.n()
          && chosen == null) {
        chosen = r.fault();
      }
    }
    if (chosen != null || plan.rules().isEmpty()) {
      return chosen;
    }
    SplittableRandom random =
        Decisions.random(seed, "fault", call.operation(), call.target(), ordinal);
    for (FaultPlan.Rule r : plan.rules()) {
      // One draw per rule, matching or not, so that each rule's draw is fixed by the call alone.
      double u = random.nextDouble();
      if (u < r.probability() && r.where().matches(call.operation(), call.target())) {
        return r.fault();
      }
    }
    return null;
  }

  /** {@code f}'s outcome, unless the client was killed since the call started. */
  private <T> CompletableFuture<T> unlessKilled(
      long started, Call<T> call, CompletableFuture<T> f) {
    CompletableFuture<T> out = new CompletableFuture<>();
    f.whenComplete(
        (v, e) -> {
          if (life.get() != started) {
            out.completeExceptionally(crashed(call));
          } else if (e != null) {
            out.completeExceptionally(CloudFutures.unwrap(e));
          } else {
            out.complete(v);
          }
        });
    return out;
  }

  private static ClientCrashedException crashed(Call<?> call) {
    return new ClientCrashedException(
        "the client was killed; " + call.operation() + " on " + call.target() + " gets no reply");
  }
}
