package io.stratus.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * The checkers that judge what is visible: observed values are real writes, committed writes
 * survive into the final state, clients converge, and transactions are all-or-nothing. Kept apart
 * from the session checkers because they reason about the final state, not about a client's
 * sequence of reads.
 */
final class FinalStateCheckers {
  private FinalStateCheckers() {}

  static CheckResult valuesWereWritten(History h, WriteOrder order) {
    String name = Checkers.VALUES_WERE_WRITTEN;
    Analysis a = new Analysis(h, order);
    List<Anomaly> out = new ArrayList<>();
    for (Txn t : h.transactions()) {
      for (int i = 0; i < t.ops().size(); i++) {
        if (!(t.ops().get(i) instanceof Op.Read r) || r.value().isEmpty()) {
          continue;
        }
        Analysis.Writer w = a.writer(r.value().get());
        if (w != null && w.txn() == t) {
          continue; // the transaction reading its own write: private state
        }
        String problem = provenance(r.key(), r.value().get(), w);
        if (problem == null && w != null && t.precedes(w.txn())) {
          problem =
              "written by " + w.txn().txId() + ", which began after the read's transaction ended";
        }
        if (problem != null) {
          out.add(
              new Anomaly(
                  name,
                  r.key(),
                  ids(t, w),
                  t.txId() + " (" + t.clientId() + ") read " + r.value().get() + ": " + problem));
        }
      }
    }
    h.finalStates()
        .forEach(
            (client, view) ->
                view.forEach(
                    (key, value) -> {
                      Analysis.Writer w = a.writer(value);
                      String problem = provenance(key, value, w);
                      if (problem != null) {
                        out.add(
                            new Anomaly(
                                name,
                                key,
                                ids(null, w),
                                "final state of " + client + " shows " + value + ": " + problem));
                      }
                    }));
    return new CheckResult(List.of(name), out);
  }

  /** Why {@code value} cannot be an effective write of {@code key}, or null if it can. */
  private static @Nullable String provenance(
      String key, String value, Analysis.@Nullable Writer w) {
    if (w == null) {
      return "nobody wrote this value";
    }
    if (!w.key().equals(key)) {
      return "the value was written to key " + w.key();
    }
    if (!w.effective()) {
      return "an intermediate value that " + w.txn().txId() + " overwrote before committing";
    }
    return null;
  }

  static CheckResult committedWritesSurvive(History h, WriteOrder order) {
    String name = Checkers.COMMITTED_WRITES_SURVIVE;
    Analysis a = new Analysis(h, order);
    List<Anomaly> out = new ArrayList<>();
    if (h.finalStates().isEmpty()) {
      out.add(new Anomaly(name, null, List.of(), "no final state was recorded"));
    }
    Analysis.distinctViews(h)
        .forEach(
            (view, clients) -> {
              for (String key : h.keys()) {
                String f = view.get(key);
                String where = "final state of " + clients;
                Analysis.Writer w = f == null ? null : a.writer(f);
                if (f != null) {
                  String problem = provenance(key, f, w);
                  if (problem == null && w != null && w.txn().outcome() == Outcome.FAILED) {
                    problem =
                        "written by FAILED " + w.txn().txId() + ", which must never be visible";
                  }
                  if (problem != null) {
                    out.add(
                        new Anomaly(
                            name, key, ids(null, w), where + " shows " + f + ": " + problem));
                    continue;
                  }
                }
                Txn last = a.lastOk(key);
                if (last == null) {
                  continue;
                }
                int lastPos = a.placedRank(last);
                Op lastOp = a.effective(last).get(key);
                Integer fPos = f == null ? null : a.positionOf(key, f);
                boolean lost =
                    f == null
                        ? lastOp instanceof Op.Write && !a.hasDeleteAfter(key, lastPos)
                        : fPos != null && fPos < lastPos;
                if (lost) {
                  out.add(
                      new Anomaly(
                          name,
                          key,
                          ids(last, w),
                          where
                              + " shows "
                              + Analysis.show(f)
                              + (w == null ? "" : " (" + w.txn().txId() + ")")
                              + ", older than OK "
                              + last.txId()
                              + "'s "
                              + lastOp
                              + ", which no later write superseded: a lost update"));
                }
              }
            });
    return new CheckResult(List.of(name), out);
  }

  /**
   * See {@link Checkers#updatesTakeEffect(java.util.Set)}: the initial-state clause only for keys
   * whose first placed write is by a transaction {@code settled} accepts.
   */
  static CheckResult updatesTakeEffect(History h, WriteOrder order, Predicate<Txn> settled) {
    String name = Checkers.UPDATES_TAKE_EFFECT;
    Analysis a = new Analysis(h, order);
    List<Anomaly> out = new ArrayList<>();
    if (h.finalStates().isEmpty()) {
      out.add(new Anomaly(name, null, List.of(), "no final state was recorded"));
    }
    Analysis.distinctViews(h)
        .forEach(
            (view, clients) -> {
              for (String key : h.keys()) {
                String f = view.get(key);
                String where = "final state of " + clients;
                Analysis.Writer w = f == null ? null : a.writer(f);
                if (f != null) {
                  String problem = provenance(key, f, w);
                  if (problem == null && w != null && w.txn().outcome() == Outcome.FAILED) {
                    problem =
                        "written by FAILED " + w.txn().txId() + ", which must never be visible";
                  }
                  if (problem != null) {
                    out.add(
                        new Anomaly(
                            name, key, ids(null, w), where + " shows " + f + ": " + problem));
                    continue;
                  }
                }
                Txn first = a.firstPlaced(key);
                if (first == null) {
                  continue;
                }
                Txn laterOk = a.okAfter(key, a.placedRank(first));
                if (laterOk == null) {
                  continue;
                }
                Op initial = a.effective(first).get(key);
                boolean lost =
                    f == null
                        ? initial instanceof Op.Write && !a.hasOtherDelete(key, first)
                        : w != null && w.txn() == first && settled.test(first);
                if (lost) {
                  out.add(
                      new Anomaly(
                          name,
                          key,
                          ids(laterOk, w),
                          where
                              + " shows "
                              + Analysis.show(f)
                              + ", the key's initial state from "
                              + first.txId()
                              + ", although OK "
                              + laterOk.txId()
                              + " changed it: an update that never took effect"));
                }
              }
            });
    return new CheckResult(List.of(name), out);
  }

  static CheckResult convergence(History h, WriteOrder order) {
    String name = Checkers.CONVERGENCE;
    List<Anomaly> out = new ArrayList<>();
    if (h.finalStates().isEmpty()) {
      out.add(new Anomaly(name, null, List.of(), "no final state was recorded"));
    }
    for (String key : h.keys()) {
      Map<String, String> seen = new TreeMap<>();
      h.finalStates().forEach((client, view) -> seen.put(client, Analysis.show(view.get(key))));
      if (seen.values().stream().distinct().count() > 1) {
        out.add(new Anomaly(name, key, List.of(), "clients disagree: " + seen));
      }
    }
    return new CheckResult(List.of(name), out);
  }

  static CheckResult atomicity(History h, WriteOrder order) {
    String name = Checkers.ATOMICITY;
    Analysis a = new Analysis(h, order);
    List<Anomaly> out = new ArrayList<>();
    if (h.finalStates().isEmpty()) {
      out.add(new Anomaly(name, null, List.of(), "no final state was recorded"));
    }
    Analysis.distinctViews(h)
        .forEach(
            (view, clients) -> {
              for (Txn t : h.transactions()) {
                List<String> applied = new ArrayList<>();
                List<String> notApplied = new ArrayList<>();
                boolean canAll = true;
                boolean canNone = true;
                for (Map.Entry<String, Op> e : a.effective(t).entrySet()) {
                  int fit = fit(a, t, e.getKey(), e.getValue(), view.get(e.getKey()));
                  canAll &= (fit & APPLIED) != 0;
                  canNone &= (fit & NOT_APPLIED) != 0;
                  if (fit == APPLIED) {
                    applied.add(e.getKey());
                  } else if (fit == NOT_APPLIED) {
                    notApplied.add(e.getKey());
                  }
                }
                String problem =
                    switch (t.outcome()) {
                      case OK ->
                          canAll ? null : "OK but its writes of " + notApplied + " are not visible";
                      case FAILED ->
                          canNone ? null : "FAILED but its writes of " + applied + " are visible";
                      case UNKNOWN ->
                          canAll || canNone
                              ? null
                              : "UNKNOWN and half-applied: "
                                  + applied
                                  + " visible, "
                                  + notApplied
                                  + " not";
                    };
                if (problem != null) {
                  out.add(
                      new Anomaly(
                          name,
                          null,
                          List.of(t.txId()),
                          t.txId() + " is " + problem + " in the final state of " + clients));
                }
              }
            });
    return new CheckResult(List.of(name), out);
  }

  private static final int APPLIED = 1;
  private static final int NOT_APPLIED = 2;

  /**
   * Which of "applied" and "not applied" the final value {@code f} of {@code key} is consistent
   * with for transaction {@code t}'s effective {@code op}; both when a later write superseded it
   * or the evidence is ambiguous (absence, unplaced writers).
   */
  private static int fit(Analysis a, Txn t, String key, Op op, @Nullable String f) {
    Integer tPos = a.rank(t);
    if (f != null) {
      if (op instanceof Op.Write w && w.value().equals(f)) {
        return APPLIED;
      }
      Integer fPos = a.positionOf(key, f);
      if (tPos == null || fPos == null) {
        return tPos == null && t.outcome() == Outcome.FAILED ? NOT_APPLIED : APPLIED | NOT_APPLIED;
      }
      return fPos > tPos ? APPLIED | NOT_APPLIED : NOT_APPLIED;
    }
    if (op instanceof Op.Write) {
      boolean deletedLater = tPos == null ? a.hasOtherDelete(key, t) : a.hasDeleteAfter(key, tPos);
      return deletedLater ? APPLIED | NOT_APPLIED : NOT_APPLIED;
    }
    // t deleted the key and it is absent: without t it would be absent only if another delete or
    // the initial state (no OK write before t) can explain it.
    boolean otherExplanation = a.hasOtherDelete(key, t) || !a.hasOkWriteBefore(key, tPos);
    return otherExplanation ? APPLIED | NOT_APPLIED : APPLIED;
  }

  private static List<String> ids(@Nullable Txn t, Analysis.@Nullable Writer w) {
    List<String> ids = new ArrayList<>();
    if (t != null) {
      ids.add(t.txId());
    }
    if (w != null && (t == null || w.txn() != t)) {
      ids.add(w.txn().txId());
    }
    return ids;
  }
}
