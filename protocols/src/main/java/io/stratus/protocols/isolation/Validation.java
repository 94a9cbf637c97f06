package io.stratus.protocols.isolation;

import io.stratus.TransactionConflictException;
import io.stratus.protocols.LogicalChange;
import io.stratus.protocols.isolation.SnapshotArchive.Version;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What an isolating commit checks, once it holds its commit id and before it sends anything,
 * against the commits between its base and that id: the validation strategy of an {@link
 * IsolationEngine.Assembly}.
 *
 * <p>Why a strategy: the isolation level is decided here and nowhere else. Writes alone ({@link
 * #firstCommitterWins}) give snapshot isolation; writes and every key range read ({@link
 * #readRanges}) make snapshot isolation serializable; a transaction that locked what it read
 * needs no look back at all ({@link #none}). Implementations are stateless; one serves every
 * transaction of a handle.
 */
interface Validation {
  /** What a commit is checked by. */
  record Candidate(String txId, long base, List<LogicalChange> changes, ReadSet reads) {}

  /** The record a new transaction keeps of what it reads, as much as this validation looks at. */
  ReadSet newReadSet();

  /**
   * Aborts the commit of {@code c} when a commit after its base and below {@code commitId} makes
   * it fail this validation.
   *
   * @param deadlineMillis the latest time a wait for earlier commits may end
   * @throws TransactionConflictException the commit must abort
   * @throws io.stratus.cloudapi.CloudException a read of the archive failed
   */
  void check(IsolationParts parts, Candidate c, long commitId, long deadlineMillis);

  /** No check: the transaction's locks kept every other writer away from what it read. */
  static Validation none() {
    return new Validation() {
      @Override
      public ReadSet newReadSet() {
        return ReadSet.IGNORED;
      }

      @Override
      public void check(IsolationParts parts, Candidate c, long commitId, long deadlineMillis) {}
    };
  }

  /**
   * First committer wins (Algorithm 9): no transaction after the base changed a key this one
   * writes, by the archive of every written tree between base and commit id. Index entries change
   * only with their record, so primary keys are what is compared.
   */
  static Validation firstCommitterWins() {
    return new Validation() {
      @Override
      public ReadSet newReadSet() {
        return ReadSet.IGNORED;
      }

      @Override
      public void check(IsolationParts parts, Candidate c, long commitId, long deadlineMillis) {
        checkWrites(parts, c, commitId);
      }
    };
  }

  /**
   * The serializable mode beyond the papers: {@link #firstCommitterWins}, then, once every smaller
   * commit id is validated (all of them archived), no transaction between the base and this commit
   * changed a key in a range this one read.
   */
  static Validation readRanges() {
    return new Validation() {
      @Override
      public ReadSet newReadSet() {
        return ReadSet.recording();
      }

      @Override
      public void check(IsolationParts parts, Candidate c, long commitId, long deadlineMillis) {
        checkWrites(parts, c, commitId);
        parts.ids().awaitValidatedBelow(c.txId(), commitId, deadlineMillis);
        for (String root : c.reads().roots()) {
          for (Version ver : parts.archive().versions(root, c.base(), commitId - 1)) {
            if (c.reads().contains(root, ver.key())) {
              throw new TransactionConflictException(
                  "commit of transaction "
                      + c.txId()
                      + ": commit "
                      + ver.commitId()
                      + ", after its snapshot "
                      + c.base()
                      + ", changed what it read (serializable)");
            }
          }
        }
      }
    };
  }

  private static void checkWrites(IsolationParts parts, Candidate c, long commitId) {
    Map<String, Set<String>> writtenKeys = new HashMap<>(); // root -> hex keys (primary)
    for (LogicalChange ch : c.changes()) {
      if (!ch.secondaryIndex()) {
        writtenKeys
            .computeIfAbsent(ch.treeUri(), r -> new HashSet<>())
            .add(HexFormat.of().formatHex(ch.key()));
      }
    }
    Map<String, List<Version>> after =
        parts.archive().fetchAll(writtenKeys.keySet(), c.base(), commitId - 1);
    for (Map.Entry<String, Set<String>> e : writtenKeys.entrySet()) {
      // fetchAll answers every root it is given.
      for (Version v : after.getOrDefault(e.getKey(), List.of())) {
        if (e.getValue().contains(HexFormat.of().formatHex(v.key()))) {
          throw new TransactionConflictException(
              "commit of transaction "
                  + c.txId()
                  + ": commit "
                  + v.commitId()
                  + ", after its snapshot "
                  + c.base()
                  + ", changed a record it changes (first committer wins)");
        }
      }
    }
  }
}
