package io.stratus.core;

import static io.stratus.core.BasicProtocolTest.load;
import static io.stratus.core.BasicProtocolTest.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.CommitFailedException;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.decorate.Call;
import io.stratus.cloudapi.decorate.CallInterceptor;
import io.stratus.cloudapi.inprocess.QueueBehavior;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.protocols.ProtocolKind;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A two-step atomic commit sends its commit record only while well within the atomic timeout
 * (paper 000, Algorithm 5, line 5): when sending its log records took too long, another client
 * may already treat them as a loser's, so the commit fails (retryable) and none of it applies.
 */
@ExtendWith(SeedExtension.class)
class AtomicCommitDeadlineTest {

  /** Makes the first send to an ATOMIC queue take ninety seconds of the manual clock. */
  static final class SlowLogSend implements CallInterceptor {
    final AtomicBoolean armed = new AtomicBoolean();
    private final Fixture f;

    SlowLogSend(Fixture f) {
      this.f = f;
    }

    @Override
    public <T> CompletableFuture<T> intercept(
        Call<T> call, Supplier<CompletableFuture<T>> proceed) {
      if (call.operation() == Operation.QUEUE_SEND_BATCH
          && call.target().startsWith(Fixture.DB + "/atomic/")
          && armed.compareAndSet(true, false)) {
        f.clock.advance(Duration.ofSeconds(90));
      }
      return proceed.get();
    }
  }

  @Test
  void aCommitRecordIsNotSentLateInTheAtomicTimeout(@Seed long seed) {
    try (Fixture f =
        new Fixture(seed, true, QueueBehavior.reliable(), Fixture.maxMessageSize(1024))) {
      SlowLogSend slow = new SlowLogSend(f);
      Database a =
          f.open(
              f.config(slow)
                  .protocol(ProtocolKind.ATOMIC)
                  .clientId("a")
                  .checkpointExecutor(new ManualExecutor()));
      load(a, 30);
      slow.armed.set(true);
      assertThatThrownBy(
              () ->
                  a.run(
                      io.stratus.core.RetryPolicy.builder().maxAttempts(1).build(),
                      tx -> {
                        for (long k = 0;
                            k < 30;
                            k++) { // too large for one message: the two-step form
                          tx.update(
                              "items", Key.of(k), Fixture.bytes("late-" + k + "-".repeat(40)));
                        }
                        return null;
                      }))
          .isInstanceOfSatisfying(
              CommitFailedException.class, e -> assertThat(e.isRetryable()).isTrue());

      Database b =
          f.open(
              f.config()
                  .protocol(ProtocolKind.ATOMIC)
                  .clientId("b")
                  .checkpointExecutor(new ManualExecutor()));
      BasicProtocolTest.quiesce(f, b);
      BasicProtocolTest.quiesce(f, b);
      for (long k = 0; k < 30; k++) {
        assertThat(read(b, k)).as("key %d", k).isEqualTo("v0-" + k);
      }
    }
  }
}
