package io.stratus.bench.tpcw.harness;

import io.stratus.bench.tpcw.rbe.MixCompliance;
import io.stratus.bench.tpcw.rbe.WindowStats;
import io.stratus.bench.tpcw.workload.Interaction;
import io.stratus.bench.tpcw.workload.ResponseStats;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Whether a run's rate of interactions may be called TPC-W's WIPS. The harness measures a closed
 * loop: each browser sends its next request when the last one is answered (after a think time, if
 * one is set), and by default, as in the papers, without any think time, so that the rate is how
 * fast the system answers a fixed number of busy clients. The specification reports WIPS only for
 * runs that follow its rules; this class checks the ones a run can show:
 *
 * <ul>
 *   <li><b>think time</b>: the browsers think as the specification says, a negative-exponential
 *       time of mean {@link #THINK_TIME} (clause 5.3.2.1);
 *   <li><b>90th percentiles</b>: at least 90% of each interaction's responses come within its
 *       limit ({@link Interaction#p90Limit()}: 3 s, 5 s for New Products, Best Sellers and Buy
 *       Confirm, 10 s for Search Results, 20 s for Admin Confirm), and every interaction ran;
 *   <li><b>EBs per WIPS</b>: the number of browsers over the rate lies between {@link
 *       #MIN_EBS_PER_WIPS} and {@link #MAX_EBS_PER_WIPS} seconds, give or take the rate's
 *       sampling error. The lower bound follows from the think time (a browser cannot do more
 *       than one interaction per mean think time); the upper bound is the specification's as we
 *       recall it, not checked against its text;
 *   <li><b>steady state</b>: the rate of each window of the measurement interval ({@link
 *       Windows}) is within 5% or three standard deviations of a Poisson count (whichever is
 *       larger) of their mean, and the warm-up lasted at least one TTL and checkpoint interval.
 *       This criterion is ours: the specification asks for a steady state, in words;
 *   <li><b>mix</b>: no interaction's share is off the mix ({@link MixCompliance}).
 * </ul>
 *
 * <p>Not checked: the specification's minimum lengths of the ramp-up and measurement interval,
 * its scaling rules beyond the database cardinalities, and everything it requires of the system
 * under test besides the response times.
 */
public final class WipsRules {
  /** The specification's mean think time (clause 5.3.2.1). */
  public static final Duration THINK_TIME = Duration.ofSeconds(7);

  /** Browsers per WIPS at least. */
  public static final double MIN_EBS_PER_WIPS = 7;

  /** Browsers per WIPS at most. */
  public static final double MAX_EBS_PER_WIPS = 14;

  /**
   * One rule.
   *
   * @param name what it checks, e.g. "think time"
   * @param met whether the run met it
   * @param detail what was found, e.g. "none (the specification's: mean 7 s)"
   */
  public record Check(String name, boolean met, String detail) {}

  /**
   * The checks of one run, in the order of the class comment.
   *
   * @param checks every rule
   */
  public record Verdict(List<Check> checks) {
    /** Copies the checks. */
    public Verdict {
      checks = List.copyOf(checks);
    }

    /** Whether every rule was met: the rate is WIPS. */
    public boolean met() {
      return checks.stream().allMatch(Check::met);
    }

    /** The rules not met. */
    public List<Check> failed() {
      return checks.stream().filter(c -> !c.met()).toList();
    }

    /** The check named {@code name}. */
    public Check check(String name) {
      return checks.stream()
          .filter(c -> c.name().equals(name))
          .findFirst()
          .orElseThrow(() -> new IllegalArgumentException("no check named " + name));
    }
  }

  private WipsRules() {}

  /** The rules checked on {@code run}. */
  public static Verdict of(RunResult run) {
    RunSettings s = run.settings();
    List<Check> checks = new ArrayList<>();
    checks.add(thinkTime(s.thinkTimeMean()));
    checks.add(percentiles(run.perInteraction()));
    checks.add(
        ebsPerWips(
            s.totalEbs(),
            run.interactionsPerSecond(),
            run.total() == null ? 0 : run.total().count()));
    checks.add(steadyState(s, run.windows()));
    List<Interaction> off = MixCompliance.flagged(run.mixCompliance(), MixCompliance.Verdict.OFF);
    checks.add(
        new Check(
            "mix", off.isEmpty(), off.isEmpty() ? "within tolerance" : "off for " + labels(off)));
    return new Verdict(checks);
  }

  /**
   * How reports name the run's rate: "WIPS" when every rule was met, else "interactions/s
   * (closed loop)" and the first rule not met.
   */
  public static String rateName(Verdict verdict) {
    if (verdict.met()) {
      return "WIPS";
    }
    Check first = verdict.failed().get(0);
    return "interactions/s (closed loop; not WIPS: " + first.name() + " " + first.detail() + ")";
  }

  static Check thinkTime(Duration mean) {
    boolean met = mean.equals(THINK_TIME);
    String detail =
        mean.isZero()
            ? "none (the specification's: mean " + Durations.format(THINK_TIME) + ")"
            : "mean " + Durations.format(mean) + (met ? "" : " (the specification's: 7s)");
    return new Check("think time", met, detail);
  }

  static Check percentiles(Map<Interaction, ResponseStats> perInteraction) {
    List<String> over = new ArrayList<>();
    List<Interaction> missing = new ArrayList<>();
    for (Interaction wi : Interaction.values()) {
      ResponseStats stats = perInteraction == null ? null : perInteraction.get(wi);
      if (stats == null || stats.count() == 0) {
        missing.add(wi);
      } else if (stats.p90Millis() > wi.p90Limit().toMillis()) {
        over.add(
            String.format(
                Locale.ROOT,
                "%s %.1f s > %d s",
                wi.label(),
                stats.p90Millis() / 1000,
                wi.p90Limit().toSeconds()));
      }
    }
    List<String> problems = new ArrayList<>(over);
    if (!missing.isEmpty()) {
      problems.add("never ran: " + labels(missing));
    }
    return new Check(
        "90th percentiles",
        problems.isEmpty(),
        problems.isEmpty() ? "within the limits" : String.join(", ", problems));
  }

  /**
   * EBs per WIPS within the bounds, give or take three standard deviations of a Poisson count of
   * {@code completed} interactions (a rate measured over a few hundred interactions is uncertain
   * by several per cent, and a fast system with the specification's think time sits right at 7).
   */
  static Check ebsPerWips(int ebs, double rate, long completed) {
    if (!(rate > 0) || completed <= 0) {
      return new Check("EBs per WIPS", false, "no interaction completed");
    }
    double ratio = ebs / rate;
    double error = 3 / Math.sqrt((double) completed);
    boolean met =
        ratio >= MIN_EBS_PER_WIPS * (1 - error) && ratio <= MAX_EBS_PER_WIPS * (1 + error);
    return new Check(
        "EBs per WIPS",
        met,
        String.format(
            Locale.ROOT,
            "%.3g s%s",
            ratio,
            met
                ? ""
                : " (between " + (int) MIN_EBS_PER_WIPS + " and " + (int) MAX_EBS_PER_WIPS + ")"));
  }

  static Check steadyState(RunSettings s, List<WindowStats> windows) {
    Duration cycle = RunWarnings.longestPeriod(s);
    if (s.warmUp().compareTo(cycle) < 0) {
      return new Check(
          "steady state",
          false,
          "warm-up "
              + Durations.format(s.warmUp())
              + " is shorter than the TTL or checkpoint interval ("
              + Durations.format(cycle)
              + ")");
    }
    if (windows.size() < 2) {
      return new Check("steady state", false, "not judged: fewer than two windows");
    }
    double mean = 0;
    for (WindowStats w : windows) {
      mean += w.completed();
    }
    mean /= windows.size();
    double tolerance = Math.max(0.05 * mean, 3 * Math.sqrt(mean));
    double worst = 0;
    for (WindowStats w : windows) {
      worst = Math.max(worst, Math.abs(w.completed() - mean));
    }
    boolean met = worst <= tolerance;
    return new Check(
        "steady state",
        met,
        String.format(
            Locale.ROOT,
            "windows differ from their mean by up to %.1f%%%s",
            mean == 0 ? 0 : worst / mean * 100,
            met ? "" : String.format(Locale.ROOT, " (tolerance %.1f%%)", tolerance / mean * 100)));
  }

  private static String labels(List<Interaction> interactions) {
    return String.join(", ", interactions.stream().map(Interaction::label).toList());
  }
}
