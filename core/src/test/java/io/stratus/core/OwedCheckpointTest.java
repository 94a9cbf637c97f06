package io.stratus.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.protocols.ProtocolKind;
import java.time.Duration;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A record committed to a page nobody touches again is still checkpointed by its writer: the
 * handle owes its queue a checkpoint and schedules one once the record is older than the
 * checkpoint interval, at its next sweep; with nothing owed it schedules nothing.
 */
@ExtendWith(SeedExtension.class)
class OwedCheckpointTest {
  private static final Duration INTERVAL = Duration.ofSeconds(10);

  @ParameterizedTest
  @EnumSource(
      value = ProtocolKind.class,
      names = {"BASIC", "MONOTONIC", "ATOMIC", "ADVANCED_ATOMIC"})
  void aRecordNobodyTouchesAgainIsCheckpointedByItsWriter(ProtocolKind kind, @Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      ManualExecutor background = new ManualExecutor();
      Database writer =
          f.open(
              f.config()
                  .protocol(kind)
                  .clientId("writer")
                  .checkpointInterval(INTERVAL)
                  .checkpointExecutor(background));
      BasicProtocolTest.load(writer, 20);
      BasicProtocolTest.update(writer, 3, "warm");
      background.runAll(); // the writer rule: the page was never checkpointed
      assertThat(writer.stats().owedCheckpoints()).isZero();

      // The page was just checkpointed: the writer rule does not fire for this commit.
      BasicProtocolTest.update(writer, 3, "late");
      background.runAll(); // propagation (atomic protocols); no checkpoint is due yet
      assertThat(writer.stats().owedCheckpoints()).isPositive();

      f.clock.advance(INTERVAL.plusSeconds(1));
      BasicProtocolTest.read(writer, 19); // any activity of the handle sweeps what it owes
      assertThat(background.runAll()).as("the owed checkpoint ran").isPositive();
      assertThat(writer.stats().owedCheckpoints()).isZero();

      f.clock.advance(Fixture.TTL.plusSeconds(1));
      Database reader =
          f.open(f.config().protocol(kind).clientId("reader").checkpointExecutor(task -> {}));
      assertThat(BasicProtocolTest.read(reader, 3)).isEqualTo("late");

      // Nothing owed: however long the handle idles, a sweep has nothing to schedule.
      f.clock.advance(INTERVAL.multipliedBy(100));
      writer.stats();
      assertThat(writer.stats().owedCheckpoints()).isZero();
    }
  }
}
