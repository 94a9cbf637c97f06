package io.stratus.core;

import static io.stratus.core.Fixture.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.StoredItem;
import io.stratus.cloudapi.decorate.Call;
import io.stratus.cloudapi.decorate.CallInterceptor;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.pagemanager.PageCodec;
import io.stratus.pagemanager.PageKind;
import io.stratus.protocols.ProtocolKind;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A data page's checkpoint that reads the tree's root from before the root split (storage whose
 * reads lag serves an old copy) must not count its records applied: it finds the leaf of its
 * records through that copy, which is a leaf itself, applies them there and splits it again. Its
 * put of the stale root fails, but the data page with its advanced counters was put before it,
 * so later checkpoints skipped the records as applied and the writer's update was lost.
 */
@ExtendWith(SeedExtension.class)
class StaleRootCheckpointTest {
  private static final String ROOT = Fixture.DB + "/c/items/root";

  /** Serves {@link #ROOT} as {@code stale} holds (while it holds anything) to every read. */
  private static final class LaggingRoot implements CallInterceptor {
    final AtomicReference<Optional<StoredItem>> stale = new AtomicReference<>();

    @Override
    @SuppressWarnings("unchecked")
    public <T> CompletableFuture<T> intercept(
        Call<T> call, Supplier<CompletableFuture<T>> proceed) {
      Optional<StoredItem> old = stale.get();
      if (old != null && call.operation() == Operation.STORAGE_GET && call.target().equals(ROOT)) {
        return CompletableFuture.completedFuture((T) old);
      }
      return proceed.get();
    }
  }

  private static boolean rootIsLeaf(Fixture f) {
    StoredItem item = CloudFutures.await(f.services().storage().get(ROOT)).orElseThrow();
    return PageCodec.decode(ROOT, item.payload()).kind() == PageKind.LEAF;
  }

  @ParameterizedTest
  @EnumSource(
      value = ProtocolKind.class,
      names = {"MONOTONIC", "ATOMIC"})
  void aCheckpointThatReadsTheRootFromBeforeItsSplitCountsNothingApplied(
      ProtocolKind kind, @Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      DatabaseConfig.Builder writerConfig =
          f.config().protocol(kind).clientId("writer").checkpointExecutor(task -> {});
      Database writer = f.open(writerConfig);
      writer.createCollection("items");
      // Records one by one into the root leaf until a checkpoint splits it; keep the copy of the
      // root from just before that split.
      Optional<StoredItem> beforeSplit = Optional.empty();
      long key = 0;
      while (rootIsLeaf(f)) {
        beforeSplit = CloudFutures.await(f.services().storage().get(ROOT));
        try (Transaction tx = writer.begin()) {
          tx.create("items", Key.of(key), bytes("value-" + key + "-".repeat(40)));
          tx.commit();
        }
        key++;
        f.clock.advance(Duration.ofSeconds(1));
        writer.admin().checkpointAll();
      }
      assertThat(key).as("records before the root split").isGreaterThan(2);
      // The writer knows the split: its update goes to the queue of the leaf that holds key 0 now.
      String updated = "updated" + "+".repeat(300);
      BasicProtocolTest.update(writer, 0, updated);

      LaggingRoot lagging = new LaggingRoot();
      Database checkpointer =
          f.open(
              f.config(lagging)
                  .protocol(kind)
                  .clientId("checkpointer")
                  .checkpointExecutor(t -> {}));
      lagging.stale.set(beforeSplit);
      f.clock.advance(Duration.ofSeconds(1));
      checkpointer.admin().checkpointAll();
      lagging.stale.set(null);

      for (int pass = 0; pass < 3; pass++) {
        f.clock.advance(Duration.ofSeconds(31));
        checkpointer.admin().checkpointAll();
      }
      f.clock.advance(Fixture.TTL.plusSeconds(1));
      Database reader =
          f.open(f.config().protocol(kind).clientId("reader").checkpointExecutor(t -> {}));
      assertThat(BasicProtocolTest.read(reader, 0)).isEqualTo(updated);
    }
  }
}
