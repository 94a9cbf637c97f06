package io.stratus.protocols.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.cloudapi.time.ManualClock;
import io.stratus.pagemanager.BufferPool;
import io.stratus.pagemanager.BufferPoolConfig;
import io.stratus.protocols.CheckpointSettings;
import io.stratus.protocols.ProtocolContext;
import io.stratus.protocols.ProtocolSettings;
import java.util.ArrayDeque;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The executor part both engines run their background work on. */
class BackgroundWorkTest {
  private final ManualClock clock = new ManualClock();

  private ProtocolContext context(Executor executor) {
    InProcessCloud cloud = InProcessCloud.builder().clock(clock).seed(1).build();
    return ProtocolContext.builder(
            cloud.services(),
            "db",
            "c1",
            new BufferPool(
                cloud.services().storage(),
                BufferPoolConfig.builder().pageSize(1024).build(),
                clock),
            new ProtocolSettings.Basic(CheckpointSettings.defaults()))
        .clock(clock)
        .checkpointExecutor(executor)
        .build();
  }

  /**
   * With an executor handed in, the embedding runs the tasks; a task queued before the close
   * skips itself when it runs after it, and no task is taken once closing.
   */
  @Test
  void tasksQueuedBeforeTheCloseSkipThemselvesAndNoneIsTakenAfter() {
    ArrayDeque<Runnable> tasks = new ArrayDeque<>();
    BackgroundWork work = new BackgroundWork(context(tasks::add), "test", 2);
    AtomicInteger runs = new AtomicInteger();
    assertThat(work.ownsThreads()).isFalse();
    assertThat(work.execute(runs::incrementAndGet)).isTrue();
    assertThat(work.execute(runs::incrementAndGet)).isTrue();
    tasks.poll().run();
    assertThat(runs).hasValue(1);

    work.stopTaking();
    assertThat(work.closed()).isTrue();
    tasks.poll().run(); // queued before the close
    assertThat(runs).as("a task queued before the close skips itself").hasValue(1);
    assertThat(work.execute(runs::incrementAndGet)).isFalse();
    assertThat(tasks).isEmpty();
    assertThat(work.stop(clock.millis())).as("no threads of its own to wait for").isTrue();
  }

  /** A task's failure is its caller's: the part neither catches nor hides it. */
  @Test
  void aTaskThatThrowsReachesTheExecutor() {
    ArrayDeque<Runnable> tasks = new ArrayDeque<>();
    BackgroundWork work = new BackgroundWork(context(tasks::add), "test", 2);
    work.execute(
        () -> {
          throw new IllegalStateException("the task fails");
        });
    assertThatThrownBy(() -> tasks.poll().run())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("the task fails");
  }

  /** Without an executor, tasks run on threads of its own, which stop lets finish. */
  @Test
  void ownThreadsRunTasksAndStopLetsThemFinish() throws InterruptedException {
    BackgroundWork work = new BackgroundWork(context(null), "test", 2);
    assertThat(work.ownsThreads()).isTrue();
    CountDownLatch ran = new CountDownLatch(1);
    assertThat(work.execute(ran::countDown)).isTrue();
    assertThat(ran.await(30, TimeUnit.SECONDS)).isTrue();
    assertThat(work.stop(clock.millis() + 30_000)).isTrue();
    assertThat(work.execute(() -> {})).isFalse();
  }
}
