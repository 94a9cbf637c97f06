package io.stratus.core.contract;

import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.decorate.Call;
import io.stratus.cloudapi.decorate.CallInterceptor;
import io.stratus.cloudapi.decorate.FaultInterceptor;
import io.stratus.cloudapi.decorate.FaultPlan;
import io.stratus.cloudapi.time.ManualClock;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * While {@link #on}: a quarter of all queue sends lose their reply (the message is sent, the
 * sender learns "outcome unknown") and one in twenty fails before sending. Seeded per call
 * ordinal, so a schedule replays however threads interleave.
 */
final class LostReplies implements CallInterceptor {
  private final FaultInterceptor faults;
  volatile boolean on;

  LostReplies(long seed, ManualClock clock) {
    FaultPlan plan =
        FaultPlan.builder()
            .loseReply(FaultPlan.Selector.operations(Operation.QUEUE_SEND_BATCH), 0.25)
            .fail(FaultPlan.Selector.operations(Operation.QUEUE_SEND_BATCH), 0.05)
            .build();
    this.faults = new FaultInterceptor(plan, seed, clock);
  }

  @Override
  public <T> CompletableFuture<T> intercept(Call<T> call, Supplier<CompletableFuture<T>> proceed) {
    return on ? faults.intercept(call, proceed) : proceed.get();
  }
}
