package io.stratus.core.contract;

import io.stratus.protocols.ProtocolKind;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one soak history did and found: faults injected by kind, transactions judged, anomalies
 * beyond the protocol's allowance by kind, acknowledged writes lost, and a description of each
 * anomaly.
 */
record SoakResult(
    ProtocolKind kind,
    long seed,
    String workload,
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
      int transactions,
      Map<String, Integer> anomalies,
      int lostWrites,
      List<String> descriptions) {}

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
    }

    @Override
    public String toString() {
      return String.format(
          "[soak] %-21s seeds %d %s, transactions checked %d, faults %s,"
              + " anomalies %s, acknowledged writes lost %d, %.1f s in histories",
          kind, seeds, workloads, transactions, faults, anomalies, lostWrites, nanos / 1e9);
    }
  }
}
