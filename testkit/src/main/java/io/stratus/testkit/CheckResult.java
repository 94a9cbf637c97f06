package io.stratus.testkit;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/** What one or more checkers found: the list of anomalies, empty if the history is valid. */
public final class CheckResult {
  private final List<String> checkers;
  private final List<Anomaly> anomalies;

  /** The result of the checkers named {@code checkers}, which found {@code anomalies}. */
  public CheckResult(List<String> checkers, List<Anomaly> anomalies) {
    this.checkers = List.copyOf(checkers);
    this.anomalies = List.copyOf(anomalies);
  }

  /** Several results as one. */
  public static CheckResult merge(Collection<CheckResult> results) {
    List<String> names = new ArrayList<>();
    List<Anomaly> all = new ArrayList<>();
    for (CheckResult r : results) {
      names.addAll(r.checkers);
      all.addAll(r.anomalies);
    }
    return new CheckResult(names, all);
  }

  /** True if no anomaly was found. */
  public boolean valid() {
    return anomalies.isEmpty();
  }

  /** Every anomaly, in the order the checkers ran. */
  public List<Anomaly> anomalies() {
    return anomalies;
  }

  /** The names of the checkers that ran. */
  public List<String> checkers() {
    return checkers;
  }

  /** The names of the checkers that found at least one anomaly, sorted. */
  public Set<String> failedCheckers() {
    return anomalies.stream().map(Anomaly::checker).collect(Collectors.toCollection(TreeSet::new));
  }

  /** Throws an AssertionError listing every anomaly unless the history is valid. */
  public void assertValid() {
    if (!valid()) {
      throw new AssertionError(this);
    }
  }

  @Override
  public String toString() {
    if (valid()) {
      return "valid under " + checkers;
    }
    return anomalies.size()
        + " anomalies under "
        + checkers
        + ":\n  "
        + anomalies.stream().map(Anomaly::toString).collect(Collectors.joining("\n  "));
  }
}
