package io.stratus.bench.tpcw.harness;

import io.stratus.protocols.ProtocolOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Warns about runs too short for their cache and checkpoint settings. A page cached at the start
 * of the measurement is only re-validated once its TTL has expired, and a queue protocol only
 * applies its pending updates once per checkpoint interval; a measurement interval of a few such
 * periods averages over many expiries and checkpoints, a shorter one over none or one or two. With
 * a 100 s TTL and 25 s measured no cached page ever expires, so reads cost no request at all and a
 * TTL sweep shows nothing; with 45 s checkpoints a 25 s run checkpoints each page once at most.
 *
 * <p>The rule: the measurement interval must be at least {@value #PERIODS} times the longest
 * period that matters for the run, the TTL or, for a protocol that checkpoints ({@link
 * ProtocolOption#CHECKPOINTS}), the checkpoint interval.
 */
public final class RunWarnings {
  /** How many of the longest period a measurement interval must span. */
  public static final int PERIODS = 3;

  private RunWarnings() {}

  /**
   * The shortest measurement interval free of the warning: {@value #PERIODS} times the longer of
   * the TTL and (if the protocol checkpoints) the checkpoint interval.
   */
  public static Duration shortestMeasure(RunSettings s) {
    return longestPeriod(s).multipliedBy(PERIODS);
  }

  /** The warning for one run, if its measurement interval is too short; one line. */
  public static Optional<String> check(RunSettings s) {
    if (s.measure().compareTo(shortestMeasure(s)) >= 0) {
      return Optional.empty();
    }
    boolean ttlRules = !checkpoints(s) || s.ttl().compareTo(s.checkpointInterval()) >= 0;
    String period =
        ttlRules
            ? "the TTL ("
                + Durations.format(s.ttl())
                + "): few cached pages expire, so reads"
                + " cost too few requests"
            : "the checkpoint interval ("
                + Durations.format(s.checkpointInterval())
                + "): few checkpoints run, so their cost is a matter of chance";
    return Optional.of(
        String.format(
            Locale.ROOT,
            "warning: measuring %s is shorter than %d times %s; use --duration %s or more, or a shorter"
                + " %s",
            Durations.format(s.measure()),
            PERIODS,
            period,
            Durations.format(shortestMeasure(s)),
            ttlRules ? "--ttl" : "--checkpoint-interval"));
  }

  /**
   * The warnings for a plan: one line per distinct warning, naming the runs it concerns (by
   * protocol, and by swept value when the plan is a sweep).
   *
   * @param sweptParameter the plan's swept parameter, "protocol" when only the protocol varies
   * @param runs the plan's runs
   */
  public static List<String> forPlan(String sweptParameter, List<Sweep.Planned> runs) {
    Map<String, List<String>> byWarning = new LinkedHashMap<>();
    for (Sweep.Planned run : runs) {
      Optional<String> warning = check(run.settings());
      if (warning.isPresent()) {
        byWarning
            .computeIfAbsent(warning.get(), w -> new ArrayList<>())
            .add(name(sweptParameter, run));
      }
    }
    List<String> lines = new ArrayList<>();
    byWarning.forEach((w, names) -> lines.add(w + " (" + String.join(", ", names) + ")"));
    return lines;
  }

  static Duration longestPeriod(RunSettings s) {
    return checkpoints(s) && s.checkpointInterval().compareTo(s.ttl()) > 0
        ? s.checkpointInterval()
        : s.ttl();
  }

  private static boolean checkpoints(RunSettings s) {
    return s.protocol().accepts(ProtocolOption.CHECKPOINTS);
  }

  private static String name(String sweptParameter, Sweep.Planned run) {
    String protocol = run.settings().protocol().name().toLowerCase(Locale.ROOT);
    return run.label().equals(protocol)
        ? protocol
        : sweptParameter + "=" + run.label() + " " + protocol;
  }
}
