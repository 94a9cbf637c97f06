package io.stratus.testkit;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The indexes every checker needs, built once per check: who wrote each value, each transaction's
 * effective writes, its position in the write order, and each client's reads.
 *
 * <p>Why positions are intervals: a present value names exactly one write, but an absent key may
 * be the initial state or any delete, so an absent observation spans positions from -1 (initial)
 * to the latest delete. Checkers compare intervals leniently (a violation only when no reading of
 * the observations is consistent), so they never report an anomaly the history cannot prove.
 */
final class Analysis {
  /** Position of the initial (absent) state of every key. */
  static final int INITIAL = -1;

  /** Position standing for "somewhere unknown, possibly latest". */
  static final int UNBOUNDED = Integer.MAX_VALUE;

  /** Where a value came from. {@code effective}: the writer's last write of that key. */
  record Writer(Txn txn, String key, boolean effective) {}

  /** A read as a client session saw it: the transaction, the op's index in it, the read. */
  record Observation(Txn txn, int index, Op.Read read) {}

  final History history;
  private final Map<String, Integer> rank = new HashMap<>();
  private final Map<String, Writer> writers = new HashMap<>();
  private final Map<String, Map<String, Op>> effective = new HashMap<>();
  private final Map<String, List<Txn>> byClient = new LinkedHashMap<>();

  Analysis(History history, WriteOrder order) {
    this.history = history;
    List<Txn> placed = order.order(history);
    for (int i = 0; i < placed.size(); i++) {
      Txn t = placed.get(i);
      if (t.outcome() == Outcome.FAILED || rank.put(t.txId(), i) != null) {
        throw new IllegalArgumentException("write order places " + t + " wrongly or twice");
      }
    }
    for (Txn t : history.transactions()) {
      if (t.outcome() == Outcome.OK && !rank.containsKey(t.txId())) {
        throw new IllegalArgumentException("write order leaves OK " + t + " unplaced");
      }
    }
    for (Txn t : history.transactions()) {
      Map<String, Op> eff = t.effectiveWrites();
      effective.put(t.txId(), eff);
      byClient.computeIfAbsent(t.clientId(), c -> new ArrayList<>()).add(t);
      for (Op op : t.ops()) {
        if (op instanceof Op.Write w) {
          writers.put(w.value(), new Writer(t, w.key(), eff.get(w.key()) == op));
        }
      }
    }
  }

  /** The transaction's position in the write order, or null if unplaced (FAILED or unknown). */
  @Nullable Integer rank(Txn t) {
    return rank.get(t.txId());
  }

  /**
   * The position of a transaction that is placed: every OK one is (the constructor checks), as
   * is every one {@link #firstPlaced} returns.
   */
  int placedRank(Txn t) {
    Integer r = rank.get(t.txId());
    if (r == null) {
      throw new IllegalArgumentException(t + " has no place in the write order");
    }
    return r;
  }

  /** Who wrote {@code value}, or null if nobody did. */
  @Nullable Writer writer(String value) {
    return writers.get(value);
  }

  /** Key → the transaction's last write or delete of it. */
  Map<String, Op> effective(Txn t) {
    // The constructor recorded every transaction of the history; others have no writes here.
    return effective.getOrDefault(t.txId(), Map.of());
  }

  /** Client id → its transactions in invocation order. */
  Map<String, List<Txn>> byClient() {
    return byClient;
  }

  /**
   * The position of a present value that took effect as a placed write of {@code key}, or null
   * if it cannot be placed (unplaced writer, intermediate or foreign value, nobody wrote it).
   */
  @Nullable Integer positionOf(String key, String value) {
    Writer w = writers.get(value);
    if (w == null || !w.effective() || !w.key().equals(key)) {
      return null;
    }
    return rank(w.txn());
  }

  /** Lowest position an observation can stand for, or null if it cannot be placed. */
  @Nullable Integer minPosition(String key, Optional<String> value) {
    return value.isPresent() ? positionOf(key, value.get()) : Integer.valueOf(INITIAL);
  }

  /** Highest position an observation can stand for, or null if it cannot be placed. */
  @Nullable Integer maxPosition(String key, Optional<String> value) {
    return value.isPresent() ? positionOf(key, value.get()) : Integer.valueOf(latestDelete(key));
  }

  /**
   * The highest position an absence of {@code key} can stand for: the latest placed delete of
   * it ({@link #UNBOUNDED} if a delete is unplaced), or {@link #INITIAL} if there is none.
   */
  private int latestDelete(String key) {
    int max = INITIAL;
    for (Txn t : history.transactions()) {
      if (t.outcome() != Outcome.FAILED && effective(t).get(key) instanceof Op.Delete) {
        Integer r = rank(t);
        max = Math.max(max, r == null ? UNBOUNDED : r);
      }
    }
    return max;
  }

  /** True if a non-FAILED transaction other than {@code except} deletes {@code key}. */
  boolean hasOtherDelete(String key, Txn except) {
    for (Txn t : history.transactions()) {
      if (t != except
          && t.outcome() != Outcome.FAILED
          && effective(t).get(key) instanceof Op.Delete) {
        return true;
      }
    }
    return false;
  }

  /** True if a non-FAILED delete of {@code key} is placed after {@code pos}, or unplaced. */
  boolean hasDeleteAfter(String key, int pos) {
    return latestDelete(key) > pos;
  }

  /** The OK transaction whose write or delete of {@code key} is latest in the order, or null. */
  @Nullable Txn lastOk(String key) {
    Txn last = null;
    for (Txn t : history.transactions()) {
      if (t.outcome() == Outcome.OK
          && effective(t).containsKey(key)
          && (last == null || placedRank(t) > placedRank(last))) {
        last = t;
      }
    }
    return last;
  }

  /** The placed transaction whose write or delete of {@code key} is earliest, or null. */
  @Nullable Txn firstPlaced(String key) {
    Txn first = null;
    for (Txn t : history.transactions()) {
      Integer r = rank(t);
      if (r != null && effective(t).containsKey(key) && (first == null || r < placedRank(first))) {
        first = t;
      }
    }
    return first;
  }

  /** An OK transaction placed after {@code pos} that writes or deletes {@code key}, or null. */
  @Nullable Txn okAfter(String key, int pos) {
    for (Txn t : history.transactions()) {
      if (t.outcome() == Outcome.OK && effective(t).containsKey(key) && placedRank(t) > pos) {
        return t;
      }
    }
    return null;
  }

  /** True if an OK transaction placed before {@code pos} (any, if null) writes {@code key}. */
  boolean hasOkWriteBefore(String key, @Nullable Integer pos) {
    for (Txn t : history.transactions()) {
      if (t.outcome() == Outcome.OK
          && effective(t).get(key) instanceof Op.Write
          && (pos == null || placedRank(t) < pos)) {
        return true;
      }
    }
    return false;
  }

  /**
   * A client's reads of {@code key} in invocation order, leaving out reads that follow the same
   * transaction's own write of the key (they see the transaction's private state, not a session).
   */
  List<Observation> reads(String clientId, String key) {
    List<Observation> out = new ArrayList<>();
    for (Txn t : byClient.getOrDefault(clientId, List.of())) {
      for (int i = 0; i < t.ops().size(); i++) {
        Op op = t.ops().get(i);
        if (!op.key().equals(key)) {
          continue;
        }
        if (!(op instanceof Op.Read r)) {
          break;
        }
        out.add(new Observation(t, i, r));
      }
    }
    return out;
  }

  /**
   * Session order of two reads by one client: same transaction and earlier, or an earlier
   * transaction that completed before the other began. Overlapping transactions of one client
   * (several threads) are unordered, so no session guarantee relates them.
   */
  static boolean before(Observation a, Observation b) {
    return a.txn() == b.txn() ? a.index() < b.index() : a.txn().precedes(b.txn());
  }

  /**
   * The distinct final views, each with the clients that have it, so an anomaly in a view shared
   * by every client is reported once.
   */
  static Map<Map<String, String>, List<String>> distinctViews(History h) {
    Map<Map<String, String>, List<String>> views = new LinkedHashMap<>();
    h.finalStates().forEach((c, v) -> views.computeIfAbsent(v, x -> new ArrayList<>()).add(c));
    return views;
  }

  /** A value for messages. */
  static String show(Optional<String> value) {
    return value.orElse("<absent>");
  }

  /** A value for messages. */
  static String show(@Nullable String valueOrNull) {
    return valueOrNull == null ? "<absent>" : valueOrNull;
  }

  /** What a transaction's effective op on a key leaves: its value, or null for a delete. */
  static @Nullable String valueOf(Op op) {
    return op instanceof Op.Write w ? w.value() : null;
  }
}
