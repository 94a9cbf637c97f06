package io.stratus.core;

import io.stratus.cloudapi.QueueBacklog;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What {@link DatabaseAdmin#verify} found in one scan: the findings, the backlog of every queue it
 * inspected, and how much it looked at. Immutable.
 *
 * <p>A scan reads storage while clients may write, so under load a finding can be a state that a
 * concurrent split or checkpoint was about to complete; an {@link Finding.Severity#ERROR} that a
 * second scan repeats is real. For an exact answer verify a quiescent database.
 */
public final class VerificationReport {
  private final String databaseUri;
  private final Instant startedAt;
  private final Duration took;
  private final List<Finding> findings;
  private final Map<Finding.Kind, Long> counts;
  private final long suppressed;
  private final List<QueueBacklog> queues;
  private final long pagesChecked;
  private final long treesChecked;
  private final long recordsChecked;

  VerificationReport(
      String databaseUri,
      Instant startedAt,
      Duration took,
      List<Finding> findings,
      EnumMap<Finding.Kind, Long> counts,
      long suppressed,
      List<QueueBacklog> queues,
      long pagesChecked,
      long treesChecked,
      long recordsChecked) {
    this.databaseUri = Objects.requireNonNull(databaseUri, "databaseUri");
    this.startedAt = Objects.requireNonNull(startedAt, "startedAt");
    this.took = Objects.requireNonNull(took, "took");
    this.findings = List.copyOf(findings);
    this.counts = Collections.unmodifiableMap(new EnumMap<>(counts));
    this.suppressed = suppressed;
    this.queues = List.copyOf(queues);
    this.pagesChecked = pagesChecked;
    this.treesChecked = treesChecked;
    this.recordsChecked = recordsChecked;
  }

  /** The database verified. */
  public String databaseUri() {
    return databaseUri;
  }

  /** When the scan started (the database's clock). */
  public Instant startedAt() {
    return startedAt;
  }

  /** How long the scan took. */
  public Duration took() {
    return took;
  }

  /** The findings listed, most severe first, then in the order found. */
  public List<Finding> findings() {
    return findings;
  }

  /** The findings listed of severity {@code severity}. */
  public List<Finding> findings(Finding.Severity severity) {
    List<Finding> out = new ArrayList<>();
    for (Finding f : findings) {
      if (f.severity() == severity) {
        out.add(f);
      }
    }
    return out;
  }

  /** How many findings of {@code kind} there were, listed or not. */
  public long count(Finding.Kind kind) {
    return counts.getOrDefault(kind, 0L);
  }

  /** Findings beyond {@link VerifyOptions#maxFindingsPerKind()} that were counted, not listed. */
  public long suppressed() {
    return suppressed;
  }

  /** The most severe finding's severity, or null when there is none. */
  public Finding.@Nullable Severity worst() {
    Finding.Severity worst = null;
    for (Finding f : findings) {
      if (worst == null || f.severity().compareTo(worst) > 0) {
        worst = f.severity();
      }
    }
    return worst;
  }

  /** Whether nothing worse than {@link Finding.Severity#INFO} was found. */
  public boolean isClean() {
    Finding.Severity w = worst();
    return w == null || w == Finding.Severity.INFO;
  }

  /** The backlog of each queue inspected, in URI order. */
  public List<QueueBacklog> queues() {
    return queues;
  }

  /** Pages read and decoded (catalog and tree pages). */
  public long pagesChecked() {
    return pagesChecked;
  }

  /** Trees walked (primary trees and indexes). */
  public long treesChecked() {
    return treesChecked;
  }

  /** Leaf entries seen (records and index entries). */
  public long recordsChecked() {
    return recordsChecked;
  }

  @Override
  public String toString() {
    return "VerificationReport{"
        + databaseUri
        + ", "
        + findings.size()
        + " findings (worst "
        + worst()
        + "), "
        + treesChecked
        + " trees, "
        + pagesChecked
        + " pages, "
        + recordsChecked
        + " entries, "
        + queues.size()
        + " queues}";
  }
}
