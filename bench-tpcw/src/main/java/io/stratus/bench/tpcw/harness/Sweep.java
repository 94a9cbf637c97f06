package io.stratus.bench.tpcw.harness;

import io.stratus.bench.tpcw.workload.Mix;
import io.stratus.protocols.ProtocolKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A sweep over one parameter, crossed with the protocols: {@code --sweep ebs=1,10,50} with
 * {@code --protocols basic,atomic} makes six runs. Values are parsed and checked when the sweep is
 * parsed, so a typo fails before anything is loaded.
 *
 * @param parameter the swept parameter's name, one of {@link #PARAMETERS}
 * @param values its values as given on the command line
 */
public record Sweep(String parameter, List<String> values) {
  /** The parameters that can be swept. */
  public static final List<String> PARAMETERS =
      List.of(
          "ebs",
          "page-size",
          "ttl",
          "checkpoint-interval",
          "items",
          "mix",
          "think-time",
          "end-user-rtt",
          "profile",
          "clients",
          "index");

  /** One planned run: its label within the sweep and its settings. */
  public record Planned(String label, RunSettings settings) {}

  /** Parses {@code name=v1,v2,...}. */
  public static Sweep parse(String text) {
    int eq = text.indexOf('=');
    if (eq <= 0 || eq == text.length() - 1) {
      throw new IllegalArgumentException(
          "bad --sweep '" + text + "' (expected name=v1,v2,..., e.g. ebs=1,10,50)");
    }
    String name = text.substring(0, eq).trim().toLowerCase(Locale.ROOT);
    if (!PARAMETERS.contains(name)) {
      throw new IllegalArgumentException(
          "cannot sweep '" + name + "' (sweepable: " + String.join(", ", PARAMETERS) + ")");
    }
    List<String> values = new ArrayList<>();
    for (String v : text.substring(eq + 1).split(",")) {
      if (!v.isBlank()) {
        values.add(v.trim());
      }
    }
    if (values.isEmpty()) {
      throw new IllegalArgumentException("--sweep " + name + " has no values");
    }
    Sweep sweep = new Sweep(name, List.copyOf(values));
    RunSettings probe = Defaults.settings(ProtocolKind.NAIVE);
    for (String v : values) {
      sweep.apply(probe, v); // fails here on a bad value
    }
    return sweep;
  }

  /**
   * The runs: for each value of the sweep (or once without one), each protocol. Labels are the
   * swept value, or the protocol's name without a sweep.
   */
  public static List<Planned> plan(
      RunSettings base, List<ProtocolKind> protocols, Optional<Sweep> sweep) {
    List<Planned> runs = new ArrayList<>();
    if (sweep.isEmpty()) {
      for (ProtocolKind p : protocols) {
        runs.add(new Planned(p.name().toLowerCase(Locale.ROOT), with(base, p)));
      }
      return runs;
    }
    for (String v : sweep.get().values) {
      for (ProtocolKind p : protocols) {
        runs.add(new Planned(v, sweep.get().apply(with(base, p), v)));
      }
    }
    return runs;
  }

  /** The name reports use for the swept parameter: "protocol" without a sweep. */
  public static String parameterName(Optional<Sweep> sweep) {
    return sweep.map(Sweep::parameter).orElse("protocol");
  }

  private static RunSettings with(RunSettings s, ProtocolKind p) {
    return s.toBuilder().protocol(p).build();
  }

  /** {@code s} with the swept parameter set to {@code value}. */
  RunSettings apply(RunSettings s, String value) {
    if (parameter.equals("clients")) {
      return s.toBuilder().clients(Defaults.positive("clients", value)).build();
    }
    if (parameter.equals("index")) {
      return s.toBuilder().index(IndexChoice.parse(value)).build();
    }
    return applyOne(s, value);
  }

  private RunSettings applyOne(RunSettings s, String value) {
    try {
      return switch (parameter) {
        case "ebs" -> s.toBuilder().ebs(Defaults.positive("ebs", value)).build();
        case "page-size" -> s.toBuilder().pageSize(Defaults.pageSize(value)).build();
        case "ttl" -> s.toBuilder().ttl(Durations.parse(value)).build();
        case "checkpoint-interval" ->
            s.toBuilder()
                .checkpointInterval(
                    Defaults.positive("checkpoint-interval", Durations.parse(value)))
                .build();
        case "items" -> s.toBuilder().items(Defaults.positive("items", value)).build();
        case "mix" -> s.toBuilder().mix(Mix.parse(value)).build();
        case "think-time" -> s.toBuilder().thinkTimeMean(Durations.parse(value)).build();
        case "end-user-rtt" -> s.toBuilder().endUserRoundTrip(Durations.parse(value)).build();
        case "profile" -> s.toBuilder().latencyProfile(Defaults.profile(value)).build();
        default -> throw new IllegalStateException("unknown sweep parameter " + parameter);
      };
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("bad value '" + value + "' for --sweep " + parameter);
    }
  }
}
