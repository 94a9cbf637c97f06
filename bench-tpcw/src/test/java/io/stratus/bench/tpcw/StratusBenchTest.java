package io.stratus.bench.tpcw;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.bench.tpcw.harness.Defaults;
import io.stratus.bench.tpcw.harness.Durations;
import io.stratus.bench.tpcw.harness.Preset;
import io.stratus.bench.tpcw.harness.RunSettings;
import io.stratus.bench.tpcw.harness.RunWarnings;
import io.stratus.bench.tpcw.harness.Sweep;
import io.stratus.bench.tpcw.harness.TpcwHarness;
import io.stratus.bench.tpcw.workload.Interaction;
import io.stratus.bench.tpcw.workload.Mix;
import io.stratus.protocols.ProtocolKind;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

class StratusBenchTest {

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return StratusBench.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
  }

  /** A TPC-W comparison of two protocols, by count (not time), on a tiny bookstore. */
  @Test
  void tpcwRunComparesProtocolsAndWritesTheReport(@TempDir Path dir) throws Exception {
    int code =
        run(
            "--protocols",
            "naive,basic",
            "--profile",
            "none",
            "--ebs",
            "2",
            "--items",
            "100",
            "--customers-per-eb",
            "20",
            "--warm-up",
            "0",
            "--duration",
            "10m",
            "--interactions-per-eb",
            "60",
            "--seed",
            "5",
            "--out",
            dir.toString());

    assertThat(code).as(err.toString()).isZero();
    String printed = out.toString();
    for (Interaction wi : Interaction.values()) {
      assertThat(printed).contains(wi.label());
    }
    assertThat(printed)
        .contains("[1/2] protocol=naive")
        .contains("[2/2] protocol=basic")
        .contains("loaded")
        .contains("Report: ");
    assertThat(dir.resolve("report.md")).exists();
    assertThat(Files.readString(dir.resolve("results.csv"))).contains("naive").contains("basic");
  }

  /**
   * Every protocol browses in the warm pass before the first measured run, and with two repeats
   * the second round runs the protocols in the opposite order; the comparison gives each ratio
   * its spread.
   */
  @Test
  void aWarmPassPrecedesTheRunsAndRepeatsAlternate(@TempDir Path dir) throws Exception {
    int code =
        run(
            "--protocols",
            "naive,basic",
            "--profile",
            "none",
            "--ebs",
            "2",
            "--items",
            "100",
            "--customers-per-eb",
            "20",
            "--warm-up",
            "0",
            "--duration",
            "10m",
            "--interactions-per-eb",
            "40",
            "--repeats",
            "2",
            "--out",
            dir.toString());
    String printed = out.toString();
    assertThat(code).as(err + "\n" + printed).isZero();
    assertThat(printed)
        .containsSubsequence(
            "warm pass (not measured): naive, basic",
            "[1/4] protocol=naive (naive), repeat 1 of 2",
            "[2/4] protocol=basic (basic), repeat 1 of 2",
            "[3/4] protocol=basic (basic), repeat 2 of 2",
            "[4/4] protocol=naive (naive), repeat 2 of 2",
            "Comparison against naive",
            "basic / naive cost = ",
            "basic #2 / naive #2 cost = ");
    assertThat(printed).contains("interactions/s (closed loop; not WIPS: think time none");
  }

  @Test
  void severalClientsShareTheDatabaseAndAreReportedEach(@TempDir Path dir) throws Exception {
    int code =
        run(
            "--protocols",
            "basic",
            "--profile",
            "none",
            "--clients",
            "1,2",
            "--ebs",
            "2",
            "--items",
            "100",
            "--customers-per-eb",
            "20",
            "--warm-up",
            "0",
            "--duration",
            "10m",
            "--interactions-per-eb",
            "40",
            "--seed",
            "9",
            "--out",
            dir.toString());

    assertThat(code).as(err.toString()).isZero();
    String printed = out.toString();
    assertThat(printed)
        .contains("[1/2] clients=1 (basic)")
        .contains("[2/2] clients=2 (basic)")
        .contains("client 0:")
        .contains("client 1:")
        .contains("per client (application server)")
        .contains("stock audit")
        .contains("drain:");
    // Two clients of two browsers run twice the interactions of one.
    assertThat(printed).contains("80 interactions").contains("160 interactions");
    assertThat(Files.readString(dir.resolve("results.json")))
        .contains("\"clients\": [")
        .contains("\"lockRefusals\"");
    assertThat(run("--clients", "0")).isEqualTo(2);
    assertThat(run("--clients", "1,2", "--sweep", "ebs=1,2")).isEqualTo(2);
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
    assertThat(err.toString().strip().lines())
        .hasSize(8)
        .allMatch(l -> l.startsWith("stratus-bench: "));
    assertThat(out.toString()).isEmpty();
  }

  @Test
  void anUnreachableEndpointGivesOneLineAndExitCodeOne(@TempDir Path dir) {
    // Port 9 (discard) on the loopback interface: nothing listens there on a test machine.
    int code =
        run("--cloud", "localstack", "--endpoint", "http://127.0.0.1:9", "--out", dir.toString());

    assertThat(code).isEqualTo(1);
    assertThat(err.toString().strip().lines()).hasSize(1);
    assertThat(err.toString()).contains("127.0.0.1:9");
  }

  @Test
  void engineBenchmarkReportsLoadReadsAndInserts() {
    int code =
        run(
            "engine",
            "--records",
            "2000",
            "--reads",
            "20000",
            "--inserts",
            "20",
            "--page-size",
            "4096",
            "--seed",
            "7");

    assertThat(code).as(err.toString()).isZero();
    assertThat(out.toString())
        .contains("bulk load        2,000 records")
        .contains("point reads")
        .contains("naive inserts");
  }

  @Test
  void engineBenchmarkRunsEncrypted() {
    int code =
        run(
            "engine",
            "--records",
            "2000",
            "--reads",
            "20000",
            "--inserts",
            "20",
            "--page-size",
            "4096",
            "--seed",
            "7",
            "--encrypt");

    assertThat(code).as(err.toString()).isZero();
    assertThat(out.toString())
        .contains("encryption AES-256-GCM")
        .contains("bulk load        2,000 records")
        .contains("naive inserts");
  }

  @Test
  void protocolBenchmarkReportsEveryCell() {
    int code =
        run(
            "protocols",
            "--profiles",
            "none",
            "--sizes",
            "1,3",
            "--commits",
            "2",
            "--page-size",
            "4096",
            "--seed",
            "3");

    assertThat(code).as(err.toString()).isZero();
    assertThat(out.toString().lines().filter(l -> l.startsWith("naive") || l.startsWith("basic")))
        .hasSize(4);
  }

  /** {@code --protocols all} names every protocol this build has, in declaration order. */
  @Test
  void allNamesEveryProtocol() {
    int code =
        run(
            "contention",
            "--profile",
            "none",
            "--protocols",
            "all",
            "--keys",
            "4",
            "--threads",
            "2",
            "--handles",
            "2",
            "--transactions",
            "3",
            "--seed",
            "3");

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
    int code =
        run(
            "contention",
            "--profile",
            "none",
            "--protocols",
            "snapshot_isolation,serializable_snapshot",
            "--keys",
            "5",
            "--threads",
            "4",
            "--transactions",
            "15",
            "--seed",
            "3");

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
    int code =
        run(
            "--protocols",
            protocol,
            "--profile",
            "none",
            "--ebs",
            "8",
            "--mix",
            "ordering",
            "--items",
            "20",
            "--customers-per-eb",
            "20",
            "--warm-up",
            "0",
            "--duration",
            "10m",
            "--interactions-per-eb",
            "60",
            "--seed",
            "5",
            "--out",
            dir.toString());

    assertThat(code).as(err.toString()).isZero();
    assertThat(out.toString())
        .contains("protocol=" + protocol)
        .contains("Report: ")
        .contains("lost updates: 0 item (stock), 0 customer");
  }

  /** The plan the command line makes, without running it. */
  private static TpcwHarness.Plan plan(String... args) {
    StratusBench bench = new StratusBench();
    new CommandLine(bench).parseArgs(args);
    return bench.withPreset().plan();
  }

  private static final List<ProtocolKind> PAPER_PROTOCOLS =
      List.of(
          ProtocolKind.NAIVE,
          ProtocolKind.BASIC,
          ProtocolKind.ATOMIC,
          ProtocolKind.TWO_PHASE_LOCKING,
          ProtocolKind.SNAPSHOT_ISOLATION);

  /** The sweep each preset runs: parameter and values ("protocol" and none without a sweep). */
  private static final Map<String, List<String>> PRESET_SWEEPS =
      Map.of(
          "paper-fig3", List.of("protocol"),
          "paper-fig5", List.of("protocol"),
          "paper-fig9", List.of("ebs", "1", "10", "20", "50", "100"),
          "paper-fig11", List.of("page-size", "10000", "50000", "109000", "200000"),
          "paper-fig13", List.of("ttl", "0", "10s", "50s", "100s"));

  @Test
  void everyPresetRunsTheFigureWithThePapersSettingsAndNeedsNoWarning() {
    assertThat(Preset.all())
        .extracting(Preset::name)
        .containsExactlyInAnyOrderElementsOf(PRESET_SWEEPS.keySet());
    for (Preset preset : Preset.all()) {
      TpcwHarness.Plan plan = plan("--preset", preset.name());
      List<String> sweep = PRESET_SWEEPS.get(preset.name());
      String placement =
          preset.name().equals("paper-fig3")
                  || preset.name().equals("paper-fig11")
                  || preset.name().equals("paper-fig13")
              ? "eu"
              : "ec2";

      assertThat(plan.sweptParameter()).as(preset.name()).isEqualTo(sweep.get(0));
      int values = Math.max(1, sweep.size() - 1);
      assertThat(plan.runs()).as(preset.name()).hasSize(values * PAPER_PROTOCOLS.size());
      assertThat(plan.runs().subList(0, PAPER_PROTOCOLS.size()))
          .extracting(r -> r.settings().protocol())
          .containsExactlyElementsOf(PAPER_PROTOCOLS);
      if (sweep.size() > 1) {
        assertThat(plan.runs().stream().map(Sweep.Planned::label).distinct())
            .containsExactlyElementsOf(sweep.subList(1, sweep.size()));
      }
      for (Sweep.Planned run : plan.runs()) {
        RunSettings s = run.settings();
        String swept = sweep.get(0);
        assertThat(s.placement()).isEqualTo(placement);
        assertThat(s.latencyProfile()).isEqualTo(placement);
        assertThat(s.endUserRoundTrip())
            .isEqualTo(placement.equals("ec2") ? Duration.ofMillis(100) : Duration.ZERO);
        assertThat(s.pageSize())
            .isEqualTo(swept.equals("page-size") ? Integer.parseInt(run.label()) : 109_000);
        assertThat(s.ttl())
            .isEqualTo(
                swept.equals("ttl") ? Durations.parse(run.label()) : Duration.ofSeconds(100));
        assertThat(s.checkpointInterval()).isEqualTo(Duration.ofSeconds(45));
        assertThat(s.ebs()).isEqualTo(swept.equals("ebs") ? Integer.parseInt(run.label()) : 1);
        assertThat(s.mix()).isEqualTo(Mix.SHOPPING);
        assertThat(s.items()).isEqualTo(1000);
        assertThat(s.customersPerEb()).isEqualTo(2880);
        assertThat(s.thinkTimeMean()).isZero();
        assertThat(s.warmUp()).isEqualTo(Duration.ofSeconds(30));
        assertThat(s.measure()).isEqualTo(Duration.ofMinutes(5));
      }
      assertThat(RunWarnings.forPlan(plan.sweptParameter(), plan.runs()))
          .as(preset.name())
          .isEmpty();
    }
  }

  @Test
  void flagsGivenWithAPresetReplaceItsValues() {
    TpcwHarness.Plan plan =
        plan(
            "--ebs",
            "4",
            "--preset",
            "paper-fig5",
            "--protocols",
            "basic,atomic",
            "--duration=1m",
            "--page-size",
            "100k");

    assertThat(plan.runs())
        .extracting(r -> r.settings().protocol())
        .containsExactly(ProtocolKind.BASIC, ProtocolKind.ATOMIC);
    RunSettings s = plan.runs().get(0).settings();
    assertThat(s.ebs()).isEqualTo(4);
    assertThat(s.measure()).isEqualTo(Duration.ofMinutes(1));
    assertThat(s.pageSize()).isEqualTo(100 * 1024);
    assertThat(s.ttl()).isEqualTo(Duration.ofSeconds(100));
    assertThat(s.endUserRoundTrip()).isEqualTo(Duration.ofMillis(100));
    assertThat(RunWarnings.forPlan(plan.sweptParameter(), plan.runs())).hasSize(1);

    TpcwHarness.Plan fixedEbs = plan("--preset", "paper-fig9", "--ebs", "5");
    assertThat(fixedEbs.sweptParameter()).isEqualTo("protocol");
    assertThat(fixedEbs.runs()).hasSize(5).allMatch(r -> r.settings().ebs() == 5);

    TpcwHarness.Plan ownSweep = plan("--preset", "paper-fig9", "--sweep", "mix=browsing");
    assertThat(ownSweep.sweptParameter()).isEqualTo("mix");
    assertThat(ownSweep.runs())
        .allMatch(r -> r.settings().ebs() == 1 && r.settings().mix() == Mix.BROWSING);

    TpcwHarness.Plan inEurope = plan("--preset", "paper-fig5", "--placement", "eu");
    assertThat(inEurope.runs())
        .allMatch(
            r -> r.settings().placement().equals("eu") && r.settings().endUserRoundTrip().isZero());
  }

  @Test
  void anUnknownPresetGivesOneLineAndExitCodeTwo() {
    int code = run("--preset", "paper-fig2");

    assertThat(code).isEqualTo(2);
    assertThat(err.toString().strip().lines()).hasSize(1);
    assertThat(err.toString()).startsWith("stratus-bench: unknown preset 'paper-fig2'");
    assertThat(out.toString()).isEmpty();
  }

  @Test
  void presetListAndHelpListEveryPresetOnOneLine() {
    assertThat(run("--preset", "list")).isZero();
    String listed = out.toString();
    assertThat(run("--help")).isZero();
    String help = out.toString().substring(listed.length());

    for (Preset p : Preset.all()) {
      assertThat(listed.lines().filter(l -> l.startsWith("  " + p.name() + " "))).hasSize(1);
      assertThat(help).contains("  " + p.summary());
    }
  }

  @Test
  void helpListsEveryProtocolAndMarksTheDefaultOnes() {
    assertThat(run("--help")).isZero();
    List<String> lines = out.toString().lines().toList();

    for (ProtocolKind k : ProtocolKind.values()) {
      String name = k.name().toLowerCase(Locale.ROOT);
      List<String> listed = lines.stream().filter(l -> l.startsWith("  " + name + " ")).toList();
      assertThat(listed).as(name).hasSize(1);
      assertThat(listed.get(0).substring(name.length() + 2).trim().startsWith("default"))
          .as(name + " marked default")
          .isEqualTo(Defaults.PROTOCOLS.contains(k));
    }
  }

  @Test
  void theDefaultRunComparesAProtocolThatPreventsLostUpdates() {
    assertThat(plan().runs())
        .extracting(r -> r.settings().protocol())
        .contains(ProtocolKind.SNAPSHOT_ISOLATION);
  }

  @Test
  void theDefaultRunIsTheDefaultsAndNeedsNoWarning() {
    TpcwHarness.Plan plan = plan();

    assertThat(plan.runs())
        .extracting(r -> r.settings().protocol())
        .containsExactlyElementsOf(Defaults.PROTOCOLS);
    for (Sweep.Planned run : plan.runs()) {
      assertThat(run.settings()).isEqualTo(Defaults.settings(run.settings().protocol()));
    }
    assertThat(RunWarnings.forPlan(plan.sweptParameter(), plan.runs())).isEmpty();
  }

  /** A run too short for its TTL says so on one line before it starts. */
  @Test
  void aShortRunIsWarnedAboutBeforeItStarts(@TempDir Path dir) {
    int code =
        run(
            "--protocols",
            "naive",
            "--profile",
            "none",
            "--ebs",
            "1",
            "--items",
            "100",
            "--customers-per-eb",
            "20",
            "--warm-up",
            "0",
            "--duration",
            "10m",
            "--ttl",
            "5m",
            "--interactions-per-eb",
            "5",
            "--seed",
            "5",
            "--out",
            dir.toString());

    assertThat(code).as(err.toString()).isZero();
    List<String> lines = out.toString().lines().toList();
    assertThat(lines.get(0))
        .isEqualTo(
            "warning: measuring 10m is shorter than 3 times the TTL"
                + " (5m): few cached pages expire, so reads cost too few requests; use --duration 15m or"
                + " more, or a shorter --ttl (naive)");
    assertThat(lines.get(1)).startsWith("Stratus TPC-W: 1 run(s)");
    assertThat(lines).filteredOn(l -> l.startsWith("warning")).hasSize(1);
  }
}
