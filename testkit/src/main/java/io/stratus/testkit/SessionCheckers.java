package io.stratus.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The client-centric (session) guarantees of paper 001 section 5.2: monotonic reads, read your
 * writes, monotonic writes and writes follow reads, each per client. "Later" for a client means
 * later in the same transaction, or in a transaction that began after the earlier one completed;
 * a client's overlapping transactions (several threads of one handle) are not ordered.
 */
final class SessionCheckers {
  private SessionCheckers() {}

  static CheckResult monotonicReads(History h, WriteOrder order) {
    String name = Checkers.MONOTONIC_READS;
    Analysis a = new Analysis(h, order);
    List<Anomaly> out = new ArrayList<>();
    for (String client : a.byClient().keySet()) {
      for (String key : h.keys()) {
        List<Analysis.Observation> reads = a.reads(client, key);
        for (Analysis.Observation later : reads) {
          Integer hi = a.maxPosition(key, later.read().value());
          if (hi == null) {
            continue;
          }
          // The freshest earlier read, by the lowest position it can stand for.
          Analysis.Observation worst = null;
          int worstLo = Integer.MIN_VALUE;
          for (Analysis.Observation earlier : reads) {
            Integer lo = a.minPosition(key, earlier.read().value());
            if (lo != null && Analysis.before(earlier, later) && lo > hi && lo > worstLo) {
              worst = earlier;
              worstLo = lo;
            }
          }
          if (worst != null) {
            out.add(
                new Anomaly(
                    name,
                    key,
                    List.of(worst.txn().txId(), later.txn().txId()),
                    client
                        + " read "
                        + Analysis.show(worst.read().value())
                        + " in "
                        + worst.txn().txId()
                        + ", then the older "
                        + Analysis.show(later.read().value())
                        + " in "
                        + later.txn().txId()));
          }
        }
      }
    }
    return new CheckResult(List.of(name), out);
  }

  static CheckResult readYourWrites(History h, WriteOrder order) {
    String name = Checkers.READ_YOUR_WRITES;
    Analysis a = new Analysis(h, order);
    List<Anomaly> out = new ArrayList<>();
    a.byClient()
        .forEach(
            (client, txns) -> {
              for (Txn w : txns) {
                if (w.outcome() != Outcome.OK) {
                  continue;
                }
                for (Map.Entry<String, Op> e : a.effective(w).entrySet()) {
                  int pos = a.placedRank(w);
                  for (Analysis.Observation r : a.reads(client, e.getKey())) {
                    Integer hi = a.maxPosition(e.getKey(), r.read().value());
                    if (w.precedes(r.txn()) && hi != null && hi < pos) {
                      out.add(
                          new Anomaly(
                              name,
                              e.getKey(),
                              List.of(w.txId(), r.txn().txId()),
                              client
                                  + " committed "
                                  + e.getValue()
                                  + " in "
                                  + w.txId()
                                  + " but then read "
                                  + Analysis.show(r.read().value())
                                  + " in "
                                  + r.txn().txId()
                                  + ", older than its own write"));
                    }
                  }
                }
              }
            });
    return new CheckResult(List.of(name), out);
  }

  static CheckResult monotonicWrites(History h, WriteOrder order) {
    String name = Checkers.MONOTONIC_WRITES;
    Analysis a = new Analysis(h, order);
    List<Anomaly> out = new ArrayList<>();
    a.byClient()
        .forEach(
            (client, txns) -> {
              for (Txn first : txns) {
                for (Txn second : txns) {
                  if (first.outcome() != Outcome.OK
                      || second.outcome() != Outcome.OK
                      || !first.precedes(second)) {
                    continue;
                  }
                  for (Map.Entry<String, Op> e : a.effective(first).entrySet()) {
                    String key = e.getKey();
                    Op later = a.effective(second).get(key);
                    if (later == null) {
                      continue;
                    }
                    String earlier = Analysis.valueOf(e.getValue());
                    Set<String> stale = new TreeSet<>();
                    h.finalStates()
                        .forEach(
                            (c, view) -> {
                              String f = view.get(key);
                              boolean showsEarlier =
                                  earlier != null
                                      ? earlier.equals(f)
                                      : f == null
                                          && later instanceof Op.Write
                                          && !a.hasOtherDelete(key, first);
                              if (showsEarlier) {
                                stale.add(c);
                              }
                            });
                    if (!stale.isEmpty()) {
                      out.add(
                          new Anomaly(
                              name,
                              key,
                              List.of(first.txId(), second.txId()),
                              client
                                  + " wrote "
                                  + e.getValue()
                                  + " in "
                                  + first.txId()
                                  + ", then "
                                  + later
                                  + " in "
                                  + second.txId()
                                  + ", but the final state of "
                                  + stale
                                  + " shows the earlier write"));
                    }
                  }
                }
              }
            });
    return new CheckResult(List.of(name), out);
  }

  static CheckResult writesFollowReads(History h, WriteOrder order) {
    String name = Checkers.WRITES_FOLLOW_READS;
    Analysis a = new Analysis(h, order);
    List<Anomaly> out = new ArrayList<>();
    a.byClient()
        .forEach(
            (client, txns) -> {
              for (String key : h.keys()) {
                for (Analysis.Observation r : a.reads(client, key)) {
                  if (r.read().value().isEmpty()) {
                    continue; // absence names no particular write
                  }
                  String seen = r.read().value().get();
                  for (Txn w : txns) {
                    Op write = a.effective(w).get(key);
                    if (w.outcome() != Outcome.OK
                        || write == null
                        || !(w == r.txn() || r.txn().precedes(w))) {
                      continue;
                    }
                    Set<String> stale = new TreeSet<>();
                    h.finalStates()
                        .forEach(
                            (c, view) -> {
                              if (seen.equals(view.get(key))) {
                                stale.add(c);
                              }
                            });
                    if (!stale.isEmpty()) {
                      out.add(
                          new Anomaly(
                              name,
                              key,
                              List.of(r.txn().txId(), w.txId()),
                              client
                                  + " read "
                                  + seen
                                  + " in "
                                  + r.txn().txId()
                                  + ", then wrote "
                                  + write
                                  + " in "
                                  + w.txId()
                                  + ", but the final state of "
                                  + stale
                                  + " shows the value it read, as if applied after the write based on it"));
                    }
                  }
                }
              }
            });
    return new CheckResult(List.of(name), out);
  }
}
