package io.stratus.bench.tpcw;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code stratus-bench sigmod} through the main entry: a short run, help, bad flags. */
class SigmodCommandTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return StratusBench.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
  }

  /** Two protocols timed without latency, one swept over two intervals in simulated time. */
  @Test
  void aShortRunPrintsBothTablesAndWritesTheSweep(@TempDir Path dir) throws Exception {
    int code =
        run(
            "sigmod",
            "--profile",
            "none",
            "--protocols",
            "naive,basic",
            "--sweep-protocols",
            "basic",
            "--intervals",
            "1s,10s",
            "--clients",
            "2",
            "--transactions",
            "4",
            "--warm-up",
            "1",
            "--sweep-transactions",
            "20",
            "--spacing",
            "1s",
            "--items",
            "100",
            "--customers",
            "30",
            "--seed",
            "5",
            "--out",
            dir.toString());

    assertThat(code).as(err.toString()).isZero();
    String printed = out.toString();
    assertThat(printed)
        .contains("[1/2] naive: 8 committed, 0 failed")
        .contains("[2/2] basic: 8 committed, 0 failed")
        .contains("Time per transaction")
        .contains("Cost per 1,000 transactions")
        .contains("[sweep 2/2] basic, checkpoint interval 10s")
        .doesNotContain("left after the drain")
        .doesNotContain("attribution missed");
    List<String> table = Files.readAllLines(dir.resolve("protocols.csv"));
    assertThat(table).hasSize(3);
    assertThat(table.get(1)).startsWith("naive,none,2,4,8,0,");
    List<String> sweep = Files.readAllLines(dir.resolve("cost-vs-checkpoint-interval.csv"));
    assertThat(sweep).hasSize(3);
    assertThat(sweep.get(1)).startsWith("basic,1.0000,2,40,1.0000,");
    assertThat(sweep.get(2)).startsWith("basic,10.0000,2,40,1.0000,");
    assertThat(Files.size(dir.resolve("cost-vs-checkpoint-interval.png"))).isPositive();
    assertThat(Files.size(dir.resolve("cost-vs-checkpoint-interval-2026.png"))).isPositive();
  }

  @Test
  void helpNamesTheOptions() {
    assertThat(run("sigmod", "--help")).isZero();
    assertThat(out.toString())
        .contains("--clients")
        .contains("--checkpoint-interval")
        .contains("--intervals")
        .contains("--protocols")
        .contains("--seed")
        .contains("--out");
  }

  @Test
  void badFlagsGiveOneLineAndExitCodeTwo() {
    List<String[]> bad =
        List.of(
            new String[] {"sigmod", "--clients", "many"},
            new String[] {"sigmod", "--clients", "0"},
            new String[] {"sigmod", "--profile", "mars"},
            new String[] {"sigmod", "--protocols", "paxos"},
            new String[] {"sigmod", "--sweep-protocols", "naive"},
            new String[] {"sigmod", "--intervals", "0s"},
            new String[] {"sigmod", "--checkpoint-interval", "soon"},
            new String[] {"sigmod", "--sqs-price", "cheap"},
            new String[] {"sigmod", "--items", "3"},
            new String[] {"sigmod", "--colour", "red"});
    for (String[] args : bad) {
      assertThat(run(args)).as(String.join(" ", args)).isEqualTo(2);
    }
    assertThat(err.toString().strip().lines())
        .hasSize(bad.size())
        .allMatch(l -> l.startsWith("stratus-bench: "));
    assertThat(out.toString()).isEmpty();
  }
}
