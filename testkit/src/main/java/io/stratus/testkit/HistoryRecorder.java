package io.stratus.testkit;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import org.jspecify.annotations.Nullable;

/**
 * Records a history while test threads run transactions. Thread-safe: any number of threads
 * append at once. Real-time order comes from the recorder's own sequence numbers, taken under one
 * lock, so an event recorded after another always has a larger number and no wall clock is needed.
 *
 * <p>Rejects a write value used before anywhere in the history, at the moment it is recorded, so a
 * test learns of an ambiguous encoding where it made it.
 *
 * <pre>{@code
 * HistoryRecorder rec = new HistoryRecorder();
 * HistoryRecorder.Recording t = rec.begin("c1");
 * t.read("k", "v0");     // null: absent
 * t.write("k", "v1");
 * t.ok();                // or failed() / unknown()
 * rec.finalState("c1", Map.of("k", "v1"));
 * rec.snapshot().check(Guarantees.forProtocol("basic")).assertValid();
 * }</pre>
 */
public final class HistoryRecorder {
  private final Object lock = new Object();
  private long lastSeq;
  private final Map<String, Recording> byTxId = new LinkedHashMap<>();
  private final Map<String, String> valueOwners = new HashMap<>();
  private final Map<String, Integer> txCounters = new HashMap<>();
  private final Map<String, Map<String, String>> finalStates = new LinkedHashMap<>();

  /** An empty recorder. */
  public HistoryRecorder() {}

  /** Starts recording a transaction of {@code clientId}, with an id "clientId-n". */
  public Recording begin(String clientId) {
    Objects.requireNonNull(clientId, "clientId");
    synchronized (lock) {
      int n = txCounters.merge(clientId, 1, Integer::sum);
      String id = clientId + "-" + n;
      while (byTxId.containsKey(id)) {
        n = txCounters.merge(clientId, 1, Integer::sum);
        id = clientId + "-" + n;
      }
      return begin(clientId, id);
    }
  }

  /** Starts recording a transaction of {@code clientId} with id {@code txId} (unique). */
  public Recording begin(String clientId, String txId) {
    Objects.requireNonNull(clientId, "clientId");
    Objects.requireNonNull(txId, "txId");
    synchronized (lock) {
      if (byTxId.containsKey(txId)) {
        throw new IllegalArgumentException("duplicate transaction id " + txId);
      }
      Recording r = new Recording(clientId, txId, ++lastSeq);
      byTxId.put(txId, r);
      return r;
    }
  }

  /**
   * Records {@code clientId}'s view after quiescence: key → value, a missing key being absent.
   * Read every key the history touched; a later call for the same client replaces the view.
   */
  public void finalState(String clientId, Map<String, String> view) {
    Objects.requireNonNull(clientId, "clientId");
    Map<String, String> copy = new LinkedHashMap<>(view);
    synchronized (lock) {
      finalStates.put(clientId, copy);
    }
  }

  /**
   * The history so far. A transaction still open is included as UNKNOWN, completing now: its
   * thread may have died mid-commit, which is exactly what UNKNOWN describes.
   */
  public History snapshot() {
    synchronized (lock) {
      List<Txn> txns = new ArrayList<>();
      long now = lastSeq + 1;
      for (Recording r : byTxId.values()) {
        txns.add(r.toTxn(now));
      }
      return History.of(txns, finalStates);
    }
  }

  /**
   * One transaction being recorded. Meant for the thread running the transaction, but safe to
   * use from any: every call takes the recorder's lock.
   */
  public final class Recording {
    private final String clientId;
    private final String txId;
    private final long invokedAt;
    private final List<Op> ops = new ArrayList<>();
    private long completedAt;
    private @Nullable Outcome outcome;
    private OptionalLong commitTime = OptionalLong.empty();

    private Recording(String clientId, String txId, long invokedAt) {
      this.clientId = clientId;
      this.txId = txId;
      this.invokedAt = invokedAt;
    }

    /** This transaction's id. */
    public String txId() {
      return txId;
    }

    /** Records a read of {@code key} that observed {@code valueOrNull} (null: absent). */
    public Recording read(String key, @Nullable String valueOrNull) {
      return add(Op.read(key, valueOrNull));
    }

    /** Records a write; throws IllegalArgumentException if {@code value} was written before. */
    public Recording write(String key, String value) {
      Op.Write w = Op.write(key, value);
      synchronized (lock) {
        String owner = valueOwners.get(value);
        if (owner != null) {
          throw new IllegalArgumentException(
              "write value '" + value + "' of " + txId + " already written by " + owner);
        }
        add(w);
        valueOwners.put(value, txId);
      }
      return this;
    }

    /** Records a delete of {@code key}. */
    public Recording delete(String key) {
      return add(Op.delete(key));
    }

    /** Records the protocol's commit time, for {@link WriteOrder#byCommitTime()}. */
    public Recording commitTime(long time) {
      synchronized (lock) {
        requireOpen();
        commitTime = OptionalLong.of(time);
      }
      return this;
    }

    /** The commit returned. */
    public void ok() {
      complete(Outcome.OK);
    }

    /** The commit failed and nothing was applied. */
    public void failed() {
      complete(Outcome.FAILED);
    }

    /** The outcome cannot be known. */
    public void unknown() {
      complete(Outcome.UNKNOWN);
    }

    /** Ends the transaction with {@code result}, taking its completion sequence number. */
    public void complete(Outcome result) {
      Objects.requireNonNull(result, "result");
      synchronized (lock) {
        requireOpen();
        outcome = result;
        completedAt = ++lastSeq;
      }
    }

    private Recording add(Op op) {
      synchronized (lock) {
        requireOpen();
        ops.add(op);
      }
      return this;
    }

    private void requireOpen() {
      if (outcome != null) {
        throw new IllegalStateException(txId + " already completed " + outcome);
      }
    }

    private Txn toTxn(long now) {
      return outcome == null
          ? new Txn(clientId, txId, invokedAt, now, ops, Outcome.UNKNOWN, commitTime)
          : new Txn(clientId, txId, invokedAt, completedAt, ops, outcome, commitTime);
    }
  }
}
