package io.stratus.protocols.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.cloudapi.time.ManualClock;
import io.stratus.pagemanager.BufferPool;
import io.stratus.pagemanager.BufferPoolConfig;
import io.stratus.protocols.CheckpointWrites;
import io.stratus.protocols.ProtocolContext;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.ProtocolSettings;
import io.stratus.protocols.checkpoint.CheckpointScheduler;
import io.stratus.protocols.checkpoint.Checkpointer;
import io.stratus.protocols.log.PuQueues;
import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Background work that many ask for and one run serves. */
class CoalescingTaskTest {

  /**
   * A run that throws must not leave its requests counted: a later request would then schedule
   * nothing, and the work (the atomic protocols' propagation, their clean-up) stop for good.
   */
  @Test
  void aRunThatFailsDoesNotStopLaterRequestsFromRunning() {
    ManualClock clock = new ManualClock();
    InProcessCloud cloud = InProcessCloud.builder().clock(clock).seed(1).build();
    ArrayDeque<Runnable> tasks = new ArrayDeque<>();
    ProtocolContext ctx =
        ProtocolContext.builder(
                cloud.services(),
                "db",
                "c1",
                new BufferPool(
                    cloud.services().storage(),
                    BufferPoolConfig.builder().pageSize(1024).build(),
                    clock),
                ProtocolSettings.defaults(ProtocolKind.BASIC))
            .clock(clock)
            .checkpointExecutor(tasks::add)
            .build();
    PuQueues names = new PuQueues("db");
    try (CheckpointScheduler scheduler =
        new CheckpointScheduler(
            ctx, new Checkpointer(ctx, CheckpointWrites.CONDITIONAL, names, () -> 0L), names)) {
      AtomicInteger runs = new AtomicInteger();
      CoalescingTask task =
          new CoalescingTask(
              scheduler,
              () -> {
                if (runs.incrementAndGet() == 1) {
                  throw new IllegalStateException("the first run fails");
                }
              });
      task.request();
      task.request(); // coalesced into the scheduled run
      assertThat(tasks).hasSize(1);
      tasks.poll().run(); // fails; the scheduler's wrapper logs it
      assertThat(runs).hasValue(1);

      task.request();
      assertThat(tasks).as("a later request schedules a run again").hasSize(1);
      tasks.poll().run();
      assertThat(runs).hasValue(2);
    }
  }
}
