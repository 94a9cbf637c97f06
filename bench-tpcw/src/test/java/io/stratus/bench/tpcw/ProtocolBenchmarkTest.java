package io.stratus.bench.tpcw;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * {@code stratus-bench protocols} prices the coordination ensemble too: the protocols that use
 * locks, counters or advanced queues (every one that checkpoints, and the isolating ones on every
 * commit) pay its rent per transaction; naive, which uses none, pays nothing for it.
 */
class ProtocolBenchmarkTest {

  @Test
  void theEnsembleIsPricedForTheProtocolsThatUseIt() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        StratusBench.run(
            new String[] {
              "protocols",
              "--protocols",
              "naive,basic,snapshot_isolation",
              "--profiles",
              "none",
              "--sizes",
              "1",
              "--commits",
              "3",
              "--page-size",
              "4096",
              "--seed",
              "3"
            },
            new PrintWriter(out, true),
            new PrintWriter(err, true));

    assertThat(code).as(err.toString()).isZero();
    List<String> lines = out.toString().lines().toList();
    String header = lines.stream().filter(l -> l.startsWith("protocol")).findFirst().orElseThrow();
    assertThat(header).endsWith("coord/tx  ens m$/tx 2026");
    Map<String, String[]> rows =
        lines.stream()
            .filter(l -> l.matches("^(naive|basic|snapshot_isolation) .*"))
            .map(l -> l.trim().split("\\s+"))
            .collect(Collectors.toMap(c -> c[0], Function.identity()));
    assertThat(rows).containsOnlyKeys("naive", "basic", "snapshot_isolation");
    assertThat(last(rows.get("naive"), 1)).isEqualTo("0.0");
    assertThat(last(rows.get("naive"), 0)).isEqualTo("-");
    // Basic coordinates only its checkpoints (a lock per queue), snapshot isolation every commit;
    // both need the ensemble.
    assertThat(last(rows.get("basic"), 1)).isEqualTo("0.0");
    assertThat(Double.parseDouble(last(rows.get("snapshot_isolation"), 1))).isPositive();
    for (String p : List.of("basic", "snapshot_isolation")) {
      assertThat(Double.parseDouble(last(rows.get(p), 0))).as(p + " ensemble").isPositive();
    }
  }

  private static String last(String[] cells, int fromEnd) {
    return cells[cells.length - 1 - fromEnd];
  }
}
