package io.stratus.bench.tpcw.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Exactly one client of a run drains the snapshot archive, once every other client stopped. */
class ArchiveDrainTurnTest {
  private static final Duration PATIENCE = Duration.ofMinutes(2);

  @Test
  void inOneJvmTheFirstClientDrainsAndNobodyWaits() {
    assertThat(ArchiveDrainTurn.firstInOneJvm(0).drainsArchive()).isTrue();
    assertThat(ArchiveDrainTurn.firstInOneJvm(1).drainsArchive()).isFalse();
    assertThat(ArchiveDrainTurn.firstInOneJvm(7).drainsArchive()).isFalse();
    ArchiveDrainTurn.firstInOneJvm(0).browsersStopped(); // returns at once: drains run in turn
  }

  @Test
  void eachProcessMarksItsStopAndOnlyClientZeroDrains(@TempDir Path dir) {
    IntFunction<Path> stopped = k -> dir.resolve("client-" + k + ".stopped");
    AtomicLong clock = new AtomicLong();
    for (int k = 1; k < 3; k++) {
      ArchiveDrainTurn turn =
          ArchiveDrainTurn.ofClientProcess(k, 3, stopped, PATIENCE, clock::get, 0);
      assertThat(turn.drainsArchive()).isFalse();
      turn.browsersStopped(); // marks, never waits
      assertThat(stopped.apply(k)).exists();
    }
    ArchiveDrainTurn first =
        ArchiveDrainTurn.ofClientProcess(0, 3, stopped, PATIENCE, clock::get, 0);
    assertThat(first.drainsArchive()).isTrue();
    first.browsersStopped(); // every other client has stopped: no wait
    assertThat(stopped.apply(0)).exists();
    assertThat(clock.get()).as("the clock was only read, never waited on").isZero();
  }

  @Test
  void clientZeroWaitsForAClientStillRunningUntilItStops(@TempDir Path dir) {
    IntFunction<Path> stopped = k -> dir.resolve("client-" + k + ".stopped");
    AtomicLong reads = new AtomicLong();
    // The other client stops after client 0 has looked three times.
    LongSupplier clock =
        () -> {
          if (reads.incrementAndGet() == 4) {
            createQuietly(stopped.apply(1));
          }
          return 0;
        };
    ArchiveDrainTurn.ofClientProcess(0, 2, stopped, PATIENCE, clock, 0).browsersStopped();
    assertThat(stopped.apply(1)).exists();
    assertThat(reads.get()).as("it looked until the other client's mark was there").isEqualTo(4);
  }

  @Test
  void clientZeroGivesUpOnAClientThatNeverStops(@TempDir Path dir) {
    IntFunction<Path> stopped = k -> dir.resolve("client-" + k + ".stopped");
    AtomicLong clock = new AtomicLong();
    ArchiveDrainTurn.ofClientProcess(
            0, 2, stopped, PATIENCE, () -> clock.getAndAdd(Duration.ofSeconds(30).toNanos()), 0)
        .browsersStopped();
    assertThat(Files.exists(stopped.apply(1))).isFalse();
    assertThat(Duration.ofNanos(clock.get()))
        .as("it waited its patience out, then drained what it could")
        .isGreaterThan(PATIENCE);
  }

  @Test
  void aMarkLeftFromAnEarlierRunIsReplaced(@TempDir Path dir) throws IOException {
    IntFunction<Path> stopped = k -> dir.resolve("client-" + k + ".stopped");
    Files.createFile(stopped.apply(1));
    ArchiveDrainTurn.ofClientProcess(1, 2, stopped, PATIENCE, () -> 0, 0).browsersStopped();
    assertThat(stopped.apply(1)).exists();
  }

  private static void createQuietly(Path p) {
    try {
      Files.createFile(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
