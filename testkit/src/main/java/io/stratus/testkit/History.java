package io.stratus.testkit;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * An immutable snapshot of what the clients did and saw: the transactions (from a {@link
 * HistoryRecorder} or built by hand) and, once the system was quiescent, each client's view of the
 * keys (its "final state"). Checkers judge a history; they never see the system itself.
 *
 * <p>Keys start absent: a test that needs initial data records a loading transaction.
 */
public final class History {
  private final List<Txn> transactions;
  private final Map<String, Map<String, String>> finalStates;

  private History(List<Txn> transactions, Map<String, Map<String, String>> finalStates) {
    this.transactions = transactions;
    this.finalStates = finalStates;
  }

  /**
   * A history of {@code transactions} and each client's final view (client id → key → value; a
   * key missing from a view is absent). Rejects duplicate transaction ids and duplicate write
   * values, which would make reads ambiguous.
   */
  public static History of(List<Txn> transactions, Map<String, Map<String, String>> finalStates) {
    Set<String> ids = new TreeSet<>();
    Map<String, String> writers = new HashMap<>();
    for (Txn t : transactions) {
      if (!ids.add(t.txId())) {
        throw new IllegalArgumentException("duplicate transaction id " + t.txId());
      }
      for (Op op : t.ops()) {
        if (op instanceof Op.Write w) {
          String prev = writers.putIfAbsent(w.value(), t.txId());
          if (prev != null) {
            throw new IllegalArgumentException(
                "write value '" + w.value() + "' of " + t.txId() + " already written by " + prev);
          }
        }
      }
    }
    Map<String, Map<String, String>> states = new TreeMap<>();
    finalStates.forEach(
        (client, view) -> states.put(client, Collections.unmodifiableMap(new TreeMap<>(view))));
    return new History(List.copyOf(transactions), Collections.unmodifiableMap(states));
  }

  /** The transactions in invocation order. */
  public List<Txn> transactions() {
    return transactions;
  }

  /** Client id → that client's final view (key → value; a missing key is absent). */
  public Map<String, Map<String, String>> finalStates() {
    return finalStates;
  }

  /** The transaction with id {@code txId}. */
  public Txn transaction(String txId) {
    for (Txn t : transactions) {
      if (t.txId().equals(txId)) {
        return t;
      }
    }
    throw new IllegalArgumentException("no transaction " + txId);
  }

  /** Every key an operation or a final view mentions, sorted. */
  public Set<String> keys() {
    Set<String> keys = new TreeSet<>();
    for (Txn t : transactions) {
      for (Op op : t.ops()) {
        keys.add(op.key());
      }
    }
    finalStates.values().forEach(v -> keys.addAll(v.keySet()));
    return keys;
  }

  /** Runs every checker of {@code guarantees} under its write order. */
  public CheckResult check(Guarantees guarantees) {
    List<CheckResult> results = new ArrayList<>();
    for (Checker c : guarantees.checkers()) {
      results.add(c.check(this, guarantees.writeOrder()));
    }
    return CheckResult.merge(results);
  }

  /** Runs one checker with writes ordered by completion ({@link WriteOrder#byCompletion()}). */
  public CheckResult check(Checker checker) {
    return checker.check(this, WriteOrder.byCompletion());
  }

  /** Runs one checker under {@code order}. */
  public CheckResult check(Checker checker, WriteOrder order) {
    return checker.check(this, order);
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("History{\n");
    for (Txn t : transactions) {
      sb.append("  ").append(t).append(' ').append(t.ops()).append('\n');
    }
    Map<String, Map<String, String>> states = new LinkedHashMap<>(finalStates);
    states.forEach((c, v) -> sb.append("  final ").append(c).append(": ").append(v).append('\n'));
    return sb.append('}').toString();
  }
}
