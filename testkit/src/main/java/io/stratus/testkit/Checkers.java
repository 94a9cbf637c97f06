package io.stratus.testkit;

import java.util.Set;

/**
 * The standard checkers, one per guarantee. Each reports every violation it can prove and nothing
 * it cannot: where the history is ambiguous (an absent key may be any delete or the initial state;
 * an UNKNOWN or unplaced write may sit anywhere in the order) it gives the system the benefit of
 * the doubt. Per-key write order comes from the {@link WriteOrder} a check runs under.
 */
public final class Checkers {
  static final String VALUES_WERE_WRITTEN = "valuesWereWritten";
  static final String COMMITTED_WRITES_SURVIVE = "committedWritesSurvive";
  static final String UPDATES_TAKE_EFFECT = "updatesTakeEffect";
  static final String CONVERGENCE = "convergence";
  static final String ATOMICITY = "atomicity";
  static final String MONOTONIC_READS = "monotonicReads";
  static final String READ_YOUR_WRITES = "readYourWrites";
  static final String MONOTONIC_WRITES = "monotonicWrites";
  static final String WRITES_FOLLOW_READS = "writesFollowReads";

  private Checkers() {}

  /**
   * Every value read or in a final state is the last write of that key by some transaction of the
   * history (of any outcome), and no read sees a write whose transaction began after the read's
   * transaction ended. Even the naive protocol promises this much.
   */
  public static Checker valuesWereWritten() {
    return Checker.named(VALUES_WERE_WRITTEN, FinalStateCheckers::valuesWereWritten);
  }

  /**
   * Durability (basic consistency): in every client's final state each key shows the write of an
   * OK or UNKNOWN transaction (never a FAILED one's, never a value nobody wrote), and not one
   * older than the key's latest OK write or delete — a key that shows an older value (or is
   * absent with no later delete) lost that update, as the naive protocol does to a page shared by
   * two clients.
   */
  public static Checker committedWritesSurvive() {
    return Checker.named(COMMITTED_WRITES_SURVIVE, FinalStateCheckers::committedWritesSurvive);
  }

  /**
   * Durability without write order: every value in a final state is the write of an OK or UNKNOWN
   * transaction, and a key that an OK transaction changed after the key's first placed write (its
   * initial state) never shows that initial state again. Weaker than {@link
   * #committedWritesSurvive()}: any of the key's later writes may be the one that stays, as when
   * a redelivered or late redo record re-applies an older after image (paper 000, section 4.3),
   * but an update that was lost outright (the initial state survives it) is caught.
   *
   * <p>Takes every key's first write as settled: applied, and every copy of its redo records
   * consumed, before the key's next write began (a load followed by quiescence). Where keys are
   * also created while the system runs, use {@link #updatesTakeEffect(Set)}.
   */
  public static Checker updatesTakeEffect() {
    return Checker.named(
        UPDATES_TAKE_EFFECT,
        (h, order) -> FinalStateCheckers.updatesTakeEffect(h, order, t -> true));
  }

  /**
   * {@link #updatesTakeEffect()} where only the transactions named in {@code settled} wrote
   * settled first writes. A key whose first write is not settled may show it again after a later
   * write: without write order a duplicate delivery of its record can re-apply it once the later
   * write was applied, and the final state cannot tell that from an update that never took
   * effect. Such a key is still checked for provenance and for absence with no delete.
   */
  public static Checker updatesTakeEffect(Set<String> settled) {
    Set<String> names = Set.copyOf(settled);
    return Checker.named(
        UPDATES_TAKE_EFFECT,
        (h, order) ->
            FinalStateCheckers.updatesTakeEffect(h, order, t -> names.contains(t.txId())));
  }

  /** Eventual consistency: after quiescence all clients see the same value (or absence) per key. */
  public static Checker convergence() {
    return Checker.named(CONVERGENCE, FinalStateCheckers::convergence);
  }

  /**
   * All-or-nothing, per final state: an OK transaction's writes are all visible, a FAILED one's
   * none, an UNKNOWN one's all or none. A key whose final value is a later write (in the write
   * order) counts as either, since the later write superseded it.
   */
  public static Checker atomicity() {
    return Checker.named(ATOMICITY, FinalStateCheckers::atomicity);
  }

  /**
   * Per client and key: a later read never returns a write older, in the key's write order, than
   * one an earlier read returned.
   */
  public static Checker monotonicReads() {
    return Checker.named(MONOTONIC_READS, SessionCheckers::monotonicReads);
  }

  /**
   * Per client: after its OK write of a key, its reads of that key in later transactions return
   * that write or a newer one in the key's write order.
   */
  public static Checker readYourWrites() {
    return Checker.named(READ_YOUR_WRITES, SessionCheckers::readYourWrites);
  }

  /**
   * Per client: of two OK writes of one key by the client, in transactions one after the other,
   * the later is applied last — no final state shows the earlier one (a third write superseding
   * both shows neither). Judged by session order, not by the write order, so it catches a protocol
   * applying in commit-time order when that order disagrees with the client's own.
   */
  public static Checker monotonicWrites() {
    return Checker.named(MONOTONIC_WRITES, SessionCheckers::monotonicWrites);
  }

  /**
   * Per client: if it read value w1 of a key and then (later in the transaction, or in a later
   * transaction) wrote the key in an OK transaction, no final state shows w1 — the write took
   * place on w1 or a newer value, so w1 cannot be applied after it. Reads of absence are not
   * judged (they name no particular write).
   */
  public static Checker writesFollowReads() {
    return Checker.named(WRITES_FOLLOW_READS, SessionCheckers::writesFollowReads);
  }
}
