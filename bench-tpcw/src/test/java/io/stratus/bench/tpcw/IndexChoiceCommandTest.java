package io.stratus.bench.tpcw;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.bench.tpcw.harness.CloudTarget;
import io.stratus.bench.tpcw.harness.IndexChoice;
import io.stratus.bench.tpcw.harness.Preset;
import io.stratus.bench.tpcw.harness.RunSettings;
import io.stratus.bench.tpcw.harness.RunWarnings;
import io.stratus.bench.tpcw.harness.Sweep;
import io.stratus.bench.tpcw.harness.TpcwHarness;
import io.stratus.protocols.ProtocolKind;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code --index btree|sdb|sdb-single}, its sweep and the presets of the paper's SDB
 * configurations: parsed into the plan, run end to end on tiny bookstores of the in-process cloud,
 * with the index placement in the report.
 */
class IndexChoiceCommandTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return StratusBench.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
  }

  private static TpcwHarness.Plan plan(String... args) {
    StratusBench bench = new StratusBench();
    new CommandLine(bench).parseArgs(args);
    return bench.withPreset().plan();
  }

  private static final String[] TINY = {
    "--profile", "none", "--ebs", "1", "--items", "100", "--customers-per-eb", "10",
    "--warm-up", "0", "--duration", "10m", "--warm-pass", "0", "--interactions-per-eb", "20",
    "--seed", "11", "--no-progress"
  };

  private static String[] tiny(Path dir, String... more) {
    List<String> args = new ArrayList<>(List.of(TINY));
    args.addAll(List.of(more));
    args.add("--out");
    args.add(dir.toString());
    return args.toArray(new String[0]);
  }

  @Test
  void theIndexFlagAndItsSweepReachEveryRun() {
    assertThat(plan().runs()).allMatch(r -> r.settings().index() == IndexChoice.BTREE);
    assertThat(plan("--index", "SDB").runs())
        .allMatch(r -> r.settings().index() == IndexChoice.SDB);
    TpcwHarness.Plan swept =
        plan("--protocols", "basic,atomic", "--sweep", "index=btree,sdb,sdb-single");
    assertThat(swept.sweptParameter()).isEqualTo("index");
    assertThat(swept.runs())
        .extracting(r -> r.label() + "/" + r.settings().index().id())
        .containsExactly(
            "btree/btree",
            "btree/btree",
            "sdb/sdb",
            "sdb/sdb",
            "sdb-single/sdb-single",
            "sdb-single/sdb-single");
    // Another sweep keeps the given placement in every run.
    assertThat(plan("--index", "sdb", "--sweep", "ebs=1,2").runs())
        .allMatch(r -> r.settings().index() == IndexChoice.SDB);
    assertThat(plan("--index", "sdb", "--clients", "1,2").runs())
        .allMatch(r -> r.settings().index() == IndexChoice.SDB);
  }

  @Test
  void aBadIndexIsOneLineAndExitCodeTwo() {
    assertThat(run("--index", "hash")).isEqualTo(2);
    assertThat(err.toString())
        .startsWith("stratus-bench: unknown index placement 'hash' (expected btree, sdb or");
    err.getBuffer().setLength(0);
    assertThat(run("--sweep", "index=btree,heap")).isEqualTo(2);
    assertThat(err.toString()).contains("unknown index placement 'heap'");
  }

  @Test
  void localStackHasAnIndexServiceOnlyWithADynamoDbEndpoint() {
    URI ls = URI.create("http://127.0.0.1:4566");
    CloudTarget without =
        new CloudTarget(
            CloudTarget.Kind.LOCALSTACK, Optional.of(ls), "us-east-1", "b", Optional.empty());
    CloudTarget with =
        new CloudTarget(
            CloudTarget.Kind.LOCALSTACK,
            Optional.of(ls),
            "us-east-1",
            "b",
            Optional.empty(),
            Optional.of(URI.create("http://127.0.0.1:4567")));
    assertThat(without.hasIndexService()).isFalse();
    assertThat(with.hasIndexService()).isTrue();
    assertThat(CloudTarget.inProcess().hasIndexService()).isTrue();
    TpcwHarness.Plan p =
        plan(
            "--cloud",
            "localstack",
            "--endpoint",
            ls.toString(),
            "--index-endpoint",
            "http://127.0.0.1:4567",
            "--index",
            "sdb");
    assertThat(p.target().indexEndpoint()).contains(URI.create("http://127.0.0.1:4567"));
  }

  @Test
  void theSdbPresetsPlanTheirFiguresModestlyAndAtPaperScale() {
    assertThat(Preset.indexService())
        .extracting(Preset::name)
        .containsExactly("paper-fig3-sdb", "paper-fig5-sdb", "paper-fig9-sdb", "paper-table4");
    Map<String, String> placements =
        Map.of(
            "paper-fig3-sdb", "eu",
            "paper-fig5-sdb", "ec2",
            "paper-fig9-sdb", "ec2",
            "paper-table4", "eu");
    for (Preset preset : Preset.indexService()) {
      assertThat(preset.summary()).startsWith(preset.name()).hasSizeLessThan(78);
      for (boolean paperScale : new boolean[] {false, true}) {
        TpcwHarness.Plan plan =
            paperScale
                ? plan("--preset", preset.name(), "--paper-scale")
                : plan("--preset", preset.name());
        String what = preset.name() + (paperScale ? " at paper scale" : "");
        assertThat(RunWarnings.forPlan(plan.sweptParameter(), plan.runs())).as(what).isEmpty();
        for (Sweep.Planned r : plan.runs()) {
          assertThat(r.settings().placement()).as(what).isEqualTo(placements.get(preset.name()));
        }
        Duration measured = plan.runs().get(0).settings().measure();
        if (!preset.name().equals("paper-table4")) {
          assertThat(measured).as(what).isEqualTo(Duration.ofSeconds(paperScale ? 300 : 30));
          assertThat(plan.runs().get(0).settings().customersPerEb())
              .isEqualTo(paperScale ? 2880 : 288);
        }
      }
    }
    TpcwHarness.Plan fig3 = plan("--preset", "paper-fig4-sdb");
    assertThat(fig3.sweptParameter()).isEqualTo("index");
    assertThat(fig3.runs()).hasSize(10);
    assertThat(fig3.runs().stream().map(r -> r.settings().index()).distinct())
        .containsExactly(IndexChoice.BTREE, IndexChoice.SDB);

    TpcwHarness.Plan fig9 = plan("--preset", "paper-fig10-sdb");
    assertThat(fig9.sweptParameter()).isEqualTo("ebs");
    assertThat(fig9.runs()).allMatch(r -> r.settings().index() == IndexChoice.SDB);
    assertThat(fig9.runs().stream().map(r -> r.settings().ebs()).distinct())
        .containsExactly(1, 2, 4);
    assertThat(
            plan("--preset", "paper-fig9-sdb", "--paper-scale").runs().stream()
                .map(r -> r.settings().ebs())
                .distinct())
        .containsExactly(1, 2, 4, 8, 20, 50, 100);

    TpcwHarness.Plan table4 = plan("--preset", "paper-table4");
    assertThat(table4.warmPass()).isZero();
    assertThat(table4.runs())
        .extracting(r -> r.settings().index())
        .containsExactly(IndexChoice.BTREE, IndexChoice.SDB_SINGLE, IndexChoice.SDB);
    assertThat(table4.runs().get(0).settings().items()).isEqualTo(100);
    assertThat(plan("--preset", "paper-table4", "--paper-scale").runs().get(0).settings().items())
        .isEqualTo(1000);
  }

  @Test
  void theSdbPresetsAreListed() {
    assertThat(run("--preset", "list")).isZero();
    for (Preset p : Preset.indexService()) {
      assertThat(out.toString()).contains(p.summary());
    }
  }

  /** A tiny run with the indexes in the service: it runs, and the report says where they were. */
  @Test
  void aRunWithTheIndexServiceReportsThePlacement(@TempDir Path dir) throws Exception {
    int code = run(tiny(dir, "--protocols", "basic", "--index", "sdb"));
    assertThat(code).as(err.toString()).isZero();
    assertThat(out.toString()).contains("indexes: sdb;");
    List<String> lines = Files.readAllLines(dir.resolve("results.csv"), StandardCharsets.UTF_8);
    List<String> header = List.of(lines.get(0).split(","));
    assertThat(lines.get(1).split(",")[header.indexOf("index")]).isEqualTo("sdb");
    assertThat(Files.readString(dir.resolve("results.json"), StandardCharsets.UTF_8))
        .contains("\"index\": \"sdb\"");
    assertThat(Files.readString(dir.resolve("report.md"), StandardCharsets.UTF_8))
        .containsPattern("\\| index +\\| sdb");
  }

  /**
   * Table 4 both ways, tiny and without latency: the item table's load into B-tree pages takes a
   * few puts, into the service a request per batch of 25 entries, and one item at a time a
   * request per entry of its four indexes.
   */
  @Test
  void tableFourLoadsBothWaysAndReportsEachRow(@TempDir Path dir) throws Exception {
    int code = run(tiny(dir, "--preset", "paper-table4"));
    assertThat(code).as(err.toString()).isZero();
    List<String> lines = Files.readAllLines(dir.resolve("load.csv"), StandardCharsets.UTF_8);
    assertThat(lines).hasSize(4);
    List<String> header = List.of(lines.get(0).split(","));
    Map<String, Long> itemRequests = new HashMap<>();
    Map<String, Double> itemCost = new HashMap<>();
    for (String line : lines.subList(1, lines.size())) {
      String[] row = line.split(",");
      itemRequests.put(
          row[header.indexOf("label")], Long.parseLong(row[header.indexOf("item_table_requests")]));
      itemCost.put(
          row[header.indexOf("label")],
          Double.parseDouble(row[header.indexOf("item_table_mdollars_2008")]));
    }
    assertThat(itemRequests.get("sdb-single")).as("one request per entry").isGreaterThan(400);
    assertThat(itemRequests.get("sdb"))
        .as("16 batches of 25 entries besides the pages")
        .isLessThan(itemRequests.get("sdb-single") / 10)
        .isGreaterThan(itemRequests.get("btree"));
    assertThat(itemCost.get("sdb-single")).isGreaterThan(10 * itemCost.get("btree"));
    assertThat(itemCost.get("sdb")).isGreaterThan(itemCost.get("btree"));
  }

  /** The protocol of a run does not change where {@link RunSettings#index()} says. */
  @Test
  void settingsKeepTheirIndexThroughEveryChange() {
    RunSettings s =
        plan("--protocols", "naive", "--index", "sdb-single", "--sweep", "clients=1,2")
            .runs()
            .get(1)
            .settings();
    assertThat(s.protocol()).isEqualTo(ProtocolKind.NAIVE);
    assertThat(s.index()).isEqualTo(IndexChoice.SDB_SINGLE);
    assertThat(s.toBuilder().clients(3).build().index()).isEqualTo(IndexChoice.SDB_SINGLE);
    assertThat(s.describe()).containsEntry("index", "sdb-single");
  }
}
