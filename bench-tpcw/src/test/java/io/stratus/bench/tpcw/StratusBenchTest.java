package io.stratus.bench.tpcw;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class StratusBenchTest {

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return StratusBench.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
  }

  @Test
  void demoRunsOnTheInProcessCloudAndReportsBothPriceTables() {
    int code =
        run("--profile", "none", "--clients", "2", "--operations", "10", "--page-size-kb", "4",
            "--seed", "42");

    assertThat(code).as(err.toString()).isZero();
    assertThat(out.toString())
        .contains("seed 42")
        .contains("storage_get")
        .contains("queue_send")
        .contains("counter_increment")
        .contains("lock_acquire_exclusive")
        .contains("paper 2008")
        .contains("total requests");
  }

  @Test
  void badFlagGivesOneClearLineAndExitCodeTwo() {
    int code = run("--clients", "many");

    assertThat(code).isEqualTo(2);
    assertThat(err.toString().strip().lines()).hasSize(1);
    assertThat(err.toString()).contains("--clients");
  }

  @Test
  void unknownProfileGivesOneClearLineAndExitCodeOne() {
    int code = run("--profile", "mars");

    assertThat(code).isEqualTo(1);
    assertThat(err.toString().strip().lines()).hasSize(1);
    assertThat(err.toString()).contains("mars");
  }

  @Test
  void engineBenchmarkReportsLoadReadsAndInserts() {
    int code = run("engine", "--records", "2000", "--reads", "20000", "--inserts", "20",
        "--page-size", "4096", "--seed", "7");

    assertThat(code).as(err.toString()).isZero();
    assertThat(out.toString())
        .contains("bulk load        2,000 records")
        .contains("point reads")
        .contains("naive inserts");
  }

  @Test
  void protocolBenchmarkReportsEveryCell() {
    int code = run("protocols", "--profiles", "none", "--sizes", "1,3", "--commits", "2",
        "--page-size", "4096", "--seed", "3");

    assertThat(code).as(err.toString()).isZero();
    assertThat(out.toString().lines().filter(l -> l.startsWith("naive") || l.startsWith("basic")))
        .hasSize(4);
  }

  @Test
  void unknownProtocolGivesOneClearLine() {
    int code = run("protocols", "--protocols", "paxos");

    assertThat(code).isEqualTo(2);
    assertThat(err.toString()).contains("paxos");
  }
}
