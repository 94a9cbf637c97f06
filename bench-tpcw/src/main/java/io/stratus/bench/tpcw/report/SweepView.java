package io.stratus.bench.tpcw.report;

import io.stratus.bench.tpcw.harness.CostPerWi;
import io.stratus.bench.tpcw.harness.Durations;
import io.stratus.bench.tpcw.harness.RunResult;
import io.stratus.bench.tpcw.harness.ServerCost;
import io.stratus.bench.tpcw.harness.SweepResult;
import io.stratus.bench.tpcw.workload.Interaction;
import io.stratus.bench.tpcw.workload.ResponseStats;
import io.stratus.protocols.ProtocolKind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The derived facts every report writer needs about a sweep, computed once so the console, CSV,
 * JSON, markdown and charts cannot disagree: a unique display name per run, the seventeen rows of
 * a run (fourteen interactions, then read, update and total), which run each run is compared
 * against, the cost per WI (requests and machines, {@link CostPerWi}) and the background work's
 * share of it, and whether the swept parameter is numeric (and so gets line charts).
 *
 * <p>Runs of a sweep over a parameter other than the protocol share labels ("10" for both basic
 * and atomic at ten EBs), so a run is named by protocol and label together; names are made unique
 * because chart series must be.
 */
final class SweepView {
  /** The parameter name a sweep has when only the protocols vary. */
  static final String PROTOCOL = "protocol";

  /** The group rows after the fourteen interactions, in order. */
  static final List<String> GROUPS = List.of("read", "update", "total");

  /**
   * One row of a run's table.
   *
   * @param key the interaction's enum name, or the group's name
   * @param label what a reader sees: "Buy Confirm", "read", "update", "total"
   * @param interaction the interaction, or null for a group row
   * @param stats the row's measurements (count 0 when the interaction never ran)
   */
  record Row(String key, String label, Interaction interaction, ResponseStats stats) {
    boolean isGroup() {
      return interaction == null;
    }

    /** Whether the row writes: the interaction's flag, true for "update", null for read/total. */
    Boolean isUpdate() {
      if (interaction != null) {
        return interaction.isUpdate();
      }
      return key.equals("update") ? Boolean.TRUE : key.equals("read") ? Boolean.FALSE : null;
    }
  }

  /**
   * The swept parameter as numbers, for line charts.
   *
   * @param axisTitle the x axis title, with its unit
   * @param values one value per run, in run order
   */
  record NumericAxis(String axisTitle, double[] values) {}

  private final SweepResult result;
  private final List<RunResult> runs;
  private final List<String> names;
  private final List<String> shortNames;

  SweepView(SweepResult result) {
    this.result = Objects.requireNonNull(result, "result");
    this.runs = List.copyOf(result.runs());
    this.names = unique(this::baseName);
    this.shortNames = unique(this::baseShortName);
  }

  SweepResult result() {
    return result;
  }

  String parameter() {
    return result.parameter() == null ? PROTOCOL : result.parameter();
  }

  boolean isProtocolSweep() {
    return parameter().equalsIgnoreCase(PROTOCOL);
  }

  List<RunResult> runs() {
    return runs;
  }

  int size() {
    return runs.size();
  }

  RunResult run(int i) {
    return runs.get(i);
  }

  /** The run's unique display name: "atomic", or "atomic ebs=10" in a sweep over EBs. */
  String name(int i) {
    return names.get(i);
  }

  /**
   * The run's unique name without the parameter ("atomic 10" for "atomic ebs=10"), for column
   * headers of tables whose caption names the parameter.
   */
  String shortName(int i) {
    return shortNames.get(i);
  }

  static String protocol(RunResult run) {
    return run.settings().protocol().name().toLowerCase(Locale.ROOT);
  }

  /** The protocols of the sweep, in the order they first ran. */
  List<String> protocols() {
    Set<String> seen = new LinkedHashSet<>();
    for (RunResult r : runs) {
      seen.add(protocol(r));
    }
    return List.copyOf(seen);
  }

  /** The run's fourteen interaction rows followed by read, update and total. */
  static List<Row> rows(RunResult run) {
    List<Row> rows = new ArrayList<>(Interaction.values().length + GROUPS.size());
    for (Interaction wi : Interaction.values()) {
      rows.add(new Row(wi.name(), wi.label(), wi, stats(run, wi)));
    }
    rows.add(new Row("read", "read", null, orEmpty(run.read(), "read")));
    rows.add(new Row("update", "update", null, orEmpty(run.update(), "update")));
    rows.add(new Row("total", "total", null, orEmpty(run.total(), "total")));
    return rows;
  }

  /** The interaction's measurements; zero counts when the run has none for it. */
  static ResponseStats stats(RunResult run, Interaction wi) {
    ResponseStats s = run.perInteraction() == null ? null : run.perInteraction().get(wi);
    return orEmpty(s, wi.label());
  }

  private static ResponseStats orEmpty(ResponseStats s, String label) {
    return s != null ? s : ResponseStats.empty(label);
  }

  static ResponseStats total(RunResult run) {
    return orEmpty(run.total(), "total");
  }

  static ResponseStats update(RunResult run) {
    return orEmpty(run.update(), "update");
  }

  static ResponseStats read(RunResult run) {
    return orEmpty(run.read(), "read");
  }

  /**
   * The cost per WI of one of a run's rows (an interaction or a group) as paper 000 defines it:
   * the requests it caused (its own and its share of the background work, which the harness
   * charges to the update interactions that caused it, 000 section 7.4) plus the machines paid by
   * the hour, spread evenly over the run's interactions ({@link CostPerWi}). Its fields are NaN
   * when the row has no interaction.
   */
  static CostPerWi cost(RunResult run, ResponseStats row) {
    return CostPerWi.of(row, run.serverCost());
  }

  /** {@link #cost} of the run's total row: what the run cost per WI. */
  static CostPerWi cost(RunResult run) {
    return cost(run, total(run));
  }

  /**
   * Cost per web interaction over the whole run under the 2008 prices, requests and machines
   * together ({@link #cost}). NaN when no interaction ran.
   */
  static double costPerWi2008(RunResult run) {
    return cost(run).total2008();
  }

  /** As {@link #costPerWi2008} under the 2026 prices. */
  static double costPerWi2026(RunResult run) {
    return cost(run).total2026();
  }

  /**
   * The requests' part of {@link #costPerWi2008}: the total row's cost, background work included,
   * without the machines. NaN when no interaction ran.
   */
  static double requestCostPerWi2008(RunResult run) {
    return cost(run).requests2008();
  }

  /** As {@link #requestCostPerWi2008} under the 2026 prices. */
  static double requestCostPerWi2026(RunResult run) {
    return cost(run).requests2026();
  }

  /** The machines' part of {@link #costPerWi2008}. NaN when no interaction ran. */
  static double machinesPerWi2008(RunResult run) {
    return cost(run).machines2008();
  }

  /** The machines' part of {@link #costPerWi2026}. NaN when no interaction ran. */
  static double machinesPerWi2026(RunResult run) {
    return cost(run).machines2026();
  }

  /** The run's machines, {@link ServerCost#NONE} when it has none. */
  static ServerCost machines(RunResult run) {
    return run.serverCost() == null ? ServerCost.NONE : run.serverCost();
  }

  /**
   * The part of {@link #costPerWi2008} that is background work: its cost over every interaction
   * that started in the interval (completed or failed, as the harness divides). NaN when no
   * interaction ran.
   */
  static double backgroundPerWi2008(RunResult run) {
    ResponseStats t = total(run);
    long n = t.count() + t.errors();
    return n == 0 ? Double.NaN : run.backgroundMilliDollars2008() / n;
  }

  /** As {@link #backgroundPerWi2008} under the 2026 prices. */
  static double backgroundPerWi2026(RunResult run) {
    ResponseStats t = total(run);
    long n = t.count() + t.errors();
    return n == 0 ? Double.NaN : run.backgroundMilliDollars2026() / n;
  }

  /** The background work's share of the cost per WI under the 2008 prices, in [0, 1]. */
  static double backgroundShare2008(RunResult run) {
    double cost = costPerWi2008(run);
    return cost > 0 ? backgroundPerWi2008(run) / cost : Double.NaN;
  }

  /**
   * The run this run is compared against, among the runs of the same repeat: naive with the same
   * label if the sweep has one, else the first run with the same label, else (a single protocol
   * swept over a parameter) the first run of the sweep. Equal to {@code i} for the baseline
   * itself.
   */
  int baseline(int i) {
    String label = run(i).label();
    int repeat = run(i).repeat();
    int firstOfRepeat = -1;
    int firstSameLabel = -1;
    int sameLabel = 0;
    for (int j = 0; j < size(); j++) {
      if (run(j).repeat() != repeat) {
        continue;
      }
      if (firstOfRepeat < 0) {
        firstOfRepeat = j;
      }
      if (Objects.equals(run(j).label(), label)) {
        sameLabel++;
        if (firstSameLabel < 0) {
          firstSameLabel = j;
        }
        if (run(j).settings().protocol() == ProtocolKind.NAIVE) {
          return j;
        }
      }
    }
    return sameLabel > 1 ? firstSameLabel : firstOfRepeat;
  }

  /**
   * The swept values as numbers when every run's label is a number (EBs, page size, items) or a
   * duration (TTL, checkpoint interval, think time; in seconds); empty for the protocol, the mix
   * and the latency profile.
   */
  Optional<NumericAxis> numericAxis() {
    if (isProtocolSweep() || runs.isEmpty()) {
      return Optional.empty();
    }
    double[] values = new double[size()];
    try {
      for (int i = 0; i < size(); i++) {
        values[i] = Double.parseDouble(run(i).label().trim());
      }
      return Optional.of(new NumericAxis(parameter(), values));
    } catch (RuntimeException notNumbers) {
      // fall through: maybe durations
    }
    try {
      for (int i = 0; i < size(); i++) {
        values[i] = Durations.parse(run(i).label()).toNanos() / 1e9;
      }
      return Optional.of(new NumericAxis(parameter() + " (s)", values));
    } catch (RuntimeException notDurations) {
      return Optional.empty();
    }
  }

  /**
   * The settings all runs share, as name → value, in {@code RunSettings.describe()} order; the
   * ones that differ are in {@link #varyingSettings()}.
   */
  Map<String, String> commonSettings() {
    Map<String, String> common = new LinkedHashMap<>();
    if (runs.isEmpty()) {
      return common;
    }
    Map<String, String> first = run(0).settings().describe();
    for (Map.Entry<String, String> e : first.entrySet()) {
      boolean same =
          runs.stream()
              .allMatch(r -> Objects.equals(r.settings().describe().get(e.getKey()), e.getValue()));
      if (same) {
        common.put(e.getKey(), e.getValue());
      }
    }
    return common;
  }

  /** The names of the settings that differ between runs, in {@code describe()} order. */
  List<String> varyingSettings() {
    if (runs.isEmpty()) {
      return List.of();
    }
    Set<String> common = commonSettings().keySet();
    List<String> varying = new ArrayList<>();
    for (String key : run(0).settings().describe().keySet()) {
      if (!common.contains(key)) {
        varying.add(key);
      }
    }
    return varying;
  }

  private List<String> unique(java.util.function.Function<RunResult, String> naming) {
    List<String> out = new ArrayList<>(runs.size());
    Map<String, Integer> uses = new HashMap<>();
    for (RunResult r : runs) {
      String base = naming.apply(r);
      int n = uses.merge(base, 1, Integer::sum);
      out.add(n == 1 ? base : base + " #" + n);
    }
    return List.copyOf(out);
  }

  private String baseName(RunResult r) {
    String label = r.label() == null ? "" : r.label();
    if (isProtocolSweep()) {
      return label.isEmpty() ? protocol(r) : label;
    }
    return protocol(r) + " " + parameter() + "=" + label;
  }

  private String baseShortName(RunResult r) {
    String label = r.label() == null ? "" : r.label();
    return isProtocolSweep() ? baseName(r) : protocol(r) + " " + label;
  }
}
