package io.stratus.core;

import static io.stratus.core.BasicProtocolTest.load;
import static io.stratus.core.BasicProtocolTest.read;
import static io.stratus.core.BasicProtocolTest.update;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.CommitStateUnknownException;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.OutcomeUnknownException;
import io.stratus.cloudapi.decorate.Call;
import io.stratus.cloudapi.decorate.CallInterceptor;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.protocols.ProtocolKind;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A commit whose outcome is unknown is settled by sending it again in the background; a later
 * commit of the same key on another writer lane must still be applied after it, even when a
 * checkpoint sees the later one first.
 */
@ExtendWith(SeedExtension.class)
class UnknownOutcomeLanesTest {

  /** Drops PU-queue sends ("unknown", nothing arrived) while {@code drop} > 0; holds one if armed. */
  static final class Sends implements CallInterceptor {
    final AtomicInteger drop = new AtomicInteger();
    final AtomicBoolean holdNext = new AtomicBoolean();
    final CountDownLatch held = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);

    @Override
    public <T> CompletableFuture<T> intercept(
        Call<T> call, Supplier<CompletableFuture<T>> proceed) {
      if (call.operation() != Operation.QUEUE_SEND_BATCH
          || !call.target().startsWith(Fixture.DB + "/pu/")) {
        return proceed.get();
      }
      if (drop.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
        return CompletableFuture.failedFuture(new OutcomeUnknownException("request lost"));
      }
      if (holdNext.compareAndSet(true, false)) {
        held.countDown();
        try {
          release.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      return proceed.get();
    }
  }

  @Test
  void aLaterCommitOnAnotherLaneWaitsForAnUnknownOneToBeSettled(@Seed long seed) throws Exception {
    ProtocolKind kind = ProtocolKind.MONOTONIC;
    {
      try (Fixture f = new Fixture(seed)) {
        ManualExecutor ex = new ManualExecutor();
        Sends sends = new Sends();
        Database a = f.open(f.config(sends).protocol(kind).clientId("a").checkpointExecutor(ex));
        load(a, 10);
        update(a, 4, "w"); // creates the page's queue
        sends.drop.set(4); // the send and its three resends: outcome unknown, nothing arrived
        assertThatThrownBy(() -> update(a, 3, "x1"))
            .isInstanceOf(CommitStateUnknownException.class);
        f.clock.advance(Duration.ofMillis(1));

        // Lane 0 is busy with another request's commit, so the next commit takes lane 1.
        sends.holdNext.set(true);
        CompletableFuture<?> busy = CompletableFuture.runAsync(() -> update(a, 7, "z"));
        assertThat(sends.held.await(30, TimeUnit.SECONDS)).isTrue();
        update(a, 3, "x2");
        sends.release.countDown();
        busy.get(30, TimeUnit.SECONDS);

        // Another client checkpoints before the background resend of x1 has run ...
        Database b =
            f.open(
                f.config().protocol(kind).clientId("b").checkpointExecutor(new ManualExecutor()));
        BasicProtocolTest.quiesce(f, b);
        ex.runAll(); // ... and after it
        BasicProtocolTest.quiesce(f, b);
        assertThat(read(b, 3)).as("%s: the later commit's value", kind).isEqualTo("x2");
        assertThat(read(b, 7)).isEqualTo("z");
      }
    }
  }

  /**
   * Later records of a key whose last commit's outcome is unknown follow it into its queue: an
   * update lost in the network, then a delete and a re-create, end with the re-created value
   * once the update is resent (split over two queues, the resent update came last).
   */
  @Test
  void recordsAfterAnUnknownCommitOfTheKeyFollowItIntoItsQueue(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      ManualExecutor ex = new ManualExecutor();
      Sends sends = new Sends();
      Database a =
          f.open(
              f.config(sends)
                  .protocol(ProtocolKind.MONOTONIC)
                  .clientId("a")
                  .checkpointExecutor(ex));
      load(a, 10);
      update(a, 4, "w"); // creates the page's queue
      sends.drop.set(4); // the send and its three resends: unknown, nothing arrived
      assertThatThrownBy(() -> update(a, 3, "x1")).isInstanceOf(CommitStateUnknownException.class);
      a.run(tx -> tx.delete("items", io.stratus.core.Key.of(3L)));
      a.run(
          tx -> {
            tx.create("items", io.stratus.core.Key.of(3L), io.stratus.core.Fixture.bytes("x3"));
            return null;
          });
      Database b =
          f.open(
              f.config()
                  .protocol(ProtocolKind.MONOTONIC)
                  .clientId("b")
                  .checkpointExecutor(new ManualExecutor()));
      BasicProtocolTest.quiesce(f, b); // before the resend
      ex.runAll(); // the background resend of x1
      BasicProtocolTest.quiesce(f, b);
      BasicProtocolTest.quiesce(f, b);
      assertThat(read(b, 3)).isEqualTo("x3");
    }
  }
}
