package io.stratus.bench.tpcw;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.bench.tpcw.workload.Interaction;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class StratusBenchTest {

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return StratusBench.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
  }

  /** A TPC-W comparison of two protocols, by count (not time), on a tiny bookstore. */
  @Test
  void tpcwRunComparesProtocolsAndWritesTheReport(@TempDir Path dir) throws Exception {
    int code = run("--protocols", "naive,basic", "--profile", "none", "--ebs", "2", "--items",
        "100", "--customers-per-eb", "20", "--warm-up", "0", "--duration", "10m",
        "--interactions-per-eb", "60", "--seed", "5", "--out", dir.toString());

    assertThat(code).as(err.toString()).isZero();
    String printed = out.toString();
    for (Interaction wi : Interaction.values()) {
      assertThat(printed).contains(wi.label());
    }
    assertThat(printed).contains("[1/2] protocol=naive").contains("[2/2] protocol=basic")
        .contains("loaded").contains("Report: ");
    assertThat(dir.resolve("report.md")).exists();
    assertThat(Files.readString(dir.resolve("results.csv"))).contains("naive").contains("basic");
  }

  @Test
  void badFlagGivesOneClearLineAndExitCodeTwo() {
    int code = run("--ebs", "many");

    assertThat(code).isEqualTo(2);
    assertThat(err.toString().strip().lines()).hasSize(1);
    assertThat(err.toString()).contains("--ebs");
  }

  @Test
  void badValuesAreRefusedBeforeAnythingRuns() {
    assertThat(run("--profile", "mars")).isEqualTo(2);
    assertThat(run("--ebs", "0")).isEqualTo(2);
    assertThat(run("--duration", "soon")).isEqualTo(2);
    assertThat(run("--sweep", "colour=red")).isEqualTo(2);
    assertThat(run("--sweep", "ebs=1,x")).isEqualTo(2);
    assertThat(run("--mix", "bargain")).isEqualTo(2);
    assertThat(run("--placement", "moon")).isEqualTo(2);
    assertThat(run("--cloud", "aws", "--profile", "eu")).isEqualTo(2);
    assertThat(err.toString().strip().lines()).hasSize(8)
        .allMatch(l -> l.startsWith("stratus-bench: "));
    assertThat(out.toString()).isEmpty();
  }

  @Test
  void anUnreachableEndpointGivesOneLineAndExitCodeOne(@TempDir Path dir) {
    // Port 9 (discard) on the loopback interface: nothing listens there on a test machine.
    int code = run("--cloud", "localstack", "--endpoint", "http://127.0.0.1:9", "--out",
        dir.toString());

    assertThat(code).isEqualTo(1);
    assertThat(err.toString().strip().lines()).hasSize(1);
    assertThat(err.toString()).contains("127.0.0.1:9");
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

  /** {@code --protocols all} names every protocol this build has, in declaration order. */
  @Test
  void allNamesEveryProtocol() {
    int code = run("contention", "--profile", "none", "--protocols", "all", "--keys", "4",
        "--threads", "2", "--handles", "2", "--transactions", "3", "--seed", "3");

    assertThat(code).as(err.toString()).isZero();
    for (io.stratus.protocols.ProtocolKind k : io.stratus.protocols.ProtocolKind.values()) {
      assertThat(out.toString()).contains(k.name().toLowerCase(java.util.Locale.ROOT) + " ");
    }
  }

  @Test
  void unknownProtocolGivesOneClearLine() {
    int code = run("protocols", "--protocols", "paxos");

    assertThat(code).isEqualTo(2);
    assertThat(err.toString()).contains("paxos");
  }

  /** Isolation under contention: the snapshot protocols lose no increment. */
  @Test
  void contentionBenchmarkShowsNoLostUpdateUnderSnapshotIsolation() {
    int code = run("contention", "--profile", "none", "--protocols",
        "snapshot_isolation,serializable_snapshot", "--keys", "5", "--threads", "4",
        "--transactions", "15", "--seed", "3");

    assertThat(code).as(err.toString()).isZero();
    List<String> rows = out.toString().lines().filter(l -> l.startsWith("s")).toList();
    assertThat(rows).hasSize(2);
    for (String row : rows) {
      assertThat(row.trim().split("\\s+")).as(row).endsWith("120", "0");
    }
  }

  /**
   * The bookstore runs under the isolating protocols too (read-only interactions as such), and
   * with eight browsers ordering from twenty items none of them loses a stock update.
   */
  @ParameterizedTest
  @ValueSource(strings = {"snapshot_isolation", "serializable_snapshot", "two_phase_locking"})
  void tpcwUnderTheIsolatingProtocolsLosesNoStockUpdate(String protocol, @TempDir Path dir) {
    int code = run("--protocols", protocol, "--profile", "none", "--ebs", "8", "--mix",
        "ordering", "--items", "20", "--customers-per-eb", "20", "--warm-up", "0", "--duration",
        "10m", "--interactions-per-eb", "60", "--seed", "5", "--out", dir.toString());

    assertThat(code).as(err.toString()).isZero();
    assertThat(out.toString()).contains("protocol=" + protocol).contains("Report: ")
        .contains("lost updates: 0 item (stock), 0 customer");
  }
}
