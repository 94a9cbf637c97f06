package io.stratus.protocols.isolation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.btree.TreeChange;
import io.stratus.cloudapi.AdvancedQueueService;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.ServiceUnavailableException;
import io.stratus.cloudapi.decorate.Call;
import io.stratus.cloudapi.decorate.CallInterceptor;
import io.stratus.cloudapi.decorate.Decorators;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.cloudapi.time.ManualClock;
import io.stratus.protocols.DamageReports;
import io.stratus.protocols.LogicalChange;
import io.stratus.protocols.log.LogRecord;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The archive's per-tree cache of versions: what it serves for a range is exactly what the queue
 * holds for it, also after a receive failed while the cache moved to another range.
 */
class SnapshotArchiveTest {
  private static final String DB = "db/archive";
  private static final String ROOT = DB + "/c/items/root";

  private final ManualClock clock = new ManualClock();
  private final InProcessCloud cloud = InProcessCloud.builder().clock(clock).seed(1).build();
  private final FailNextReceive failing = new FailNextReceive();
  private final AdvancedQueueService queues =
      Decorators.wrap(cloud.services().advancedQueues(), failing);
  private final SnapshotArchive archive =
      new SnapshotArchive(queues, DB, 1000, new DamageReports());

  @AfterEach
  void close() {
    cloud.close();
  }

  /**
   * A reader's view moves the cache to a range above the one it holds (a leaf stamped by a newer
   * checkpoint, rolled forward to a newer snapshot), and that receive fails. A later range that
   * overlaps the old one (a leaf with an older stamp, rolled forward to the same snapshot) must
   * still find the old range's records, or the reader misses commits it includes: in the fault
   * soak, a delete that old handles never saw while a fresh reader did.
   */
  @Test
  void aReceiveFailingWhileTheCacheMovesLeavesNoHoleInIt() {
    archive.send(List.of(put("a", "a1", 1)));
    archive.send(List.of(delete("a", "a1", 2)));
    archive.send(List.of(put("b", "b3", 3)));
    archive.send(List.of(put("b", "b4", 4)));
    assertThat(forward(0, 2)).as("commits 1 and 2").containsExactly(Map.entry("a", "<deleted>"));

    failing.failNext();
    assertThatThrownBy(() -> forward(3, 4)).isInstanceOf(CloudException.class);

    assertThat(forward(0, 4))
        .as("every commit in (0, 4], although the receive of (3, 4] failed once")
        .containsExactly(Map.entry("a", "<deleted>"), Map.entry("b", "b4"));
    assertThat(archive.versions(ROOT, 0, 4))
        .extracting(SnapshotArchive.Version::commitId)
        .containsExactly(1L, 2L, 3L, 4L);
  }

  /** Each key's newest change in (from, to], as key to value ({@code <deleted>} for a delete). */
  private Map<String, String> forward(long from, long to) {
    Map<String, String> out = new LinkedHashMap<>();
    for (TreeChange c : archive.changesBetween(ROOT, new byte[0], Optional.empty(), from, to)) {
      out.put(text(c.key()), c.kind() == TreeChange.Kind.DELETE ? "<deleted>" : text(c.value()));
    }
    return out;
  }

  private static LogRecord put(String key, String value, long commitId) {
    LogicalChange c =
        new LogicalChange(
                LogicalChange.Kind.INSERT, ROOT, bytes(key), bytes(value), Optional.empty())
            .withBefore(Optional.empty());
    return new LogRecord(c, "client", 0, "tx" + commitId, 0, commitId);
  }

  private static LogRecord delete(String key, String before, long commitId) {
    LogicalChange c =
        new LogicalChange(
                LogicalChange.Kind.DELETE, ROOT, bytes(key), new byte[0], Optional.empty())
            .withBefore(Optional.of(bytes(before)));
    return new LogRecord(c, "client", 0, "tx" + commitId, 0, commitId);
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static String text(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }

  /** Refuses the next receive of the advanced queues once armed; every other call passes. */
  private static final class FailNextReceive implements CallInterceptor {
    private final AtomicBoolean armed = new AtomicBoolean();

    void failNext() {
      armed.set(true);
    }

    @Override
    public <T> CompletableFuture<T> intercept(
        Call<T> call, Supplier<CompletableFuture<T>> proceed) {
      if (call.operation() == Operation.ADVANCED_QUEUE_RECEIVE
          && armed.compareAndSet(true, false)) {
        return CompletableFuture.failedFuture(
            new ServiceUnavailableException("receive refused by the test"));
      }
      return proceed.get();
    }
  }
}
