package io.stratus.core.contract;

import io.stratus.protocols.ProtocolKind;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one soak history did and found: its drawn settings, faults injected by kind, transactions
 * judged, anomalies beyond the protocol's allowance by kind, acknowledged writes lost, and a
 * description of each anomaly.
 */
record SoakResult(
    ProtocolKind kind,
    long seed,
    String workload,
    SoakSettings settings,
    Map<String, Integer> faults,
    int transactions,
    Map<String, Integer> anomalies,
    int lostWrites,
    List<String> descriptions,
    long nanos) {

  SoakResult {
    faults = Map.copyOf(faults);
    anomalies = Map.copyOf(anomalies);
    descriptions = List.copyOf(descriptions);
  }

  boolean clean() {
    return anomalies.isEmpty() && lostWrites == 0;
  }

  /** What a workload's judge found. */
  record Judgement(
      int transactions, Map<String, Integer> anomalies, int lostWrites, List<String> descriptions) {

    /** This judgement's transactions, without its findings. */
    Judgement withoutFindings() {
      return new Judgement(transactions, Map.of(), 0, List.of());
    }

    /** This judgement and {@code other}'s findings (its transactions are counted here already). */
    Judgement plus(Judgement other) {
      Map<String, Integer> kinds = new TreeMap<>(anomalies);
      other.anomalies.forEach((k, v) -> kinds.merge(k, v, Integer::sum));
      List<String> all = new java.util.ArrayList<>(descriptions);
      all.addAll(other.descriptions);
      return new Judgement(
          transactions + other.transactions, kinds, lostWrites + other.lostWrites, all);
    }
  }

  /** The per-protocol sum of many histories. */
  static final class Tally {
    final ProtocolKind kind;
    int seeds;
    int transactions;
    int lostWrites;
    long nanos;
    final Map<String, Integer> faults = new TreeMap<>();
    final Map<String, Integer> anomalies = new TreeMap<>();
    final Map<String, Integer> workloads = new TreeMap<>();
    final Map<String, Integer> axes = new TreeMap<>();

    Tally(ProtocolKind kind) {
      this.kind = kind;
    }

    void add(SoakResult r) {
      seeds++;
      transactions += r.transactions();
      lostWrites += r.lostWrites();
      nanos += r.nanos();
      r.faults().forEach((k, v) -> faults.merge(k, v, Integer::sum));
      r.anomalies().forEach((k, v) -> anomalies.merge(k, v, Integer::sum));
      workloads.merge(r.workload(), 1, Integer::sum);
      SoakSettings s = r.settings();
      axes.merge("pages-" + s.pageSize() / 1024 + "k", 1, Integer::sum);
      axes.merge("threads-" + s.threads(), 1, Integer::sum);
      axes.merge("steps-" + s.steps(), 1, Integer::sum);
      count("indexed", s.index());
      count("index-service", s.serviceIndex());
      count("lagging-queries", s.serviceIndex() && !s.queryLag().isZero());
      count("interleaved", s.interleaved());
      count("short-checkpoints", s.shortCheckpoints());
      count("one-lane", s.oneLane());
      if (s.loaderRound() >= 0) {
        axes.merge("loader-" + s.loaderCommits(), 1, Integer::sum);
      }
      count("restart", s.restartRound() >= 0);
      count("late-resends", s.lateResends());
      count("damaged-pages", s.damageRound() >= 0);
    }

    private void count(String axis, boolean on) {
      if (on) {
        axes.merge(axis, 1, Integer::sum);
      }
    }

    @Override
    public String toString() {
      return String.format(
          "[soak] %-21s seeds %d %s, axes %s, transactions checked %d, faults %s,"
              + " anomalies %s, acknowledged writes lost %d, %.1f s in histories",
          kind, seeds, workloads, axes, transactions, faults, anomalies, lostWrites, nanos / 1e9);
    }
  }
}
