package io.stratus.bench.tpcw.harness;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.bench.tpcw.rbe.InteractionAttribution;
import io.stratus.cloudapi.decorate.Decorators;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.cloudapi.time.ManualClock;
import io.stratus.core.Database;
import io.stratus.core.DatabaseConfig;
import io.stratus.core.Key;
import io.stratus.core.RecordCursor;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.log.PuQueues;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Exactly one client of a run drains the snapshot archive, once every other client stopped. */
@ExtendWith(SeedExtension.class)
class ArchiveDrainTurnTest {
  private static final Duration PATIENCE = Duration.ofMinutes(2);

  @Test
  void inOneJvmTheFirstClientDrainsAndNobodyWaits() {
    assertThat(ArchiveDrainTurn.firstInOneJvm(0).drainsArchive()).isTrue();
    assertThat(ArchiveDrainTurn.firstInOneJvm(1).drainsArchive()).isFalse();
    assertThat(ArchiveDrainTurn.firstInOneJvm(7).drainsArchive()).isFalse();
    ArchiveDrainTurn.firstInOneJvm(0).browsersStopped(); // returns at once: drains run in turn
  }

  /**
   * Two handles of one database under snapshot isolation, each with commits of its own, drained in
   * turn as a run in one JVM drains them: client 0's passes apply every record of both, client 1
   * runs none, and nothing is left for anyone.
   */
  @Test
  void inOneJvmClientZerosPassesApplyEveryClientsCommits(@Seed long seed) {
    String database = "db/drain";
    ManualClock clock = new ManualClock();
    try (InProcessCloud cloud = InProcessCloud.builder().clock(clock).seed(seed).build()) {
      List<Database> clients = new ArrayList<>();
      List<AppliedRecords> counted = new ArrayList<>();
      for (int k = 0; k < 2; k++) {
        InteractionAttribution attribution = new InteractionAttribution();
        AppliedRecords records = new AppliedRecords(new PuQueues(database).prefix(), attribution);
        Database db =
            Database.open(isolated(cloud, database, clock, "client-" + k, records, attribution));
        clients.add(db);
        counted.add(records);
      }
      clients.get(0).createCollection("c");
      for (int k = 0; k < 2; k++) {
        int client = k;
        for (long i = 0; i < 20; i++) {
          long key = i * 2 + client;
          clients
              .get(k)
              .run(
                  tx -> {
                    tx.create("c", Key.of(key), new byte[] {(byte) key});
                    return null;
                  });
        }
      }

      List<DrainPasses> drains = new ArrayList<>();
      for (int k = 0; k < 2; k++) { // in turn, as the emulator runs the drains of one JVM
        drains.add(
            DrainPasses.run(
                clients.get(k),
                ProtocolKind.SNAPSHOT_ISOLATION,
                counted.get(k),
                ArchiveDrainTurn.firstInOneJvm(k)));
      }

      assertThat(drains.get(0).passes()).isPositive();
      assertThat(drains.get(0).quiescent()).isTrue();
      assertThat(drains.get(1).passes()).as("the second client's drain only closes").isZero();
      assertThat(drains.get(1).quiescent()).isTrue();
      try (Database after =
          Database.open(
              DatabaseConfig.builder(cloud.services(), database)
                  .protocol(ProtocolKind.SNAPSHOT_ISOLATION)
                  .clock(clock)
                  .clientId("after")
                  .build())) {
        assertThat(after.admin().checkpointAll().recordsApplied())
            .as("left after the drain")
            .isZero();
        int records =
            after.read(
                tx -> {
                  int n = 0;
                  try (RecordCursor all = tx.scan("c")) {
                    while (all.hasNext()) {
                      all.next();
                      n++;
                    }
                  }
                  return n;
                });
        assertThat(records).as("every client's records").isEqualTo(40);
      }
    }
  }

  private static DatabaseConfig isolated(
      InProcessCloud cloud,
      String database,
      ManualClock clock,
      String clientId,
      AppliedRecords records,
      InteractionAttribution attribution) {
    return DatabaseConfig.builder(Decorators.wrap(cloud.services(), attribution, records), database)
        .protocol(ProtocolKind.SNAPSHOT_ISOLATION)
        .clock(clock)
        .clientId(clientId)
        .build();
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
