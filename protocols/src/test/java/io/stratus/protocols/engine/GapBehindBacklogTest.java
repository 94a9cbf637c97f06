package io.stratus.protocols.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.CheckpointSummary;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.cloudapi.time.ManualClock;
import io.stratus.pagemanager.BufferPool;
import io.stratus.pagemanager.BufferPoolConfig;
import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageCodec;
import io.stratus.pagemanager.PageKind;
import io.stratus.protocols.LogicalChange;
import io.stratus.protocols.LogicalChange.Kind;
import io.stratus.protocols.ProtocolContext;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.ProtocolSettings;
import io.stratus.protocols.Setting;
import io.stratus.protocols.Settings;
import io.stratus.protocols.basic.MonotonicProtocol;
import io.stratus.protocols.log.LogMessages;
import io.stratus.protocols.log.LogRecord;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A writer's record that closes a gap in its chain reaches the queue behind far more of the
 * writer's later records than one checkpoint receives (an atomic recovery propagating a commit
 * again, a resend after an unknown outcome): checkpoints must still reach it, instead of receiving
 * the same waiting records again and again.
 */
class GapBehindBacklogTest {
  private static final String PAGE = "db/c/t/root";
  private static final String WRITER = "x#k0-00000000.0";

  /** Records a checkpoint receives at most (a small share makes the backlog deep). */
  private static final int SHARE = 4;

  /** The writer's later records, queued before the one that closes the gap. */
  private static final int LATER = 50;

  private static LogRecord update(long counter, String value) {
    LogicalChange c =
        new LogicalChange(
            Kind.UPDATE,
            "db/c/t/root",
            new byte[] {1},
            value.getBytes(StandardCharsets.UTF_8),
            Optional.of(PAGE));
    return new LogRecord(c, WRITER, counter, "x-" + counter, counter, 0).withWriteStamp(counter);
  }

  @Test
  void aRecordClosingAGapBehindMoreThanARunsShareIsApplied() {
    ManualClock clock = new ManualClock();
    InProcessCloud cloud = InProcessCloud.builder().clock(clock).seed(1).build();
    BufferPool pool =
        new BufferPool(
            cloud.services().storage(), BufferPoolConfig.builder().pageSize(4096).build(), clock);
    Page leaf =
        Page.builder(PAGE, PageKind.LEAF)
            .entries(new byte[][] {{1}}, new byte[][] {"v0".getBytes(StandardCharsets.UTF_8)})
            .build();
    CloudFutures.await(cloud.services().storage().put(PAGE, PageCodec.encode(leaf), Map.of()));
    ProtocolSettings settings =
        ProtocolSettings.of(
            ProtocolKind.MONOTONIC,
            Setting.given(
                Map.of(Settings.MAX_RECORDS_PER_CHECKPOINT, SHARE, Settings.CHECKPOINT_SEED, 1L)));
    ProtocolContext ctx =
        ProtocolContext.builder(cloud.services(), "db", "reader", pool, settings)
            .clock(clock)
            .checkpointExecutor(Runnable::run)
            .build();
    try (QueueEngine p = new QueueEngine(ctx, MonotonicProtocol.ASSEMBLY)) {
      String queue = p.names().pageQueue(PAGE);
      CloudFutures.await(cloud.services().simpleQueues().createQueue(queue));
      for (long counter = 2; counter <= LATER + 1; counter++) {
        send(cloud, queue, update(counter, "v" + counter));
      }
      send(cloud, queue, update(1, "v1")); // the gap closes at the back of the queue
      CheckpointSummary first = p.checkpointAll();
      assertThat(first.recordsApplied()).as("the gap's record reached: %s", first).isPositive();
      for (int i = 0; i < 3; i++) {
        clock.advance(
            Settings.CHECKPOINT_LOCK_TIMEOUT.defaultValue().plusSeconds(1)); // hidden ones back
        p.checkpointAll();
      }
      Page now = pool.fetch(PAGE).orElseThrow();
      assertThat(new String(now.get(new byte[] {1}).orElseThrow(), StandardCharsets.UTF_8))
          .isEqualTo("v" + (LATER + 1));
      assertThat(
              CloudFutures.await(
                  cloud.services().simpleQueues().receive(queue, 10, Duration.ofSeconds(1))))
          .as("every record applied and deleted")
          .isEmpty();
    }
    pool.close();
  }

  private static void send(InProcessCloud cloud, String queue, LogRecord r) {
    for (byte[] m : LogMessages.pack(List.of(r), 1 << 20)) {
      CloudFutures.await(cloud.services().simpleQueues().send(queue, m));
    }
  }
}
