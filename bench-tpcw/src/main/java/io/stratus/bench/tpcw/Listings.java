package io.stratus.bench.tpcw;

import io.stratus.bench.tpcw.harness.Defaults;
import io.stratus.bench.tpcw.harness.Preset;
import io.stratus.protocols.ProtocolKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The listings {@code stratus-bench --help} ends with and {@code --preset list} prints. */
final class Listings {
  private Listings() {}

  /**
   * The lines of {@code --help} that list every protocol, one a line, marking those the default
   * run compares.
   */
  static List<String> protocols() {
    List<String> lines = new ArrayList<>();
    lines.add("Protocols (--protocols; 'default': in the run without --protocols):");
    for (ProtocolKind k : ProtocolKind.values()) {
      lines.add(
          String.format(
              Locale.ROOT,
              "  %-21s %-8s %s",
              k.name().toLowerCase(Locale.ROOT),
              Defaults.PROTOCOLS.contains(k) ? "default" : "",
              whatItIs(k)));
    }
    return lines;
  }

  private static String whatItIs(ProtocolKind k) {
    return switch (k) {
      case NAIVE -> "a commit puts its pages; no queue, no guarantee";
      case BASIC -> "log records to queues, checkpoints apply them (000 sec. 4)";
      case MONOTONIC -> "basic plus monotonic reads and writes, read-your-writes";
      case ATOMIC -> "monotonic plus all-or-nothing commits (000 sec. 5.1)";
      case ADVANCED_ATOMIC -> "atomic through advanced queues (000 sec. 5.3)";
      case SNAPSHOT_ISOLATION -> "snapshot isolation: no lost updates (000 sec. 5.4)";
      case SERIALIZABLE_SNAPSHOT -> "snapshot isolation that also validates reads";
      case TWO_PHASE_LOCKING -> "strict two-phase locking (000 sec. 5.5)";
    };
  }

  /** The lines {@code --preset list} prints and {@code --help} ends with. */
  static List<String> presets() {
    List<String> lines = new ArrayList<>();
    lines.add("Presets: paper 000's settings for its figures (--preset paper-figN names any");
    lines.add("figure a preset covers); flags given with a preset replace its values.");
    for (Preset p : Preset.all()) {
      lines.add("  " + p.summary());
    }
    lines.add("With the index service (SDB); shorter than the paper's unless --paper-scale:");
    for (Preset p : Preset.indexService()) {
      lines.add("  " + p.summary());
    }
    lines.add("Not a figure: the runs under which TPC-W reports WIPS (rates are WIPS only then):");
    lines.add("  " + Preset.TPCW_WIPS.summary());
    return lines;
  }
}
