package io.stratus.protocols.log;

import io.stratus.btree.SecondaryKeys;
import io.stratus.btree.TreeChange;
import io.stratus.protocols.LogicalChange;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A redo log record as the queue-based protocols send it (paper 000, section 3.5): a {@link
 * LogicalChange} plus who committed it and when, which monotonic writes, atomicity and snapshot
 * isolation order and filter by.
 *
 * <p><b>Idempotent by construction.</b> {@link #toTreeChange} turns a record into a put or a delete
 * of one tree key with a full value (an insert or update carries the whole after image; an index
 * entry is the composite of search key and record key), so applying a record twice leaves the tree
 * as applying it once. What plain redo records cannot rule out — an older update re-applied after a
 * newer one — is what the per-client counters of the monotonic protocol are for, and, across
 * writers, the write stamp: the tree change carries it, so a checkpoint applies the record only
 * over an entry written with an older stamp ({@link TreeChange}).
 *
 * <p>Immutable; byte arrays are copied on the way in and out.
 */
public final class LogRecord {
  private final LogicalChange change;
  private final String clientId;
  private final long clientCounter;
  private final String transactionId;
  private final long commitTimeMillis;
  private final long commitId;
  private final List<LaneDependency> after;
  private final long writeStamp;

  /**
   * @param clientCounter the writer's commit counter for monotonic writes (0 when unused)
   * @param commitId the commit id for snapshot isolation (0 when unused)
   */
  public LogRecord(
      LogicalChange change,
      String clientId,
      long clientCounter,
      String transactionId,
      long commitTimeMillis,
      long commitId) {
    this(change, clientId, clientCounter, transactionId, commitTimeMillis, commitId, List.of());
  }

  /**
   * @param after the records of the writer's other lanes this one must be applied after (see
   *     {@link LaneDependency}); empty for most records
   */
  public LogRecord(
      LogicalChange change,
      String clientId,
      long clientCounter,
      String transactionId,
      long commitTimeMillis,
      long commitId,
      List<LaneDependency> after) {
    this(change, clientId, clientCounter, transactionId, commitTimeMillis, commitId, after, 0);
  }

  private LogRecord(
      LogicalChange change,
      String clientId,
      long clientCounter,
      String transactionId,
      long commitTimeMillis,
      long commitId,
      List<LaneDependency> after,
      long writeStamp) {
    if (writeStamp < 0) {
      throw new IllegalArgumentException("a write stamp must not be negative: " + writeStamp);
    }
    this.writeStamp = writeStamp;
    this.after = List.copyOf(after);
    this.change = Objects.requireNonNull(change, "change");
    this.clientId = Objects.requireNonNull(clientId, "clientId");
    this.clientCounter = clientCounter;
    this.transactionId = Objects.requireNonNull(transactionId, "transactionId");
    this.commitTimeMillis = commitTimeMillis;
    this.commitId = commitId;
  }

  /** This record as written by {@code writer} with chain counter {@code counter}. */
  public LogRecord withCounter(String writer, long counter) {
    return new LogRecord(
        change, writer, counter, transactionId, commitTimeMillis, commitId, after, writeStamp);
  }

  /** This record with the lane dependencies {@code deps} (replacing any it had). */
  public LogRecord withAfter(List<LaneDependency> deps) {
    return new LogRecord(
        change,
        clientId,
        clientCounter,
        transactionId,
        commitTimeMillis,
        commitId,
        deps,
        writeStamp);
  }

  /** This record with the write stamp {@code stamp} (0: none; see {@link #writeStamp()}). */
  public LogRecord withWriteStamp(long stamp) {
    return stamp == writeStamp
        ? this
        : new LogRecord(
            change,
            clientId,
            clientCounter,
            transactionId,
            commitTimeMillis,
            commitId,
            after,
            stamp);
  }

  /**
   * The commit's write stamp ({@link io.stratus.protocols.engine.CommitStamps}): orders the
   * commits of one key across writers, so a checkpoint applies the record only over an older
   * entry; 0 when the protocol orders its records otherwise (by commit id, under locks).
   */
  public long writeStamp() {
    return writeStamp;
  }

  /** What must be applied before this record, besides its own chain's predecessors. */
  public List<LaneDependency> after() {
    return after;
  }

  public LogicalChange change() {
    return change;
  }

  public LogicalChange.Kind kind() {
    return change.kind();
  }

  public String treeUri() {
    return change.treeUri();
  }

  public Optional<String> dataPageUri() {
    return change.dataPageUri();
  }

  public String clientId() {
    return clientId;
  }

  public long clientCounter() {
    return clientCounter;
  }

  public String transactionId() {
    return transactionId;
  }

  public long commitTimeMillis() {
    return commitTimeMillis;
  }

  public long commitId() {
    return commitId;
  }

  /**
   * The change to make to the tree: for a primary tree, a put of the key with the payload (insert,
   * update) or a delete of the key; for a secondary index, a put or delete of the composite (search
   * key, record key) with an empty value.
   *
   * @param secondaryIndex whether {@link #treeUri()} is a secondary index
   */
  public TreeChange toTreeChange(boolean secondaryIndex) {
    byte[] key =
        secondaryIndex ? SecondaryKeys.compose(change.key(), change.value()) : change.key();
    if (change.kind() == LogicalChange.Kind.DELETE) {
      return TreeChange.delete(key, writeStamp);
    }
    return TreeChange.put(key, secondaryIndex ? new byte[0] : change.value(), writeStamp);
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof LogRecord)) {
      return false;
    }
    LogRecord r = (LogRecord) o;
    return change.equals(r.change)
        && clientId.equals(r.clientId)
        && clientCounter == r.clientCounter
        && transactionId.equals(r.transactionId)
        && commitTimeMillis == r.commitTimeMillis
        && commitId == r.commitId
        && writeStamp == r.writeStamp
        && after.equals(r.after);
  }

  @Override
  public int hashCode() {
    return Objects.hash(change, clientId, clientCounter, transactionId) * 31
        + Arrays.hashCode(new long[] {commitTimeMillis, commitId});
  }

  @Override
  public String toString() {
    return "LogRecord{"
        + change
        + ", client="
        + clientId
        + "#"
        + clientCounter
        + ", tx="
        + transactionId
        + '}';
  }
}
