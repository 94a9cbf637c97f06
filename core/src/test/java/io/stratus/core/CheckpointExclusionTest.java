package io.stratus.core;

import static io.stratus.core.Fixture.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.decorate.Call;
import io.stratus.cloudapi.decorate.CallInterceptor;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.protocols.CheckpointWrites;
import io.stratus.protocols.ProtocolKind;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Checkpoints of one queue exclude each other, within a client too, and never keep a lock after a
 * failure: two runs of one handle used to share the client id as lock owner, so the second was
 * granted the lock as a renewal; an operator's flush could report a queue empty while a
 * background run of the same handle held its messages; an unexpected error kept the lock until
 * the lease ended.
 */
@ExtendWith(SeedExtension.class)
class CheckpointExclusionTest {
  private static final Duration INTERVAL = Duration.ofSeconds(45);

  /** Holds the first checkpoint that reaches "after-receive" until released. */
  static final class Pause {
    final AtomicBoolean armed = new AtomicBoolean(true);
    final CountDownLatch reached = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);

    void at(String point) {
      if (point.equals("checkpoint.page.after-receive") && armed.compareAndSet(true, false)) {
        reached.countDown();
        try {
          release.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }

  private static DatabaseConfig.Builder basic(
      Fixture f, String client, ManualExecutor ex, Pause pause) {
    return basic(f.config(), client, ex, pause);
  }

  private static DatabaseConfig.Builder basic(
      DatabaseConfig.Builder base, String client, ManualExecutor ex, Pause pause) {
    return base.protocol(ProtocolKind.BASIC)
        .clientId(client)
        .checkpointExecutor(ex)
        .checkpointInterval(INTERVAL)
        .checkpointWrites(CheckpointWrites.TIMING_ONLY)
        .crashPoints(pause::at);
  }

  private static String valueOf(Database db, long key) {
    return db.read(tx -> tx.read("items", Key.of(key)).map(Fixture::string).orElse(null));
  }

  @Test
  void aBackgroundCheckpointNeverRunsBesideAnotherOfTheSameQueueInOneHandle(@Seed long seed)
      throws Exception {
    try (Fixture f = new Fixture(seed)) {
      ManualExecutor ex = new ManualExecutor();
      Pause pause = new Pause();
      pause.armed.set(false);
      Database a = f.open(basic(f, "a", ex, pause));
      a.createCollection("items");
      a.run(
          tx -> {
            tx.create("items", Key.of(1L), bytes("v0"));
            return null;
          });
      a.admin().checkpointAll();
      a.run(tx -> tx.update("items", Key.of(1L), bytes("v1")));

      pause.armed.set(true);
      CompletableFuture<?> flush = CompletableFuture.runAsync(a.admin()::checkpointAll);
      assertThat(pause.reached.await(30, TimeUnit.SECONDS)).isTrue(); // holding v1, hidden
      // No time passes (the paused run's lease must hold). The page was never data-checkpointed,
      // so this commit schedules a writer-side checkpoint of its queue.
      a.run(tx -> tx.update("items", Key.of(1L), bytes("v2")));
      ex.runQueued(); // among them one of the paused queue: it must stand aside
      pause.release.countDown();
      flush.get(30, TimeUnit.SECONDS);
      a.admin().checkpointAll();

      f.clock.advance(Fixture.TTL.plusSeconds(1));
      Database reader =
          f.open(
              f.config()
                  .protocol(ProtocolKind.BASIC)
                  .clientId("reader")
                  .checkpointExecutor(new ManualExecutor()));
      assertThat(valueOf(reader, 1)).isEqualTo("v2");
    }
  }

  @Test
  void checkpointAllWaitsForABackgroundRunOfTheSameHandle(@Seed long seed) throws Exception {
    try (Fixture f = new Fixture(seed)) {
      ManualExecutor ex = new ManualExecutor();
      Pause pause = new Pause();
      pause.armed.set(false);
      Database a = f.open(basic(f, "a", ex, pause));
      a.createCollection("items");
      a.run(
          tx -> {
            tx.create("items", Key.of(1L), bytes("v0"));
            return null;
          });
      a.admin().checkpointAll();
      f.clock.advance(INTERVAL.plusSeconds(1));
      a.run(tx -> tx.update("items", Key.of(1L), bytes("v1"))); // schedules a writer checkpoint

      pause.armed.set(true);
      CompletableFuture<?> background = CompletableFuture.runAsync(ex::runQueued);
      assertThat(pause.reached.await(30, TimeUnit.SECONDS)).isTrue(); // holding v1, hidden
      Thread flusher = new Thread(a.admin()::checkpointAll);
      flusher.start();
      // The flush either waits for the background run (parked) or returns at once.
      while (flusher.getState() != Thread.State.TIMED_WAITING
          && flusher.getState() != Thread.State.TERMINATED) {
        Thread.onSpinWait();
      }
      boolean returnedEarly = flusher.getState() == Thread.State.TERMINATED;
      pause.release.countDown();
      background.get(30, TimeUnit.SECONDS);
      flusher.join();

      assertThat(returnedEarly)
          .as("checkpointAll returned while the background run held the" + " messages")
          .isFalse();
    }
  }

  /** Throws an unexpected (non-cloud) error on the first put of a data page. */
  static final class FailFirstPagePut implements CallInterceptor {
    private final AtomicBoolean done = new AtomicBoolean();

    @Override
    public <T> CompletableFuture<T> intercept(
        Call<T> call, Supplier<CompletableFuture<T>> proceed) {
      if (call.operation() == Operation.STORAGE_PUT && done.compareAndSet(false, true)) {
        throw new IllegalStateException("a bug in the middle of a checkpoint");
      }
      return proceed.get();
    }
  }

  @Test
  void anUnexpectedErrorInACheckpointReleasesTheLockAtOnce(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Pause none = new Pause();
      none.armed.set(false);
      Database setup = f.open(basic(f, "setup", new ManualExecutor(), none));
      setup.createCollection("items");
      setup.run(
          tx -> {
            tx.create("items", Key.of(1L), bytes("v0"));
            return null;
          });
      setup.admin().checkpointAll();
      Database a = f.open(basic(f.config(new FailFirstPagePut()), "a", new ManualExecutor(), none));
      a.run(tx -> tx.update("items", Key.of(1L), bytes("v1")));
      assertThatThrownBy(a.admin()::checkpointAll).isInstanceOf(IllegalStateException.class);

      // No time passes, and the queue's lock is free for another client's checkpoint.
      String queue = Fixture.DB + "/pu/p/" + Fixture.DB + "/c/items/root";
      assertThat(f.services().locks().acquireExclusive(queue, "another-client").join().granted())
          .as("the failed checkpoint released the queue's lock")
          .isTrue();
    }
  }
}
