package io.stratus.bench.tpcw.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.bench.tpcw.bookstore.StalenessTracker;
import io.stratus.protocols.ProtocolKind;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the parent hands a client process and back travels whole through their files. */
class ClientJobTest {
  @Test
  void aJobReadsBackAsWritten(@TempDir Path dir) throws IOException {
    RunSettings s =
        Defaults.settings(ProtocolKind.SNAPSHOT_ISOLATION).toBuilder()
            .cloud("localstack")
            .clients(3)
            .index(IndexChoice.SDB_SINGLE)
            .clientPlacement(ClientPlacement.PROCESS)
            .build();
    CloudTarget target =
        new CloudTarget(
            CloudTarget.Kind.LOCALSTACK,
            Optional.of(URI.create("http://127.0.0.1:4566")),
            "eu-west-1",
            "bucket-x",
            Optional.of("127.0.0.1:2181"),
            Optional.of(URI.create("http://127.0.0.1:4567")));
    ClientJob job =
        new ClientJob(
            target,
            "r1-abc",
            "tpcw/r1-abc",
            2,
            s,
            25,
            dir.resolve("start"),
            dir.resolve("client-2.outcome"));

    job.writeTo(dir.resolve("job"));

    assertThat(ClientJob.readFrom(dir.resolve("job"))).isEqualTo(job);
    assertThat(job.readyFile()).isEqualTo(dir.resolve("client-2.outcome.ready"));
  }

  @Test
  void clientZeroBrowsesWithTheRunsSeedAndEveryOtherWithItsOwn(@TempDir Path dir) {
    RunSettings s = Defaults.settings(ProtocolKind.BASIC).toBuilder().seed(7).clients(3).build();
    long[] seeds = new long[3];
    for (int k = 0; k < 3; k++) {
      seeds[k] =
          new ClientJob(CloudTarget.inProcess(), "r", "db", k, s, 0, dir, dir.resolve("o" + k))
              .browserSeed();
    }
    assertThat(seeds[0]).isEqualTo(7);
    assertThat(seeds).doesNotHaveDuplicates();
    assertThatThrownBy(() -> new ClientJob(CloudTarget.inProcess(), "r", "db", 3, s, 0, dir, dir))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("client 3 is not one of the run's 3");
  }

  @Test
  void aFileThatIsNotAnOutcomeIsRefusedNamingTheBuild(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("x");
    Files.write(file, new byte[] {0, 0, 0, 1, 2, 3});

    assertThatThrownBy(() -> ClientOutcome.readFrom(file, new StalenessTracker()))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("not a client outcome of this build");
  }
}
