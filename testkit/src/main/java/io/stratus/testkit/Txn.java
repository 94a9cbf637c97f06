package io.stratus.testkit;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * One recorded transaction: who ran it, when (recorder sequence numbers, so real-time order needs
 * no wall clock), what it read and wrote, and how its commit ended.
 *
 * @param clientId the client (a database handle / process) that ran it; sessions are per client
 * @param txId unique within the history
 * @param invokedAt sequence number taken when the transaction began
 * @param completedAt sequence number taken when its outcome was known; greater than invokedAt
 * @param ops reads, writes and deletes in program order
 * @param outcome how the commit ended
 * @param commitTime the protocol's commit time if the test recorded it (for
 *     {@link WriteOrder#byCommitTime()})
 */
public record Txn(
    String clientId,
    String txId,
    long invokedAt,
    long completedAt,
    List<Op> ops,
    Outcome outcome,
    OptionalLong commitTime) {

  public Txn {
    Objects.requireNonNull(clientId, "clientId");
    Objects.requireNonNull(txId, "txId");
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(commitTime, "commitTime");
    ops = List.copyOf(ops);
    if (completedAt <= invokedAt) {
      throw new IllegalArgumentException(
          txId + ": completedAt " + completedAt + " must follow invokedAt " + invokedAt);
    }
  }

  /**
   * The write or delete that each key ends the transaction with, in first-touch order. Protocols
   * collapse a transaction's changes per key, so only this one can ever become visible.
   */
  public Map<String, Op> effectiveWrites() {
    Map<String, Op> last = new LinkedHashMap<>();
    for (Op op : ops) {
      if (!(op instanceof Op.Read)) {
        last.put(op.key(), op);
      }
    }
    return last;
  }

  /** True if this transaction finished before {@code other} began (real-time order). */
  public boolean precedes(Txn other) {
    return completedAt < other.invokedAt;
  }

  @Override
  public String toString() {
    return txId + "[" + clientId + " " + outcome + " @" + invokedAt + ".." + completedAt + "]";
  }
}
