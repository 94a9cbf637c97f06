package io.stratus.testkit;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The order in which transactions' writes took effect, from which checkers derive each key's
 * write order. A history records what clients saw, not what the storage did, so this is an
 * assumption the test states: protocols that apply log records in commit order (basic,
 * monotonic, atomic) are described by {@link #byCommitTime()} when commit times are recorded, or
 * approximately by {@link #byCompletion()} (exact when commits of one key do not overlap).
 *
 * <p>FAILED transactions are never placed: their writes never take effect. An UNKNOWN transaction
 * an order cannot place is left out, and checkers treat its writes leniently (they may be
 * anywhere). Every OK transaction must be placed.
 */
@FunctionalInterface
public interface WriteOrder {
  /** The non-FAILED transactions of {@code history} this order can place, earliest first. */
  List<Txn> order(History history);

  /** By completion sequence number: a transaction's writes take effect when its commit returns. */
  static WriteOrder byCompletion() {
    return h ->
        h.transactions().stream()
            .filter(t -> t.outcome() != Outcome.FAILED)
            .sorted(Comparator.comparingLong(Txn::completedAt))
            .collect(Collectors.toList());
  }

  /**
   * By recorded commit time, ties broken by client id then transaction id (the protocols' apply
   * order). UNKNOWN transactions without a commit time are left unplaced; an OK one without is an
   * error.
   */
  static WriteOrder byCommitTime() {
    return h -> {
      List<Txn> placed = new ArrayList<>();
      for (Txn t : h.transactions()) {
        if (t.outcome() == Outcome.FAILED) {
          continue;
        }
        if (t.commitTime().isPresent()) {
          placed.add(t);
        } else if (t.outcome() == Outcome.OK) {
          throw new IllegalArgumentException(t.txId() + " is OK but has no commit time");
        }
      }
      placed.sort(
          Comparator.comparingLong((Txn t) -> t.commitTime().getAsLong())
              .thenComparing(Txn::clientId)
              .thenComparing(Txn::txId));
      return placed;
    };
  }

  /**
   * Exactly {@code txIds}, earliest first (a test that knows how the storage applied them).
   * FAILED ids are skipped; OK transactions missing from the list are an error.
   */
  static WriteOrder explicit(List<String> txIds) {
    List<String> ids = List.copyOf(txIds);
    return h -> {
      List<Txn> placed = new ArrayList<>();
      Set<String> seen = new HashSet<>();
      for (String id : ids) {
        Txn t = h.transaction(id);
        if (!seen.add(id)) {
          throw new IllegalArgumentException("transaction " + id + " listed twice");
        }
        if (t.outcome() != Outcome.FAILED) {
          placed.add(t);
        }
      }
      for (Txn t : h.transactions()) {
        if (t.outcome() == Outcome.OK && !seen.contains(t.txId())) {
          throw new IllegalArgumentException(t.txId() + " is OK but missing from the order");
        }
      }
      return placed;
    };
  }
}
