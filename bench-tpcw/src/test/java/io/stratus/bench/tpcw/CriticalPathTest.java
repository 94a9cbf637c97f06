package io.stratus.bench.tpcw;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.decorate.Call;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Calls in flight together are one round, costing the longest of their modelled latencies; calls
 * one after another are a round each, their latencies added.
 */
class CriticalPathTest {
  private final CriticalPath path =
      new CriticalPath(
          (op, requestBytes, responseBytes) ->
              op == Operation.QUEUE_SEND ? Duration.ofMillis(20) : Duration.ofMillis(2));

  @Test
  void callsSentTogetherAreOneRoundAtTheSlowestCallsLatency() {
    CompletableFuture<Object> lock = new CompletableFuture<>();
    CompletableFuture<Object> send = new CompletableFuture<>();
    CompletableFuture<Object> a = call(Operation.LOCK_ACQUIRE_SHARED, lock);
    CompletableFuture<Object> b = call(Operation.QUEUE_SEND, send);
    lock.complete("granted");
    send.complete("sent");

    assertThat(a).isCompleted();
    assertThat(b).isCompleted();
    assertThat(path.totals())
        .isEqualTo(new CriticalPath.Totals(1, Duration.ofMillis(20).toNanos()));
  }

  @Test
  void callsOneAfterAnotherAreARoundEach() {
    for (int i = 0; i < 3; i++) {
      CompletableFuture<Object> lock = new CompletableFuture<>();
      call(Operation.LOCK_ACQUIRE_SHARED, lock);
      lock.complete("granted");
    }
    CompletableFuture<Object> failed = new CompletableFuture<>();
    call(Operation.QUEUE_SEND, failed);
    failed.completeExceptionally(new IllegalStateException("refused"));

    assertThat(path.totals())
        .isEqualTo(new CriticalPath.Totals(4, Duration.ofMillis(26).toNanos()));
  }

  @Test
  void aRoundStillInFlightIsCountedButNotYetTimed() {
    CompletableFuture<Object> release = new CompletableFuture<>();
    call(Operation.LOCK_ACQUIRE_SHARED, release);
    CriticalPath.Totals before = path.totals();
    release.complete("released");

    assertThat(before).isEqualTo(new CriticalPath.Totals(1, 0));
    assertThat(path.totals().minus(before)).isEqualTo(new CriticalPath.Totals(0, 2_000_000));
  }

  private CompletableFuture<Object> call(Operation op, CompletableFuture<Object> service) {
    return path.intercept(Call.of(op, "uri", 10), () -> service);
  }
}
