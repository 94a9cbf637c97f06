package io.stratus.bench.tpcw;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.bench.tpcw.harness.ClientPlacement;
import io.stratus.bench.tpcw.harness.CloudTarget;
import io.stratus.bench.tpcw.harness.Preset;
import io.stratus.bench.tpcw.harness.RunSettings;
import io.stratus.bench.tpcw.harness.TpcwHarness;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code --client-placement}: which clouds it needs, what latency it models, the presets. */
class ClientPlacementCommandTest {
  private static final String[] LOCALSTACK = {
    "--cloud", "localstack", "--endpoint", "http://127.0.0.1:4566"
  };

  @Test
  void processPlacementOnTheInProcessCloudIsRefusedNamingWhatToAdd() {
    StringWriter err = new StringWriter();
    int code =
        StratusBench.run(
            new String[] {"--client-placement", "process", "--clients", "2"},
            new PrintWriter(new StringWriter(), true),
            new PrintWriter(err, true));

    assertThat(code).isEqualTo(2);
    assertThat(err.toString().strip().lines()).hasSize(1);
    assertThat(err.toString())
        .contains("--client-placement process")
        .contains("add --cloud localstack")
        .contains("--zookeeper");
  }

  @Test
  void processPlacementWithoutZooKeeperIsRefusedNamingIt() {
    StringWriter err = new StringWriter();
    int code =
        StratusBench.run(
            concat(LOCALSTACK, "--client-placement", "process"),
            new PrintWriter(new StringWriter(), true),
            new PrintWriter(err, true));

    assertThat(code).isEqualTo(2);
    assertThat(err.toString()).contains("add --zookeeper HOST:PORT");
  }

  @Test
  void anUnknownPlacementIsRefused() {
    StringWriter err = new StringWriter();
    int code =
        StratusBench.run(
            new String[] {"--client-placement", "cloud"},
            new PrintWriter(new StringWriter(), true),
            new PrintWriter(err, true));

    assertThat(code).isEqualTo(2);
    assertThat(err.toString())
        .contains("unknown client placement 'cloud' (expected jvm or process)");
  }

  @Test
  void clientProcessesModelThePlacementsLatencyOnTheRealCloudAndOneJvmDoesNot() {
    RunSettings processes =
        settings(
            plan(
                concat(
                    LOCALSTACK, "--zookeeper", "127.0.0.1:2181", "--client-placement", "process")));
    RunSettings inEurope =
        settings(
            plan(
                concat(
                    LOCALSTACK,
                    "--zookeeper",
                    "127.0.0.1:2181",
                    "--client-placement",
                    "process",
                    "--placement",
                    "eu")));
    RunSettings oneJvm = settings(plan(LOCALSTACK));

    assertThat(processes.clientPlacement()).isEqualTo(ClientPlacement.PROCESS);
    assertThat(processes.latencyProfile()).isEqualTo("ec2");
    assertThat(inEurope.latencyProfile()).isEqualTo("eu");
    assertThat(oneJvm.clientPlacement()).isEqualTo(ClientPlacement.JVM);
    assertThat(oneJvm.latencyProfile()).isEqualTo("real");
    assertThat(processes.describe()).containsEntry("client placement", "process");
  }

  @Test
  void theFigureNinePresetRunsItsServerInAProcessOnLocalStackAndZooKeeper() {
    TpcwHarness.Plan plan = plan("--preset", "paper-fig10");

    assertThat(plan.target().kind()).isEqualTo(CloudTarget.Kind.LOCALSTACK);
    assertThat(plan.target().endpoint()).contains(URI.create(Preset.LOCALSTACK));
    assertThat(plan.target().zookeeper()).contains(Preset.ZOOKEEPER);
    assertThat(plan.runs())
        .allMatch(r -> r.settings().clientPlacement() == ClientPlacement.PROCESS)
        .allMatch(r -> r.settings().latencyProfile().equals("ec2"));
    assertThat(plan("--preset", "paper-fig9", "--zookeeper", "10.0.0.1:2181").target().zookeeper())
        .contains("10.0.0.1:2181");
  }

  private static RunSettings settings(TpcwHarness.Plan plan) {
    return plan.runs().get(0).settings();
  }

  private static TpcwHarness.Plan plan(String... args) {
    StratusBench bench = new StratusBench();
    new CommandLine(bench).parseArgs(args);
    return bench.withPreset().plan();
  }

  private static String[] concat(String[] first, String... more) {
    String[] all = new String[first.length + more.length];
    System.arraycopy(first, 0, all, 0, first.length);
    System.arraycopy(more, 0, all, first.length, more.length);
    return all;
  }
}
