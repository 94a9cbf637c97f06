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
    return new RunSettings(
        p,
        s.cloud(),
        s.placement(),
        s.latencyProfile(),
        s.pageSize(),
        s.ttl(),
        s.checkpointInterval(),
        s.ebs(),
        s.mix(),
        s.items(),
        s.customersPerEb(),
        s.warmUp(),
        s.measure(),
        s.thinkTimeMean(),
        s.endUserRoundTrip(),
        s.seed(),
        s.clients(),
        s.index());
  }

  /** {@code s} with the swept parameter set to {@code value}. */
  RunSettings apply(RunSettings s, String value) {
    if (parameter.equals("clients")) {
      return s.withClients(Defaults.positive("clients", value));
    }
    if (parameter.equals("index")) {
      return s.withIndex(IndexChoice.parse(value));
    }
    return applyOne(s, value).withClients(s.clients()).withIndex(s.index());
  }

  private RunSettings applyOne(RunSettings s, String value) {
    try {
      return switch (parameter) {
        case "ebs" ->
            new RunSettings(
                s.protocol(),
                s.cloud(),
                s.placement(),
                s.latencyProfile(),
                s.pageSize(),
                s.ttl(),
                s.checkpointInterval(),
                Defaults.positive("ebs", value),
                s.mix(),
                s.items(),
                s.customersPerEb(),
                s.warmUp(),
                s.measure(),
                s.thinkTimeMean(),
                s.endUserRoundTrip(),
                s.seed());
        case "page-size" ->
            new RunSettings(
                s.protocol(),
                s.cloud(),
                s.placement(),
                s.latencyProfile(),
                Defaults.pageSize(value),
                s.ttl(),
                s.checkpointInterval(),
                s.ebs(),
                s.mix(),
                s.items(),
                s.customersPerEb(),
                s.warmUp(),
                s.measure(),
                s.thinkTimeMean(),
                s.endUserRoundTrip(),
                s.seed());
        case "ttl" ->
            new RunSettings(
                s.protocol(),
                s.cloud(),
                s.placement(),
                s.latencyProfile(),
                s.pageSize(),
                Durations.parse(value),
                s.checkpointInterval(),
                s.ebs(),
                s.mix(),
                s.items(),
                s.customersPerEb(),
                s.warmUp(),
                s.measure(),
                s.thinkTimeMean(),
                s.endUserRoundTrip(),
                s.seed());
        case "checkpoint-interval" ->
            new RunSettings(
                s.protocol(),
                s.cloud(),
                s.placement(),
                s.latencyProfile(),
                s.pageSize(),
                s.ttl(),
                Defaults.positive("checkpoint-interval", Durations.parse(value)),
                s.ebs(),
                s.mix(),
                s.items(),
                s.customersPerEb(),
                s.warmUp(),
                s.measure(),
                s.thinkTimeMean(),
                s.endUserRoundTrip(),
                s.seed());
        case "items" ->
            new RunSettings(
                s.protocol(),
                s.cloud(),
                s.placement(),
                s.latencyProfile(),
                s.pageSize(),
                s.ttl(),
                s.checkpointInterval(),
                s.ebs(),
                s.mix(),
                Defaults.positive("items", value),
                s.customersPerEb(),
                s.warmUp(),
                s.measure(),
                s.thinkTimeMean(),
                s.endUserRoundTrip(),
                s.seed());
        case "mix" ->
            new RunSettings(
                s.protocol(),
                s.cloud(),
                s.placement(),
                s.latencyProfile(),
                s.pageSize(),
                s.ttl(),
                s.checkpointInterval(),
                s.ebs(),
                Mix.parse(value),
                s.items(),
                s.customersPerEb(),
                s.warmUp(),
                s.measure(),
                s.thinkTimeMean(),
                s.endUserRoundTrip(),
                s.seed());
        case "think-time" ->
            new RunSettings(
                s.protocol(),
                s.cloud(),
                s.placement(),
                s.latencyProfile(),
                s.pageSize(),
                s.ttl(),
                s.checkpointInterval(),
                s.ebs(),
                s.mix(),
                s.items(),
                s.customersPerEb(),
                s.warmUp(),
                s.measure(),
                Durations.parse(value),
                s.endUserRoundTrip(),
                s.seed());
        case "end-user-rtt" ->
            new RunSettings(
                s.protocol(),
                s.cloud(),
                s.placement(),
                s.latencyProfile(),
                s.pageSize(),
                s.ttl(),
                s.checkpointInterval(),
                s.ebs(),
                s.mix(),
                s.items(),
                s.customersPerEb(),
                s.warmUp(),
                s.measure(),
                s.thinkTimeMean(),
                Durations.parse(value),
                s.seed());
        case "profile" ->
            new RunSettings(
                s.protocol(),
                s.cloud(),
                s.placement(),
                Defaults.profile(value),
                s.pageSize(),
                s.ttl(),
                s.checkpointInterval(),
                s.ebs(),
                s.mix(),
                s.items(),
                s.customersPerEb(),
                s.warmUp(),
                s.measure(),
                s.thinkTimeMean(),
                s.endUserRoundTrip(),
                s.seed());
        default -> throw new IllegalStateException("unknown sweep parameter " + parameter);
      };
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("bad value '" + value + "' for --sweep " + parameter);
    }
  }
}
