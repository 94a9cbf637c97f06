package io.stratus.bench.tpcw.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Child JVMs of a run: started on this JVM's java and class path, awaited, failures named. */
class ClientProcessesTest {
  private static final Duration BOUND = Duration.ofSeconds(60);

  /** A child: writes its argument to the file named first, prints a line, exits with the second. */
  public static final class Child {
    public static void main(String[] args) throws IOException {
      Files.writeString(Path.of(args[0]), "ran", StandardCharsets.UTF_8);
      System.out.println("child says: exiting with " + args[1]);
      System.exit(Integer.parseInt(args[1]));
    }
  }

  @Test
  void everyChildRunsOnThisJvmsClassPathAndExits(@TempDir Path dir) throws IOException {
    try (ClientProcesses children =
        ClientProcesses.start(
            Child.class.getName(),
            List.of(
                List.of(dir.resolve("0").toString(), "0"),
                List.of(dir.resolve("1").toString(), "0")),
            dir.resolve("logs"))) {
      children.awaitAll(BOUND);
      assertThat(children.anyAlive()).isFalse();
    }
    assertThat(Files.readString(dir.resolve("0"))).isEqualTo("ran");
    assertThat(Files.readString(dir.resolve("1"))).isEqualTo("ran");
    assertThat(Files.readString(dir.resolve("logs/client-1.log")))
        .contains("child says: exiting with 0");
  }

  @Test
  void aChildsNonZeroExitFailsTheRunNamingItAndQuotingItsLog(@TempDir Path dir) {
    try (ClientProcesses children =
        ClientProcesses.start(
            Child.class.getName(),
            List.of(
                List.of(dir.resolve("0").toString(), "0"),
                List.of(dir.resolve("1").toString(), "3")),
            dir.resolve("logs"))) {
      assertThatThrownBy(() -> children.awaitAll(BOUND))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("client process 1 failed (exit code 3)")
          .hasMessageContaining("child says: exiting with 3");
      assertThat(children.anyAlive()).isFalse();
    }
  }

  @Test
  void theCommandIsThisJvmsJavaAndClassPath() {
    List<String> command = ClientProcesses.command("a.Main", List.of("x"));
    assertThat(command.get(0)).endsWith("java");
    assertThat(command.subList(1, command.size()))
        .containsExactly("-cp", System.getProperty("java.class.path"), "a.Main", "x");
  }
}
